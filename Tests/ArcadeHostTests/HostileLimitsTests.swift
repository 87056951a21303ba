import Foundation
import Testing
@testable import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// Hostile games against the arcade's limits (issue 15, classes 2, 3, 4, 5 and 9): numbers
/// that become integers, native allocations and object counts a script sizes, and nesting
/// deep enough to overflow native recursion. Each game must stop with a clear error (or run
/// on) and never take the process down; every case here crashed or hung before its fix.
enum Hostile {
    /// A scratch game running `main`: loaded, stepped `steps` times with a frame rendered
    /// after each step. The session is nil when `load` failed.
    struct Run {
        let game: ScratchGame
        let session: GameSession?
        let error: LuaError?
    }

    static func run(_ main: String, files: [String: String] = [:], steps: Int = 2,
                    memory: Int = 64 << 20, seconds: Double = 1) throws -> Run {
        var all = files
        all["main.lua"] = main
        let game = try ScratchGame(files: all)
        let options = GameSession.Options(limits: .init(memoryBytes: memory, secondsPerCall: seconds))
        let entry = try #require(game.entry)
        let session: GameSession
        do throws(LuaError) {
            session = try GameSession(entry: entry, options: options)
        } catch {
            return Run(game: game, session: nil, error: error)
        }
        for _ in 0..<steps {
            session.step()
            _ = session.renderFrame()
            if session.failure != nil { break }
        }
        return Run(game: game, session: session, error: session.failure)
    }

    /// A game whose `load` runs `body`.
    static func loading(_ body: String, extra: String = "") -> String {
        """
        local game = {}
        function game.load()
        \(body)
        end
        \(extra)
        return game
        """
    }
}

// MARK: - Class 2: numbers that become integers

@Suite struct HostileNumberTests {
    /// A rotation is an angle whatever its size: the node is drawn, turned.
    @Test(arguments: ["1e20", "1e300", "-1e300", "1.5e19", "-2^64", "2^1000"])
    func nodeRotationOfAnyMagnitude(_ value: String) throws {
        let r = try Hostile.run(Hostile.loading("""
            game.r = arcade.scene.rect{ x = 20, y = 20, width = 6, height = 6, fill = "#ff0000" }
            game.r.rotation = \(value)
            """))
        #expect(r.error == nil, "\(r.error?.description ?? "")")
        let session = try #require(r.session)
        var red = 0
        for y in 14...26 { for x in 14...26 where session.canvas.pixel(x: x, y: y) == Color(rgb: 0xFF0000) { red += 1 } }
        #expect(red >= 20, "the turned square is drawn (\(red) red pixels)")
    }

    @Test(arguments: [
        "g.rotate(1e300); g.fill_rect(1, 1, 4, 4, 'red')",
        "g.rotate(-1e300); g.circle(10, 10, 3, 'red')",
        "g.sprite(game.img, 10, 10, 1, 1, 1e300)",
        "g.sprite(game.img, 10, 10, 1e300, -1e300, 2^70)",
        "g.scale(1e300); g.rotate(1e300); g.label('HI', 5, 5, { scale = 1e300 })",
        "g.push(); g.rotate(1e300); g.text('hi', 1, 1); g.pop(); g.rotate(-2^80); g.line(0, 0, 5, 5, 'red')",
    ])
    func immediateDrawingWithHugeNumbers(_ call: String) throws {
        let r = try Hostile.run(Hostile.loading("""
            game.img = arcade.image{ palette = { Y = "#ffcc00" }, rows = { "YY", "Y." } }
            """, extra: "function game.draw(g) \(call) end"))
        #expect(r.error == nil, "\(r.error?.description ?? "")")
    }

