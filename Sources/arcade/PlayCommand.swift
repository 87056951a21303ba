import ArcadeCore
import ArcadeHost
import ArcadeLua
import ArgumentParser

extension Arcade {
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Play a game, in the terminal or headless.")

        @Argument(help: ArgumentHelp("The game's id (see `arcade list`), or a cart made by `arcade pack`, played without installing it.",
                                     valueName: "id|FILE.arcade"))
        var id: String

        @OptionGroup var dirs: GameDirs

        @Option(parsing: .unconditional, help: "Seed for the game's random numbers (default: 1 headless, random in the terminal).",
                transform: seedValue)
        var seed: UInt64?

        @Flag(help: "Run without a terminal, as fast as possible.")
        var headless = false

        // unconditional: `--frames -5` is a wrong count, not a missing one
        @Option(parsing: .unconditional,
                help: "Headless: steps to run (60 per second of game time; default: where the --replay recording or --input script ends, else 600).",
                transform: stepCount)
        var frames: Int?

        @Option(help: ArgumentHelp("Headless: input script (see README).", valueName: "FILE"))
        var input: String?

        @Flag(help: "Headless: print game.state as JSON at the end.")
        var state = false

        @Flag(help: ArgumentHelp("Headless: print what the game holds at the end, as one line of JSON: live nodes, animations, timers, physics bodies and Lua memory in KiB (for leak checks)."))
        var stats = false

        // optional, so that a replay's own size applies when none is given
        @Option(help: ArgumentHelp("Canvas size in terminal cells. (default: 80x24)", valueName: "COLSxROWS"),
                transform: canvasSize)
        var size: CanvasSize?

        @Option(help: ArgumentHelp("Record every input event (with the seed and size) to FILE.", valueName: "FILE"))
        var record: String?

        @Option(help: ArgumentHelp("Replay a recording made with --record, in the terminal or headless.", valueName: "FILE"))
        var replay: String?

        @Flag(help: ArgumentHelp("Replay (or take --input from) a recording made in another game: its inputs then mean something else."))
        var allowOtherGame = false

        @Option(help: ArgumentHelp("Write what the terminal is sent to FILE as an asciicast v2 recording (asciinema play FILE). Headless: the frames the terminal would get, one per step, on the game's clock.",
                                   valueName: "FILE"))
        var cast: String?

        @Option(help: ArgumentHelp("Write what the game played to FILE as a WAV (48 kHz, 16-bit mono), on the game's clock: the same run gives the same bytes. Headless or in the terminal.",
                                   valueName: "FILE"))
        var wav: String?

        @Flag(help: ArgumentHelp("Print a table of where the time went (ms per step: Lua, animation, physics, compose, encode) on stderr at the end. Headless: every step is also drawn and encoded. In the terminal: the frames per second the link allowed and the terminal's round trip too."))
        var profile = false

        @OptionGroup var display: DisplayOptions

        @Option(name: .customLong("dump-frame"), defaultAsFlag: .plain, parsing: .next,
                help: ArgumentHelp("Headless: print the final frame, as plain characters or with ANSI colours.",
                                   valueName: "plain|ansi"),
                transform: frameDump)
        var dumpFrame: HeadlessPlay.FrameDump?

        @Option(help: ArgumentHelp("Headless: write a picture of the final frame to FILE as a PNG (each cell 8x16 pixels).", valueName: "FILE"))
        var png: String?

        @Option(help: ArgumentHelp("Write an animated GIF of the run to FILE, on the game's clock: headless, or from a --replay before it plays in the terminal.",
                                   valueName: "FILE"))
        var gif: String?

        @Option(name: .customLong("gif-fps"), help: ArgumentHelp("Pictures a second of game time in the --gif (1 to 50).", valueName: "N"))
        var gifFPS = 30

        @Option(name: .customLong("gif-start"), parsing: .unconditional,
                help: ArgumentHelp("The --gif starts with the frame after this step.", valueName: "STEP"), transform: stepCount)
        var gifStart = 0

        @Option(name: .customLong("gif-end"), parsing: .unconditional,
                help: ArgumentHelp("The --gif ends with the frame after this step (default: where the run ends).", valueName: "STEP"),
                transform: stepCount)
        var gifEnd: Int?

        @Option(help: ArgumentHelp("Each pixel of the --png or --gif picture becomes N x N (1 to 8).", valueName: "N"))
        var scale = 1

        /// The `--gif` options, or nil.
        var gifRequest: GIFRequest? {
            gif.map {
                var r = GIFRequest(path: $0)
                r.fps = gifFPS
                r.scale = scale
                r.start = gifStart
                r.end = gifEnd
                return r
            }
        }

