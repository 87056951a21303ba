import ArcadeHost
import ArgumentParser

extension Arcade {
    struct Adopt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a game the saves an earlier game made under its id (a game moved to another folder, a cart installed again).",
            discussion: """
                Saves belong to the game that made them: another folder or cart claiming the same id starts with saves \
                of its own. When it is the same game, moved on purpose, adopt moves the earlier owner's saves and best \
                score to it (replacing what it had saved itself).
                Owners are named as `arcade adopt GAME` lists them: a folder, a cart's identity (its first 8 hex digits \
                are enough), or `unowned` for saves from before the arcade recorded owners.
                """)

        @Argument(help: ArgumentHelp("The game to give the saves to: its id, its folder, or its cart.",
                                     valueName: "id|FOLDER|FILE.arcade"))
        var game: String

        @Option(help: ArgumentHelp("The earlier owner whose saves to move (needed when there are several).",
                                   valueName: "FOLDER|CART|unowned"))
        var from: String?

        @OptionGroup var dirs: GameDirs

        func run() throws {
            let (id, owner) = try target()
            let store = dirs.store()
            defer { store.close() }
            do {
                let done = try store.adopt(game: id, owner: owner, from: from)
                let best = done.from.bestScore.map { ", best score \($0)" } ?? ""
                let replaced = done.replacedValues > 0 ? " (its own \(done.replacedValues) saved values were replaced)" : ""
                Output.out("'\(id)': \(owner) now has the saves of \(done.from.name) (\(done.from.values) values\(best))\(replaced)\n")
            } catch {
                Output.err("arcade adopt: \(error)\n")
                if let others = try? store.owners(of: id, except: owner), !others.isEmpty {
                    for o in others {
                        Output.err("  --from \(o.owner.map(Self.shown) ?? "unowned"): \(o.name), \(o.values) values"
                                   + (o.bestScore.map { ", best score \($0)" } ?? "") + "\n")
                    }
                }
                throw ExitCode(1)
            }
        }

        /// What to type after `--from` for an owner.
        static func shown(_ owner: SaveOwner) -> String {
            if owner.key.hasPrefix("folder ") { return String(owner.key.dropFirst(7)) }
            if owner.key.hasPrefix("cart ") { return String(owner.key.dropFirst(5)) }
            return owner.key
        }

        /// The game named: a cart file, a game's folder, or an id the arcade finds.
        func target() throws -> (String, SaveOwner) {
            if CartCommands.namesCart(game) {
                let shelf = try CartCommands.shelf(dirs.extra, command: "adopt")
                do {
                    let cart = try shelf.load(game)
                    return (cart.id, .cart(cart.identity))
                } catch {
                    Output.err("arcade adopt: \(game): \(error)\n")
                    throw ExitCode(2)
                }
            }
            if GameCatalog.folderExists(game) {
                guard GameCatalog.isGameFolder(game), let entry = GameCatalog(paths: [game]).entries.first,
                      entry.manifest != nil else {
                    Output.err("arcade adopt: \(game) is not a game's folder (it holds no readable manifest.lua)\n")
                    throw ExitCode(2)
                }
                return (entry.id, entry.saveOwner)
            }
            let catalog = dirs.catalog(finding: game)
            guard let entry = catalog.holder(of: game) else {
                Output.err("arcade adopt: \(catalog.noGameMessage(game))\n")
                throw ExitCode(2)
            }
            return (entry.id, entry.saveOwner)
        }
    }
}