    /// Animations whose values (or whose curves' overshoot) leave what a double holds write
    /// infinities and NaN into rotation, scale and colour: drawing takes them as nothing to draw.
    @Test(arguments: [
        "{ property = 'rotation', from = -1e308, to = 1e308, duration = 0.05, timing = 'easeInOutBack' }",
        "{ property = 'rotation', from = 0, to = 1e308, duration = 0.05, spring = { damping = 0.1, velocity = 1e300 } }",
        "{ property = 'rotation', values = { 0, 1e308, -1e308, 1e308 }, duration = 0.05, timings = { 'easeInOutBack', 'easeInOutBack', 'easeInOutBack' } }",
        "{ property = 'rotation', from = 0, to = 1e20, duration = 0.05 }",
        "{ property = 'rotation', to = -1e300, duration = 0.05, autoreverse = true, repeat_count = 3 }",
        "{ property = 'color', to = '#ffffff', duration = 0.05, timing = { 0, 1e308, 1, -1e308 } }",
        "{ group = { { property = 'rotation', to = 1e308 }, { property = 'color', to = '#ff00ff' } }, duration = 0.05, timing = { 0, -1e300, 1, 1e300 } }",
    ])
    func animatedValuesBeyondDoubles(_ spec: String) throws {
        let r = try Hostile.run(Hostile.loading("""
            local n = arcade.scene.rect{ x = 20, y = 20, width = 6, height = 6, fill = "#ff0000" }
            arcade.animate(n, \(spec))
            """), steps: 8)
        #expect(r.error == nil, "\(r.error?.description ?? "")")
    }

    /// A ball spinning as fast as a double allows turns its node by angles beyond any Int.
    @Test(arguments: ["spin = 1e300", "spin = 1e308, angle = 1e308", "spin = -1e300, angle = -1e300"])
    func spinningBallTurnsItsNode(_ fields: String) throws {
        let r = try Hostile.run(Hostile.loading("""
            local w = arcade.physics.world{ gravity = { 0, 0 } }
            local n = arcade.scene.rect{ width = 4, height = 4 }
            w:add_ball{ x = 20, y = 20, radius = 2, \(fields), node = n, rotate_node = true }
            """), steps: 10)
        #expect(r.error == nil, "\(r.error?.description ?? "")")
    }

    @Test(arguments: ["1e300", "-1e300", "math.mininteger", "math.maxinteger", "2^63", "-2^63", "1e19"])
    func spriteFrameOutOfRange(_ value: String) throws {
        let r = try Hostile.run(Hostile.loading("""
            local img = arcade.image{ palette = { Y = "#ffcc00" }, frames = { { "YY" }, { "Y." } } }
            local s = arcade.scene.sprite{ image = img }
            s.frame = \(value)
            """))
        let e = try #require(r.error)
        #expect(e.kind == .runtime)
        #expect(e.file == "scratch/main.lua" && e.line == 5, "\(e.message)")
        #expect(e.message.contains("sprite.frame: frame number between -2^31 and 2^31 expected, got "), "\(e.message)")
    }

    /// Frame numbers wrap around the frames, up to the limit each way.
    @Test(arguments: [Int64(1 << 31), -(Int64(1) << 31), 7, -7, 0, 2_147_483_647])
    func spriteFramesWrap(_ frame: Int64) throws {
        let r = try Hostile.run(Hostile.loading("""
            local img = arcade.image{ palette = { Y = "#ffcc00" }, frames = { { "Y" }, { "YY" }, { "YYY" } } }
            local s = arcade.scene.sprite{ image = img }
            s.frame = \(frame)
            game.state.shown = s.frame
            """))
        #expect(r.error == nil)
        let expected = ((frame - 1) % 3 + 3) % 3 + 1
        #expect(try r.session?.state()["shown"] == .int(expected))
    }

    /// An integer given as text is written exactly, the extremes included (they used to go
    /// through a double and trap on the way back).
    @Test func integersAsText() throws {
        let r = try Hostile.run(Hostile.loading("""
            local t = arcade.scene.text{}
            t.text = math.maxinteger
            local l = arcade.scene.label{ font = "small" }
            l.text = math.mininteger
            game.state.t = t.text
            game.state.l = l.text
            """))
        #expect(r.error == nil)
        #expect(try r.session?.state()["t"] == .string("9223372036854775807"))
        #expect(try r.session?.state()["l"] == .string("-9223372036854775808"))
    }

