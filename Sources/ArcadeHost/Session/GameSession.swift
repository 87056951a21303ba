import ArcadeCore
import ArcadeLua
import ArcadeRender

/// One running game: its Lua state, its native modules and the fixed-step frame.
///
/// A step (the architecture's frame): input events -> `input(event)`, due timers, `update(dt)`,
/// then the animations advance natively and their callbacks run, then the physics worlds step
/// natively and their contact and removal callbacks run (``step(events:)`` in
/// `GameSession+Step.swift`).
/// A script error stops this game (``failure`` says why) and never the process;
/// nothing the game created outlives ``close()``.
///
/// In development mode (``Options/dev``) an error *pauses* the game instead: game time,
/// timers, animations and physics stay exactly where they were, nothing is released, and
/// the step it broke is remembered. A successful ``reload()`` lets it run again: the next
/// ``step(events:)`` first finishes the broken step (the callbacks it had not reached yet),
/// then runs its own. Outside development mode an error releases the game's timers and
/// animations at once.
public final class GameSession {
    /// How to start a session.
    public struct Options: Sendable {
        public var seed: UInt64
        public var cols: Int
        public var rows: Int
        public var stepRate: Int
        public var limits: LuaVM.Limits
        /// Development mode (hot reload on): passed to the game as `ctx.dev`.
        public var dev: Bool
        /// The determinism check's probe: when set, `pairs` and `next` walk string keys in a
        /// fixed order, report each such walk to ``GameSession/walks`` and run the walks it
        /// names backwards. Nil (the default): Lua's own `pairs` and `next`, untouched.
        public var iterationProbe: IterationReversal?

        public init(seed: UInt64 = 1, cols: Int = 80, rows: Int = 24, stepRate: Int = 60,
                    limits: LuaVM.Limits = .init(), dev: Bool = false, iterationProbe: IterationReversal? = nil) {
            self.seed = seed
            self.cols = cols
            self.rows = rows
            self.stepRate = stepRate
            self.limits = limits
            self.dev = dev
            self.iterationProbe = iterationProbe
        }
    }

    public let entry: GameEntry
    public let options: Options
    public let context: GameContext
    public let vm: LuaVM
    let timers: TimerModule
    /// The game's saves and best score; each step's writes are committed together.
    let saves: SaveSlot
    /// The game's retained scene.
    public let scene = Scene()
    let sceneModule: SceneModule
    let graphicsModule: GraphicsModule
    let animationModule: AnimationModule
    /// The game's physics worlds, stepped natively after `update(dt)`.
    let physicsModule: PhysicsModule
    /// The game's sounds (`arcade.sfx`) and the synth that mixes them after each step.
    public let sound: SoundModule
    /// Where each step's mixed samples go (a speaker, `--wav`); none: the synth moves on
    /// without making samples.
    public var soundSinks: [SoundSink] = []
    /// Steps whose sound has been mixed, and the buffer it is mixed into.
    var mixedSteps = 0
    var soundBuffer: [Int16] = []
    /// The pixel + text canvas frames are composed on.
    public let canvas: Canvas
    /// The table `main.lua` returned.
    private(set) var game: LuaRef
    private let noop: LuaNativeFunction
    /// The metatable that makes replaced game tables forward to the running one (hot reload).
    var forwarding: LuaRef?
    /// Where the game walked tables with `pairs` or `next`, when ``Options/iterationProbe`` is set.
    public let walks: IterationWalks?
    /// Why the game stopped, once it has.
    public private(set) var failure: LuaError?
    /// The last hot reload's error, until a reload succeeds.
    public internal(set) var reloadError: LuaError?
    /// Successful hot reloads so far.
    public internal(set) var reloads = 0

    /// Seconds per step.
    public var dt: Double { context.dt }
    /// Steps taken since `load`.
    public var frame: Int { context.frame }
    /// Calls of ``step(events:)`` that ran (not those made while the game was stopped). The
    /// same as ``frame`` unless an error broke a step before its clock moved (in `input`):
    /// the number of steps a replay must run to get where this run got.
    public internal(set) var stepsRun = 0

    /// Where the time of each step's phases and of ``render(into:)`` is added (F3, `--profile`);
    /// nil (the default): render reads no clock, and a step no more than its budget needs.
    public var profile: ProfileCounters?

    /// Times the running step: its budget's deadline, what its message says used the time,
    /// and what goes to ``profile``.
    var timer = StepTimer()
    /// Where the running step would carry on if the callback now running failed.
    var remainder: StepRemainder?
    /// The rest of the step an error broke (development mode), run first by the next step.
    var brokenStep: StepRemainder?

