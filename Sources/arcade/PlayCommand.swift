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

        @Flag(help: ArgumentHelp("Print a table of where the time went (ms per step: Lua, animation, physics, compose, encode) on stderr at the end. Headless: every step is also drawn and encoded. In the terminal: the frames per second the link allowed and the terminal's round trip too."))
        var profile = false

        @OptionGroup var display: DisplayOptions

        @Option(name: .customLong("dump-frame"), defaultAsFlag: .plain, parsing: .next,
                help: ArgumentHelp("Headless: print the final frame, as plain characters or with ANSI colours.",
                                   valueName: "plain|ansi"),
                transform: frameDump)
        var dumpFrame: HeadlessPlay.FrameDump?

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
            guard headless else {
                var o = ArcadeApp.Options(catalog: catalog)
                o.gameID = entry.id
                o.seed = seed
                o.recordPath = record
                o.replay = replayScript
                o.store = replayScript == nil ? dirs.store() : SaveStore(location: .memory)
                display.apply(to: &o)
                o.profile = profile
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
            play.profile = profile
            display.apply(to: &play)
            play.dumpFrame = dumpFrame
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