    /// An infinite argument says so, instead of "number expected, got number".
    @Test(arguments: [
        ("", "function game.draw(g) g.fill_rect(0, 0, math.huge, 1) end", "bad argument #3 to 'gfx.fill_rect' (finite number expected, got inf)"),
        ("arcade.after(-math.huge, function() end)", "", "bad argument #1 to 'arcade.after' (finite number expected, got -inf)"),
        ("local w = arcade.physics.world{} local b = w:add_ball{ x = 1, y = 1, radius = 1 } b.vx = 0/0", "", "ball.vx: finite number expected, got nan"),
    ])
    func infiniteArgumentsAreNamed(_ body: String, _ extra: String, _ message: String) throws {
        let r = try Hostile.run(Hostile.loading(body, extra: extra))
        let e = try #require(r.error)
        #expect(e.message.contains(message), "\(e.message)")
    }

    @Test(arguments: ["{ 0.5, 0/0, 0.5, 1 }", "{ 0, math.huge, 1, 1 }", "{ 0, 1, 1, math.huge }", "{ 0, -math.huge, 1, 1 }"])
    func customCurveNumbersMustBeFinite(_ curve: String) throws {
        let r = try Hostile.run(Hostile.loading("""
            local n = arcade.scene.rect{}
            arcade.animate(n, { property = 'color', to = '#ffffff', duration = 0.1, timing = \(curve) })
            """))
        let e = try #require(r.error)
        #expect(e.message.contains("bad argument #2 to 'arcade.animate' (field 'timing': finite number expected at item "), "\(e.message)")
    }
}

// MARK: - Class 3: native allocations sized by the script

@Suite struct HostileAllocationTests {
    @Test(arguments: [
        ("local row = string.rep('Y', 20000) local rows = {} for i = 1, 20000 do rows[i] = row end\narcade.image{ palette = { Y = '#ffcc00' }, rows = rows }",
         "an image has at most 4096 rows, got 20000"),
        ("arcade.image{ palette = { Y = '#ffcc00' }, rows = { string.rep('Y', 100000) } }",
         "image of 100000 x 1 pixels is too large (at most 4096 x 4096)"),
        ("local row = string.rep('Y', 5000) local rows = {} for i = 1, 10 do rows[i] = row end\narcade.image{ palette = { Y = '#ffcc00' }, frames = { { 'Y' }, rows } }",
         "image of 5000 x 10 pixels is too large"),
    ])
    func imagesLargerThanAnyScreen(_ code: String, _ message: String) throws {
        let r = try Hostile.run(Hostile.loading(code))
        let e = try #require(r.error)
        #expect(e.kind == .runtime)
        #expect(e.message.contains("bad argument #1 to 'arcade.image' (\(message)"), "\(e.message)")
    }

    /// An image that fits the size limit but not the memory cap is a memory error naming the
    /// line; nothing is charged for it, and the game could carry on.
    @Test(arguments: [
        "local row = string.rep('Y', 4000) local rows = {} for i = 1, 4000 do rows[i] = row end\nlocal ok, err = pcall(arcade.image, { palette = { Y = '#ffcc00' }, rows = rows })\ngame.state.caught = not ok\nerror(err, 0)",
        "local row = string.rep('Y', 300) local rows = {} for i = 1, 300 do rows[i] = row end\nlocal frames = {} for i = 1, 50 do frames[i] = rows end\nlocal ok, err = pcall(arcade.image, { palette = { Y = '#ffcc00' }, frames = frames })\ngame.state.caught = not ok\nerror(err, 0)",
        "local row = string.rep('Y', 2000) local rows = {} for i = 1, 2000 do rows[i] = row end\nlocal keep = {}\nfor i = 1, 100 do local ok, err = pcall(arcade.image, { palette = { Y = '#ffcc00' }, rows = rows }) if not ok then game.state.caught = true error(err, 0) end keep[i] = err end",
    ])
    func imagesThatDoNotFitTheCap(_ code: String) throws {
        let r = try Hostile.run(Hostile.loading(code), memory: 8 << 20, seconds: 30)
        let e = try #require(r.error)
        #expect(e.kind == .memory, "\(e.message)")
        #expect(e.file == "scratch/main.lua", "\(e.message)")
        #expect(e.message.contains("load() exceeded its memory limit (8 MiB): an image of"), "\(e.message)")
        #expect(r.session == nil)
    }

