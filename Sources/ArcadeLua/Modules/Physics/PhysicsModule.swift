import ArcadeCore
import ArcadeRender

/// `arcade.physics.world{...}` and the `arcade.PhysicsWorld` / `arcade.Ball` / `arcade.Wall`
/// handles: the native ``PhysicsWorld`` seen from Lua.
///
/// A game builds its world once and then only reacts to events; balls bound to scene nodes
/// move natively, so nothing runs in Lua per ball per step. Ball catch, for example:
///
///     local world = arcade.physics.world{ gravity = {0, 1}, bounds = true }  -- bounds: the canvas
///     world:add_wall("score1", { x = 145, y = 250, width = 25, height = 25 }) -- x, y: top-left
///     world:add_segment(nil, 0, 100, 40, 120)                                 -- a line wall
///     local paddle = world:add_wall("paddle", { x = 30, y = 60, width = 20, height = 2 })
///     world:move_wall(paddle, mx, my)          -- kinematic: centre reaches (mx, my) next step
///     world:remove_outside()                   -- balls that leave the canvas are removed
///     world:on_contact(function(ball, id, x, y, wall)
///         if id == "score1" then state.score = state.score + 5 end
///     end)
///     world:on_removed(function(ball) state.fallen = state.fallen + 1 end)
///     local dot = arcade.scene.circle{ radius = 2, fill = "red" }
///     local ball = world:add_ball{ x = 40, y = 0, radius = 2, elasticity = 0.8, friction = 1, node = dot }
///     world.bounds_enabled = false             -- open the gate
///
/// World: `add_ball{x, y, radius, vx, vy, elasticity, friction, density | mass, resistance,
/// angular_resistance, angle, spin, rotates, node, rotate_node, name, category, mask, group,
/// sensor}`, `add_wall(id, {x, y, width, height, category, mask, group, sensor})`,
/// `add_segment(id, x1, y1, x2, y2)` or `add_segment(id, {x1, y1, x2, y2, category, mask, group,
/// sensor})`, `move_wall(w, x, y)`, `place_wall(w, x, y)`, `remove_wall(w)`, `remove_walls(id)`,
/// `remove_outside([on])`, `on_contact(fn)`, `on_separate(fn)`, `on_removed(fn)`, `count()`,
/// `balls()`, `bodies_in(x, y, w, h)`, `destroy()`; options and properties `bounds_enabled`,
/// `gravity`, `restitution_threshold`, `wrap`, `bounds_category` and `bounds_mask`
/// (read/write), `remove_outside` (write), `count` (read).
///
/// Ball: `x`, `y`, `vx`, `vy`, `spin`, `category`, `mask`, `group`, `sensor` (read/write),
/// `radius`, `mass`, `angle`, `name` (read), `remove()`, `alive()`, `bind(node [, rotation])`,
/// `unbind()`.
/// Wall: `id`, `x`, `y` (centre), `width`, `height` (read), `category`, `mask`, `group`,
/// `sensor` (read/write), `remove()`, `alive()`.
///
/// The contact and separation callbacks get `(ball, id, x, y, wall)` and the removal callback `(ball)`;
/// how and in which order they are delivered: PhysicsWorlds+Events.swift. The worlds
/// themselves, their handles and their memory: ``PhysicsWorlds``.
///
/// Handles are weak: once the body is gone, using one raises "this ball was removed"
/// ("this wall was removed", "this world was destroyed").
public final class PhysicsModule {
    /// The world handle's class.
    public static let worldClass = LuaClass("arcade.PhysicsWorld", gone: "this world was destroyed")
    /// The ball handle's class.
    public static let ballClass = LuaClass("arcade.Ball", gone: "this ball was removed")
    /// The wall handle's class.
    public static let wallClass = LuaClass("arcade.Wall", gone: "this wall was removed")

    private unowned let vm: LuaVM
    private let scenes: SceneModule
    /// The worlds, their balls and walls.
    public let runtime: PhysicsWorlds
    private let worlds: LuaHandles<PhysicsWorlds.Entry>
    private let balls: LuaHandles<PhysicsWorlds.Ball>
    private let walls: LuaHandles<PhysicsWorlds.Wall>

