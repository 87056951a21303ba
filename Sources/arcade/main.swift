import ArcadeHost
import ArgumentParser

/// The arcade's command line: the commands parse their options and hand them to ArcadeHost,
/// which does the work; nothing here decides how a game runs.
struct Arcade: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arcade",
        abstract: "A terminal arcade of mini-games written in Lua.",
        discussion: """
            Run without a subcommand to open the arcade menu.
            Games are found in --games folders, in $XDG_DATA_HOME/arcade/games and in the arcade's own games/ folder.
            """,
        subcommands: [Menu.self, List.self, Play.self, Dev.self, Check.self, Test.self, New.self, Pack.self, Install.self,
                      Uninstall.self, Adopt.self, CastCheck.self, SaveStressCommand.self],
        defaultSubcommand: Menu.self
    )
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
            abstract: "Play a game with hot reload: edits to its scripts load into the running game (F5 forces a reload; F2 shows its log).")
        @Argument(help: "The game's id.") var id: String
        @OptionGroup var dirs: GameDirs
        @OptionGroup var display: DisplayOptions
        @Option(parsing: .unconditional, help: "Seed for the game's random numbers.", transform: seedValue) var seed: UInt64?
        @Option(help: Arcade.interactiveCastHelp) var cast: String?

        func run() throws {
            if CartCommands.namesCart(id) {
                Output.err("arcade dev: \(id) is a cart; dev is for a game's folder (arcade play \(id) plays a cart)\n")
                throw ExitCode(2)
            }
            // a main.lua that does not compile opens on its error: the fix reloads it
            let catalog = dirs.catalog(finding: id).allowingCompileErrors(in: id)
            if let problem = catalog.hotReloadProblem(for: id) {
                Output.err("arcade dev: \(problem)\n")
                throw ExitCode(2)
            }
            let entry = try Play.find(id, in: catalog)
            var o = ArcadeApp.Options(catalog: catalog)
            o.gameID = id
            o.dev = true
            o.seed = seed
            o.store = dirs.store()
            display.apply(to: &o)
            try Interactive.run(o, cast: cast) { Output.err(DevMode.startLine(id: id, folder: entry.folder, logPath: $0)) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the games found, with title and description.")
        @OptionGroup var dirs: GameDirs

        func run() throws {
            let catalog = dirs.catalog()
            Output.out(catalog.listing)
            if catalog.entries.isEmpty {
                Output.err("arcade: no games found (searched: \(catalog.searchDirs.joined(separator: ", ")))\n")
            }
        }
    }
}

/// Runs the interactive arcade, turning a missing terminal into a clear message.
enum Interactive {
    /// `cast`: record what the terminal is sent to this asciicast file. `announce` is given
    /// the log file's path (nil when it cannot be opened) once the terminal is found, before
    /// the arcade takes it.
    static func run(_ options: ArcadeApp.Options, cast: String? = nil, announce: ((String?) -> Void)? = nil) throws {
        var o = options
        let log = LogFile.open()
        o.log = { log?.append($0) }
        o.logPath = log?.path
        let app: ArcadeApp
        do { app = try ArcadeApp(options: o) } catch {
            Output.err("arcade: \(error)\n")
            throw ExitCode(2)
        }
        announce?(log?.path)
        if let cast {
            do { try app.record(castTo: cast) } catch {
                Output.err("arcade: \(error)\n")
                throw ExitCode(2)
            }
        }
        let status: Int32
        let noticed = options.store?.notices.count ?? 0
        defer {  // the save file's troubles during play, once what waited is written
            options.store?.close()
            GameDirs.report(options.store, from: noticed)
        }
        do { status = try app.run() } catch {
            Output.err("arcade: \(error)\n")
            throw ExitCode(1)
        }
        if let table = app.profileTable { Output.err(table) }
        if let problem = app.castProblem {
            Output.err("arcade: \(problem)\n")
            throw ExitCode(1)
        }
        if status != 0 { throw ExitCode(status) }
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

ArcadeProcess.start()
Arcade.main()
