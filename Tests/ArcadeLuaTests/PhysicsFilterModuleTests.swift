import Testing
import ArcadeCore
import ArcadeRender
@testable import ArcadeLua

/// Filters, sensors, separations and wrap-around worlds seen from Lua.
@Suite struct PhysicsFilterModuleTests {
    @Test func filtersAreOptionsAndPropertiesOfBallsAndWalls() throws {
        let f = try PhysicsFixture()
        try f.t.run("""
            world = arcade.physics.world{ gravity = {0, 0}, bounds = false }
            a = world:add_ball{ x = 20, y = 20, radius = 3, vx = 120, elasticity = 1, category = 2, mask = ~2 }
            b = world:add_ball{ x = 40, y = 20, radius = 3, category = 2 }
            w = world:add_wall("w", { x = 0, y = 40, width = 80, height = 2, category = 4, sensor = true })
            s = world:add_segment("s", { x1 = 0, y1 = 0, x2 = 80, y2 = 0, mask = 1, group = -3 })
            old = world:add_segment("o", 0, 1, 80, 1)
            """)
        #expect(try f.number("a.category") == 2)
        #expect(try f.number("a.mask") == Double(UInt32.max & ~2))
        #expect(try f.number("b.mask") == Double(UInt32.max))
        #expect(try f.number("b.group") == 0)
        #expect(try f.t.run("return w.sensor") == .bool(true))
        #expect(try f.number("w.category") == 4)
        #expect(try f.number("s.mask") == 1 && (try f.number("s.group")) == -3)
        #expect(try f.t.run("return old.sensor") == .bool(false))
        // a's mask refuses b's category: a passes through b.
        try f.step(30)
        #expect(try f.number("a.x") > 45)
        #expect(try f.number("b.x") == 40)
        // Changed at run time: now they meet.
        try f.t.run("a.x, a.mask = 20, 2; b.category = 2; w.sensor = false; w.mask = 8")
        #expect(try f.number("a.mask") == 2)
        #expect(try f.t.run("return w.sensor") == .bool(false))
        try f.step(30)
        #expect(try f.number("a.x") < 40)
        #expect(try f.number("b.x") > 40)
    }

    @Test func sensorsReportContactAndSeparation() throws {
        let f = try PhysicsFixture()
        try f.t.run("""
            world = arcade.physics.world{ gravity = {0, 0}, bounds = false }
            log = {}
            world:on_contact(function(ball, other) log[#log + 1] = "begin " .. (ball == shot and "shot" or "?") .. " " .. (other == rock and "rock" or "?") end)
            world:on_separate(function(ball, other, x, y) log[#log + 1] = "end " .. (other == rock and "rock" or "?") .. string.format(" %.0f", y) end)
            shot = world:add_ball{ x = 5, y = 20, radius = 1, vx = 200, sensor = true, mass = 100 }
            rock = world:add_ball{ x = 40, y = 20, radius = 5 }
            """)
        try f.step(30)
        #expect(try f.t.run("return table.concat(log, ', ')") == .string("begin shot rock, end rock 20"))
        #expect(try f.number("rock.x") == 40 && (try f.number("rock.vx")) == 0)
        #expect(try f.t.run("return shot.sensor") == .bool(true))
    }

    @Test func aWrappingWorldFoldsBallsAndCanChangeAtRunTime() throws {
        let f = try PhysicsFixture()
        try f.t.run("""
            world = arcade.physics.world{ gravity = {0, 0}, wrap = true, remove_outside = true }
            ball = world:add_ball{ x = 78, y = 46, radius = 2, vx = 120, vy = 60 }
            """)
        #expect(try f.t.run("return world.wrap") == .bool(true))
        try f.step(10)
        #expect(try f.number("ball.x") < 40 && (try f.number("ball.y")) < 40)
        #expect(try f.number("world:count()") == 1)
        try f.t.run("world.wrap = { x = true }")
        #expect(try f.t.run("return world.wrap.x") == .bool(true))
        #expect(try f.t.run("return world.wrap.y") == .bool(false))
        try f.t.run("world.wrap = false; world.bounds_mask = 0")
        #expect(try f.number("world.bounds_mask") == 0)
        try f.step(60)
        #expect(try f.number("world:count()") == 0)  // through the bounds, out, removed
    }

    @Test func badFilterAndWrapOptionsGiveClearMessages() throws {
        let f = try PhysicsFixture()
        try f.t.run("world = arcade.physics.world{}")
        let cases: [(String, String)] = [
            ("world:add_ball{ x = 1, y = 1, radius = 1, category = 1.5 }", "(field 'category': integer bit set (32 bits, e.g. 0x0004) expected, got 1.5)"),
            ("world:add_ball{ x = 1, y = 1, radius = 1, mask = 'all' }", "(field 'mask': integer bit set"),
            ("world:add_ball{ x = 1, y = 1, radius = 1, mask = 1 << 40 }", "(field 'mask': integer bit set"),
            ("world:add_ball{ x = 1, y = 1, radius = 1, group = 2^40 }", "(field 'group': integer from -2147483647 to 2147483647 expected"),
            ("world:add_ball{ x = 1, y = 1, radius = 1, sensor = 1 }", "(field 'sensor': boolean expected, got number)"),
            ("world:add_wall('a', { x = 1, y = 1, width = 2, height = 1, categroy = 2 })", "unknown option 'categroy' (did you mean 'category'?)"),
            ("world:add_segment('s', { x1 = 0, y1 = 0, x2 = 1 })", "bad argument #2 to 'PhysicsWorld.add_segment' (field 'y2': number expected, got nil)"),
            ("world:add_segment('s', { x1 = 0, y1 = 0, x2 = 1, y2 = 1, mask = -1.5 })", "(field 'mask': integer bit set"),
            ("arcade.physics.world{ wrap = 'yes' }", "(field 'wrap': true, false or { x = bool, y = bool } expected, got string)"),
            ("arcade.physics.world{ wrap = { x = 1 } }", "(field 'wrap': x: boolean expected, got number)"),
            ("arcade.physics.world{ bounds_mask = 0.5 }", "(field 'bounds_mask': integer bit set"),
            ("world.wrap = 3", "world.wrap: true, false or { x = bool, y = bool } expected, got number"),
            ("world:add_ball{ x = 1, y = 1, radius = 1 }.mask = 'x'", "ball.mask: integer bit set"),
            ("world:add_wall('w', { x = 1, y = 1, width = 2, height = 1 }).group = 0.5", "wall.group: integer from"),
            ("world:add_wall('w', { x = 1, y = 1, width = 2, height = 1 }).width = 5", "a Wall has no settable property 'width'"),
            ("world:on_separate(5)", "bad argument #1 to 'PhysicsWorld.on_separate' (function expected, got number)"),
        ]
        for (source, message) in cases {
            let text = f.errorText(source)
            #expect(text.contains(message), "\(source) -> \(text)")
        }
    }
}