    /// Number of live worlds (for tests and leak checks).
    public var worldCount: Int { runtime.worldCount }
    /// Number of balls Lua can still reach, over all worlds.
    public var ballCount: Int { runtime.ballCount }
    /// Number of bodies (balls) in all live worlds.
    public var bodyCount: Int { runtime.bodyCount }
    /// Number of walls in all live worlds (their bounds not counted).
    public var wallCount: Int { runtime.wallCount }

    /// Steps every world by `dt` (see ``PhysicsWorlds/step(_:)``).
    public func step(_ dt: Double) { runtime.step(dt) }
    /// Delivers the last step's events (see ``PhysicsWorlds/deliverEvents()``).
    public func deliverEvents() throws(LuaError) { try runtime.deliverEvents() }
    /// Destroys every world (the game is leaving).
    public func removeAll() { runtime.removeAll() }

    /// ``step(_:)`` then ``deliverEvents()``.
    public func advance(_ dt: Double) throws(LuaError) {
        step(dt)
        try deliverEvents()
    }

    /// Installs `arcade.physics` and the handle classes. `canvas` gives the play area that
    /// `bounds = true` and `remove_outside` use; it may change between steps (a resize).
    public init(vm: LuaVM, scene: SceneModule, canvas: @escaping () -> Rect) {
        self.vm = vm
        self.scenes = scene
        let runtime = PhysicsWorlds(vm: vm, canvas: canvas)
        self.runtime = runtime
        worlds = LuaHandles(Self.worldClass) { [unowned runtime] in runtime.world($0) }
        balls = LuaHandles(Self.ballClass) { [unowned runtime] in runtime.ball($0) }
        walls = LuaHandles(Self.wallClass) { [unowned runtime] in runtime.wall($0) }
        defineWorld()
        defineBall()
        defineWall()
        vm.register(in: "arcade.physics", [
            ("world", { s in try self.makeWorld(s) }),
        ])
    }

    // MARK: Worlds

    static let worldOptions: LuaOptionNames = [
        "gravity", "bounds", "bounds_enabled", "remove_outside", "substeps", "restitution_threshold",
        "wrap", "bounds_category", "bounds_mask",
    ]

    /// `arcade.physics.world{ gravity = {0, 1}, bounds = true | false | {x, y, width, height},
    /// bounds_enabled = true, remove_outside = false, substeps = 4, restitution_threshold = 100 }`.
    ///
    /// The threshold (px/s) is a speed, so a game that scales gravity down to a small canvas
    /// scales it by the same factor; otherwise nothing on that canvas is ever fast enough to
    /// bounce.
    private func makeWorld(_ s: LuaStack) throws -> Int32 {
        let o = try s.optOptions(1, known: Self.worldOptions)
        let gravity = try o.field("gravity") { i throws(LuaValueProblem) in try Self.gravity(s, i) } ?? Vec2(0, 1)
        var (enabled, bounds) = try self.bounds(o)
        if let on = try o.bool("bounds_enabled") { enabled = on }
        let substeps = try o.number("substeps", "number from 1 to 64", where: { $0 >= 1 && $0 <= 64 })
        let threshold = try o.number("restitution_threshold", "non-negative number", where: { $0 >= 0 })
        let wrap = try o.field("wrap", Self.wrap(s)) ?? (false, false)
        var boundsFilter = CollisionFilter.standard
        if let category = try o.field("bounds_category", Self.bits(s)) { boundsFilter.category = category }
        if let mask = try o.field("bounds_mask", Self.bits(s)) { boundsFilter.mask = mask }
        let entry = try runtime.addWorld(followsCanvas: bounds == nil, removesOutside: try o.bool("remove_outside") ?? false) {
            let world = PhysicsWorld(bounds: bounds ?? runtime.canvas(), gravity: gravity)
            world.boundsEnabled = enabled
            if let substeps { world.substeps = Int(substeps) }
            if let threshold { world.restitutionThreshold = threshold }
            (world.wrapsX, world.wrapsY) = wrap
            world.boundsFilter = boundsFilter
            return world
        }
        vm.pushHandle(s, entry.number, of: Self.worldClass)
        return 1
    }