        func validate() throws {
            if let problem = gifRequest?.problem { throw ValidationError(problem) }
            if !(1...8).contains(scale) { throw ValidationError("--scale takes a whole number from 1 to 8") }
            if png != nil && !headless { throw ValidationError("--png writes the final frame of a --headless run (in the terminal, F12 takes a picture)") }
            if gif != nil && !headless && replay == nil { throw ValidationError("--gif in the terminal needs --replay (make one with --record)") }
        }

        /// The playable game `id`, or an exit with the reason.
        static func find(_ id: String, in catalog: GameCatalog) throws -> GameEntry {
            // another game claiming the id is not played: say which one is
            for ignored in catalog.duplicates(of: id) { Output.err("arcade: \(ignored.problem ?? "")\n") }
            do { return try catalog.playableGame(id) } catch {
                Output.err("arcade: \(error)\n")
                throw ExitCode(2)
            }
        }

        /// The input script or recording at `path`, for the game `game` (unless
        /// `--allow-other-game`), or an exit with the reason.
        func script(_ path: String, game: String) throws -> InputScript {
            do {
                let script = try InputScript.read(path)
                try script.check(madeFor: game, path: path, allowOtherGame: allowOtherGame)
                return script
            } catch {
                Output.err("arcade: \(error)\n")
                throw ExitCode(2)
            }
        }

        /// Refuses, before anything runs or the terminal is taken, a recording that could not
        /// be written (a FIFO, a folder, a missing folder).
        func checkRecordPath() throws {
            guard let record, let problem = InputRecorder.problem(writingTo: record) else { return }
            Output.err("arcade: \(problem)\n")
            throw ExitCode(2)
        }

        func run() throws {
            // a cart plays from a private folder, removed when the game ends
            let cart = CartCommands.namesCart(id) ? try CartCommands.unpackForPlay(id, extra: dirs.extra) : nil
            defer { cart?.remove() }
            let catalog = cart.map { GameCatalog(paths: GameCatalog.defaultSearchDirs(extra: dirs.extra) + [$0.entry.folder]).playing($0) }
                ?? dirs.catalog(finding: id)
            let entry = try Play.find(cart?.entry.id ?? id, in: catalog)
            let replayScript = try replay.map { try script($0, game: entry.id) }
            let inputScript = try input.map { try script($0, game: entry.id) }
            try checkRecordPath()
            if let wav, let problem = WAVRecorder.problem(writingTo: wav) {
                Output.err("arcade: \(problem)\n")
                throw ExitCode(2)
            }
            // a picture is written after the run: a path that cannot take it is refused first
            for (kind, path) in [("picture", png), ("GIF", gif)] {
                if let path, let problem = FileIO.writeProblem(path) {
                    Output.err("arcade: cannot write the \(kind) to '\(path)': \(problem)\n")
                    throw ExitCode(2)
                }
            }
            guard headless else {
                if let request = gifRequest, let replayScript {
                    // the same replay headless first: the same frames, drawn as pictures
                    var play = HeadlessPlay(entry: entry)
                    play.replay = replayScript
                    play.seed = seed
                    play.size = size.map { ($0.cols, $0.rows) }
                    play.gif = request
                    let status = play.run(log: { _ in }, to: .init(out: Output.out, outRaw: Output.outRaw, err: Output.err))
                    if status != 0 { throw ExitCode(status) }
                }
                var o = ArcadeApp.Options(catalog: catalog)
                o.gameID = entry.id
                o.seed = seed
                o.recordPath = record
                o.replay = replayScript
                o.store = replayScript == nil ? dirs.store() : SaveStore(location: .memory)
                display.apply(to: &o)
                o.profile = profile
                o.wavPath = wav
                try Interactive.run(o, cast: cast)
                return
            }
            var play = HeadlessPlay(entry: entry)
            play.input = inputScript
            play.replay = replayScript
            play.seed = seed
            play.frames = frames
            play.size = size.map { ($0.cols, $0.rows) }
            // headless runs keep saves in memory unless --data asks otherwise
            play.store = dirs.data == nil ? nil : dirs.store()
            play.recordPath = record
            play.castPath = cast
            play.wavPath = wav
            play.profile = profile
            display.apply(to: &play)
            play.dumpFrame = dumpFrame
            play.pngPath = png
            play.pngScale = scale
            play.gif = gifRequest
            play.printState = state
            play.printStats = stats
            let noticed = play.store?.notices.count ?? 0
            let status = play.run(log: { Output.err("[\(entry.id)] \($0)\n") },
                                  to: .init(out: Output.out, outRaw: Output.outRaw, err: Output.err))
            play.store?.close()  // writes what another arcade held back, or says it could not
            GameDirs.report(play.store, from: noticed)
            if status != 0 { throw ExitCode(status) }
        }
    }
}
