import ArcadeCore
import ArcadeLua
import ArcadeRender
import ArcadeTerminal

/// The interactive arcade: the menu, a game in play, and the cards drawn over it (pause,
/// error, "window too small"), run at a fixed 60 Hz step on a real terminal.
///
/// F3 shows the profiler over the game's top-right corner. Its counters run whenever a game
/// does (a few clock reads per step), so the numbers are there as soon as it opens.
///
/// Frames are paced by the terminal's answers (``FramePacer``): over a slow link the game
/// steps on at 60 Hz and the screen shows the latest state, late by one frame's crossing at
/// most, instead of frames queueing in the ssh and TCP buffers.
///
/// The terminal is restored however this ends: by returning, by a thrown error, by a
/// signal (the terminal layer's handlers) or by a crash (best effort, signal-safe).
public final class ArcadeApp {
    /// How to start.
    public struct Options {
        public var catalog: GameCatalog
        /// Play this game directly; "back to menu" then opens the menu (a replay's game, whose
        /// saves are kept in memory, and a game that quits by itself end the arcade instead).
        public var gameID: String?
        public var seed: UInt64?
        public var colorMode: ColorMode?
        /// The vision filter and game speed for this run (nil: the saved settings').
        public var vision: VisionFilter?
        public var speed: GameSpeed?
        public var dev = false
        /// Write every input event of the game played to this file.
        public var recordPath: String?
        /// Feed the game from this recording instead of the keyboard.
        public var replay: InputScript?
        public var limits = LuaVM.Limits()
        /// Saves and scores (nil: kept in memory for this run).
        public var store: SaveStore?
        /// Where `print` from games goes.
        public var log: (String) -> Void = { _ in }
        /// The log file's path, which the dev console (F2) names.
        public var logPath: String?
        /// Quit as soon as the first frame is written (for startup measurements).
        public var exitAfterFirstFrame = false
        /// Count the whole run for ``profileTable`` (`--profile` in the terminal).
        public var profile = false
        /// Write the sound of the games played to this WAV file (`--wav`), on the games' clock.
        public var wavPath: String?

        public init(catalog: GameCatalog) {
            self.catalog = catalog
        }
    }

    enum Screen {
        case menu
        case playing
    }

    enum Card {
        case pause(selected: Int)
        case error(LuaError, selected: Int)
        /// Over the menu: why a game cannot be played, in full.
        case problem(GameEntry)
        /// The settings card, opened from the menu or (`fromPause`) from the pause card.
        case settings(SettingsCard, fromPause: Bool)
    }

