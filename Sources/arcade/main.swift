import ArcadeCore
import ArcadeHost
import ArcadeLua
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
        subcommands: [Menu.self, List.self, Play.self, Check.self],
        defaultSubcommand: Menu.self
    )
}

/// Options shared by the commands that find games.
struct GameDirs: ParsableArguments {
    @Option(name: .customLong("games"), help: ArgumentHelp("Also look for games in DIR (repeatable).", valueName: "DIR"))
    var extra: [String] = []

    func catalog() -> GameCatalog {
        GameCatalog(searchDirs: GameCatalog.defaultSearchDirs(extra: extra))
    }
}

extension Arcade {
    struct Menu: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open the arcade menu (the default).")
        @OptionGroup var dirs: GameDirs

        func run() throws {
            let catalog = dirs.catalog()
            Output.err("arcade: the interactive menu needs the terminal front end, which this build does not have yet.\n")
            Output.err("Games found (run one headless with: arcade play <id> --headless --frames 600 --state):\n")
            Output.err(List.describe(catalog))
            throw ExitCode(2)
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

        @Option(help: "Headless: steps to run (60 per second of game time).")
        var frames: Int = 600

        @Option(help: ArgumentHelp("Headless: input script (see README).", valueName: "FILE"))
        var input: String?

        @Flag(help: "Headless: print game.state as JSON at the end.")
        var state = false

        @Option(help: ArgumentHelp("Canvas size in terminal cells.", valueName: "COLSxROWS"))
        var size: String = "80x24"

        func validate() throws {
            guard frames >= 0 else { throw ValidationError("--frames must be 0 or more") }
            guard InputScript.parseSize(size) != nil else { throw ValidationError("--size takes COLSxROWS, like 80x24") }
        }

        func run() throws {
            let catalog = dirs.catalog()
            guard let entry = catalog.game(id) else {
                if let broken = catalog.entry(id) {
                    Output.err("arcade: game '\(id)' cannot be played: \(broken.problem ?? "broken")\n")
                } else {
                    let known = catalog.entries.filter(\.isPlayable).map(\.id).joined(separator: ", ")
                    Output.err("arcade: no game with id '\(id)' (games: \(known.isEmpty ? "none found" : known))\n")
                }
                throw ExitCode(2)
            }
            guard headless else {
                Output.err("arcade: playing in the terminal needs the terminal front end, which this build does not have yet; use --headless\n")
                throw ExitCode(2)
            }
            var script = InputScript()
            if let input {
                guard let text = Output.readText(input) else {
                    Output.err("arcade: cannot read input script '\(input)'\n")
                    throw ExitCode(2)
                }
                do { script = try InputScript.parse(text) } catch {
                    Output.err("arcade: \(input): \(error)\n")
                    throw ExitCode(2)
                }
            }
            let (cols, rows) = InputScript.parseSize(size)!
            let options = GameSession.Options(seed: seed ?? script.header?.seed ?? 1, cols: cols, rows: rows)
            let runner = HeadlessRunner(entry: entry, options: options, frames: frames, script: script)
            let session: GameSession
            do {
                session = try runner.run(log: { Output.err("[\(entry.id)] \($0)\n") })
            } catch {
                Output.err(error.description + "\n")
                throw ExitCode(1)
            }
            if let failure = session.failure {
                Output.err(failure.description + "\n")
                throw ExitCode(1)
            }
            if state {
                do { Output.out(try session.state().json(pretty: true) + "\n") } catch {
                    Output.err(error.description + "\n")
                    throw ExitCode(1)
                }
            }
            session.close()
        }
    }
}

/// Unbuffered output without Foundation.
enum Output {
    static func out(_ s: String) { write(1, s) }
    static func err(_ s: String) { write(2, s) }

    private static func write(_ fd: Int32, _ s: String) {
        var s = s
        s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                off += n
            }
        }
    }

    static func readText(_ path: String) -> String? {
        FileBytes.read(path).map { String(decoding: $0, as: UTF8.self) }
    }
}

Arcade.main()