    /// The `bounds` option: true or false (the canvas, on or off) or a rectangle of its own.
    private func bounds(_ o: LuaOptions) throws -> (enabled: Bool, rect: Rect?) {
        let s = o.stack
        guard o.index != 0 else { return (true, nil) }
        let type = s.getField("bounds", in: o.index)
        defer { s.pop() }
        switch type {
        case .nil: return (true, nil)
        case .boolean: return (s.truthy(at: -1), nil)
        case .table: return (true, try o.options("bounds", known: Self.rectOptions, rect))
        default: throw o.fieldError("bounds", s.problem(expected: "true, false or { x, y, width, height }", at: -1).text)
        }
    }

    /// `wrap`: true or false (both axes), or `{ x = true, y = false }`.
    private static func wrap(_ s: LuaStack) -> (Int32) throws(LuaValueProblem) -> (Bool, Bool) {
        { i throws(LuaValueProblem) in
            if s.type(at: i) == .boolean {
                let on = s.truthy(at: i)
                return (on, on)
            }
            guard s.type(at: i) == .table else { throw s.problem(expected: "true, false or { x = bool, y = bool }", at: i) }
            var axes = (false, false)
            for (n, key) in ["x", "y"].enumerated() {
                let type = s.getField(key, in: i)
                defer { s.pop() }
                guard type == .nil || type == .boolean else {
                    throw LuaValueProblem("\(key): \(s.problem(expected: "boolean", at: -1).text)")
                }
                if n == 0 { axes.0 = s.truthy(at: -1) } else { axes.1 = s.truthy(at: -1) }
            }
            return axes
        }
    }

    /// A category or mask: an integer whose low 32 bits are the set (so `~x` works).
    private static func bits(_ s: LuaStack) -> (Int32) throws(LuaValueProblem) -> UInt32 {
        { i throws(LuaValueProblem) in
            let v = try s.readInteger(at: i, "integer bit set (32 bits, e.g. 0x0004)",
                                      where: { $0 >= Int64(Int32.min) && $0 <= Int64(UInt32.max) })
            return UInt32(truncatingIfNeeded: v)
        }
    }

    /// A collision group: 0 for none, positive (always collide) or negative (never).
    private static func group(_ s: LuaStack) -> (Int32) throws(LuaValueProblem) -> Int32 {
        { i throws(LuaValueProblem) in
            Int32(try s.readInteger(at: i, "integer from -2147483647 to 2147483647",
                                    where: { abs($0) <= Int64(Int32.max) }))
        }
    }

    /// The `category`, `mask` and `group` of an options table over `base`.
    private static func filter(_ o: LuaOptions, _ base: CollisionFilter = .standard) throws(LuaArgumentError) -> CollisionFilter {
        let s = o.stack
        var f = base
        if let category = try o.field("category", bits(s)) { f.category = category }
        if let mask = try o.field("mask", bits(s)) { f.mask = mask }
        if let group = try o.field("group", group(s)) { f.group = group }
        return f
    }

    /// The option names of a filter, on balls and walls.
    private static let filterOptions: [String] = ["category", "mask", "group", "sensor"]

    /// Reads property `key` (category, mask, group or sensor) of a filter; false when `key` is
    /// not one.
    private static func pushFilterProperty(_ s: LuaStack, _ key: String, _ filter: CollisionFilter, sensor: Bool) -> Bool {
        switch key {
        case "category": s.push(Int64(filter.category))
        case "mask": s.push(Int64(filter.mask))
        case "group": s.push(Int64(filter.group))
        case "sensor": s.push(sensor)
        default: return false
        }
        return true
    }