    /// Loads the game: a fresh sandboxed VM, the arcade API, `main.lua`, then `load(ctx)`.
    ///
    /// - Throws: ``LuaError`` when the game cannot start (missing file, syntax error, an
    ///   error in `load`). Nothing is left running.
    public init(entry: GameEntry, options: Options = Options(), store: SaveStore? = nil,
                log: @escaping (String) -> Void = { _ in }) throws(LuaError) {
        self.entry = entry
        self.options = options
        context = GameContext(cols: options.cols, rows: options.rows, seed: options.seed)
        context.dt = 1.0 / Double(options.stepRate)
        vm = try LuaVM(name: entry.id, limits: options.limits)
        vm.log = log
        vm.random = SeededRandom(seed: options.seed)
        vm.moduleRoots = [
            LuaModuleRoot(path: entry.folder, chunkPrefix: entry.id),
            LuaModuleRoot(path: entry.gamesDir + "/lib", chunkPrefix: "lib", namespace: "lib", container: entry.gamesDir),
        ]
        try vm.installSandbox()
        if let reversal = options.iterationProbe {
            let walks = IterationWalks()
            try vm.installIterationProbe { site, keys in walks.record(site: site, keys: keys, reversal: reversal) }
            self.walks = walks
        } else {
            walks = nil
        }
        noop = vm.function("(missing callback)") { _ in 0 }
        ArcadeModule.install(in: vm, context: context)
        timers = TimerModule(vm: vm)
        saves = (store ?? SaveStore(location: .memory)).slot(for: entry)
        SaveModule.install(in: vm, storage: saves)
        canvas = Canvas(columns: options.cols, rows: options.rows)
        // the game's glyph numbers are its own, given back when it closes
        canvas.glyphStore = GlyphStore.forGame()
        sceneModule = SceneModule(vm: vm, scene: scene, assetRoot: entry.folder)
        graphicsModule = GraphicsModule(vm: vm, scenes: sceneModule)
        animationModule = AnimationModule(vm: vm, scenes: sceneModule)
        let animations = animationModule
        sceneModule.onRemove = { animations.nodeRemoved($0) }
        physicsModule = PhysicsModule(vm: vm, scene: sceneModule) { [context] in
            Rect(x: 0, y: 0, width: Double(context.width), height: Double(context.height))
        }
        sound = SoundModule(vm: vm)
        try GameSession.define(try GameSession.soundFiles(of: entry), in: sound)
        game = try GameSession.loadMain(vm: vm, entry: entry)
        vm.gameTable = game
        // a world's search for pairs stops at the step's deadline or on Ctrl-C
        physicsModule.runtime.shouldStop = { [unowned self] in self.timer.isPastBudget() || self.vm.isInterrupted }
        ensureStateTable()
        sound.currentStep = { [unowned self] in self.stepsRun }
        let ctx: LuaValue = .table([
            "width": .int(Int64(context.width)), "height": .int(Int64(context.height)),
            "cols": .int(Int64(context.cols)), "rows": .int(Int64(context.rows)),
            "seed": .int(Int64(bitPattern: options.seed)), "dev": .bool(options.dev),
        ])
        try callGame("load", label: "load()") { s in
            s.push(ctx)
            return 1
        }
    }

    /// Runs `main.lua` and returns the game table it returns.
    static func loadMain(vm: LuaVM, entry: GameEntry) throws(LuaError) -> LuaRef {
        let chunk = "\(entry.id)/main.lua"
        let source = try FileIO.readScript(entry.folder + "/main.lua", within: entry.folder, chunkName: chunk)
        let fn = try vm.load(source, chunkName: chunk)
        return try vm.protectedCall(label: "main.lua", nresults: 1, push: { _ in
            vm.push(fn)
            return 0
        }, results: { s throws(LuaError) in
            guard s.type(at: -1) == .table else {
                throw LuaError(kind: .runtime,
                               message: "\(chunk): must return the game table (a table with load, update, input...), got \(s.typeName(at: -1))")
            }
            s.pushValue(at: -1)
            return vm.ref()
        })
    }

    /// Makes sure `game.state` is a table (the host keeps it across reloads).
    private func ensureStateTable() {
        let s = vm.stack
        let base = s.top
        defer { s.setTop(base) }
        vm.push(game)
        if s.getField("state", in: -1) == .nil {
            s.pop()
            s.pushTable()
            s.setField("state", in: -2)
        }
    }

    // MARK: Rendering