    let options: Options
    let terminal: Terminal
    /// Encodes each displayed frame for the terminal.
    let output: FrameOutput
    var frame = Frame(columns: 80, rows: 24)
    var clock = FixedStepClock()
    var screen = Screen.menu
    var card: Card?
    /// Steps the game in play, with the player's input or the replay's.
    var driver: SessionDriver?
    var session: GameSession? { driver?.session }
    var playing: GameEntry?
    let menu: MenuScreen
    var watcher: FileWatcher?
    var recorder: InputRecorder?
    var quit = false
    /// The menu has been open: with ``Options/gameID``, once the player went back to it, games
    /// end there too, and the command line's recording no longer applies.
    var menuOpened = false
    var size: TerminalSize
    var startMessage: String?
    /// When the loop last moved the step clock on.
    var last = 0.0
    /// The profiler: shown (F3), its counters for the current window, when the window
    /// began, and the last full window's averages.
    var showProfile = false
    let profile = ProfileCounters()
    var profileWindowStart = 0.0
    var profileReport: ProfileReport?
    /// With ``Options/profile``: the whole run's counts, window by window, and when it began.
    var runProfile: ProfileCounters?
    var runStart = 0.0
    /// With ``Options/profile``: the table for the whole run, once ``run()`` has returned.
    public private(set) var profileTable: String?
    /// When the next frame may be written, by the terminal's answers to the queries behind
    /// the frames before it.
    var pacer = FramePacer()
    /// Steps ran since the last frame was drawn (so the screen may have changed).
    var frameDue = false
    /// The clock the pacer's times come from (tests pass their own).
    var pacingClock: () -> Double = { monotonicSeconds() }
    /// The game's live counts as it closed, for ``profileTable``.
    var closingStats: GameStats?
    /// The recording of what the terminal is sent (`--cast`), and when it began.
    var cast: AsciicastWriter?
    var castStart: UInt64 = 0
    /// Why the recording could not be written, once ``run()`` has returned.
    public private(set) var castProblem: String?
    /// The pointer is over the pause mark (it lights up); a press on the mark was taken by
    /// the host, so its release is not the game's either.
    var pauseMarkHovered = false
    var pauseMarkPressed = false
    /// The save file's notices, shown for a few seconds each along the bottom of the screen.
    let saveNotices = SaveNoticeBar()
    /// Where F12's picture went, shown for a few seconds along the bottom row.
    let pictureNotice = PictureNotice()
    /// Dev mode's console (F2): what the game printed and its errors.
    let console: DevConsole
    /// Dev mode: why the last edit of `manifest.lua` was refused (the old manifest stays),
    /// until an edit is taken.
    var manifestError: String?
    /// The errors already written to the log (each once).
    var loggedFailure: LuaError?
    var loggedReloadError: LuaError?
    /// The speaker (none on a test's terminal), the `--wav` recording, and whether the player
    /// muted the sound (`m` on the pause card, kept in the saves).
    var speaker: Speaker?
    var wav: WAVRecorder?
    /// The player's settings as saved (the settings card changes and saves them).
    var settings = HostSettings()
    /// The colour mode chosen from the terminal, for "auto".
    let autoColor: ColorMode
    /// This run's command-line choices, over the saved settings until the card changes them.
    var colorOverride: ColorMode?
    var visionOverride: VisionFilter?
    var speedOverride: GameSpeed?
    /// The key remapping of the game in play.
    var keyMap = KeyMap()

    /// Opens the terminal (throws ``TerminalError`` when stdin/stdout are not a tty, or
    /// `.cannotShowTheArcade` when `$TERM` cannot show it). Nothing is written to it yet.
    public convenience init(options: Options) throws(TerminalError) {
        let terminal = try Terminal()
        if let problem = Self.terminalProblem(term: environment("TERM")) { throw .cannotShowTheArcade(problem) }
        self.init(options: options, terminal: terminal)
        // opened at the first sound a game plays, on a thread of its own
        speaker = Speaker(log: options.log)
        speaker?.muted = muted
    }

    /// The arcade on `terminal` (tests use one on a pseudo-terminal and drive ``handle(_:)``,
    /// ``step()`` and ``composeFrame()`` directly).
    init(options: Options, terminal: Terminal) {
        self.options = options
        self.terminal = terminal
        autoColor = Self.automaticColorMode(term: environment("TERM"))
        settings = options.store?.hostSettings() ?? HostSettings()
        (colorOverride, visionOverride, speedOverride) = (options.colorMode, options.vision, options.speed)
        if let speed = options.replay?.header?.speed { speedOverride = GameSpeed(percent: speed) ?? speedOverride }
        output = FrameOutput(colorMode: options.colorMode ?? settings.color ?? autoColor)
        size = terminal.size
        menu = MenuScreen(catalog: options.catalog)
        console = DevConsole(logPath: options.logPath)
        let store = options.store, entries = options.catalog.entries
        menu.loadScores = { store?.bestScores(of: entries) ?? [:] }
        menu.loadSlowerScores = { store?.slowerBestScores(of: entries) ?? [:] }
        menu.refresh()
        wav = options.wavPath.map { WAVRecorder(path: $0) }
        applySettings()
    }

    /// Records everything the terminal is sent from ``run()`` on to an asciicast v2 file at
    /// `path`, sized as the terminal is now.
    ///
    /// - Throws: ``AsciicastWriter/Problem`` when the file cannot be created (nothing has
    ///   been drawn yet).
    public func record(castTo path: String) throws(AsciicastWriter.Problem) {
        let title = options.gameID.flatMap { options.catalog.game($0)?.title } ?? "the arcade"
        let writer = try AsciicastWriter(path: path, cols: size.cols, rows: size.rows, title: "arcade: \(title)",
                                         term: environment("TERM"), flushEachEvent: true)
        cast = writer
        terminal.outputTap = { [unowned self] bytes in
            writer.output(bytes, atMicroseconds: (ProfileClock.now() &- self.castStart) / 1000)
        }
    }

