import ArcadeLua
import ArcadeHost
import ArgumentParser

extension Arcade {
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install a cart (a game packed with `arcade pack`) into $XDG_DATA_HOME/arcade/games, after checking it.")

        @Argument(help: ArgumentHelp("The cart.", valueName: "FILE.arcade"))
        var cart: String

        @Flag(help: "Replace an installed game with the same id (a bundled game is never replaced).")
        var replace = false

        @Option(name: .customLong("games"), help: ArgumentHelp("Also look for games in DIR (repeatable).", valueName: "DIR"))
        var extra: [String] = []

        @Option(name: .customLong("check-limit"),
                help: ArgumentHelp("The most CPU time the game's check may use; a game whose check runs longer is refused (default: \(Int(GameChecker.defaultCPULimit)) s).",
                                   valueName: "SECONDS"),
                transform: parseCheckLimit)
        var checkLimit: Double = GameChecker.defaultCPULimit

        func run() throws {
            var shelf = try CartCommands.shelf(extra, command: "install")
            shelf.checker.cpuLimit = checkLimit
            do {
                let c = try shelf.load(FileIO.commandLinePath(cart))
                let done = try shelf.install(c, replace: replace)
                Output.out("\(done.replaced ? "replaced" : "installed") \(c.id) (\(c.manifest.title), by \(c.manifest.author), "
                           + "version \(c.manifest.version)) in \(done.folder)\n  arcade play \(c.id)\n")
            } catch {
                Output.err("arcade install: refused \(cart): \(error); nothing was written\n")
                throw ExitCode(1)
            }
        }
    }
}

/// `--check-limit`: seconds, above 0.
func parseCheckLimit(_ text: String) throws -> Double {
    guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
        throw ValidationError("--check-limit takes a number of seconds above 0, not '\(text)'")
    }
    return seconds
}

/// What the cart commands share.
enum CartCommands {
    /// The arcade's folders for carts, or an exit saying there is no home folder.
    static func shelf(_ extra: [String], command: String) throws -> CartShelf {
        guard let shelf = CartShelf.standard(extraGames: extra) else {
            Output.err("arcade \(command): neither XDG_DATA_HOME nor HOME is set, so there is no games folder to use\n")
            throw ExitCode(2)
        }
        return shelf
    }

    /// True when `argument` names a cart file rather than a game id: it ends in `.arcade`, or
    /// it is not an id and a file by that name exists.
    static func namesCart(_ argument: String) -> Bool {
        argument.hasSuffix(Cart.fileExtension)
            || (!Cart.isPlainID(argument) && FileBytes.realPath(FileIO.commandLinePath(argument)) != nil
                && !GameCatalog.folderExists(argument))
    }

    /// `arcade play FILE.arcade`: the cart's game unpacked privately, or an exit with the reason.
    static func unpackForPlay(_ file: String, extra: [String]) throws -> UnpackedCart {
        let shelf = try shelf(extra, command: "play")
        do { return try shelf.unpackForPlay(try shelf.load(FileIO.commandLinePath(file))) } catch {
            Output.err("arcade play: refused \(file): \(error)\n")
            throw ExitCode(1)
        }
    }
}
