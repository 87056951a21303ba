import Testing
import ArcadeCore
@testable import ArcadeHost

@Suite struct GameCheckerTests {
    @Test func reportsEachBrokenGameWithItsLocation() {
        let findings = GameChecker(steps: 60).check(fixtureCatalog())
        let byGame = Dictionary(grouping: findings, by: \.game)
        #expect(byGame["tiny"] == nil)
        #expect(byGame["broken-manifest"]?.first?.message == "broken-manifest/manifest.lua: field 'title' must be a string, got number")
        #expect(byGame["crashy"]?.first?.message == "crashy/main.lua:7: attempt to index a nil value (local 't') (seed 1)")
    }

    @Test func syntaxErrorsInAnyModuleAreFound() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}", "extra.lua": "local x = = 1"])
        let findings = GameChecker(steps: 10).check(try #require(g.entry))
        #expect(findings.map(\.message) == ["scratch/extra.lua:1: unexpected symbol near '='"])
    }

    @Test func randomInputIsDeterministicAndInsideTheCanvas() {
        let a = GameChecker.randomInput(seed: 4, steps: 300, size: .fallback)
        #expect(a == GameChecker.randomInput(seed: 4, steps: 300, size: .fallback))
        #expect(a != GameChecker.randomInput(seed: 5, steps: 300, size: .fallback))
        for e in a.entries {
            if case .mouse(let m) = e.event { #expect(m.col < 80 && m.row < 24) }
        }
    }
}
