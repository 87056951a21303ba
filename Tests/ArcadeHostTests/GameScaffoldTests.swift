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
        // the smoke script runs and the game keeps score
        let script = try ArcadeCore.InputScript.parse(String(contentsOfFile: folder + "/tests/smoke.input", encoding: .utf8))
        let session = try HeadlessRunner(entry: entry, options: .init(seed: 3), frames: 400, script: script).run()
        #expect(session.failure == nil)
        let state = try session.state()
        #expect((state["score"]?.intValue ?? 0) + (state["missed"]?.intValue ?? 0) >= 2)
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
