import ArcadeCore
import ArcadeLua
import ArcadeRender
import ArcadeTerminal

/// What the player's input does: the host's own keys and the pause mark first, then the
/// cards, the menu, and last the game.
extension ArcadeApp {
    /// Handles one read of the terminal's events. The resizes among them count as one, the
    /// last (as the terminal's own SIGWINCH does): the host, the recording and the game each
    /// hear of one size per read, and a step hears of one however many reads it spans.
    func handle(_ events: [InputEvent]) {
        for event in InputEvent.coalescingResizes(events) {
            if case .resize(let c, let r) = event {
                size = TerminalSize(cols: c, rows: r)
                output.encoder.requestFullRepaint()
                cast?.resize(cols: c, rows: r, atMicroseconds: (ProfileClock.now() &- castStart) / 1000)
                if tooSmall { continue }
                // the canvas follows at once, so a card drawn before the next step (or
                // while no step runs) fits the window. Under the pause card the game lays
                // itself out again now (its input runs, game time stays); otherwise it hears
                // of the resize in its next step.
                session?.resizeCanvas(cols: c, rows: r)
                recorder?.record(.resize(cols: c, rows: r), frame: session?.frame ?? 0)
                if isPauseCard, let session {
                    session.deliverWithoutStep([.resize(cols: c, rows: r)])
                    if let failure = session.failure { card = .error(failure, selected: 0) }
                } else {
                    driver?.queued.append(.resize(cols: c, rows: r))
                }
                continue
            }
            if case .key(let k) = event, k.key == "c", k.modifiers == .ctrl {
                quit = true
                return
            }
            if case .key(let k) = event, k.key == "z", k.modifiers == .ctrl {
                // a game is paused before it goes: its card is up when the player comes back
                if screen == .playing, card == nil, session != nil { card = .pause(selected: 0) }
                // the keys it holds are let go: their releases would come while it is away
                releaseHeldKeys()
                terminal.suspend()
                continue
            }
            // the release of a key the game holds down goes to the game even when a card or
            // the "too small" notice has the input (it gets it when play goes on), so that no
            // key stays down in `arcade.is_down` for a release the game never heard of
            if case .keyUp(let k) = keyMap.apply(event), card != nil || tooSmall, let session,
               session.context.keysDown.contains(k.key), !queuedReleases.contains(k.key) {
                queueForGame(keyMap.apply(event))
            }
            if tooSmall {
                if case .key(let k) = event, k.key == "q" || k.key == "esc" { quit = true }
                continue
            }
            // F3 belongs to the host (the profiler), over cards too; the game never sees it
            if screen == .playing, isProfileKey(event) { continue }
            // so is F12 (a picture of the game's frame)
            if screen == .playing, isPictureKey(event) { continue }
            // so is F2 under dev (the console), and the game never sees it either
            if screen == .playing, options.dev, isConsoleKey(event) { continue }
            // F5 reloads under the error card too: a fix saved while the game was paused
            if case .key(let k) = event, k.key == "f5", options.dev, screen == .playing, !isPauseCard {
                reload()
                continue
            }
            if let card { handleCard(card, event); continue }
            switch screen {
            case .menu:
                switch menu.handle(event) {
                case .launch(let entry): start(entry)
                case .showProblem(let entry): card = .problem(entry)
                case .settings: openSettings(fromPause: false)
                case .quit: quit = true
                case .none: break
                }
            case .playing:
                if case .key(let k) = event, k.key == "esc", k.modifiers.isEmpty {
                    card = .pause(selected: 0)
                    continue
                }
                if case .mouse(let m) = event, takenByPauseMark(m) { continue }
                // the player's remapped keys reach the game as the keys it knows
                queueForGame(keyMap.apply(event))
            }
        }
    }

    /// Queues `event` for the game's next step and records it (nothing while a replay plays).
    private func queueForGame(_ event: InputEvent) {
        guard screen == .playing, options.replay == nil, let driver else { return }
        driver.queued.append(event)
        recorder?.record(event, frame: driver.session.frame)
    }

    /// Queues a release of every key the game holds down (sorted, so a recording is the same
    /// every time), unless one is queued already.
    private func releaseHeldKeys() {
        guard let session else { return }
        let queued = queuedReleases
        for key in session.context.keysDown.sorted() where !queued.contains(key) {
            queueForGame(.keyUp(KeyEvent(key)))
        }
    }

