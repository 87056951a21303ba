import ArcadeCore
import ArcadeLua

/// The step: input, timers, `update`, animation, physics and their callbacks, under the
/// step's time budget, timed by ``StepTimer``.
extension GameSession {
    /// What is left of a step, from the point a callback is running: where the step carries
    /// on after that callback, and where a step broken by an error resumes after a fix.
    enum StepRemainder {
        /// The input events not delivered yet; the clock has not moved.
        case input(ArraySlice<InputEvent>)
        /// The due timers not fired yet, then the rest of the step.
        case timers
        /// `update(dt)`, then the rest.
        case update
        /// Animations advance, then their completion callbacks run.
        case animations
        /// The animation completions not delivered yet.
        case completions
        /// The physics worlds step, then their events are delivered.
        case physics
        /// The physics events not delivered yet.
        case physicsEvents
    }

    /// Runs one fixed step with the events that arrived before it. Several resizes among them
    /// reach the game as one, the last (``InputEvent/coalescingResizes(_:)``).
    ///
    /// Does nothing while the game is stopped (``failure``). After a reload revived a game
    /// paused by an error, this first finishes the step the error broke.
    public func step(events: [InputEvent] = []) {
        guard failure == nil else { return }
        stepsRun += 1
        timer.start(budget: options.limits.secondsPerStep)
        vm.beginStep(deadline: timer.deadline, wallDeadline: timer.wallDeadline)
        defer { vm.endStep() }
        // the step's saves and scores are committed together, or (killed before) not at all
        saves.store.beginGroup()
        defer { saves.store.endGroup() }
        profile?.steps += 1
        walks?.step = stepsRun
        do {
            if let rest = brokenStep {
                brokenStep = nil
                try run(from: rest)
            }
            try run(from: .input(InputEvent.coalescingResizes(events)[...]))
            if let profile {
                timer.finish()
                timer.add(to: profile)
            }
        } catch {
            timer.finish()
            var error = error
            if error.budget == .step {
                error.message += " (\(timer.describe(budget: options.limits.secondsPerStep)))"
            }
            stop(with: error)
            if let profile { timer.add(to: profile) }  // a failed step's time counts too
        }
        // after the step, so a sound played in any of its callbacks starts with this step's samples
        mixSound()
    }

    /// Runs a phase of native work: when the step's deadline has passed by its end, or the
    /// player interrupted it meanwhile, the step stops there (its message then says what used
    /// the time).
    private func runNative(_ phase: StepPhase, _ work: () -> Void) throws(LuaError) {
        timer.begin(phase)
        work()
        if vm.isInterrupted {
            timer.finish()
            throw LuaError(kind: .budget, message: "\(entry.id): the step was interrupted (Ctrl-C) in \(phase.name)",
                           budget: .interrupt)
        }
        guard timer.finish() else { return }
        throw LuaError(kind: .budget, message: "\(entry.id): the step ran past its time budget in \(phase.name)",
                       budget: .step)
    }

    /// Runs a step from `start` to its end, keeping ``remainder`` up to date so an error can
    /// say where the step broke.
    private func run(from start: StepRemainder) throws(LuaError) {
        var phase = start
        while true {
            switch phase {
            case .input(var events):
                while let event = events.popFirst() {
                    remainder = .input(events)
                    timer.begin(.input)
                    try deliver(event)
                }
                advanceClock()
                phase = .timers
            case .timers:
                remainder = .timers
                try timers.fireDue { callback throws(LuaError) in
                    timer.begin(.timerCallbacks)
                    do throws(LuaError) {
                        try vm.protectedCall(label: "timer callback") { _ in
                            self.vm.push(callback)
                            return 0
                        }
                    } catch {
                        throw error.in(callback)
                    }
                }
                phase = .update
            case .update:
                remainder = .animations
                let dt = context.dt
                timer.begin(.update)
                try callGame("update", label: "update()") { s in
                    s.push(dt)
                    return 1
                }
                phase = .animations
            case .animations:
                try runNative(.animation) { animationModule.advance(context.dt) }
                phase = .completions
            case .completions:
                remainder = .completions
                timer.begin(.animationCallbacks)
                try animationModule.deliverCompletions()
                phase = .physics
            case .physics:
                // Worlds step natively; only their events reach Lua, in each world's order.
                try runNative(.physics) { physicsModule.step(context.dt) }
                if let problem = physicsModule.runtime.takeMemoryStop() {
                    throw LuaError(kind: .memory, message: "\(entry.id): the step stopped in physics: \(problem)")
                }
                phase = .physicsEvents
            case .physicsEvents:
                remainder = .physicsEvents
                timer.begin(.physicsCallbacks)
                try physicsModule.deliverEvents()
                remainder = nil
                return
            }
        }
    }

    /// Delivers `events` to the game's `input` without a step: game time stays where it is, no
    /// timer fires, `update` does not run and nothing animates or moves. The host uses it for
    /// a resize while the pause card is up, so the scene behind the card is laid out for the
    /// new size at once. Runs under the step's time budget like any callback. Several resizes
    /// reach the game as one, as in a step.
    public func deliverWithoutStep(_ events: [InputEvent]) {
        guard failure == nil, !events.isEmpty else { return }
        let events = InputEvent.coalescingResizes(events)
        timer.start(budget: options.limits.secondsPerStep)
        vm.beginStep(deadline: timer.deadline, wallDeadline: timer.wallDeadline)
        defer { vm.endStep() }
        do {
            for event in events {
                // nothing of a step is left to run if this fails: the game just stops here
                remainder = nil
                timer.begin(.input)
                try deliver(event)
            }
        } catch {
            stop(with: error)
        }
        remainder = nil
    }

    /// Calls `input(event)`, resizing the canvas first for a resize and noting a key's press,
    /// repeat or release first for `arcade.is_down` and `arcade.pressed`.
    private func deliver(_ event: InputEvent) throws(LuaError) {
        if case .resize(let c, let r) = event { resizeCanvas(cols: c, rows: r) }
        context.note(event)
        try callGame("input", label: "input()") { s in
            s.push(event)
            return 1
        }
    }

    /// Makes the canvas (and what the game reads as its size) follow the terminal at once,
    /// even while no step runs (a card is up): the game hears of it through its queued
    /// resize event when play goes on.
    public func resizeCanvas(cols: Int, rows: Int) {
        context.cols = cols
        context.rows = rows
        canvas.resize(columns: cols, rows: rows)
    }

    /// Moves game time on by one step.
    private func advanceClock() {
        context.frame += 1
        context.time = Double(context.frame) * context.dt
        vm.gameTime = context.time
        timers.now = context.time
        sceneModule.time = context.time
    }
}
