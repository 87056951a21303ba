import Foundation
import Testing
@testable import ArcadeHost

/// The tutorial in `docs/writing-games.md` (Part 1) works as written: its manifest, its
/// `main.lua` and its `tests/play.lua`, copied out of the page, make a game whose tests pass
/// and that passes `arcade check`, and whose `main.lua` reloads mid-play.
@Suite struct TutorialTests {
    /// The Lua code blocks of Part 1, in page order.
    static func partOneBlocks() throws -> [String] {
        let page = try String(contentsOfFile: DefinitionsTests.repoRoot + "/docs/writing-games.md", encoding: .utf8)
        let start = try #require(page.range(of: "## Part 1:")), end = try #require(page.range(of: "## Part 2:"))
        var blocks: [String] = []
        var current: [Substring]?
        for line in page[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```lua" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func theTutorialsGameWorksAsWritten() throws {
        let blocks = try Self.partOneBlocks()
        let manifest = try #require(blocks.first { $0.hasPrefix("return {") && $0.contains("id = \"dodge\"") })
        let main = try #require(blocks.first { $0.contains("function game.load") && $0.contains("return game") })
        let tests = try #require(blocks.first { $0.hasPrefix("-- games/dodge/tests/play.lua") })
        let g = try ScratchGame(id: "dodge", files: ["main.lua": main, "tests/play.lua": tests])
        try g.write("manifest.lua", manifest)
        let entry = try #require(GameCatalog(searchDirs: [g.root]).game("dodge"))
        #expect(entry.isPlayable, "\(entry.problem ?? "")")
        let results = GameTestRunner().run(entry)
        #expect(results.count == 4, "three tests and the determinism check: \(results.map(\.line))")
        #expect(results.allSatisfy { $0.passed }, "\(results.map(\.line))")
        #expect(GameChecker(steps: 300).check(entry).isEmpty)

        let session = try GameSession(entry: entry, options: .init(seed: 7, dev: true))
        for _ in 0..<90 { session.step(events: session.frame == 10 ? [.key(.init("left"))] : []) }
        #expect(session.reload() == nil)
        for _ in 0..<90 { session.step() }
        #expect(session.failure == nil)
    }
}