    @Test(arguments: [
        ("color Y #ffcc00\n" + String(repeating: "frame\n" + String(repeating: "Y", count: 2000) + "\n" + String(repeating: ".\n", count: 1999), count: 40),
         "memory"),
        ("color Y #ffcc00\nframe\n" + String(repeating: ".\n", count: 5000), "big.sprite:4099: frame has more than 4096 rows"),
        ("color Y #ffcc00\nframe\n" + String(repeating: "Y", count: 5000) + "\n", "big.sprite:2: frame: image of 5000 x 1 pixels is too large"),
        ("color Y #ffcc00\nframe\n" + String(repeating: "Y", count: 100_000) + "\n" + String(repeating: ".\n", count: 100), "big.sprite:2: frame: image of 100000 x 101 pixels is too large"),
    ])
    func spriteFilesAreBounded(_ text: String, _ expected: String) throws {
        let r = try Hostile.run(Hostile.loading("arcade.image_file('big.sprite')"), files: ["big.sprite": text], memory: 32 << 20)
        let e = try #require(r.error)
        if expected == "memory" {
            #expect(e.kind == .memory, "\(e.message)")
            #expect(e.message.hasPrefix("scratch/main.lua:3: load() exceeded its memory limit (32 MiB): image file 'big.sprite'"), "\(e.message)")
        } else {
            #expect(e.message.contains(expected), "\(e.message)")
        }
    }

    @Test(arguments: [
        ("arcade.scene.label{ text = string.rep('W', 4000000) }", "label.text is 4000000 bytes long; a label holds at most 1048576 bytes"),
        ("arcade.scene.label{ text = string.rep('W', 40000) }", "label renders more than 4096 pixels wide; a label is at most 4096 x 4096"),
        ("local l = arcade.scene.label{ text = string.rep('W', 700), font = 'small' }\nl.font = 'large'", "label renders more than 4096 pixels wide"),
        ("local l = arcade.scene.label{ text = string.rep('W\\n', 511), font = 'large' }\nl.outline = 'red'", "label renders more than 4096 pixels tall"),
        ("local l = arcade.scene.label{ text = 'ok' }\nl.text = string.rep('1\\n', 100000)", "label renders more than 4096 pixels tall"),
    ])
    func sceneLabelsAreBounded(_ code: String, _ message: String) throws {
        let r = try Hostile.run(Hostile.loading(code))
        let e = try #require(r.error)
        #expect(e.message.contains(message), "\(e.message)")
        #expect(e.file == "scratch/main.lua")
    }

    @Test(arguments: [
        ("g.label(string.rep('W', 4000000), 10, 10)", "text of 4000000 bytes is too long"),
        ("g.label(string.rep('W', 40000), 10, 10)", "label is more than 4096 pixels wide"),
        ("g.label(string.rep('W\\n', 200000), 10, 10)", "label is more than 4096 pixels tall"),
        ("g.text(string.rep('abc\\n', 1000000), 1, 1)", "text of 4000000 bytes is too long"),
    ])
    func immediateTextIsBounded(_ call: String, _ message: String) throws {
        let r = try Hostile.run(Hostile.loading("", extra: "function game.draw(g) \(call) end"))
        let e = try #require(r.error)
        #expect(e.message.contains(message), "\(e.message)")
        #expect(e.message.hasPrefix("scratch/main.lua:5: bad argument #1 to 'gfx."), "\(e.message)")
    }

