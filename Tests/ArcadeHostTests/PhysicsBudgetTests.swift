import Testing
@testable import ArcadeCore
import ArcadeRender
@testable import ArcadeLua
@testable import ArcadeHost

/// Balls piled at one point make a world's search for pairs quadratic. The search stops at
/// the step's deadline and at what the memory cap leaves room for, before anything moves,
/// instead of running on for seconds or allocating past the cap.
@Suite struct PhysicsBudgetTests {
    static func piled(_ count: Int) -> String {
        Hostile.loading("""
            game.w = arcade.physics.world{ gravity = { 0, 0 }, bounds = false }
            for i = 1, \(count) do game.w:add_ball{ x = 40, y = 24, radius = 2 } end
            """)
    }

    /// A session of `main` with the given memory cap and step budget; `callSeconds` is each
    /// callback's budget, `load` included.
    static func session(_ main: String, memory: Int, stepSeconds: Double, callSeconds: Double = 1) throws
        -> (ScratchGame, GameSession)
    {
        let game = try ScratchGame(files: ["main.lua": main])
        let limits = LuaVM.Limits(memoryBytes: memory, secondsPerCall: callSeconds, secondsPerStep: stepSeconds)
        let session = try GameSession(entry: try #require(game.entry), options: GameSession.Options(limits: limits))
        return (game, session)
    }

    @Test func aPileStopsAtTheStepsDeadlineBeforeAnythingMoves() throws {
        // 2,500 balls at one point: over 3 million pairs, which the cap leaves room for
        let (game, session) = try Self.session(Self.piled(2500), memory: 1 << 30, stepSeconds: 0.05)
        _ = game
        session.step()
        let failure = try #require(session.failure)
        #expect(failure.kind == .budget, "\(failure.message)")
        #expect(failure.message.contains("ran past its time budget in physics"), "\(failure.message)")
        let world = try #require(session.physicsModule.runtime.worlds.first?.world)
        #expect(world.stopped == .asked, "the search ran to its end: \(String(describing: world.stopped))")
        #expect(world.candidates.count < 2500 * 2499 / 2, "every pair was gathered")
    }

    @Test func aPileStopsAtWhatTheMemoryCapLeavesRoomFor() throws {
        let (game, session) = try Self.session(Self.piled(3000), memory: 24 << 20, stepSeconds: 30)
        _ = game
        session.step()
        let failure = try #require(session.failure)
        #expect(failure.kind == .memory, "\(failure.message)")
        #expect(failure.message.contains("balls piled at one place?"), "\(failure.message)")
        let world = try #require(session.physicsModule.runtime.worlds.first?.world)
        guard case .tooManyPairs(let pairs) = world.stopped else {
            Issue.record("the search was not stopped for memory: \(String(describing: world.stopped))")
            return
        }
        #expect(pairs < (24 << 20) / PhysicsWorlds.bytesPerPair + 4096, "\(pairs) pairs gathered")
    }

    /// Balls that are not piled never meet either stop.
    @Test func anOrdinaryWorldIsNeverStopped() throws {
        let (game, session) = try Self.session(Hostile.loading("""
            game.w = arcade.physics.world{ gravity = { 0, 1 } }
            for i = 1, 400 do game.w:add_ball{ x = (i * 7) % 80, y = (i * 13) % 48, radius = 1 } end
            """), memory: 64 << 20, stepSeconds: 1)
        _ = game
        for _ in 0..<30 { session.step() }
        #expect(session.failure == nil, "\(session.failure?.message ?? "")")
        #expect(session.physicsModule.runtime.worlds.first?.world.stopped == nil)
    }
}

/// A world of very many walls makes every ball look at each: that too stops at the deadline.
@Suite struct PhysicsWallBudgetTests {
    @Test func manyWallsStopAtTheStepsDeadline() throws {
        let (game, session) = try PhysicsBudgetTests.session(Hostile.loading("""
            game.w = arcade.physics.world{ gravity = { 0, 1 }, bounds = false }
            for i = 0, 99999 do game.w:add_wall(nil, { x = i % 400, y = 100 + i // 400, width = 0.5, height = 0.5 }) end
            for i = 1, 3000 do game.w:add_ball{ x = (i * 7) % 400, y = (i * 13) % 90, radius = 1 } end
            """), memory: 1 << 30, stepSeconds: 0.05, callSeconds: 60)
        // (building 100,000 walls takes `load` about a second in a debug build on a busy
        // machine: its budget is not what this test is about)
        _ = game
        session.step()
        let failure = try #require(session.failure)
        #expect(failure.message.contains("ran past its time budget in physics"), "\(failure.message)")
        #expect(session.physicsModule.runtime.worlds.first?.world.stopped == .asked)
    }
}

/// A node bound to a ball of a wrap-around world shows on both sides of the edge the ball
/// straddles, with no Lua looking at it: the world tells the node its region.
@Suite struct PhysicsWrapDrawingTests {
    @Test func aBoundNodeAcrossTheRightEdgeShowsAtTheLeftToo() throws {
        let (game, session) = try PhysicsBudgetTests.session(Hostile.loading("""
            arcade.scene.background("#000000")
            game.w = arcade.physics.world{ gravity = { 0, 0 }, bounds = { x = 0, y = 0, width = 80, height = 48 }, wrap = true }
            local dot = arcade.scene.rect{ width = 6, height = 6, fill = "#ff0000" }
            game.b = game.w:add_ball{ x = 79, y = 24, radius = 3, node = dot }
            """), memory: 64 << 20, stepSeconds: 1)
        _ = game
        session.step()
        #expect(session.failure == nil, "\(session.failure?.message ?? "")")
        let lines = session.renderFrame().plainLines { $0 == Color(rgb: 0x000000) }
        // rows 11 and 12 hold pixel rows 22..25: the square spans x 76..81, so 76..79 and 0..1
        let row = Array(lines[11])
        #expect(row.count == 80)
        #expect(row[76] != " " && row[79] != " ", "the right part: \(String(row))")
        #expect(row[0] != " " && row[1] != " ", "the part past the right edge shows at the left: \(String(row))")
        #expect(row[2] == " " && row[40] == " " && row[75] == " ", "\(String(row))")
    }
}