    /// Writes property `key` (category, mask or group) of `filter` from stack index 3; false
    /// when `key` is not one. `what` names the object in the error ("ball", "wall").
    private static func setFilterProperty(_ s: LuaStack, _ key: String, _ filter: inout CollisionFilter, _ what: String) throws -> Bool {
        do throws(LuaValueProblem) {
            switch key {
            case "category": filter.category = try bits(s)(3)
            case "mask": filter.mask = try bits(s)(3)
            case "group": filter.group = try group(s)(3)
            default: return false
            }
        } catch {
            throw LuaScriptError("\(what).\(key): \(error.text)")
        }
        return true
    }

    /// Gravity: `{ gx, gy }` of finite numbers.
    private static func gravity(_ s: LuaStack, _ i: Int32) throws(LuaValueProblem) -> Vec2 {
        guard let g = s.point(at: i), g.x.isFinite, g.y.isFinite else {
            throw LuaValueProblem("\(s.problem(expected: "{ gx, gy }", at: i)) (UIKit units: {0, 1} is 1000 px/s² down)")
        }
        return g
    }

    private func defineWorld() {
        vm.defineClass(worlds, methods: [
            ("add_ball", { s in try self.addBall(s) }),
            ("add_wall", { s in
                let entry = try self.worlds.check(s, 1)
                let identifier = try s.optString(2)
                let o = try s.checkOptions(3, known: Self.wallOptions)
                let r = try self.rect(o)
                let filter = try Self.filter(o)
                let sensor = try o.bool("sensor") ?? false
                return self.pushWall(try self.runtime.addWall(to: entry) {
                    $0.addWall(identifier, shape: .rect(r), filter: filter, sensor: sensor)
                }, s)
            }),
            ("add_segment", { s in
                let entry = try self.worlds.check(s, 1)
                let identifier = try s.optString(2)
                let a: Vec2, b: Vec2
                var filter = CollisionFilter.standard, sensor = false
                if s.type(at: 3) == .table {
                    let o = try s.checkOptions(3, known: Self.segmentOptions)
                    let read = s.readNumber(at:)
                    a = Vec2(try o.required("x1", read), try o.required("y1", read))
                    b = Vec2(try o.required("x2", read), try o.required("y2", read))
                    filter = try Self.filter(o)
                    sensor = try o.bool("sensor") ?? false
                } else {
                    a = Vec2(try s.checkNumber(3), try s.checkNumber(4))
                    b = Vec2(try s.checkNumber(5), try s.checkNumber(6))
                }
                return self.pushWall(try self.runtime.addWall(to: entry) {
                    $0.addWall(identifier, shape: .segment(a, b), filter: filter, sensor: sensor)
                }, s)
            }),
            ("move_wall", { s in
                let wall = try self.ownWall(s)
                wall.entry.world.moveWall(wall.wall, to: Vec2(try s.checkNumber(3), try s.checkNumber(4)))
                return 0
            }),
            ("place_wall", { s in
                let wall = try self.ownWall(s)
                wall.entry.world.placeWall(wall.wall, at: Vec2(try s.checkNumber(3), try s.checkNumber(4)))
                return 0
            }),
            ("remove_wall", { s in
                let entry = try self.worlds.check(s, 1)
                s.push(self.runtime.removeWall(try s.checkHandle(2, of: Self.wallClass), from: entry))
                return 1
            }),
            ("remove_walls", { s in
                let entry = try self.worlds.check(s, 1)
                s.push(self.runtime.removeWalls(named: try s.checkString(2), from: entry))
                return 1
            }),
            ("remove_outside", { s in
                try self.worlds.check(s, 1).removesOutside = s.isNoneOrNil(2) || s.truthy(at: 2)
                return 0
            }),
            ("on_contact", { s in
                let entry = try self.worlds.check(s, 1)
                entry.onContact = try self.vm.optCallback(s, 2, kind: "on_contact", registeredBy: "world:on_contact")
                return 0
            }),
            ("on_separate", { s in
                let entry = try self.worlds.check(s, 1)
                entry.onSeparate = try self.vm.optCallback(s, 2, kind: "on_separate", registeredBy: "world:on_separate")
                entry.world.reportsSeparations = entry.onSeparate != nil
                return 0
            }),
            ("on_removed", { s in
                let entry = try self.worlds.check(s, 1)
                entry.onRemoved = try self.vm.optCallback(s, 2, kind: "on_removed", registeredBy: "world:on_removed")
                return 0
            }),
            ("count", { s in
                s.push(try self.worlds.check(s, 1).world.bodyCount)
                return 1
            }),
            ("balls", { s in
                let entry = try self.worlds.check(s, 1)
                return self.pushBalls(self.runtime.handles(of: entry.world.bodies, in: entry), s)
            }),
            ("bodies_in", { s in
                let entry = try self.worlds.check(s, 1)
                let r = Rect(x: try s.checkNumber(2), y: try s.checkNumber(3),
                             width: try s.checkNumber(4), height: try s.checkNumber(5))
                return self.pushBalls(self.runtime.handles(of: entry.world.bodies(in: r), in: entry), s)
            }),
            ("destroy", { s in
                self.runtime.destroy(try self.worlds.check(s, 1))
                return 0
            }),
        ], get: { s, entry, key in
            let world = entry.world
            switch key {
            case "bounds_enabled": s.push(world.boundsEnabled)
            case "count": s.push(world.bodyCount)
            case "restitution_threshold": s.push(world.restitutionThreshold)
            case "bounds_category": s.push(Int64(world.boundsFilter.category))
            case "bounds_mask": s.push(Int64(world.boundsFilter.mask))
            case "wrap":
                if world.wrapsX == world.wrapsY {
                    s.push(world.wrapsX)
                } else {
                    s.pushTable(array: 0)
                    s.push(world.wrapsX); s.setField("x", in: -2)
                    s.push(world.wrapsY); s.setField("y", in: -2)
                }
            case "gravity":
                s.pushTable(array: 2)
                s.push(world.gravity.x); s.setIndex(1, in: -2)
                s.push(world.gravity.y); s.setIndex(2, in: -2)
            default: return 0
            }
            return 1
        }, set: { s, entry, key in
            do {
                switch key {
                case "bounds_enabled": entry.world.boundsEnabled = s.truthy(at: 3)
                case "remove_outside": entry.removesOutside = s.truthy(at: 3)
                case "restitution_threshold":
                    entry.world.restitutionThreshold = try s.readNumber(at: 3, "non-negative number", where: { $0 >= 0 })
                case "gravity": entry.world.gravity = try Self.gravity(s, 3)
                case "wrap": (entry.world.wrapsX, entry.world.wrapsY) = try Self.wrap(s)(3)
                case "bounds_category": entry.world.boundsFilter.category = try Self.bits(s)(3)
                case "bounds_mask": entry.world.boundsFilter.mask = try Self.bits(s)(3)
                default: throw LuaScriptError("a PhysicsWorld has no settable property '\(key)'")
                }
            } catch let p as LuaValueProblem {
                throw LuaScriptError("world.\(key): \(p.text)")
            }
        }, describe: { id in
            guard let entry = self.runtime.world(id) else { return "PhysicsWorld#\(id) (destroyed)" }
            return "PhysicsWorld#\(id) (\(entry.world.bodyCount) balls, \(entry.world.wallCount) walls)"
        })
    }