    /// Runs until the player quits. Returns the process exit status.
    public func run() throws(TerminalError) -> Int32 {
        defer { finishCast() }  // after the restore below, which the recording ends with
        castStart = ProfileClock.now()
        try terminal.enter()
        defer { terminal.restore() }
        size = terminal.size
        if let id = options.gameID {
            guard let entry = options.catalog.game(id) else { return 2 }
            start(entry)
        }
        var events: [InputEvent] = []
        last = monotonicSeconds()
        if options.profile { (runProfile, runStart) = (ProfileCounters(), last) }
        while !quit {
            events.removeAll(keepingCapacity: true)
            let wait = min(clock.timeToNextStep, watcher != nil ? 0.02 : 1)
            do {
                try terminal.readEvents(timeout: wait, into: &events)
            } catch .inputClosed {
                break
            }
            if terminal.takeContinued() { continued() }
            let now = monotonicSeconds()
            let steps = stepsDue(afterWallSeconds: now - last)
            last = now
            try turn(events, steps: steps, at: now)
        }
        finishRunProfile()
        closeGame()
        finishSound()
        return 0
    }

    /// How many fixed steps are due after `seconds` of wall time. At a slower game speed a
    /// game's steps come further apart (its `dt` stays the same); the menu keeps its pace.
    func stepsDue(afterWallSeconds seconds: Double) -> Int {
        clock.advance(by: seconds * (screen == .playing ? speed.factor : 1))
    }

    /// One turn of the loop at `now` (monotonic seconds): the terminal's answers, the
    /// player's `events`, `steps` fixed steps, and a frame when one is due and the pacer lets
    /// it go (tests drive this with their own clock).
    func turn(_ events: [InputEvent], steps: Int, at now: Double) throws(TerminalError) {
        takeAnswers(at: now)
        handle(events)
        if quit { return }
        checkForEdits()
        let busyStart = ProfileClock.now()
        var drawing = false
        let work = { () throws(TerminalError) in
            for _ in 0..<steps { self.step() }
            if steps > 0 { self.frameDue = true }
            drawing = self.frameDue && self.pacer.mayDraw(at: now)
            if drawing { try self.drawPaced() }
        }
        if screen == .playing, let game = session, game.failure == nil {
            try watchingForInterrupt(game, work)
        } else {
            try work()
        }
        if steps > 0 || drawing {
            profile.busyNanos &+= ProfileClock.now() &- busyStart
            rollProfileWindow(at: now)
        }
    }

    /// Runs `work` (the game's steps and its frame) so that Ctrl-C stops it however long it
    /// runs: the game stops there with "... was interrupted (Ctrl-C)" on its error card, as for
    /// a spent time budget, and the arcade runs on. A Ctrl-C the game's work had finished
    /// before quits the arcade, as Ctrl-C between steps does. Only a game still running is
    /// watched.
    private func watchingForInterrupt(_ game: GameSession, _ work: () throws(TerminalError) -> Void) throws(TerminalError) {
        let interruption = game.vm.interruption
        let (_, pressed) = try terminal.watchingForInterrupt({ interruption.interrupt() }, work)
        game.vm.clearInterruption()
        guard pressed else { return }
        if let failure = game.failure, failure.budget == .interrupt {
            card = .error(failure, selected: 0)
        } else {
            quit = true
        }
    }

    /// Hands the terminal's answers that arrived to the pacer, and their round trips to the
    /// profiler.
    func takeAnswers(at now: Double) {
        if terminal.keyboardMode != .probing { pacer.terminalAnswers() }
        for trip in pacer.answered(terminal.takeStatusAnswers(), at: now) { profile.addRoundTrip(seconds: trip) }
    }

    /// Draws the frame due and, when it changed anything, asks the terminal to answer once
    /// it has it.
    func drawPaced() throws(TerminalError) {
        // A frame dropped for a resize is drawn again, at the new size, on the next turn.
        let sent = try draw()
        frameDue = !sent
        guard sent, !output.bytes.isEmpty, pacer.frameWritten(at: pacingClock()) else { return }
        try terminal.askStatus()
    }

