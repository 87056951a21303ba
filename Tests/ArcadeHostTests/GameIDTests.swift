import Foundation
import Testing
import ArcadeRender
@testable import ArcadeHost

/// A folder of games written by a test: `games` maps a folder name to the id its manifest
/// claims; each game's state says which folder it is and what it found in the saves.
final class GamesFolder {
    let root: String

    init(_ games: [String: String]) throws {
        root = NSTemporaryDirectory() + "arcade-ids-\(UUID().uuidString)"
        for (name, id) in games {
            let folder = root + "/" + name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "return { id = \"\(id)\", title = \"\(name)\", description = \"the game in \(name)\", author = \"tests\", version = \"1\", api = 1 }"
                .write(toFile: folder + "/manifest.lua", atomically: true, encoding: .utf8)
            try """
                local game = {}
                function game.load()
                  game.state.who = "\(name)"
                  game.state.found = arcade.save.get("wallet") or "nothing"
                  game.state.best = arcade.score.best() or "none"
                  arcade.save.set("wallet", "taken by \(name)")
                  arcade.score.submit(1000000)
                end
                return game
                """.write(toFile: folder + "/main.lua", atomically: true, encoding: .utf8)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

/// One id, one game: the saves and best score kept under an id are that game's alone. The
/// arcade's own games cannot be shadowed, installed games not by a folder given on the
/// command line, and a duplicate is reported (list, menu, check), never played.
@Suite(.serialized) struct GameIDTests {
    /// Runs the arcade with the arcade's own games in `bundled` and the user's data folder
    /// `data` (its `arcade/games` holds the installed games).
    static func arcade(_ args: [String], bundled: String, data: String) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try arcadeExecutable())
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["ARCADE_GAMES_DIR"] = bundled
        env["XDG_DATA_HOME"] = data
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// A user's data folder whose `arcade/games` holds `games` (folder name to id), installed.
    static func dataFolder(installing games: [String: String]) throws -> ScratchFolder {
        let data = ScratchFolder()
        let installed = try GamesFolder(games)
        try FileManager.default.createDirectory(atPath: data.path + "/arcade", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: installed.root, toPath: data.path + "/arcade/games")
        return data
    }

    /// The saves of game `vault`: a wallet and a best score, as the real game left them.
    static func seedSaves(in data: String) throws {
        let store = SaveStore(location: .file(SaveStore.path(inDataDirectory: data + "/arcade")))
        try store.setValue(.string("the real vault's 500 coins"), game: "vault", key: "wallet")
        _ = try store.submitScore(900, game: "vault")
        store.close()
    }

    static func expectSavesUntouched(in data: String) throws {
        let store = SaveStore(location: .file(SaveStore.path(inDataDirectory: data + "/arcade")))
        #expect(try store.value(game: "vault", key: "wallet") == .string("the real vault's 500 coins"))
        #expect(try store.bestScore(game: "vault") == 900)
    }

    @Test func anInstalledGameCannotShadowOneOfTheArcadesOwn() throws {
        let bundled = try GamesFolder(["real": "vault"])
        let data = try Self.dataFolder(installing: ["impostor": "vault"])
        try Self.seedSaves(in: data.path)

        let list = try Self.arcade(["list"], bundled: bundled.root, data: data.path)
        #expect(list.out.contains("vault  real: the game in real"), "\(list.out)")
        #expect(list.out.contains("vault  (broken) duplicate id 'vault': \(data.path)/arcade/games/impostor is ignored because "
                                  + "\(bundled.root)/real (one of the arcade's own games) has the same id"))

        let play = try Self.arcade(["play", "vault", "--headless", "--frames", "1", "--state", "--data", data.path + "/arcade"],
                                   bundled: bundled.root, data: data.path)
        #expect(play.status == 0, "\(play.err)")
        #expect(play.out.contains("\"who\": \"real\""), "\(play.out)")
        #expect(play.err.contains("duplicate id 'vault': \(data.path)/arcade/games/impostor is ignored"))
    }