    // MARK: Balls

    static let ballOptions: LuaOptionNames = [
        "x", "y", "radius", "vx", "vy", "elasticity", "friction", "density", "mass", "resistance",
        "angular_resistance", "angle", "spin", "rotates", "node", "rotate_node", "name",
        "category", "mask", "group", "sensor",
    ]

    /// `world:add_ball{...}`: every number is checked here, because the native world traps
    /// on a bad radius or mass rather than reporting it.
    private func addBall(_ s: LuaStack) throws -> Int32 {
        let entry = try worlds.check(s, 1)
        let o = try s.checkOptions(2, known: Self.ballOptions)
        let radius = try o.required("radius") { i throws(LuaValueProblem) in try s.readNumber(at: i, "positive number", where: { $0 > 0 }) }
        var d = BallDefinition(position: Vec2(try o.required("x", s.readNumber(at:)), try o.required("y", s.readNumber(at:))),
                               radius: radius)
        d.velocity = Vec2(try o.number("vx") ?? 0, try o.number("vy") ?? 0)
        d.elasticity = try o.number("elasticity", "non-negative number", where: { $0 >= 0 }) ?? 0
        d.friction = try o.number("friction", "non-negative number", where: { $0 >= 0 }) ?? 0
        d.resistance = try o.number("resistance", "non-negative number", where: { $0 >= 0 }) ?? 0
        d.angularResistance = try o.number("angular_resistance", "non-negative number", where: { $0 >= 0 }) ?? 0
        if let density = try o.number("density", "positive number", where: { $0 > 0 }) { d.density = density }
        if let mass = try o.number("mass", "positive number", where: { $0 > 0 }) { d.mass = mass }
        guard d.resolvedMass > 0, d.resolvedMass.isFinite else {
            throw o.error("the ball's mass (from radius and density) is not a positive number; give 'mass'")
        }
        d.angle = try o.number("angle") ?? 0
        d.angularVelocity = try o.number("spin") ?? 0
        d.allowsRotation = try o.bool("rotates") ?? true
        d.filter = try Self.filter(o)
        d.isSensor = try o.bool("sensor") ?? false
        let node = try o.object("node", scenes.nodes)
        let name = try o.field("name", s.readName(at:))
        let handle = try runtime.addBall(d, to: entry, node: node, rotateNode: try o.bool("rotate_node") ?? false,
                                         name: name)
        vm.pushHandle(s, handle, of: Self.ballClass)
        return 1
    }