    /// Back from a suspension (Ctrl-Z or SIGTSTP, then `fg`): the screen was the shell's, so
    /// all of it is painted again; the time away is not game time (the clock starts from now),
    /// and a game comes back paused, as a suspended game is a paused game.
    func continued() {
        output.encoder.requestFullRepaint()
        last = monotonicSeconds()
        clock = FixedStepClock()
        pacer.forgetUnanswered()
        frameDue = true
        pauseMarkPressed = false
        if screen == .playing, card == nil, session != nil { card = .pause(selected: 0) }
    }

    /// Ends the profiler's window when it has lasted long enough: its averages become what
    /// the overlay shows, and counting starts afresh.
    func rollProfileWindow(at now: Double) {
        let elapsed = now - profileWindowStart
        guard elapsed >= ProfileOverlay.window else { return }
        profileReport = profile.report(wallSeconds: elapsed)
        runProfile?.absorb(profile)
        profile.reset()
        profileWindowStart = now
    }

    /// With ``Options/profile``: the whole run's table, for the game played (its live counts
    /// as it ends).
    func finishRunProfile() {
        guard let runProfile, let stats = session?.stats ?? closingStats else { return }
        runProfile.absorb(profile)
        profile.reset()
        let report = runProfile.report(wallSeconds: monotonicSeconds() - runStart)
        profileTable = report.table(game: playing?.id ?? options.gameID ?? "", stats: stats, terminal: true)
    }

    func finishCast() {
        guard let cast else { return }
        terminal.outputTap = nil
        self.cast = nil
        do { try cast.finish() } catch { castProblem = error.description }
    }

    // MARK: Games

    var tooSmall: Bool {
        let need = playing?.manifest
        return size.cols < (need?.minCols ?? GameManifest.minimumCols) || size.rows < (need?.minRows ?? GameManifest.minimumRows)
    }

    func start(_ entry: GameEntry) {
        closeGame()
        playing = entry
        screen = .playing
        card = nil
        var o = GameSession.Options(seed: options.seed ?? UInt64(monotonicSeconds() * 1e6) & 0xFFFF_FFFF,
                                    cols: max(size.cols, GameManifest.minimumCols),
                                    rows: max(size.rows, GameManifest.minimumRows),
                                    limits: options.limits, dev: options.dev)
        if let h = options.replay?.header { o.seed = h.seed }
        if let path = options.recordPath, !menuOpened {
            recorder = InputRecorder(path: path, game: entry.id, seed: o.seed, cols: o.cols, rows: o.rows,
                                     speed: speed.rawValue)
        }
        do {
            let session = try GameSession(entry: entry, options: o, store: options.store, log: gameLog)
            session.profile = profile
            session.soundSinks = ([speaker, wav] as [SoundSink?]).compactMap { $0 }
            session.saves.keepScores(at: speed)
            driver = SessionDriver(session: session, script: options.replay ?? InputScript())
        } catch {
            driver = nil
            card = .error(error, selected: 0)
        }
        keyMap = options.replay == nil ? options.store?.keyMap(game: entry.id) ?? KeyMap() : KeyMap()
        if options.dev { watcher = FileWatcher(folders: [entry.folder, entry.gamesDir + "/lib"]) }
        clock = FixedStepClock()
        (loggedFailure, loggedReloadError) = (nil, nil)
        output.encoder.requestFullRepaint()
        runProfile?.absorb(profile)
        profile.reset()
        profileReport = nil
        profileWindowStart = monotonicSeconds()
    }

    /// Where the game's `print` goes: the log, and under dev the console too.
    var gameLog: (String) -> Void {
        let log = options.log
        guard options.dev else { return log }
        let console = console
        return { line in
            log(line)
            console.append(line)
        }
    }

    /// Hot reload: `manifest.lua` when `manifest` (its title, controls and size apply at
    /// once; a restart starts with it), the game's code when `code`.
    func reload(manifest: Bool = true, code: Bool = true) {
        if manifest { reloadManifest() }
        guard code, let entry = playing else { return }
        guard let session else {
            start(entry)
            return
        }
        if session.reload() == nil, case .error = card { card = nil }
    }