    /// Labels that pass the size limit are still charged for their pixels, in the scene and
    /// while `gfx` caches them during a draw.
    @Test func labelPixelsCountAgainstTheCap() throws {
        let scene = try Hostile.run(Hostile.loading("""
            game.keep = {}
            for i = 1, 1000 do
              game.keep[i] = arcade.scene.label{ text = string.rep('W', 600) .. i, font = 'large' }
            end
            """), memory: 24 << 20)
        let e = try #require(scene.error)
        #expect(e.kind == .memory, "\(e.message)")
        #expect(e.message.contains("label"), "\(e.message)")
        #expect(e.line == 5)

        let drawn = try Hostile.run(Hostile.loading("", extra: """
            function game.draw(g)
              for i = 1, 60 do g.label(string.rep('W\\n', 500) .. i, 10, 10, { font = 'large' }) end
            end
            """), memory: 8 << 20, seconds: 30)  // the memory cap, not the speed of drawing, is tested
        let d = try #require(drawn.error)
        #expect(d.kind == .memory, "\(d.message)")
        #expect(d.message.contains("draw() exceeded its memory limit (8 MiB): a label of"), "\(d.message)")
    }

    @Test(arguments: [
        "arcade.scene.text{ text = string.rep('abc\\n', 1000000) }",
        "local t = arcade.scene.text{} t.text = string.rep('x', (1 << 20) + 1)",
    ])
    func textNodesAreBounded(_ code: String) throws {
        let r = try Hostile.run(Hostile.loading(code))
        let e = try #require(r.error)
        #expect(e.message.contains("a text node holds at most 1048576 bytes"), "\(e.message)")
    }
}

// MARK: - Class 4: native object counts

@Suite struct HostileObjectCountTests {
    /// Creating objects without end ends in a memory error naming the line and the object,
    /// well before the process runs out.
    @Test(arguments: [
        ("for i = 1, 1000000 do arcade.scene.rect{ x = i % 80 } end", "a new rect node"),
        ("for i = 1, 1000000 do arcade.scene.text{ text = string.rep('t', 100) } end", "new text node"),
        ("for i = 1, 1000000 do arcade.after(1e9, function() end) end", "a new timer"),
        ("local w = arcade.physics.world{}\nfor i = 1, 1000000 do w:add_ball{ x = i % 300, y = i % 97, radius = 1 } end", "a new ball"),
        ("local w = arcade.physics.world{}\nfor i = 1, 1000000 do w:add_wall(nil, { x = i, y = 0, width = 1, height = 1 }) end", "a new wall"),
        ("for i = 1, 1000000 do arcade.physics.world{} end", "a new physics world"),
        ("local v = {} for i = 1, 20000 do v[i] = i end\nfor i = 1, 1000000 do arcade.animate(arcade.scene.rect{}, { property = 'x', values = v, duration = 1 }) end", "an animation of 1 parts and 120000 values"),
        ("local pt = { 1, 2 } local p = {} for i = 1, 20000 do p[i] = pt end\nfor i = 1, 1000000 do arcade.scene.line{ points = p } end", "a line of 20000 points"),
    ])
    func objectsWithoutEnd(_ code: String, _ what: String) throws {
        let r = try Hostile.run(Hostile.loading(code), memory: 8 << 20, seconds: 30)
        let e = try #require(r.error)
        #expect(e.kind == .memory, "\(e.message)")
        #expect(e.file == "scratch/main.lua", "\(e.message)")
        #expect(e.message.contains("load() exceeded its memory limit (8 MiB)"), "\(e.message)")
        #expect(e.message.contains(what), "\(e.message)")
    }

