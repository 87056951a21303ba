@testable import ArcadeHost
import ArcadeCore

/// The fixture games folder.
let fixtureGames: String = {
    let file = String(#filePath)
    return String(file[..<file.lastIndex(of: "/")!]) + "/Fixtures/games"
}()

func fixtureCatalog() -> GameCatalog {
    GameCatalog(searchDirs: [fixtureGames])
}

/// Starts a fixture game.
func startFixture(_ id: String, seed: UInt64 = 1) throws -> GameSession {
    let entry = try #require(fixtureCatalog().game(id))
    return try GameSession(entry: entry, options: .init(seed: seed))
}

import Testing