    /// Reads the game's `manifest.lua` again. One that does not load, or that names another
    /// id (its saves are kept under the id), is refused: the old manifest stays and
    /// ``manifestError`` says why, on the failed-reload strip, until an edit is taken.
    func reloadManifest() {
        guard let entry = playing else { return }
        let name = entry.folder.split(separator: "/").last.map(String.init) ?? entry.id
        do {
            let manifest = try GameManifest.load(path: entry.folder + "/manifest.lua", displayPath: "\(name)/manifest.lua")
            guard manifest.id == entry.id else {
                refuseManifest("\(name)/manifest.lua: the id cannot change under arcade dev (the saves are kept under "
                    + "'\(entry.id)'): quit and run arcade dev \(manifest.id)")
                return
            }
            manifestError = nil
            playing?.manifest = manifest
        } catch {
            refuseManifest(error.message)
        }
    }

    private func refuseManifest(_ message: String) {
        if manifestError != message { logError("manifest reload failed: " + message) }
        manifestError = message
    }

    /// Writes `message` to the log and, under dev, to the console as an error.
    func logError(_ message: String) {
        options.log(message)
        if options.dev { console.append(message, isError: true) }
    }

    /// Logs the game's error and its failed reload, each once.
    func logNewErrors() {
        guard let session else { return }
        if let failure = session.failure, failure != loggedFailure {
            loggedFailure = failure
            let hint = reloadHint(for: failure).map { "\n" + $0 } ?? ""
            logError("error: " + failure.message + (failure.callback.map { " (in \($0))" } ?? "") + hint)
        }
        if let error = session.reloadError, error != loggedReloadError {
            loggedReloadError = error
            logError("reload failed: " + error.message)
        }
        if session.reloadError == nil { loggedReloadError = nil }
    }

    /// For an error of code a hot reload brought in (after a reload, before the next
    /// restart) that reached for a nil value: the likely cause, that the new code needs
    /// something `load` builds and `load` did not run again, and how to run it.
    func reloadHint(for error: LuaError) -> String? {
        guard options.dev, let session, session.reloads > 0, error.kind == .runtime, error.message.contains("nil") else {
            return nil
        }
        return "after a hot reload: load() did not run again for the new code, so what it builds may be missing; "
            + "restart runs it (pick restart below: → then Enter)"
    }

    /// Ends the game in play. `toMenu`: the player chose "back to menu", which opens the menu
    /// even under `arcade play <id>` (not under a replay: its saves are in memory).
    func leaveGame(toMenu: Bool = false) {
        closeGame()
        if options.gameID != nil, !menuOpened, !toMenu || options.replay != nil {
            quit = true
            return
        }
        menuOpened = true
        if let id = playing?.id { menu.select(id) }
        playing = nil
        screen = .menu
        card = nil
        menu.refresh()
        output.encoder.requestFullRepaint()
    }

    func closeGame() {
        if runProfile != nil, let session { closingStats = session.stats }
        recorder?.finish(at: session?.stepsRun)
        if let quitError = session?.close() {
            // the game is leaving anyway: its quit() failing (where games save) goes to the log
            options.log("quit() failed: \(quitError.description)")
        }
        driver = nil
        watcher = nil
        recorder = nil
        if options.gameID == nil { playing = nil }
    }

    func checkForEdits() {
        guard let watcher, let entry = playing else { return }
        let changes = watcher.changes()
        guard !changes.isEmpty else { return }
        let manifest = entry.folder + "/manifest.lua"
        reload(manifest: changes.contains(manifest), code: changes.contains { $0 != manifest })
    }

    func step() {
        switch screen {
        case .menu:
            menu.step(dt: clock.dt)
        case .playing:
            guard card == nil, !tooSmall, let driver else { return }
            // the recorded run stopped here: so does the replay
            if driver.reachedEnd {
                leaveGame()
                return
            }
            driver.step()
            if let failure = driver.session.failure { card = .error(failure, selected: 0) }
            if driver.session.context.quitRequested { leaveGame() }
        }
    }
}