    /// The cap covers the Lua heap and native objects together: once nodes hold most of it,
    /// a Lua string that would have fitted alone does not.
    @Test func luaAndNativeShareTheCap() throws {
        let r = try Hostile.run(Hostile.loading("""
            for i = 1, 14000 do arcade.scene.rect{} end   -- about 5 MiB of nodes
            game.state.native = true
            local s = string.rep('x', 2 << 20)
            """), memory: 8 << 20)
        let e = try #require(r.error)
        #expect(e.kind == .memory)
        #expect(e.message == "scratch: load() exceeded its memory limit (8 MiB)")
        let alone = try Hostile.run(Hostile.loading("local s = string.rep('x', 2 << 20)"), memory: 8 << 20)
        #expect(alone.error == nil)
    }

    /// A game that creates and releases objects forever never reaches the cap: what it
    /// releases is credited back, step after step.
    @Test func releasedObjectsAreCredited() throws {
        let r = try Hostile.run("""
            local game = {}
            function game.load()
              game.w = arcade.physics.world{ gravity = { 0, 1 }, bounds = false, remove_outside = true }
              game.img = arcade.image{ palette = { Y = '#ffcc00' }, rows = { 'YYY' } }
            end
            function game.update()
              for i = 1, 150 do
                local n = arcade.scene.label{ text = 'LABEL ' .. i }
                arcade.scene.text{ parent = n, text = string.rep('t', 500) }
                arcade.scene.line{ parent = n, points = { { 0, 0 }, { 5, 5 }, { 9, 1 } } }
                arcade.animate(n, { property = 'x', values = { 1, 2, 3, i }, duration = 0.01 }, function() end)
                n:remove()
                arcade.after(1e6, function() end):cancel()
                arcade.after(0, function() end)
                local b = game.w:add_ball{ x = 5 + (i * 13) % 70, y = 10, radius = 1 }
                if i % 10 ~= 0 then b:remove() end          -- the rest fall out of the world
                game.w:add_wall('w', { x = 0, y = 0, width = 1, height = 1 }):remove()
              end
              arcade.physics.world{}:destroy()
            end
            return game
            """, steps: 1, memory: 8 << 20)
        let session = try #require(r.session)
        // the balls still falling plateau at about 250 after some 60 steps, when the
        // world's columns have grown to hold them: measure from there
        for _ in 0..<100 { session.step() }
        session.vm.collectGarbage()
        let early = session.stats
        for _ in 0..<120 { session.step() }
        #expect(session.failure == nil, "\(session.failure?.description ?? "")")
        session.vm.collectGarbage()
        let late = session.stats
        #expect(late.nodes == 0)
        #expect(late.nativeBytes <= early.nativeBytes + 64 << 10, "native \(early.nativeBytes) -> \(late.nativeBytes)")
        #expect(late.nativeBytes < 4 << 20)
    }

    /// Removing a subtree credits every node in it, content included.
    @Test func removalCreditsTheWholeSubtree() throws {
        let r = try Hostile.run(Hostile.loading("""
            game.top = arcade.scene.group{}
            for i = 1, 300 do
              local g = arcade.scene.group{ parent = game.top }
              arcade.scene.text{ parent = g, text = string.rep('x', 1000) }
              arcade.scene.label{ parent = g, text = 'SCORE' }
            end
            """, extra: "function game.input() game.top:remove() end"))
        let session = try #require(r.session)
        let full = session.stats
        #expect(full.nodes == 901)
        #expect(full.nativeBytes > 901 * NativeCost.node + 300 * 1000)
        session.step(events: [.key(KeyEvent("x"))])
        let empty = session.stats
        #expect(session.failure == nil)
        #expect(empty.nodes == 0)
        #expect(full.nativeBytes - empty.nativeBytes >= 901 * NativeCost.node + 300 * 1000)
        #expect(empty.json.contains("\"native_kib\":\((empty.nativeBytes + 1023) / 1024),"))
    }

