import ArcadeCore
import ArcadeHost
import ArcadeLua
import ArcadeRender
import ArcadeTerminal
import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// The arcade's command line: argument parsing and wiring only.
struct Arcade: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arcade",
        abstract: "A terminal arcade of mini-games written in Lua.",
        discussion: """
            Run without a subcommand to open the arcade menu.
            Games are found in --games folders, in $XDG_DATA_HOME/arcade/games and in the arcade's own games/ folder.
            """,
        subcommands: [Menu.self, List.self, Play.self, Dev.self, Check.self, Test.self, New.self, CastCheck.self,
                      SaveStressCommand.self],
        defaultSubcommand: Menu.self
    )
}

/// Options shared by the commands that find games.
struct GameDirs: ParsableArguments {
    @Option(name: .customLong("games"), help: ArgumentHelp("Also look for games in DIR (repeatable).", valueName: "DIR"))
    var extra: [String] = []

    @Option(help: ArgumentHelp("Keep saves and scores in DIR/arcade.sqlite (default: $XDG_DATA_HOME/arcade).",
                               valueName: "DIR"))
    var data: String?

    func catalog() -> GameCatalog {
        GameCatalog(searchDirs: GameCatalog.defaultSearchDirs(extra: extra))
    }

    /// The save store; its warnings (a corrupt file moved aside...) go to stderr.
    func store() -> SaveStore {
        let store = SaveStore(dataDirectory: data)
        for w in store.warnings { Output.err("arcade: \(w)\n") }
        return store
    }
}

extension Arcade {
    /// `--cast` in the terminal (the menu and `dev`; `play` says more, as it also runs headless).
    static let interactiveCastHelp = ArgumentHelp(
        "Write what the terminal is sent to FILE as an asciicast v2 recording (asciinema play FILE).", valueName: "FILE")

    struct Menu: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open the arcade menu (the default).")
        @OptionGroup var dirs: GameDirs
        @OptionGroup var display: DisplayOptions
        @Flag(help: .hidden) var exitAfterFirstFrame = false
        @Option(help: Arcade.interactiveCastHelp) var cast: String?

