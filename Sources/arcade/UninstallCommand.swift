import ArcadeHost
import ArgumentParser

extension Arcade {
    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an installed game (from $XDG_DATA_HOME/arcade/games); its saves stay unless --purge.")

        @Argument(help: "The installed game's id.")
        var id: String

        @Flag(help: "Remove its saves and best score too.")
        var purge = false

        @OptionGroup var dirs: GameDirs

        func run() throws {
            let shelf = try CartCommands.shelf(dirs.extra, command: "uninstall")
            let store = purge ? dirs.store() : nil
            defer { store?.close() }
            do {
                let done = try shelf.uninstall(id, purge: purge, store: store)
                let saves = done.purged ? "its saves and best score were removed"
                    : "its saves and best score are kept (arcade uninstall \(id) --purge removes them)"
                Output.out((done.folder.map { "uninstalled \(id) (removed \($0)); " } ?? "\(id) is not installed; ") + saves + "\n")
            } catch {
                Output.err("arcade uninstall: \(error)\n")
                throw ExitCode(1)
            }
        }
    }
}