    @Test func aGivenFolderCannotTakeTheIdOfAnInstalledGame() throws {
        let bundled = try GamesFolder([:])
        let data = try Self.dataFolder(installing: ["real": "vault"])
        try Self.seedSaves(in: data.path)
        let given = try GamesFolder(["impostor": "vault"])

        // the impostor can neither run under the id nor read or overwrite the real game's saves
        let play = try Self.arcade(["play", "vault", "--games", given.root, "--headless", "--frames", "1", "--state",
                                    "--data", data.path + "/arcade"], bundled: bundled.root, data: data.path)
        #expect(play.out.contains("\"who\": \"real\""), "\(play.out)")
        #expect(play.out.contains("\"found\": \"the real vault's 500 coins\""))
        let list = try Self.arcade(["list", "--games", given.root], bundled: bundled.root, data: data.path)
        #expect(list.out.contains("(broken) duplicate id 'vault': \(given.root)/impostor is ignored because "
                                  + "\(data.path)/arcade/games/real (an installed game) has the same id"), "\(list.out)")
        let check = try Self.arcade(["check", "--steps", "5"], bundled: bundled.root, data: data.path)
        #expect(check.status == 0)  // the installed game alone: nothing is a duplicate
        let checkBoth = try Self.arcade(["check", "--steps", "5", given.root], bundled: bundled.root, data: data.path)
        #expect(checkBoth.out.contains("warn  vault: the id 'vault' is already held by \(data.path)/arcade/games/real "
                                       + "(an installed game): in the arcade this game is a duplicate and is not played; choose another id"),
                "\(checkBoth.out)")
    }

    /// The usual way into this: a game packed and installed, and work going on in its folder.
    /// Hot reload would watch the installed copy, so `arcade dev` says so before it starts.
    @Test func devRefusesAnIdTwoGamesClaim() throws {
        let bundled = try GamesFolder([:])
        let data = try Self.dataFolder(installing: ["rocket": "rocket"])
        let working = try GamesFolder(["rocket": "rocket"])

        let dev = try Self.arcade(["dev", "rocket", "--games", working.root], bundled: bundled.root, data: data.path)
        #expect(dev.status == 2)
        #expect(dev.err == "arcade dev: 'rocket' is claimed by \(data.path)/arcade/games/rocket (an installed game) and by "
                + "\(working.root)/rocket; dev would run and watch the first, so edits to the other would not reload: remove the "
                + "installed copy with `arcade uninstall rocket` (its saves stay), or give the other game another id\n",
                "\(dev.err)")

        // one claimant: dev goes on to the terminal (absent here)
        let alone = try Self.arcade(["dev", "rocket"], bundled: bundled.root, data: data.path)
        #expect(alone.status == 2)
        #expect(alone.err.contains("not a terminal"), "\(alone.err)")
        #expect(!alone.err.contains("claimed by"))

        // a clash with one of the arcade's own games: the other game must change its id
        let own = try GamesFolder(["rocket": "rocket"])
        let clash = try Self.arcade(["dev", "rocket", "--games", working.root], bundled: own.root, data: ScratchFolder().path)
        #expect(clash.err.contains("(one of the arcade's own games) and by \(working.root)/rocket"), "\(clash.err)")
        #expect(clash.err.hasSuffix("give the other game another id: the arcade's own games keep theirs\n"))
    }

    /// A new game never starts under an id the arcade already plays a game under.
    @Test func newRefusesAnIdTheArcadePlays() throws {
        let bundled = try GamesFolder(["real": "vault"])
        let data = try Self.dataFolder(installing: ["mine": "rocket"])
        let work = ScratchFolder()

        let own = try Self.arcade(["new", "vault", "--dir", work.path + "/games"], bundled: bundled.root, data: data.path)
        #expect(own.status == 2)
        #expect(own.err == "arcade new: the id 'vault' is taken by \(bundled.root)/real (one of the arcade's own games), "
                + "and the arcade plays one game per id: choose another\n", "\(own.err)")
        let mine = try Self.arcade(["new", "rocket", "--dir", work.path + "/games"], bundled: bundled.root, data: data.path)
        #expect(mine.err.contains("'rocket' is taken by \(data.path)/arcade/games/mine (an installed game)"), "\(mine.err)")
        #expect(!FileManager.default.fileExists(atPath: work.path + "/games"))

        let free = try Self.arcade(["new", "comet", "--dir", work.path + "/games"], bundled: bundled.root, data: data.path)
        #expect(free.status == 0, "\(free.err)")
        #expect(FileManager.default.fileExists(atPath: work.path + "/games/comet/main.lua"))
    }

    @Test func theSavesOfAGameAreNeverReachedByAnImpostor() throws {
        let bundled = try GamesFolder(["real": "vault"])
        let data = ScratchFolder()
        try Self.seedSaves(in: data.path)
        let given = try GamesFolder(["impostor": "vault"])
        let play = try Self.arcade(["play", "vault", "--games", given.root, "--headless", "--frames", "1", "--state",
                                    "--data", data.path + "/arcade"], bundled: bundled.root, data: data.path)
        #expect(play.out.contains("\"who\": \"real\""), "\(play.out)")
        #expect(!play.out.contains("\"who\": \"impostor\""))
        // the real game ran (and saved); no run of the impostor left its mark
        let store = SaveStore(location: .file(SaveStore.path(inDataDirectory: data.path + "/arcade")))
        #expect(try store.value(game: "vault", key: "wallet") == .string("taken by real"))
        store.close()
    }

    @Test func theCatalogSaysWhoHoldsAnId() throws {
        let bundled = try GamesFolder(["coins": "coins", "shadowed": "cards"])
        let installed = try GamesFolder(["cards": "cards", "snake": "snake"])
        let given = try GamesFolder(["mine": "snake", "new": "fresh", "again": "fresh"])
        let c = GameCatalog(bundled: bundled.root, installed: installed.root, given: [given.root])
        #expect(c.isBundled("coins") && c.isBundled("cards") && !c.isBundled("snake"))
        #expect(c.isInstalled("snake") && !c.isInstalled("cards") && !c.isInstalled("fresh"))
        #expect(c.isTaken("fresh") && c.isTaken("coins") && !c.isTaken("nobody"))
        #expect(c.holder(of: "cards")?.folder == bundled.root + "/shadowed")
        #expect(c.holder(of: "snake")?.folder == installed.root + "/snake")
        #expect(c.game("snake")?.origin == .installed)
        #expect(c.holder(of: "fresh")?.folder == given.root + "/again")  // the first in its folder
        #expect(c.duplicates(of: "cards").map(\.folder) == [installed.root + "/cards"])
        #expect(c.duplicates(of: "snake").map(\.folder) == [given.root + "/mine"])
        #expect(c.duplicates(of: "fresh").map(\.folder) == [given.root + "/new"])
        #expect(c.duplicates(of: "coins").isEmpty)
        // the search order (given, installed, the arcade's own) is the listing's
        #expect(c.entries.map(\.origin) == [.given, .given, .given, .installed, .installed, .bundled, .bundled])
        #expect(c.entries.filter(\.isPlayable).map(\.id).sorted() == ["cards", "coins", "fresh", "snake"])
    }

    @Test func theMenuShowsTheDuplicateAsBroken() throws {
        let bundled = try GamesFolder(["real": "vault"])
        let given = try GamesFolder(["impostor": "vault"])
        let menu = MenuScreen(catalog: GameCatalog(bundled: bundled.root, installed: nil, given: [given.root]))
        var frame = Frame(columns: 80, rows: 24)
        menu.render(cols: 80, rows: 24, into: &frame)
        let text = frame.plainLines { _ in true }.joined(separator: "\n")
        #expect(text.contains("✗ vault  broken: duplicate id 'vault'"), "\(text)")
        #expect(text.contains("the game in real"))
        #expect(menu.catalog.game("vault")?.folder == bundled.root + "/real")
    }
}