    /// The keys whose release is queued for the game's next step.
    private var queuedReleases: Set<String> {
        Set(driver?.queued.compactMap { if case .keyUp(let k) = $0 { k.key } else { nil } } ?? [])
    }

    /// The host's pause mark in the top-right corner: hovering lights it, a press opens the
    /// pause card. True when the event was the mark's and not the game's (a press on the mark,
    /// and the release or drag of that press).
    private func takenByPauseMark(_ m: MouseEvent) -> Bool {
        let on = PauseMark.contains(col: m.col, row: m.row, cols: size.cols)
        switch m.action {
        case .move:
            pauseMarkHovered = on
            return false
        case .press where on && m.button != .right:
            pauseMarkPressed = true
            pauseMarkHovered = false
            card = .pause(selected: 0)
            return true
        case .release, .drag:
            if pauseMarkPressed {
                if m.action == .release { pauseMarkPressed = false }
                return true
            }
            return false
        default:
            return false
        }
    }

    /// True for F3 and its release; a press (not a repeat) toggles the overlay.
    private func isProfileKey(_ event: InputEvent) -> Bool {
        switch event {
        case .key(let k) where k.key == "f3" && k.modifiers.isEmpty:
            if !k.isRepeat { showProfile.toggle() }
            return true
        case .keyUp(let k) where k.key == "f3":
            return true
        default:
            return false
        }
    }

    /// True for the console's key (F2) and its release; a press (not a repeat) toggles it.
    private func isConsoleKey(_ event: InputEvent) -> Bool {
        switch event {
        case .key(let k) where k.key == DevConsole.key && k.modifiers.isEmpty:
            if !k.isRepeat { console.shown.toggle() }
            return true
        case .keyUp(let k) where k.key == DevConsole.key:
            return true
        default:
            return false
        }
    }

    private func handleCard(_ current: Card, _ event: InputEvent) {
        let choices: [String]
        let selected: Int
        switch current {
        case .pause(let s): (choices, selected) = (CardView.pauseChoices, s)
        case .error(_, let s): (choices, selected) = (CardView.errorChoices, s)
        case .settings(let settingsCard, let fromPause):
            handleSettings(settingsCard, fromPause: fromPause, event)
            return
        case .problem:
            // one way out: any key, or a click anywhere
            switch event {
            case .key: card = nil
            case .mouse(let m) where m.action == .press: card = nil
            default: break
            }
            return
        }
        var pick: String?
        var next = selected
        switch event {
        case .key(let k):
            switch k.key {
            case "up", "left": next = (selected + choices.count - 1) % choices.count
            case "down", "right", "tab": next = (selected + 1) % choices.count
            case "enter", "space": pick = choices[selected]
            case "esc": pick = isPause(current) ? "resume" : "back to menu"
            case Self.muteKey where isPause(current): toggleMute()
            default:
                if let match = choices.first(where: { $0.hasPrefix(k.key) }) { pick = match }
            }
        case .mouse(let m):
            let controls = isPause(current) ? playing?.manifest?.controls.count ?? 0 : 0
            let i = CardView.choiceAt(col: m.col, row: m.row, choices: choices, controls: controls,
                                      note: isPause(current) && settingsNote != nil, cols: size.cols, rows: size.rows)
            switch m.action {
            case .press:
                if let i { pick = choices[i] }
            case .move, .drag:
                // the highlight follows the pointer, as in the menu
                if let i { next = i }
            case .release:
                // the release of the press that opened the card on the pause mark
                pauseMarkPressed = false
            default: break
            }
        default: break
        }
        switch current {
        case .pause: card = .pause(selected: next)
        case .error(let e, _): card = .error(e, selected: next)
        case .problem, .settings: break
        }
        guard let pick else { return }
        switch pick {
        case "resume": card = nil
        case "restart": if let entry = playing { start(entry) }
        case "reload": reload()
        case "settings": openSettings(fromPause: true)
        default: leaveGame(toMenu: true)
        }
    }

    private var isPauseCard: Bool {
        if let card { return isPause(card) }
        return false
    }

    private func isPause(_ c: Card) -> Bool {
        if case .pause = c { return true }
        return false
    }
}
