import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// `arcade.animate_many`: many like animations from one call, with per-node columns, native
/// removal and one callback per batch.
@Suite struct AnimateManyTests {
    func session(_ main: String) throws -> GameSession {
        let g = try ScratchGame(files: ["main.lua": main])
        return try GameSession(entry: try #require(g.entry))
    }

    static let image = ##"arcade.image{ rows = { "ab", "ba" }, palette = { a = "#ff0000", b = "#00ff00" } }"##

    /// The same flights started one `arcade.animate` call at a time and with one
    /// `arcade.animate_many` call: every node is in the same place at every step.
    @Test func oneCallFliesEveryNodeAsSingleCallsDo() throws {
        let s = try session("""
            local game = {}
            local one, many = {}, {}
            function game.load()
              local img = \(Self.image)
              local fx, cx, cy, sc, s3, s2 = {}, {}, {}, {}, {}, {}
              for i = 1, 5 do
                fx[i], cx[i], cy[i], sc[i] = 3 * i, 20 + i, -5 - 2 * i, 1 + i / 10
                s3[i], s2[i] = sc[i] * 0.75, sc[i] / 2
                local c = arcade.scene.sprite{ image = img, x = fx[i], y = 50, scale_x = sc[i], scale_y = s2[i] }
                one[i] = c
                arcade.animate(c, { group = {
                    { path = { from = { fx[i], 50 }, control = { cx[i], cy[i] }, to = { 40, 4 } } },
                    { property = "scale_x", values = { sc[i], s3[i], s2[i] }, timings = { "easeOut", "easeIn" } },
                  }, duration = 0.5 })
              end
              many = arcade.animate_many(
                { count = 5, image = img, x = "fx", y = 50, scale_x = "s", scale_y = "s2" },
                { group = {
                    { path = { from = { "fx", 50 }, control = { "cx", "cy" }, to = { 40, 4 } } },
                    { property = "scale_x", values = { "s", "s3", "s2" }, timings = { "easeOut", "easeIn" } },
                  }, duration = 0.5 },
                { columns = { fx = fx, cx = cx, cy = cy, s = sc, s3 = s3, s2 = s2 }, remove = false })
              game.state.mismatch = 0
            end
            function game.update()
              for i = 1, 5 do
                local a, b = one[i], many[i]
                if a.x ~= b.x or a.y ~= b.y or a.scale_x ~= b.scale_x or a.scale_y ~= b.scale_y then
                  game.state.mismatch = game.state.mismatch + 1
                end
              end
              game.state.x3 = many[3].x
            end
            return game
            """)
        for _ in 0..<40 { s.step() }
        let st = try s.state()
        #expect(s.failure == nil)
        #expect(st["mismatch"]?.doubleValue == 0)
        #expect(abs((st["x3"]?.doubleValue ?? 0) - 40) < 1e-9)
    }

    @Test func madeSpritesLeaveTheSceneAndTheBatchReportsOnce() throws {
        let s = try session("""
            local game = {}
            function game.load()
              local st = game.state
              st.done, st.last, st.before = 0, -1, arcade.scene.count()
              local nodes = arcade.animate_many({ count = 4, images = { \(Self.image) }, x = "x" },
                { property = "y", from = 0, to = "y", duration = 0.2 },
                { columns = { x = { 1, 2, 3, 4 }, y = { 10, 20, 30, 40 } },
                  on_done = function(n) st.done, st.last = st.done + 1, n end })
              st.made, st.during = #nodes, arcade.scene.count()
              game.nodes = nodes
            end
            function game.update()
              game.state.y4 = game.nodes[4]:alive() and game.nodes[4].y or -1
              game.state.after = arcade.scene.count()
            end
            return game
            """)
        for _ in 0..<6 { s.step() }
        var st = try s.state()
        #expect(st["made"]?.doubleValue == 4)
        #expect(st["during"]?.doubleValue == (st["before"]?.doubleValue ?? 0) + 4)
        #expect(st["done"]?.intValue == 0)
        #expect((st["y4"]?.doubleValue ?? 0) > 0)
        for _ in 0..<20 { s.step() }
        st = try s.state()
        #expect(s.failure == nil)
        #expect(st["done"]?.intValue == 1)
        #expect(st["last"]?.intValue == 4)
        #expect(st["after"]?.doubleValue == st["before"]?.doubleValue)
    }

    /// `list = false`: the call returns nothing, the sprites fly and leave all the same, and a
    /// bad `list` is refused before anything starts.
    @Test func withoutTheListNothingIsReturnedAndTheBatchRunsTheSame() throws {
        let s = try session("""
            local game = {}
            function game.load()
              local st = game.state
              st.done, st.before = 0, arcade.scene.count()
              local out = table.pack(arcade.animate_many({ count = 3, images = { \(Self.image) }, x = "x" },
                { property = "y", from = 0, to = 9, duration = 0.1 },
                { columns = { x = { 1, 2, 3 } }, list = false, on_done = function(n) st.done = n end }))
              st.returned, st.during = out.n, arcade.scene.count()
              st.bad = select(2, pcall(arcade.animate_many, { count = 1, image = \(Self.image) },
                { property = "y", to = 1 }, { list = 1 }))
              st.after_bad = arcade.scene.count()
            end
            function game.update() game.state.after = arcade.scene.count() end
            return game
            """)
        for _ in 0..<12 { s.step() }
        let st = try s.state()
        #expect(s.failure == nil)
        #expect(st["returned"]?.intValue == 0)
        #expect(st["during"]?.doubleValue == (st["before"]?.doubleValue ?? 0) + 3)
        #expect(st["after_bad"]?.doubleValue == st["during"]?.doubleValue)
        #expect(st["bad"]?.stringValue?.contains("list") == true)
        #expect(st["done"]?.intValue == 3)
        #expect(st["after"]?.doubleValue == st["before"]?.doubleValue)
    }

    /// Calls whose specs differ in nothing but their timing, their curves or a number each
    /// fly by their own spec (a call may reuse what the last identical spec compiled to), and
    /// so do like specs on nodes of another kind.
    @Test func eachCallFliesByItsOwnSpec() throws {
        let s = try session("""
            local game = {}
            local sets = {}
            function game.load()
              local img = \(Self.image)
              local function spec(duration, timing, to)
                return { group = { { property = "x", from = 0, to = to }, { property = "y", from = 0, to = "y" } },
                         duration = duration, timing = timing }
              end
              local function burst(duration, timing, to)
                return arcade.animate_many({ count = 2, image = img }, spec(duration, timing, to),
                  { columns = { y = { 10, 20 } }, remove = false })
              end
              sets[1] = burst(1, nil, 40)
              sets[2] = burst(1, nil, 40)               -- identical: the same flight
              sets[3] = burst(0.5, nil, 40)             -- shorter
              sets[4] = burst(1, "easeIn", 40)          -- eased
              sets[5] = burst(1, nil, 80)               -- farther
              local rects = { arcade.scene.rect{ width = 1, height = 1 }, arcade.scene.rect{ width = 1, height = 1 } }
              sets[6] = arcade.animate_many(rects, spec(1, nil, 40), { columns = { y = { 10, 20 } } })
            end
            function game.update()
              for k, set in ipairs(sets) do
                game.state["x" .. k] = set[1].x
                game.state["y" .. k] = set[2].y
              end
            end
            return game
            """)
        for _ in 0..<15 { s.step() }  // a quarter of a second
        let st = try s.state()
        #expect(s.failure == nil)
        func x(_ k: Int) -> Double { st["x\(k)"]?.doubleValue ?? -1 }
        func y(_ k: Int) -> Double { st["y\(k)"]?.doubleValue ?? -1 }
        // linear over 1 s: 40 * t across, 20 * t down (about t = 0.25)
        #expect(x(1) > 8 && x(1) < 12 && abs(y(1) - x(1) / 2) < 1e-9)
        #expect(x(2) == x(1) && y(2) == y(1))
        #expect(abs(x(3) - 2 * x(1)) < 1e-9 && abs(y(3) - 2 * y(1)) < 1e-9)
        #expect(x(4) > 0 && x(4) < x(1) / 2 && y(4) < y(1) / 2)
        #expect(abs(x(5) - 2 * x(1)) < 1e-9 && y(5) == y(1))
        #expect(x(6) == x(1) && y(6) == y(1))
    }

    @Test func givenNodesStayAndEachReportsInOrder() throws {
        let s = try session("""
            local game = {}
            function game.load()
              local st = game.state
              st.log = {}
              local a = arcade.scene.rect{ name = "a" }
              local b = arcade.scene.rect{ name = "b" }
              local c = arcade.scene.rect{ name = "c" }
              arcade.animate_many({ a, b, c }, { property = "x", to = "to", duration = 0.1 },
                { columns = { to = { 5, 6, 7 } },
                  on_each = function(n, finished)
                    st.log[#st.log + 1] = (n:alive() and n.name or "gone") .. " " .. tostring(finished)
                  end,
                  on_done = function(k) st.log[#st.log + 1] = "done " .. k end })
              arcade.after(0.05, function() b:remove() end)
              game.a = a
            end
            function game.update() game.state.ax = game.a.x; game.state.alive = game.a:alive() end
            return game
            """)
        for _ in 0..<20 { s.step() }
        let st = try s.state()
        #expect(s.failure == nil)
        // b was removed mid-flight: it ends first, not finished; the others finish in order
        #expect(st["log"] == .array(["gone false", "a true", "c true", "done 2"].map { .string($0) }))
        #expect(st["alive"] == .bool(true))
        #expect(st["ax"]?.doubleValue == 5)
    }

    @Test func noTargetsStillReportsDone() throws {
        let s = try session("""
            local game = {}
            function game.load()
              local st = game.state
              st.done, st.last = 0, -1
              local n = arcade.animate_many({ count = 0, image = \(Self.image) }, { property = "x", to = "x" },
                { columns = { x = {} }, on_done = function(k) st.done, st.last = st.done + 1, k end })
              st.n = #n
            end
            return game
            """)
        for _ in 0..<2 { s.step() }
        let st = try s.state()
        #expect(st["n"]?.doubleValue == 0)
        #expect(st["done"]?.intValue == 1)
        #expect(st["last"]?.intValue == 0)
    }

    @Test func badCallsGiveClearErrorsAndLeaveNothingBehind() throws {
        let s = try session("""
            local game = {}
            function game.load()
              local st = game.state
              local img = \(Self.image)
              local function try(...) return select(2, pcall(arcade.animate_many, ...)) end
              st.before = arcade.scene.count()
              st.e1 = try({ count = 2, image = img }, { property = "x", to = "nope" }, { columns = { x = { 1, 2 } } })
              st.e2 = try({ count = 2, image = img }, { property = "x", to = "x" }, { columns = { x = { 1 } } })
              st.e3 = try({ count = 2 }, { property = "x", to = 1 })
              st.e4 = try({ 1, 2 }, { property = "x", to = 1 })
              st.e5 = try({ count = 2, image = img }, { property = "x", to = 1 }, { on_each = 3 })
              st.e6 = try({ count = 2, image = img }, { property = "x", to = 1, on_done = print })
              st.e7 = try({ count = 2, image = img }, { property = "stroke_end", to = 1 })
              st.after = arcade.scene.count()
            end
            return game
            """)
        s.step()
        let st = try s.state()
        func text(_ k: String) -> String { st[k]?.stringValue ?? "" }
        #expect(text("e1").contains("options.columns has no 'nope'"))
        #expect(text("e2").contains("column 'x': 2 numbers (one per node) expected, got 1"))
        #expect(text("e3").contains("give 'image' or 'images'"))
        #expect(text("e4").contains("item [1]"))
        #expect(text("e5").contains("field 'on_each': function expected"))
        #expect(text("e6").contains("unknown option 'on_done'"))
        #expect(text("e7").contains("the target has no property"))
        #expect(st["after"]?.doubleValue == st["before"]?.doubleValue)
    }

    /// Columns are read whole, integers as numbers; the first item that is not a finite
    /// number is named, and the returned list holds the very handles Lua has of its nodes.
    @Test func columnsAreReadWholeAndTheListHoldsTheNodesOwnHandles() throws {
        let s = try session("""
            local game = {}
            function game.load()
              local st = game.state
              local img = \(Self.image)
              local function try(...) return select(2, pcall(arcade.animate_many, ...)) end
              st.e1 = try({ count = 3, image = img }, { property = "x", to = "x" }, { columns = { x = { 1, 0 / 0, 3 } } })
              st.e2 = try({ count = 3, image = img }, { property = "x", to = "x" }, { columns = { x = { 1, 2, "3" } } })
              st.e3 = try({ count = 2, image = img }, { property = "x", to = "x" }, { columns = { x = { 1, math.huge } } })
              local a = arcade.scene.rect{ name = "a" }
              local b = arcade.scene.rect{ name = "b" }
              local list = arcade.animate_many({ a, b, a }, { property = "y", to = "y", duration = 1 },
                { columns = { y = { 4, 5, 6 } } })
              st.same = #list == 3 and rawequal(list[1], a) and rawequal(list[2], b) and rawequal(list[3], a)
              local made = arcade.animate_many({ count = 2, image = img, x = "x" }, { property = "y", to = 1, duration = 1 },
                { columns = { x = { 7, 8 } } })
              st.made = #made == 2 and made[1] ~= made[2] and made[1].x == 7 and made[2].x == 8
                and tostring(made[1]):find("^sprite#") ~= nil
            end
            return game
            """)
        s.step()
        let st = try s.state()
        func text(_ k: String) -> String { st[k]?.stringValue ?? "" }
        #expect(s.failure == nil)
        #expect(text("e1").contains("column 'x': finite number expected at item 2, got nan"), "\(text("e1"))")
        #expect(text("e2").contains("column 'x': finite number expected at item 3, got "), "\(text("e2"))")
        #expect(text("e3").contains("column 'x': finite number expected at item 2, got inf"), "\(text("e3"))")
        #expect(st["same"] == .bool(true))
        #expect(st["made"] == .bool(true))
    }

    /// Columns derived from another, `((c - minus) * times) + plus`, hold exactly the numbers
    /// the same arithmetic in Lua gives (coin bank's controls and shrink), awkward values
    /// included, and flights from them match flights from the Lua-made lists bit for bit.
    @Test func derivedColumnsMatchTheSameArithmeticInLua() throws {
        let s = try session("""
            local game = {}
            local a, b = {}, {}
            function game.load()
              local img = \(Self.image)
              local tx, ty = 37.3, 11.9
              local fx, arc, sc, cx, cy, s3, s2 = {}, {}, {}, {}, {}, {}, {}
              local awkward = { 0, -0.0, 1e-310, 0.1, 123.456, -7.77, 1e300, 5.5 }
              for i = 1, 8 do
                fx[i], arc[i], sc[i] = awkward[i], awkward[9 - i] / 3, 1 + (i % 10) * 0.1
                cx[i], cy[i] = tx + (fx[i] - tx) / 2, arc[i] / 2 - ty
                s3[i], s2[i] = sc[i] * 0.75, sc[i] / 2
              end
              local function spec()
                return { group = {
                    { path = { from = { "fx", 60 }, control = { "cx", "cy" }, to = { tx, ty } } },
                    { property = "scale_x", values = { "s", "s3", "s2" }, timings = { "easeOut", "easeIn" } },
                  }, duration = 0.5 }
              end
              local targets = { count = 8, image = img, x = "fx", y = 60, scale_x = "s", scale_y = "s2" }
              a = arcade.animate_many(targets, spec(),
                { columns = { fx = fx, cx = cx, cy = cy, s = sc, s3 = s3, s2 = s2 }, remove = false })
              b = arcade.animate_many(targets, spec(),
                { columns = { fx = fx, arc = arc, s = sc,
                              cx = { of = "fx", minus = tx, times = 0.5, plus = tx },
                              cy = { of = "arc", times = 0.5, plus = -ty },
                              s3 = { of = "s", times = 0.75 }, s2 = { of = "s", times = 0.5 } }, remove = false })
              game.state.mismatch = 0
              game.state.steps = 0
            end
            local function same(x, y) return x == y and (x ~= 0 or 1 / x == 1 / y) end
            function game.update()
              for i = 1, 8 do
                local p, q = a[i], b[i]
                if not (same(p.x, q.x) and same(p.y, q.y) and same(p.scale_x, q.scale_x) and same(p.scale_y, q.scale_y)) then
                  game.state.mismatch = game.state.mismatch + 1
                end
              end
              game.state.steps = game.state.steps + 1
            end
            return game
            """)
        for _ in 0..<40 { s.step() }
        let st = try s.state()
        #expect(s.failure == nil)
        #expect(st["steps"]?.doubleValue == 40)
        #expect(st["mismatch"]?.doubleValue == 0)
    }

    @Test func badDerivedColumnsGiveClearErrors() throws {
        let s = try session("""
            local game = {}
            function game.load()
              local st = game.state
              local img = \(Self.image)
              local function try(c) return select(2, pcall(arcade.animate_many, { count = 2, image = img },
                { property = "x", to = "d" }, { columns = c })) end
              st.before = arcade.scene.count()
              st.e1 = try({ x = { 1, 2 }, d = { of = "x", times = 2, by = 3 } })
              st.e2 = try({ x = { 1, 2 }, d = { of = "y" } })
              st.e3 = try({ x = { 1, 2 }, d = { of = "x", plus = "z" } })
              st.e4 = try({ x = { 1, 2 }, d = { of = 4 } })
              st.e5 = try({ x = { 1, 2 }, e = { of = "x" }, d = { of = "e" } })
              st.e6 = try({ x = { 1, 2 }, d = { of = "x", times = 0 / 0 } })
              -- the same refusal when a spec names the derived column before the one derived from it
              st.e7 = select(2, pcall(arcade.animate_many, { count = 2, image = img },
                { property = "x", values = { "e", "d" } }, { columns = { x = { 1, 2 }, e = { of = "x" }, d = { of = "e" } } }))
              st.after = arcade.scene.count()
            end
            return game
            """)
        s.step()
        let st = try s.state()
        func text(_ k: String) -> String { st[k]?.stringValue ?? "" }
        #expect(s.failure == nil)
        #expect(text("e1").contains("column 'd': a derived column takes of, minus, times and plus, not 'by'"), "\(text("e1"))")
        #expect(text("e2").contains("column 'd': of: options.columns has no 'y'"), "\(text("e2"))")
        #expect(text("e3").contains("column 'd': plus: number expected"), "\(text("e3"))")
        #expect(text("e4").contains("column 'd': of: the name of a column expected, got number"), "\(text("e4"))")
        #expect(text("e5").contains("column 'e': 2 numbers (one per node) expected, got 0"), "\(text("e5"))")
        #expect(text("e6").contains("column 'd': times: finite number expected"), "\(text("e6"))")
        #expect(text("e7").contains("column 'e': 2 numbers (one per node) expected, got 0 (a column is derived from a list"), "\(text("e7"))")
        #expect(st["after"]?.doubleValue == st["before"]?.doubleValue)
    }
}
