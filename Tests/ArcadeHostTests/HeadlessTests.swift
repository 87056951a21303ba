import Foundation
import Testing
import ArcadeCore
@testable import ArcadeHost

@Suite struct HeadlessTests {
    let script = try! InputScript.parse("""
        0 key r
        3 key r
        4 mouse press 10 5
        9 key r
        """)

    func stateJSON(seed: UInt64) throws -> String {
        let entry = try #require(fixtureCatalog().game("tiny"))
        let session = try HeadlessRunner(entry: entry, options: .init(seed: seed), frames: 40, script: script).run()
        return try session.state().json(pretty: true)
    }

    @Test func sameSeedAndScriptGiveIdenticalState() throws {
        let a = try stateJSON(seed: 11)
        #expect(a == (try stateJSON(seed: 11)))
        #expect(a != (try stateJSON(seed: 12)))
        #expect(a.contains("\"ticks\": 40"))
    }

    /// The real executable, end to end: exit codes, stdout JSON, stderr errors.
    @Test func commandLine() throws {
        func run(_ args: [String]) throws -> (Int32, String, String) {
            let r = try runArcade(args)
            return (r.status, r.out, r.err)
        }

        let scriptFile = FileManager.default.temporaryDirectory.appendingPathComponent("arcade-test-\(getpid()).txt")
        try script.text().write(to: scriptFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: scriptFile) }
        let common = ["play", "tiny", "--games", fixtureGames, "--headless", "--frames", "40", "--input", scriptFile.path, "--state"]
        let a = try run(common + ["--seed", "3"])
        let b = try run(common + ["--seed", "3"])
        let c = try run(common + ["--seed", "4"])
        #expect(a.0 == 0)
        #expect(a.1 == b.1)
        #expect(a.1 != c.1)
        #expect(a.1.contains("\"rolls\""))

        let crash = try run(["play", "crashy", "--games", fixtureGames, "--headless", "--frames", "60"])
        #expect(crash.0 == 1)
        #expect(crash.2.hasPrefix("crashy/main.lua:7: attempt to index a nil value (local 't')\n"
                                  + "in timer (arcade.after, crashy/main.lua:5)\nstack traceback:"))

        let missing = try run(["play", "nope", "--games", fixtureGames, "--headless"])
        #expect(missing.0 == 2)
        #expect(missing.2.contains("no game with id 'nope'"))

        let list = try run(["list", "--games", fixtureGames])
        #expect(list.0 == 0)
        #expect(list.1.contains("tiny"))
        #expect(list.1.contains("(broken) broken-manifest/manifest.lua: field 'title' must be a string, got number"))
    }
}
