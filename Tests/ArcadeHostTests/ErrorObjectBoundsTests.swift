import Foundation
import Testing
import ArcadeCore
@testable import ArcadeLua
@testable import ArcadeHost

/// A game's error may be megabytes long (`error(string.rep(...))`, or a table whose
/// `__tostring` makes them), or its `__tostring` may never return. Every error still
/// becomes a message of bounded length, under the budget, so the error card, stderr and
/// the log show it at once.
@Suite struct ErrorObjectBoundsTests {
    static func reloadError(raising raise: String) throws -> LuaError {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load() game.state.n = 0 end
            function game.update() game.state.n = game.state.n + 1 end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        session.step()
        try g.write("main.lua", """
            local game = {}
            function game.load() game.state.n = 0 end
            function game.update() game.state.n = game.state.n + 1 end
            function game.reload(state)
              \(raise)
            end
            return game
            """)
        let error = try #require(session.reload())
        // the old code keeps running
        session.step()
        #expect(try session.state()["n"] == .int(2))
        #expect(session.reloadError == error)
        return error
    }

    @Test func aTableWhoseTostringMakesMegabytesBecomesABoundedMessage() throws {
        let error = try Self.reloadError(raising: """
            error(setmetatable({}, { __tostring = function() return string.rep("boom ", 800000) end }))
            """)
        #expect(error.kind == .runtime)
        #expect(error.message.hasPrefix("scratch/main.lua:5: boom boom"), "\(error.message.prefix(80))")
        #expect(error.message.hasSuffix("... (cut: 4000020 bytes in all)"), "\(error.message.suffix(80))")
        #expect(error.message.utf8.count <= LuaError.maxMessageBytes + 60)
        #expect(error.traceback.hasPrefix("stack traceback:\n"))
        #expect(error.traceback.utf8.count <= LuaError.maxTracebackBytes + 60)
        #expect(error.description.utf8.count < 12_000)
    }

    @Test func aStringErrorMegabytesLongIsCutAtACharacter() throws {
        let error = try Self.reloadError(raising: #"error(string.rep("é", 3000000))"#)
        #expect(error.message.hasPrefix("scratch/main.lua:5: ééé"))
        #expect(error.message.hasSuffix("... (cut: 6000020 bytes in all)"), "\(error.message.suffix(60))")
        #expect(!error.message.contains("\u{FFFD}"))
        #expect(error.message.utf8.count <= LuaError.maxMessageBytes + 60)
        #expect(error.file == "scratch/main.lua" && error.line == 5)
    }

    @Test func aTostringThatNeverReturnsIsStoppedByTheBudget() throws {
        let error = try Self.reloadError(raising: """
            error(setmetatable({}, { __tostring = function() while true do end end }))
            """)
        #expect(error.kind == .budget, "\(error)")
        #expect(error.message.utf8.count <= LuaError.maxMessageBytes + 60)
    }

    @Test func cuttingKeepsWholeCharactersAndSaysHowLongItWas() {
        func clipped(_ text: String, _ limit: Int) -> String {
            Array(text.utf8).withUnsafeBytes { LuaError.clipped($0, to: limit) }
        }
        #expect(clipped("short", 10) == "short")
        #expect(clipped("ééé", 3) == "é... (cut: 6 bytes in all)")
        #expect(clipped("abcdef", 3) == "abc... (cut: 6 bytes in all)")
    }
}
