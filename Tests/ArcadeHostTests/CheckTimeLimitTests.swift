import Foundation
import Testing
@testable import ArcadeHost

/// `install` and `pack` run the game check under an overall limit of CPU time, stated in
/// their help, and refuse a game whose check runs past it with that reason; a slow but legal
/// game used to keep them busy for minutes.
@Suite struct CheckTimeLimitTests {
    /// A legal game that burns CPU time in every update (a few milliseconds).
    static func writeSlowGame(in world: CartWorld) throws -> String {
        let folder = world.work + "/slow"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
            return { id = "slow", title = "Slow", description = "busy every step", author = "tests",
                     version = "1", api = 1, controls = { { "space", "nothing" } } }
            """.write(toFile: folder + "/manifest.lua", atomically: true, encoding: .utf8)
        try """
            local game = {}
            function game.load() game.state.sum = 0 end
            function game.update(dt)
              local sum = 0
              for i = 1, 300000 do sum = (sum + i) % 1000003 end
              game.state.sum = sum
            end
            return game
            """.write(toFile: folder + "/main.lua", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func packRefusesAGameWhoseCheckRunsPastTheLimit() throws {
        let world = try CartWorld("slow-pack")
        _ = try Self.writeSlowGame(in: world)
        let pack = try world.arcade(["pack", "slow", "--check-limit", "0.3"])
        #expect(pack.status == 1, "\(pack.out) \(pack.err)")
        #expect(pack.err.contains("FAIL  slow: the check ran past 0.3 s of CPU time"), "\(pack.err)")
        #expect(!FileManager.default.fileExists(atPath: world.work + "/slow.arcade"))
    }

    @Test func installRefusesACartWhoseCheckRunsPastTheLimit() throws {
        let world = try CartWorld("slow-install")
        let folder = try Self.writeSlowGame(in: world)
        let entry = try #require(GameCatalog(paths: [folder]).entries.first)
        _ = try Cart.pack(entry).save(to: world.work + "/slow.arcade")
        let install = try world.arcade(["install", "slow.arcade", "--check-limit", "0.3"])
        #expect(install.status == 1)
        #expect(install.err.hasPrefix("arcade install: refused slow.arcade: its game fails arcade check: "
                                      + "the check ran past 0.3 s of CPU time"), "\(install.err)")
        #expect(world.isUntouched)
    }

    @Test func theLimitIsStatedInTheHelp() throws {
        let world = try CartWorld("slow-help")
        for command in ["install", "pack"] {
            let help = try world.arcade([command, "--help"])
            #expect(help.out.contains("--check-limit <SECONDS>"), "\(help.out)")
            #expect(help.out.contains("(default: 20"), "\(help.out)")
        }
        let bad = try world.arcade(["pack", "slow", "--check-limit", "0"])
        #expect(bad.status != 0 && bad.err.contains("--check-limit takes a number of seconds above 0"), "\(bad.err)")
    }

    /// The bundled games' checks take a small part of the default limit.
    @Test func aBundledGameIsFarFromTheLimit() {
        let checker = GameChecker(steps: 60, cpuLimit: GameChecker.defaultCPULimit)
        let entry = GameCatalog(searchDirs: [CartWorld.bundledGames]).game("coinbank")
        #expect(entry.map { checker.check($0).isEmpty } == true)
    }
}