    private func defineBall() {
        vm.defineClass(balls, methods: [
            balls.removeMethod { self.runtime.remove($0) },
            balls.aliveMethod,
            ("bind", { s in
                let ball = try self.balls.check(s, 1)
                ball.entry.world.bind(ball.body, to: try self.scenes.nodes.check(s, 2), rotation: s.truthy(at: 3))
                return 0
            }),
            ("unbind", { s in
                let ball = try self.balls.check(s, 1)
                ball.entry.world.unbind(ball.body)
                return 0
            }),
        ], get: { s, ball, key in
            let (w, body) = (ball.entry.world, ball.body)
            switch key {
            case "x": s.push(w.position(of: body)?.x ?? 0)
            case "y": s.push(w.position(of: body)?.y ?? 0)
            case "vx": s.push(w.velocity(of: body)?.x ?? 0)
            case "vy": s.push(w.velocity(of: body)?.y ?? 0)
            case "spin": s.push(w.angularVelocity(of: body) ?? 0)
            case "angle": s.push(w.angle(of: body) ?? 0)
            case "radius": s.push(w.radius(of: body) ?? 0)
            case "mass": s.push(w.mass(of: body) ?? 0)
            case "name":
                guard let name = self.runtime.name(of: ball.handle) else { return 0 }
                s.push(name)
            default:
                guard let filter = w.filter(of: body),
                      Self.pushFilterProperty(s, key, filter, sensor: w.isSensor(body) ?? false) else { return 0 }
            }
            return 1
        }, set: { s, ball, key in
            let (w, body) = (ball.entry.world, ball.body)
            if key == "sensor" {
                w.setSensor(s.truthy(at: 3), of: body)
                return
            }
            var filter = w.filter(of: body) ?? .standard
            if try Self.setFilterProperty(s, key, &filter, "ball") {
                w.setFilter(filter, of: body)
                return
            }
            guard ["x", "y", "vx", "vy", "spin"].contains(key) else {
                throw LuaScriptError("a Ball has no settable property '\(key)'")
            }
            let v: Double
            do throws(LuaValueProblem) { v = try s.readNumber(at: 3) } catch { throw LuaScriptError("ball.\(key): \(error.text)") }
            let p = w.position(of: body) ?? .zero, u = w.velocity(of: body) ?? .zero
            switch key {
            case "x": w.setPosition(Vec2(v, p.y), of: body)
            case "y": w.setPosition(Vec2(p.x, v), of: body)
            case "vx": w.setVelocity(Vec2(v, u.y), of: body)
            case "vy": w.setVelocity(Vec2(u.x, v), of: body)
            default: w.setAngularVelocity(v, of: body)
            }
        }, describe: { id in
            guard let ball = self.runtime.ball(id), let p = ball.entry.world.position(of: ball.body) else {
                return "Ball#\(id) (removed)"
            }
            return "Ball#\(id) (\(p.x), \(p.y))"
        })
    }

