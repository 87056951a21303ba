import Foundation
import Testing
@testable import ArcadeHost

@Suite struct GameScaffoldTests {
    @Test func scaffoldedGamePassesTheCheckUntouched() throws {
        let root = NSTemporaryDirectory() + "arcade-scaffold-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = try GameScaffold.create(id: "star-catch", in: root)
        #expect(FileManager.default.fileExists(atPath: folder + "/tests/smoke.input"))
        let catalog = GameCatalog(searchDirs: [root])
        let entry = try #require(catalog.game("star-catch"))
        #expect(entry.title == "Star Catch")
        #expect(GameChecker(steps: 300).check(entry).isEmpty)
        // its Lua tests pass (two tests, then the determinism check)
        let tested = GameTestRunner().run(entry)
        #expect(tested.map(\.kind) == [.test("a star lands every 2.4 seconds, caught or missed"),
                                       .test("a press nudges the basket; held down, it glides until released"), .determinism])
        #expect(tested.allSatisfy { $0.passed }, "\(tested.map(\.line))")
        // the smoke script runs and the game keeps score
        let script = try ArcadeCore.InputScript.parse(String(contentsOfFile: folder + "/tests/smoke.input", encoding: .utf8))
        let session = try HeadlessRunner(entry: entry, options: .init(seed: 3), frames: 400, script: script).run()
        #expect(session.failure == nil)
        let state = try session.state()
        #expect((state["score"]?.intValue ?? 0) + (state["missed"]?.intValue ?? 0) >= 2)
    }

    /// `--title` and `--description` reach the manifest (quotes and all); without them the
    /// description does not pass for the finished game's.
    @Test func titleAndDescriptionReachTheManifest() throws {
        let root = NSTemporaryDirectory() + "arcade-scaffold-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try GameScaffold.create(id: "whack", title: "Whack \"a\" Mole", description: "Moles pop up \\ whack them.", in: root)
        try GameScaffold.create(id: "plain", in: root)
        let catalog = GameCatalog(searchDirs: [root])
        let whack = try #require(catalog.game("whack")?.manifest)
        #expect(whack.title == "Whack \"a\" Mole")
        #expect(whack.description == "Moles pop up \\ whack them.")
        let plain = try #require(catalog.game("plain")?.manifest)
        #expect(plain.title == "Plain")
        #expect(plain.description != "Catch the falling star.")
        #expect(plain.description.contains("describe yours"))
        #expect(throws: GameScaffold.Problem.self) { try GameScaffold.create(id: "two", description: "a\nb", in: root) }
    }

    /// The scaffold follows its own advice: its timer and animation callbacks are game
    /// functions, so an edit to what happens when a star lands runs at the next landing.
    @Test func theScaffoldsCallbackChainRunsEditedCode() throws {
        let root = NSTemporaryDirectory() + "arcade-scaffold-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = try GameScaffold.create(id: "stars", in: root)
        let session = try GameSession(entry: try #require(GameCatalog(searchDirs: [root]).game("stars")),
                                      options: .init(dev: true))
        func landings() throws -> Int64 {
            let st = try session.state()
            return (st["score"]?.intValue ?? 0) + (st["missed"]?.intValue ?? 0)
        }
        func stepWhile(_ n: Int64) throws {
            for _ in 0..<1000 where try landings() == n { session.step() }
        }
        try stepWhile(0)
        let main = try String(contentsOfFile: folder + "/main.lua", encoding: .utf8)
        let edited = main.replacingOccurrences(of: "s.score = s.score + 1", with: "s.score = s.score + 100")
            .replacingOccurrences(of: "s.missed = s.missed + 1", with: "s.missed = s.missed + 100")
        #expect(edited != main)
        try edited.write(toFile: folder + "/main.lua", atomically: false, encoding: .utf8)
        #expect(session.reload() == nil)
        // the star in the air was dropped by the old code; it lands into the new game.landed
        try stepWhile(1)
        #expect(try landings() == 101)
        try stepWhile(101)
        #expect(try landings() == 201)
        #expect(session.failure == nil)
    }

    @Test func refusesBadIdsAndExistingFolders() throws {
        let root = NSTemporaryDirectory() + "arcade-scaffold-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(throws: GameScaffold.Problem.self) { try GameScaffold.create(id: "Bad Id", in: root) }
        try GameScaffold.create(id: "twice", in: root)
        #expect(throws: GameScaffold.Problem.self) { try GameScaffold.create(id: "twice", in: root) }
    }
}
import ArcadeCore
