import Foundation
import Testing
import ArcadeLua
@testable import ArcadeHost

/// Long work inside one call, seen from a running game and from the command line: a
/// pathological pattern in a game's callback or in a manifest stops with the budget error,
/// and huge shapes are clipped to the canvas before anything loops over them.
@Suite(.serialized) struct LongCallSessionTests {
    let options = GameSession.Options(seed: 1, limits: .init(secondsPerCall: 0.2))

    @Test(arguments: [
        "string.find(string.rep('a', 60000), '.-.-.-.-b')",
        "local s = string.rep('a', 30000) for w in s:gmatch('a-a-a-b') do end",
        "table.move({}, 1, 1e15, 2)",
    ])
    func aGameCallbackIsStopped(_ call: String) throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.update(dt)
              game.state.steps = (game.state.steps or 0) + 1
              if game.state.steps == 2 then \(call) end
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry), options: options)
        defer { session.close() }
        session.step()
        #expect(session.failure == nil)
        session.step()
        let failure = try #require(session.failure)
        #expect(failure.kind == .budget)
        #expect(failure.message == "scratch/main.lua:4: update() exceeded its time budget", "\(failure)")
    }

    @Test func hugeShapesAreClippedBeforeTheyAreDrawn() throws {
        // Drawn unclipped, one of these would visit ~10^30 pixels; the budget is only a
        // safety net here (it cannot interrupt native drawing), so the frame must simply end.
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.draw(gfx)
              for i = 1, 20 do
                gfx.line(-1e15, -1e15, 1e15, 1e15, "white", 3)
                gfx.line(-1e15, 7, 1e15, 7, "red", 1e15)
                gfx.fill_circle(10, 10, 1e15, "blue")
                gfx.circle(10, 10, 1e15, "green", 1e14)
                gfx.fill_rect(-1e15, -1e15, 2e15, 2e15, "black")
                gfx.rect(-1e15, -1e15, 2e15, 2e15, "red", 1e15)
                gfx.push()
                gfx.rotate(0.7)
                gfx.scale(1e12, 1e12)
                gfx.fill_rect(-1, -1, 2, 2, "yellow")
                gfx.circle(0, 0, 1, "white")
                gfx.pop()
              end
              game.state.drawn = (game.state.drawn or 0) + 1
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry),
                                       options: .init(seed: 1, limits: .init(secondsPerCall: 5)))
        defer { session.close() }
        for _ in 0..<3 { _ = session.renderFrame() }
        #expect(session.failure == nil, "\(String(describing: session.failure))")
        #expect(try session.state()["drawn"] == .int(3))
    }

    // MARK: Manifests

    /// `arcade` with `args`, killed (and reported) if it is still running after `seconds`.
    func runArcade(_ args: [String], seconds: Double) throws -> (status: Int32, out: String, timedOut: Bool) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try arcadeExecutable())
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        let timedOut = p.isRunning
        if timedOut { p.terminate() }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), timedOut)
    }

    @Test func aPathologicalPatternInAManifestDoesNotHangTheList() throws {
        let root = try temporaryFolder("long-manifest")
        defer { try? FileManager.default.removeItem(atPath: root) }
        func game(_ id: String, title: String) throws {
            try FileManager.default.createDirectory(atPath: "\(root)/\(id)", withIntermediateDirectories: true)
            try """
                local s = ("a"):rep(60000)
                return { id = "\(id)", title = \(title), description = "d", author = "a", version = "1", api = 1 }
                """.write(toFile: "\(root)/\(id)/manifest.lua", atomically: false, encoding: .utf8)
            try "return {}".write(toFile: "\(root)/\(id)/main.lua", atomically: false, encoding: .utf8)
        }
        // the environment of a manifest is empty, but string methods are there
        try game("afind", title: #"s:find(".-.-.-.-b") and "x" or "Find""#)
        try game("bgsub", title: #"s:gsub(".-.-.-b", "") and "Gsub""#)
        try game("cgmatch", title: #"s:gmatch("a-a-a-b")() or "Gmatch""#)
        try game("drep", title: #"(""):rep(0x7fffffffffffffff) .. "Rep""#)
        try game("fine", title: #""Fine""#)
        let r = try runArcade(["list", "--games", root], seconds: 30)
        #expect(!r.timedOut, "arcade list hung on a manifest")
        let lines = r.out.split(separator: "\n").map(String.init)
        for id in ["afind", "bgsub", "cgmatch"] {
            let line = lines.first { $0.hasPrefix(id + " ") } ?? ""
            #expect(line.contains("(broken) \(id)/manifest.lua:2: reading \(id)/manifest.lua exceeded its time budget"), "\(r.out)")
        }
        #expect(lines.contains { $0.hasPrefix("drep ") && $0.hasSuffix("Rep: d") }, "\(r.out)")
        #expect(lines.contains { $0.hasPrefix("fine ") && $0.hasSuffix("Fine: d") }, "\(r.out)")
    }
}
