import Foundation
import Testing
@testable import ArcadeHost

/// The commands find a game in the folder they run in: `arcade test` inside a game's folder
/// tests that game, `arcade test rocks` beside a `rocks/` folder finds it, and so do `play`,
/// `dev` and `check`; they say which folder the game came from. A game by an id the arcade's
/// own games hold is never taken from the current folder.
@Suite struct CurrentFolderTests {
    static let main = """
        local game = {}
        function game.load() game.state.from = "rocks here" end
        function game.input(e) if e.type == "key" then game.state.keys = (game.state.keys or 0) + 1 end end
        return game
        """
    static let test = """
        test("loads", function(t)
          local g = t:start()
          expect(g:state().from):to_equal("rocks here")
        end)
        """

    /// A folder holding the game `rocks` (with one Lua test), and an environment whose
    /// installed games are none.
    static func rocks() throws -> (ScratchGame, [String: String]) {
        let game = try ScratchGame(id: "rocks", files: ["main.lua": main, "tests/a.lua": test])
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_HOME"] = game.root + "/home"
        env.removeValue(forKey: "ARCADE_GAMES_DIR")
        return (game, env)
    }

    @Test func testInsideAGamesFolderTestsThatGame() throws {
        let (game, env) = try Self.rocks()
        let r = try runArcade(["test", "--no-determinism"], environment: env, in: game.folder)
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out == "ok    rocks/tests/a.lua  loads\n1 passed, 0 failed\n")
        #expect(r.err.contains("testing the game in \(game.folder) (the current folder)"), "\(r.err)")
        // named, from inside its folder, too
        let named = try runArcade(["test", "rocks", "--no-determinism"], environment: env, in: game.folder)
        #expect(named.status == 0, "\(named.out)\(named.err)")
        #expect(named.out.hasPrefix("ok    rocks/tests/a.lua  loads\n"))
    }

    @Test func aGameBesideIsFoundByIdAndTheMessageSaysWhere() throws {
        let (game, env) = try Self.rocks()
        let r = try runArcade(["test", "rocks", "--no-determinism"], environment: env, in: game.root)
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out == "ok    rocks/tests/a.lua  loads\n1 passed, 0 failed\n")
        #expect(r.err.contains("'rocks' is the game in \(game.folder), found in the current folder"), "\(r.err)")
        #expect(r.err.contains("kept under the id 'rocks'"))

        let play = try runArcade(["play", "rocks", "--headless", "--frames", "3", "--state"], environment: env, in: game.root)
        #expect(play.status == 0, "\(play.err)")
        #expect(play.out.contains("\"from\": \"rocks here\""), "\(play.out)")
        #expect(play.err.contains("'rocks' is the game in \(game.folder), found in the current folder"))
        let inside = try runArcade(["play", "rocks", "--headless", "--frames", "3", "--state"], environment: env,
                                   in: game.folder)
        #expect(inside.status == 0 && inside.out.contains("rocks here"), "\(inside.err)")

        // dev finds it as well (then stops: there is no terminal here)
        let dev = try runArcade(["dev", "rocks"], environment: env, in: game.root)
        #expect(dev.err.contains("found in the current folder") && !dev.err.contains("no game with id"), "\(dev.err)")

        // pack by id, from inside the game's folder (no `rocks/` beside to take as a folder)
        let pack = try runArcade(["pack", "rocks", "-o", game.root + "/rocks.arcade"], environment: env, in: game.folder)
        #expect(pack.status == 0, "\(pack.out)\(pack.err)")
        #expect(pack.err.contains("'rocks' is the game in \(game.folder), found in the current folder"), "\(pack.err)")
        #expect(FileManager.default.fileExists(atPath: game.root + "/rocks.arcade"))

        // check, inside the game's folder, checks that game alone
        let check = try runArcade(["check", "--steps", "30"], environment: env, in: game.folder)
        #expect(check.status == 0, "\(check.out)\(check.err)")
        #expect(check.out.hasSuffix("\nok    rocks\n1 passed, 0 failed\n"), "\(check.out)")
    }

    @Test func anIdFoundNowhereSuggestsGamesDir() throws {
        let (game, env) = try Self.rocks()
        for args in [["test", "nope"], ["play", "nope", "--headless"]] {
            let r = try runArcade(args, environment: env, in: game.root)
            #expect(r.status == 2)
            #expect(r.err.contains("no game with id 'nope'") && r.err.contains("--games ."), "\(r.err)")
        }
    }

    /// A folder `fishing/` here claiming the id of one of the arcade's own games is not what
    /// `arcade play fishing` plays: the arcade's own game keeps its id (and its saves).
    @Test func aFolderHereIsNeverTakenForTheArcadesOwnGame() throws {
        let game = try ScratchGame(id: "fishing", files: ["main.lua": Self.main])
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_HOME"] = game.root + "/home"
        env.removeValue(forKey: "ARCADE_GAMES_DIR")
        let r = try runArcade(["play", "fishing", "--headless", "--frames", "1", "--state"], environment: env, in: game.root)
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.out.contains("rocks here") && !r.err.contains("current folder"), "\(r.out)\(r.err)")
    }
}
