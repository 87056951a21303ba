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


import Foundation
import Testing

/// The built `arcade` executable: the test bundle sits in `.build/<config>/`, the executable
/// beside it. Nil when it was not built.
let builtArcade: String? = {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("arcade").path), dir.path != "/" {
        dir = dir.deletingLastPathComponent()
    }
    let path = dir.appendingPathComponent("arcade").path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
}()

/// The built `arcade` executable, or a test failure saying it is missing.
func arcadeExecutable() throws -> String {
    try #require(builtArcade, "arcade executable not built")
}