    /// Composes the scene (and the game's `draw(gfx)` overlay) into `frame`, resizing it to
    /// the canvas. Rendering is separate from stepping: once per displayed frame.
    public func render(into frame: inout Frame) {
        let profile = profile
        var mark = profile != nil ? ProfileClock.now() : 0
        scene.draw(into: canvas, time: context.time)
        profile?.lap(.compose, mark: &mark)
        if failure == nil, hasCallback("draw") {
            let g = Graphics(canvas: canvas)
            graphicsModule.graphics = g
            defer { graphicsModule.graphics = nil }
            do {
                try callGame("draw", label: "draw()") { _ in
                    self.vm.push(self.graphicsModule.table)
                    return 1
                }
            } catch {
                stop(with: error)
            }
            profile?.lap(.lua, mark: &mark)
        }
        canvas.render(into: &frame)
        profile?.lap(.compose, mark: &mark)
    }

    /// A new frame of the current canvas.
    public func renderFrame() -> Frame {
        var frame = canvas.makeFrame()
        render(into: &frame)
        return frame
    }

    /// True when the game table has a function `name`.
    func hasCallback(_ name: String) -> Bool {
        let s = vm.stack
        let base = s.top
        defer { s.setTop(base) }
        vm.push(game)
        return s.getField(name, in: -1) == .function
    }

    /// Calls `game[name]` (if the game defines it) with the arguments `args` pushes. Its
    /// error names the callback `name` (``LuaError/callback``).
    func callGame(_ name: String, label: String, args: (LuaStack) -> Int32) throws(LuaError) {
        do throws(LuaError) {
            try vm.protectedCall(label: label) { s in
                self.vm.push(self.game)
                if s.getField(name, in: -1) != .function {
                    s.pop()
                    self.vm.push(self.noop)
                }
                s.remove(at: -2)  // the game table
                return args(s)
            }
        } catch {
            throw error.inCallback(name)
        }
    }

    /// Records the failure. In development mode the game pauses where it is and remembers
    /// the rest of the broken step; otherwise its timers and animations are released.
    func stop(with error: LuaError) {
        failure = error
        if options.dev {
            brokenStep = remainder  // nil when the error came from draw(): no step was broken
        } else {
            brokenStep = nil
            timers.cancelAll()
            animationModule.cancelAll()
        }
        sound.stopAll()
        remainder = nil
    }

    /// Lets a stopped game run again (after a reload fixed it).
    func resume() {
        failure = nil
    }

    /// Makes `newGame` the table whose callbacks run.
    func replaceGame(with newGame: LuaRef) {
        game = newGame
        vm.gameTable = newGame
    }

    // MARK: Inspection

    /// `game.state` as a value (for `--state`, tests and tools).
    public func state() throws(LuaError) -> LuaValue {
        let s = vm.stack
        let base = s.top
        defer { s.setTop(base) }
        vm.push(game)
        s.getField("state", in: -1)
        do { return try s.value(at: -1) } catch {
            throw LuaError(kind: .runtime, message: "\(entry.id): game.state cannot be shown: \(error)")
        }
    }

    /// Number of pending timers (for tests and leak checks).
    public var pendingTimers: Int { timers.queue.count }

    /// What the game holds right now: nodes, animations, timers, physics bodies and Lua
    /// memory. A game that leaks nothing comes back to the same counts after each round,
    /// however long it runs; game tests check that, and `--stats` prints it.
    ///
    /// ``GameStats/luaBytes`` includes garbage not collected yet: call
    /// `session.vm.collectGarbage()` first when comparing memory.
    public var stats: GameStats {
        return GameStats(nodes: scene.nodeCount - 1, animations: animationModule.runningCount,
                         timers: timers.queue.count, worlds: physicsModule.worldCount,
                         bodies: physicsModule.bodyCount, walls: physicsModule.wallCount,
                         luaBytes: vm.memoryInUse, nativeBytes: vm.nativeBytes, frame: context.frame)
    }

    /// Calls `quit()` if the game has one, then releases timers and callbacks.
    ///
    /// - Returns: the error `quit()` raised, if it did (also kept in ``failure``): `quit()` is
    ///   where games save, so its failure must be reported, not swallowed. Everything is
    ///   released all the same.
    @discardableResult
    public func close() -> LuaError? {
        var quitError: LuaError?
        if failure == nil {
            do throws(LuaError) {
                try callGame("quit", label: "quit()", args: { _ in 0 })
            } catch {
                quitError = error
                failure = error
            }
        }
        timers.cancelAll()
        animationModule.cancelAll()
        physicsModule.removeAll()
        sound.stopAll()
        scene.removeAll()
        canvas.glyphStore.release()
        return quitError
    }
}