    /// Scheduling and cancelling far-off timers forever keeps the queue's heap near what is
    /// pending, not everything ever scheduled.
    @Test func cancelledTimersLeaveTheHeap() {
        var queue = TimerQueue<Int>()
        let keep = (0..<100).map { queue.after(Double($0), now: 0, $0) }
        for i in 0..<200_000 {
            let id = queue.after(1e9 + Double(i), now: 0, i)
            queue.cancel(id)
        }
        #expect(queue.count == 100)
        #expect(queue.heapSize <= 2 * 100 + 64 + 1)
        // the timers still pending fire in order
        var fired: [Int] = []
        queue.beginPass()
        while let due = queue.popDue(now: 1000) { fired.append(due.payload) }
        queue.endPass()
        #expect(fired == Array(0..<100))
        #expect(keep.allSatisfy { !queue.isPending($0) })
    }
}

// MARK: - Class 5 and 9: nesting in native code, and building deep trees

@Suite struct HostileNestingTests {
    /// A parent chain 100,000 nodes long stops at the nesting limit with a clear error, and
    /// quickly: each add checks at most 256 ancestors (it used to walk the whole chain, and
    /// drawing or dropping such a chain overflowed the native stack).
    @Test(arguments: ["group", "rect", "text"])
    func parentChainOf100000(_ kind: String) throws {
        let r = try Hostile.run(Hostile.loading("""
            local p = nil
            for i = 1, 100000 do
              game.state.made = i - 1
              p = arcade.scene.\(kind){ parent = p }
            end
            """), seconds: 60)
        let e = try #require(r.error)
        #expect(e.kind == .runtime, "\(e.message)")
        #expect(e.message.hasPrefix("scratch/main.lua:6: nodes nest at most 256 levels deep"), "\(e.message)")
        #expect(r.session == nil)
    }

    /// Linked from the bottom up, each `add` puts a chain under a node of the root, so the
    /// walk up is short and 30,000 levels were quick to build; drawing them then overflowed
    /// the native stack. Now the chain's own height is checked.
    @Test func chainLinkedBottomUp() throws {
        let r = try Hostile.run(Hostile.loading("""
            local nodes = {}
            for i = 1, 30000 do nodes[i] = arcade.scene.rect{ width = 1, height = 1 } end
            for i = 29999, 1, -1 do
              local ok, err = pcall(nodes[i].add, nodes[i], nodes[i + 1])
              if not ok then game.state.err = err game.state.chain = 30000 - i break end
            end
            """), seconds: 60)
        #expect(r.error == nil, "\(r.error?.description ?? "")")
        let state = try #require(try r.session?.state())
        #expect(state["chain"] == .int(256), "the chain of 256 nodes under a node of the root is refused")
        #expect(state["err"]?.stringValue?.hasPrefix("nodes nest at most 256 levels deep") == true)
    }

    /// The same chain made by moving nodes with `add`, caught by a pcall: the game carries on
    /// with the 256 levels it has, draws them, hits the bottom one and removes them all.
    @Test func deepestChainWorks() throws {
        let r = try Hostile.run(Hostile.loading("""
            local nodes = {}
            for i = 1, 300 do nodes[i] = arcade.scene.rect{ x = 0, y = 0, width = 4, height = 4, fill = 'red' } end
            local depth = 1
            for i = 2, 300 do
              local ok, err = pcall(nodes[i - 1].add, nodes[i - 1], nodes[i])
              if not ok then game.state.err = err break end
              depth = i
            end
            game.state.depth = depth
            nodes[depth].x = 30
            nodes[depth].y = 30
            game.top = nodes[1]
            game.bottom = nodes[depth]
            """, extra: """
            function game.update()
              game.state.hit = arcade.scene.hit(31, 31) == game.bottom
              game.state.count = arcade.scene.count()
            end
            function game.input() game.top:remove() game.state.after = arcade.scene.count() end
            """))
        #expect(r.error == nil, "\(r.error?.description ?? "")")
        let session = try #require(r.session)
        let state = try session.state()
        #expect(state["depth"] == .int(256))
        #expect(state["err"]?.stringValue?.contains("nodes nest at most 256 levels deep") == true)
        #expect(state["hit"] == .bool(true))
        #expect(state["count"] == .int(300))
        session.step(events: [.key(KeyEvent("x"))])
        #expect(session.failure == nil)
        #expect(try session.state()["after"] == .int(44))
        #expect(session.stats.nodes == 44)
    }

