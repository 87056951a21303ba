import ArcadeHost
import ArgumentParser

extension Arcade {
    struct Pack: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pack a game into one file to share, <id>.arcade, once it passes `arcade check` (what `swift package pack-game` runs).")

        @Argument(help: ArgumentHelp("The game's id, or its folder.", valueName: "id|DIR"))
        var game: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Write the cart to FILE (default: <id>.arcade here; a folder gets <id>.arcade inside).",
                                                        valueName: "FILE"))
        var output: String?

        @Option(name: .customLong("games"), help: ArgumentHelp("Also look for games in DIR (repeatable).", valueName: "DIR"))
        var extra: [String] = []

        @Option(name: .customLong("check-limit"),
                help: ArgumentHelp("The most CPU time the game's check may use; a game whose check runs longer is refused (default: \(Int(GameChecker.defaultCPULimit)) s).",
                                   valueName: "SECONDS"),
                transform: parseCheckLimit)
        var checkLimit: Double = GameChecker.defaultCPULimit

        func run() throws {
            let entry = try find()
            let findings = GameChecker(cpuLimit: checkLimit).check(entry)
            if !findings.isEmpty {
                for f in findings { Output.err("FAIL  \(entry.id): \(f.message)\n") }
                Output.err("arcade pack: refused: \(entry.id) fails arcade check (above); nothing was written\n")
                throw ExitCode(1)
            }
            do {
                let cart = try Cart.pack(entry)
                let file = try cart.save(to: output ?? cart.id + Cart.fileExtension)
                Output.out("packed \(cart.id) into \(file): \(cart.files.count) files, \(cart.bytes.count) bytes\n"
                           + "  arcade play \(file)       # play it without installing it\n"
                           + "  arcade install \(file)    # install it for good\n")
            } catch {
                Output.err("arcade pack: refused: \(error); nothing was written\n")
                throw ExitCode(1)
            }
        }

        /// The game: a game's folder when `game` names one, else the game with that id.
        func find() throws -> GameEntry {
            guard GameCatalog.folderExists(game) else {
                let catalog = GameCatalog.finding(game, extra: extra) { Output.err("arcade pack: \($0)\n") }
                return try Play.find(game, in: catalog)
            }
            guard GameCatalog.isGameFolder(game), let entry = GameCatalog(paths: [game]).entries.first else {
                Output.err("arcade pack: \(game) is not a game's folder (it holds no manifest.lua or main.lua)\n")
                throw ExitCode(2)
            }
            guard entry.isPlayable else {
                Output.err("arcade pack: refused: \(entry.problem ?? "\(game) is not a playable game"); nothing was written\n")
                throw ExitCode(1)
            }
            return entry
        }
    }
}
