import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

@Suite struct GameSessionTests {
    @Test func tinyGameRunsTimersInputAndState() throws {
        let session = try startFixture("tiny")
        var events: [Int: [InputEvent]] = [
            2: [.key(KeyEvent("a")), .key(KeyEvent("c", modifiers: .ctrl))],
            10: [.mouse(MouseEvent(.press, col: 5, row: 7))],
            20: [.resize(cols: 100, rows: 30)],
        ]
        for f in 0..<60 {
            session.step(events: events.removeValue(forKey: f) ?? [])
        }
        #expect(session.failure == nil)
        let state = try session.state()
        #expect(state["ticks"] == .int(60))
        #expect(state["once"] == .int(1))           // after(0.5) fired once
        #expect(state["repeats"] == .int(5))        // every(0.1) cancelled itself after 5
        #expect(state["keys"] == .array([.string("a"), .string("ctrl+c")]))
        #expect(state["clicks"] == .array([.array([.int(5), .int(14)])]))
        #expect(state["size"] == .array([.int(100), .int(60)]))
        #expect(state["greeting"] == .string("hello tiny"))
        #expect(state["time"] == .number(1.0))
        #expect(session.pendingTimers == 0)
    }

    @Test func timerFiresAtItsDueStep() throws {
        let session = try startFixture("tiny")
        for _ in 0..<29 { session.step() }
        #expect(try session.state()["once"] == .int(0))
        session.step()  // step 30 is t = 0.5
        #expect(try session.state()["once"] == .int(1))
    }

    @Test func sameSeedSameRolls() throws {
        func rolls(seed: UInt64) throws -> LuaValue? {
            let session = try startFixture("tiny", seed: seed)
            for f in 0..<10 { session.step(events: f % 2 == 0 ? [.key(KeyEvent("r"))] : []) }
            return try session.state()["rolls"]
        }
        #expect(try rolls(seed: 5) == rolls(seed: 5))
        #expect(try rolls(seed: 5) != rolls(seed: 6))
    }

    @Test func errorInTimerStopsTheGameNotTheProcess() throws {
        let session = try startFixture("crashy")
        for _ in 0..<30 { session.step() }
        let failure = try #require(session.failure)
        #expect(failure.message == "crashy/main.lua:7: attempt to index a nil value (local 't')")
        #expect(failure.file == "crashy/main.lua")
        #expect(failure.line == 7)
        #expect(failure.traceback.contains("stack traceback:"))
        #expect(session.pendingTimers == 0)
        // the next game runs
        let next = try startFixture("tiny")
        next.step()
        #expect(next.failure == nil)
    }

    /// `repeat` is a Lua keyword, so the auto-repeat flag is `is_repeat`; `e["repeat"]` still reads.
    @Test func keyEventsSayIsRepeat() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.input(e)
              game.state[#game.state + 1] = { e.is_repeat, e["repeat"] }
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        session.step(events: [.key(KeyEvent("a")), .key(KeyEvent("a", isRepeat: true))])
        #expect(try session.state() == .array([.array([.bool(false), .bool(false)]), .array([.bool(true), .bool(true)])]))
    }

    /// `session.stats` counts what the game holds, for leak checks.
    @Test func statsCountWhatTheGameHolds() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              local a = arcade.scene.group{}
              arcade.scene.rect{ parent = a, width = 2, height = 2 }
              arcade.scene.text{ text = "hi" }
              arcade.animate(a, { property = "x", to = 10, duration = 1 })
              arcade.after(2, function() end)
              arcade.every(1, function() end)
              local w = arcade.physics.world{}
              w:add_wall("floor", { x = 0, y = 40, width = 80, height = 4 })
              w:add_ball{ x = 5, y = 5, radius = 1 }
              w:add_ball{ x = 9, y = 5, radius = 1 }
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        let st = session.stats
        #expect(st.nodes == 3)
        #expect(st.animations == 1)
        #expect(st.timers == 2)
        #expect(st.worlds == 1)
        #expect(st.bodies == 2)
        #expect(st.walls == 1)
        #expect(st.frame == 0)
        #expect(st.luaKiB > 0)
        for _ in 0..<150 { session.step() }
        #expect(session.stats.animations == 0)
        #expect(session.stats.timers == 1)
        #expect(session.stats.frame == 150)
        let json = session.stats.json
        #expect(json.hasPrefix("{\"nodes\":3,\"animations\":0,\"timers\":1,\"bodies\":2,\"lua_kib\":"))
        #expect(json.hasSuffix(",\"worlds\":1,\"walls\":1,\"frame\":150}"))
    }

    @Test func brokenGameIsListedWithItsReasonAndOthersStillLoad() {
        let catalog = fixtureCatalog()
        let broken = catalog.entry("broken-manifest")
        #expect(broken?.isPlayable == false)
        #expect(broken?.problem == "broken-manifest/manifest.lua: field 'title' must be a string, got number")
        #expect(catalog.game("tiny") != nil)
        #expect(catalog.game("crashy") != nil)
        #expect(catalog.entry("lib") == nil)  // the shared helpers folder is not a game
    }
}
