import Testing
import ArcadeLua
@testable import ArcadeHost

/// Every game's score changed meaning when it became a run (points where it counted rounds,
/// one run where it added up every run): a best kept under the old rules is forgotten the
/// first time the game starts under the new ones, and only then.
@Suite struct ScoreRulesTests {
    @Test(arguments: ["ballcatch", "coinbank", "fishing", "giftcombo", "lastcircle"])
    func anOldBestIsForgottenOnceAndANewOneKept(id: String) throws {
        let store = SaveStore(location: .memory)
        // a player of the old rules: a best no run of the new ones can be compared with
        _ = try store.submitScore(987_654, game: id)
        try store.setValue(.int(3), game: id, key: "unrelated")

        let first = try GameDriver(id, store: store)
        first.step()
        #expect(try store.bestScore(game: id) == nil, "\(id) kept the old rules' best")
        #expect(try store.value(game: id, key: "unrelated") == .int(3), "\(id) lost a save of its own")
        first.session.close()

        // a best set under the new rules stays when the game starts again
        _ = try store.submitScore(42, game: id)
        let second = try GameDriver(id, store: store)
        second.step()
        #expect(try store.bestScore(game: id) == 42, "\(id) forgot a best of its own rules")
        second.session.close()
    }
}