    private func pushBalls(_ handles: [UInt64], _ s: LuaStack) -> Int32 {
        s.reserve(4)
        s.pushTable(array: Int32(handles.count))
        for (i, h) in handles.enumerated() {
            vm.pushHandle(s, h, of: Self.ballClass)
            s.setIndex(i + 1, in: -2)
        }
        return 1
    }

    // MARK: Walls

    static let rectOptions: LuaOptionNames = ["x", "y", "width", "height"]
    static let wallOptions = rectOptions.union(filterOptions)
    static let segmentOptions: LuaOptionNames = ["x1", "y1", "x2", "y2", "category", "mask", "group", "sensor"]

    /// `{ x, y, width, height }` (x, y the top-left corner), all finite, sizes not negative.
    private func rect(_ o: LuaOptions) throws -> Rect {
        let read = o.stack.readNumber(at:)
        let size = { (i: Int32) throws(LuaValueProblem) in try o.stack.readNumber(at: i, "non-negative number", where: { $0 >= 0 }) }
        return Rect(x: try o.required("x", read), y: try o.required("y", read),
                    width: try o.required("width", size), height: try o.required("height", size))
    }

    private func defineWall() {
        vm.defineClass(walls, methods: [
            walls.removeMethod { self.runtime.remove($0) },
            walls.aliveMethod,
        ], get: { s, wall, key in
            let world = wall.entry.world
            guard let shape = world.shape(of: wall.wall) else { return 0 }
            switch key {
            case "id":
                guard let identifier = world.identifier(of: wall.wall) else { return 0 }
                s.push(identifier)
            case "x": s.push(shape.center.x)
            case "y": s.push(shape.center.y)
            case "width", "height":
                guard case .rect(let r) = shape else { return 0 }
                s.push(key == "width" ? r.width : r.height)
            default:
                guard let filter = world.filter(of: wall.wall),
                      Self.pushFilterProperty(s, key, filter, sensor: world.isSensor(wall.wall) ?? false) else { return 0 }
            }
            return 1
        }, set: { s, wall, key in
            let world = wall.entry.world
            if key == "sensor" {
                world.setSensor(s.truthy(at: 3), of: wall.wall)
                return
            }
            var filter = world.filter(of: wall.wall) ?? .standard
            guard try Self.setFilterProperty(s, key, &filter, "wall") else {
                throw LuaScriptError("a Wall has no settable property '\(key)'")
            }
            world.setFilter(filter, of: wall.wall)
        }, describe: { id in
            guard let wall = self.runtime.wall(id) else { return "Wall#\(id & 0xFFFF_FFFF) (removed)" }
            return "Wall#\(wall.wall.rawValue) (\(wall.entry.world.identifier(of: wall.wall) ?? "no id"))"
        })
    }

    /// The world at argument 1 and the wall at argument 2, which must belong to it.
    private func ownWall(_ s: LuaStack) throws -> PhysicsWorlds.Wall {
        let entry = try worlds.check(s, 1)
        let wall = try walls.check(s, 2)
        guard wall.entry === entry else { throw LuaArgumentError(2, "that wall belongs to another world") }
        return wall
    }

    private func pushWall(_ handle: UInt64?, _ s: LuaStack) -> Int32 {
        guard let handle else { return 0 }
        vm.pushHandle(s, handle, of: Self.wallClass)
        return 1
    }
}