    /// Moving a subtree under a node checks the subtree's own height too, and a refused move
    /// leaves the tree as it was.
    @Test func movingATallSubtree() throws {
        let r = try Hostile.run(Hostile.loading("""
            local function chain(n)
              local top = arcade.scene.group{}
              local p = top
              for i = 2, n do p = arcade.scene.group{ parent = p } end
              return top, p
            end
            local a_top, a_leaf = chain(200)
            local b_top, b_leaf = chain(57)
            game.state.fits = pcall(a_leaf.add, a_leaf, b_top)      -- 200 + 57 = 257: too deep
            game.state.b_parent_is_root = b_top.parent == arcade.scene.root()
            local c_top = chain(56)
            game.state.fits_exactly = pcall(a_leaf.add, a_leaf, c_top)  -- 256: fits
            game.state.c_parent_is_leaf = c_top.parent == a_leaf
            """))
        #expect(r.error == nil, "\(r.error?.description ?? "")")
        let state = try #require(try r.session?.state())
        #expect(state["fits"] == .bool(false))
        #expect(state["b_parent_is_root"] == .bool(true))
        #expect(state["fits_exactly"] == .bool(true))
        #expect(state["c_parent_is_leaf"] == .bool(true))
    }

    /// Nested groups run (they used to overflow the Lua stack the binding pushed on, around
    /// 20 levels), up to 32 levels; deeper nesting is an argument error.
    @Test(arguments: [1, 20, 31])
    func nestedGroupsRun(_ levels: Int) throws {
        let r = try Hostile.run(Hostile.loading("""
            game.n = arcade.scene.rect{ x = 0 }
            local spec = { property = 'x', to = 5, duration = 0.05 }
            for i = 1, \(levels) do spec = { group = { spec } } end
            arcade.animate(game.n, spec, function(done) game.state.done = done end)
            """, extra: "function game.update() game.state.x = game.n.x end"), steps: 10)
        #expect(r.error == nil, "\(r.error?.description ?? "")")
        let state = try #require(try r.session?.state())
        #expect(state["done"] == .bool(true))
        #expect(state["x"] == .int(5) || state["x"] == .number(5))
    }

    @Test(arguments: [
        "for i = 1, 32 do spec = { group = { spec } } end",
        "for i = 1, 10000 do spec = { group = { spec } } end",
        "spec.group = { spec }",
        "local g = { group = {} } g.group[1] = { group = { g } } spec = g",
    ])
    func groupsNestedTooDeep(_ nesting: String) throws {
        let r = try Hostile.run(Hostile.loading("""
            local spec = { property = 'x', to = 5 }
            \(nesting)
            arcade.animate(arcade.scene.rect{}, spec)
            """))
        let e = try #require(r.error)
        #expect(e.message == "scratch/main.lua:5: bad argument #2 to 'arcade.animate' (groups nest at most 32 deep)", "\(e.message)")
    }

    /// Groups that share their children double at every level: 2^25 leaves from a few
    /// tables. Reading stops at the memory cap.
    @Test func doublingGroups() throws {
        let r = try Hostile.run(Hostile.loading("""
            local spec = { property = 'x', to = 5 }
            for i = 1, 25 do spec = { group = { spec, spec } } end
            arcade.animate(arcade.scene.rect{}, spec)
            """), memory: 16 << 20)
        let e = try #require(r.error)
        #expect(e.kind == .memory, "\(e.message)")
        #expect(e.message.contains("load() exceeded its memory limit (16 MiB): an animation of"), "\(e.message)")
    }
}
