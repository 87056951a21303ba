import ArcadeHost
import ArgumentParser

extension Arcade {
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Scaffold a new game (what `swift package new-game` runs).")

        @Argument(help: "The new game's id: lower-case letters, digits, '-' and '_'.")
        var id: String

        @Option(help: "Its title (default: from the id).")
        var title: String?

        @Option(help: "Its one-line description, shown in the menu and by `arcade list`.")
        var description: String?

        @Option(help: "The games folder to create it in.")
        var dir: String = "games"

        func run() throws {
            // the games the arcade plays: its own and the installed ones
            if let problem = GameCatalog(searchDirs: GameCatalog.defaultSearchDirs()).newGameProblem(id: id) {
                Output.err("arcade new: \(problem)\n")
                throw ExitCode(2)
            }
            do {
                let folder = try GameScaffold.create(id: id, title: title, description: description, in: dir)
                Output.out("""
                    created \(folder)
                      arcade dev \(id) --games \(dir)    # play it with hot reload
                      arcade test \(id) --games \(dir)    # its Lua tests (tests/*.lua), headless
                      arcade check \(folder)    # manifest, compile, a run under random input

                    """)
            } catch {
                Output.err("arcade new: \(error)\n")
                throw ExitCode(2)
            }
        }
    }
}