        func run() throws {
            var o = ArcadeApp.Options(catalog: dirs.catalog())
            o.store = dirs.store()
            o.exitAfterFirstFrame = exitAfterFirstFrame
            display.apply(to: &o)
            try Interactive.run(o, cast: cast)
        }
    }

    struct Dev: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a game with hot reload: edits to its scripts load into the running game (F5 forces a reload).")
        @Argument(help: "The game's id.") var id: String
        @OptionGroup var dirs: GameDirs
        @OptionGroup var display: DisplayOptions
        @Option(help: "Seed for the game's random numbers.") var seed: UInt64?
        @Option(help: Arcade.interactiveCastHelp) var cast: String?

        func run() throws {
            let catalog = dirs.catalog()
            _ = try Play.find(id, in: catalog)
            var o = ArcadeApp.Options(catalog: catalog)
            o.gameID = id
            o.dev = true
            o.seed = seed
            o.store = dirs.store()
            display.apply(to: &o)
            try Interactive.run(o, cast: cast)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the games found, with title and description.")
        @OptionGroup var dirs: GameDirs

        func run() throws {
            let catalog = dirs.catalog()
            Output.out(List.describe(catalog))
            if catalog.entries.isEmpty {
                Output.err("arcade: no games found (searched: \(catalog.searchDirs.joined(separator: ", ")))\n")
            }
        }

        static func describe(_ catalog: GameCatalog) -> String {
            let width = min(16, catalog.entries.map(\.id.count).max() ?? 0)
            var out = ""
            for e in catalog.entries {
                let id = e.id + String(repeating: " ", count: max(0, width - e.id.count))
                if let m = e.manifest, e.problem == nil {
                    out += "\(id)  \(m.title): \(m.description)\n"
                } else {
                    out += "\(id)  (broken) \(e.problem ?? "unknown problem")\n"
                }
            }
            return out
        }
    }

    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Play a game, in the terminal or headless.")

        @Argument(help: "The game's id (see `arcade list`).")
        var id: String

        @OptionGroup var dirs: GameDirs

        @Option(help: "Seed for the game's random numbers (default: 1 headless, random in the terminal).")
        var seed: UInt64?

        @Flag(help: "Run without a terminal, as fast as possible.")
        var headless = false

        @Option(help: "Headless: steps to run (60 per second of game time; default: where the --replay recording or --input script ends, else 600).")
        var frames: Int?

        @Option(help: ArgumentHelp("Headless: input script (see README).", valueName: "FILE"))
        var input: String?

        @Flag(help: "Headless: print game.state as JSON at the end.")
        var state = false

        @Flag(help: ArgumentHelp("Headless: print what the game holds at the end, as one line of JSON: live nodes, animations, timers, physics bodies and Lua memory in KiB (for leak checks)."))
        var stats = false

        @Option(help: ArgumentHelp("Canvas size in terminal cells.", valueName: "COLSxROWS"))
        var size: String = "80x24"

        @Option(help: ArgumentHelp("Record every input event (with the seed and size) to FILE.", valueName: "FILE"))
        var record: String?

        @Option(help: ArgumentHelp("Replay a recording made with --record, in the terminal or headless.", valueName: "FILE"))
        var replay: String?

        @Option(help: ArgumentHelp("Write what the terminal is sent to FILE as an asciicast v2 recording (asciinema play FILE). Headless: the frames the terminal would get, one per step, on the game's clock.",
                                   valueName: "FILE"))
        var cast: String?

        @Flag(help: ArgumentHelp("Headless: also draw and encode every step, and print a table of where the time went (ms per step: Lua, animation, physics, compose, encode) on stderr at the end."))
        var profile = false

        @OptionGroup var display: DisplayOptions

        var sizeGiven: Bool { CommandLine.arguments.contains { $0 == "--size" || $0.hasPrefix("--size=") } }

        /// The playable game `id`, or an exit with the reason.
        static func find(_ id: String, in catalog: GameCatalog) throws -> GameEntry {
            if let entry = catalog.game(id) { return entry }
            if let broken = catalog.entry(id) {
                Output.err("arcade: game '\(id)' cannot be played: \(broken.problem ?? "broken")\n")
            } else {
                let known = catalog.entries.filter(\.isPlayable).map(\.id).joined(separator: ", ")
                Output.err("arcade: no game with id '\(id)' (games: \(known.isEmpty ? "none found" : known))\n")
            }
            throw ExitCode(2)
        }

        /// Parses an input script or recording, or exits with the reason.
        static func readScript(_ path: String) throws -> InputScript {
            guard let text = FileIO.readText(path) else {
                Output.err("arcade: cannot read input script '\(path)'\n")
                throw ExitCode(2)
            }
            do { return try InputScript.parse(text) } catch {
                Output.err("arcade: \(path): \(error)\n")
                throw ExitCode(2)
            }
        }

        @Option(name: .customLong("dump-frame"),
                help: ArgumentHelp("Headless: print the final frame, as plain characters or with ANSI colours.",
                                   valueName: "plain|ansi"))
        var dumpFrame: String?

        func validate() throws {
            guard (frames ?? 0) >= 0 else { throw ValidationError("--frames must be 0 or more") }
            guard let (c, r) = InputScript.parseSize(size) else { throw ValidationError("--size takes COLSxROWS, like 80x24") }
            guard InputScript.isPlayableSize(cols: c, rows: r) else { throw ValidationError("--size must be between 20x10 and 1000x500") }
            if let d = dumpFrame, d != "plain", d != "ansi" { throw ValidationError("--dump-frame takes plain or ansi") }
        }

        func run() throws {
            let catalog = dirs.catalog()
            let entry = try Play.find(id, in: catalog)
            let replayScript = try replay.map { try Play.readScript($0) }
            guard headless else {
                var o = ArcadeApp.Options(catalog: catalog)
                o.gameID = id
                o.seed = seed
                o.recordPath = record
                o.replay = replayScript
                o.store = replayScript == nil ? dirs.store() : SaveStore(location: .memory)
                display.apply(to: &o)
                if profile { Output.err("arcade: --profile is for --headless runs (in the terminal, F3 shows the profiler)\n") }
                try Interactive.run(o, cast: cast)
                return
            }
            var script = try input.map { try Play.readScript($0) } ?? replayScript ?? InputScript()
            if input != nil, let r = replayScript { script.entries += r.entries }
            var (cols, rows) = InputScript.parseSize(size)!
            if let h = replayScript?.header, !sizeGiven {
                (cols, rows) = (h.cols, h.rows)
            }
            let options = GameSession.Options(seed: seed ?? script.header?.seed ?? 1, cols: cols, rows: rows)
            // headless runs keep saves in memory unless --data asks otherwise: a run must not
            // depend on what earlier runs saved
            let store = dirs.data == nil ? SaveStore(location: .memory) : dirs.store()
            // a replay (or a script with an end line) stops where its recording did, unless
            // --frames says otherwise
            var runner = HeadlessRunner(entry: entry, options: options,
                                        frames: frames ?? script.end ?? replayScript?.end ?? 600, script: script)
            runner.store = store
            runner.profile = profile ? ProfileCounters() : nil
            if let c = display.color { runner.colorMode = c == "256" ? .palette256 : .trueColor }
            if let path = cast {
                do {
                    runner.cast = try AsciicastWriter(path: path, cols: cols, rows: rows, title: "arcade: \(entry.title)",
                                                      term: "xterm-256color")
                } catch {
                    Output.err("arcade: \(error)\n")
                    throw ExitCode(2)
                }
            }
            let session: GameSession
            do {
                session = try runner.run(log: { Output.err("[\(entry.id)] \($0)\n") })
            } catch {
                Output.err(error.description + "\n")
                throw ExitCode(1)
            }
            do { try runner.cast?.finish() } catch {
                Output.err("arcade: \(error)\n")
                throw ExitCode(2)
            }
            if let counters = runner.profile {
                // on stderr, so that --dump-frame, --state and --stats keep stdout to themselves
                let report = counters.report(wallSeconds: Double(counters.wallNanos) * 1e-9)
                Output.err(report.table(game: entry.id, stats: session.stats))
            }
            if let r = record {
                // written after the run, to say where it stopped (arcade.quit(), an error, --frames)
                var rec = script
                rec.header = .init(game: entry.id, seed: options.seed, cols: cols, rows: rows)
                rec.entries = rec.entries.filter { $0.frame < session.stepsRun }
                rec.end = session.stepsRun
                guard FileIO.writeText(rec.text(), to: r) else {
                    Output.err("arcade: cannot write the recording '\(r)'\n")
                    throw ExitCode(2)
                }
            }
            if let failure = session.failure {
                Output.err(failure.description + "\n")
                throw ExitCode(1)
            }
            if let mode = dumpFrame {
                let frame = session.renderFrame()
                if let failure = session.failure {
                    Output.err(failure.description + "\n")
                    throw ExitCode(1)
                }
                let text = mode == "ansi" ? frame.ansiText() : frame.plainText(background: session.scene.background)
                // a line of its own, so that --state or --stats output starts on the next one
                Output.outRaw(text.hasSuffix("\n") ? text : text + "\n")
            }
            if state {
                do { Output.out(try session.state().json(pretty: true) + "\n") } catch {
                    Output.err(error.description + "\n")
                    throw ExitCode(1)
                }
            }
            if stats {
                session.vm.collectGarbage()  // count what the game keeps, not garbage
                Output.out(session.stats.json + "\n")
            }
            if let quitError = session.close() {
                Output.err(quitError.description + "\n")
                throw ExitCode(1)
            }
        }
    }
}

/// How the interactive arcade draws.
struct DisplayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Colour output: truecolor or 256 (default: truecolor when $COLORTERM says so).",
                               valueName: "truecolor|256"))
    var color: String?

    func validate() throws {
        if let c = color, c != "truecolor", c != "256" { throw ValidationError("--color takes truecolor or 256") }
    }

    func apply(to o: inout ArcadeApp.Options) {
        if let c = color { o.colorMode = c == "256" ? .palette256 : .trueColor }
    }
}

/// Runs the interactive arcade, turning a missing terminal into a clear message.
enum Interactive {
    /// `cast`: record what the terminal is sent to this asciicast file.
    static func run(_ options: ArcadeApp.Options, cast: String? = nil) throws {
        var o = options
        let log = LogFile.open()
        o.log = { log?.append($0) }
        let app: ArcadeApp
        do { app = try ArcadeApp(options: o) } catch {
            Output.err("arcade: \(error)\n")
            throw ExitCode(2)
        }
        if let cast {
            do { try app.record(castTo: cast) } catch {
                Output.err("arcade: \(error)\n")
                throw ExitCode(2)
            }
        }
        let status: Int32
        do { status = try app.run() } catch {
            Output.err("arcade: \(error)\n")
            throw ExitCode(1)
        }
        if let problem = app.castProblem {
            Output.err("arcade: \(problem)\n")
            throw ExitCode(1)
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// Where `print` from games goes while the terminal belongs to the renderer:
/// `$XDG_STATE_HOME/arcade/arcade.log` (default `~/.local/state/arcade/arcade.log`).
final class LogFile {
    let fd: Int32

    init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }

    static func open() -> LogFile? {
        guard let base = env("XDG_STATE_HOME") ?? env("HOME").map({ $0 + "/.local/state" }) else { return nil }
        mkdir(base, 0o755)
        mkdir(base + "/arcade", 0o755)
        let fd = Glibc.open(base + "/arcade/arcade.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        return fd >= 0 ? LogFile(fd: fd) : nil
    }

    func append(_ line: String) {
        FileIO.writeAll(fd, ControlEscaping.escapingControls(line) + "\n")
    }

    static func env(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        let s = String(cString: p)
        return s.isEmpty ? nil : s
    }
}

/// Unbuffered output without Foundation.
enum Output {
    /// Text for the user: any control byte in it (from a game's name, manifest, message or
    /// `print`) is shown escaped, so a game cannot drive the terminal from outside its frame.
    static func out(_ s: String) { FileIO.writeAll(1, ControlEscaping.escapingControls(s)) }
    static func err(_ s: String) { FileIO.writeAll(2, ControlEscaping.escapingControls(s)) }
    /// Bytes meant for a terminal as they are: `--dump-frame ansi`.
    static func outRaw(_ s: String) { FileIO.writeAll(1, s) }
}

/// `--dump-frame` alone means `--dump-frame plain`.
func normalizedArguments() -> [String] {
    var args = Array(CommandLine.arguments.dropFirst())
    for (i, a) in args.enumerated() where a == "--dump-frame" {
        let next = i + 1 < args.count ? args[i + 1] : ""
        if next != "plain" && next != "ansi" { args[i] = "--dump-frame=plain" }
    }
    return args
}

Arcade.main(normalizedArguments())
