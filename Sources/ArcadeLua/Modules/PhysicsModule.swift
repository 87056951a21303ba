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
/// angular_resistance, angle, spin, rotates, node, rotate_node}`, `add_wall(id, {x, y, width,
/// height})`, `add_segment(id, x1, y1, x2, y2)`, `move_wall(w, x, y)`, `place_wall(w, x, y)`,
/// `remove_wall(w)`, `remove_walls(id)`, `remove_outside([on])`, `on_contact(fn)`,
/// `on_removed(fn)`, `count()`, `balls()`, `bodies_in(x, y, w, h)`, `destroy()`; properties
/// `bounds_enabled`, `gravity` and `restitution_threshold` (read/write), `remove_outside`
/// (write), `count` (read).
///
/// Ball: `x`, `y`, `vx`, `vy`, `spin` (read/write), `radius`, `mass`, `angle` (read),
/// `remove()`, `alive()`, `bind(node [, rotation])`, `unbind()`.
/// Wall: `id`, `x`, `y` (centre), `width`, `height` (read), `remove()`, `alive()`.
///
/// The contact callback gets `(ball, id, x, y, wall)`: `id` is the wall's identifier (nil for
/// the bounds and for walls added without one) or, for two balls, the other ball's handle;
/// `wall` is the wall handle (nil for the bounds and for balls). Events come in the world's
/// order (by ball creation, then bounds, walls, balls), contacts before removals, worlds in
/// creation order.
///
/// Handles are weak: once the body is gone, using one raises "this ball was removed"
/// ("this wall was removed", "this world was destroyed").
public final class PhysicsModule {
    /// The world handle's class.
    public static let worldClass = LuaClass("arcade.PhysicsWorld")
    /// The ball handle's class.
    public static let ballClass = LuaClass("arcade.Ball")
    /// The wall handle's class.
    public static let wallClass = LuaClass("arcade.Wall")

    /// One world and what Lua attached to it.
    final class Entry {
        let world: PhysicsWorld
        let number: UInt64
        /// True when the bounds (and the removal rectangle) are the canvas, kept in step with it.
        var followsCanvas: Bool
        var removesOutside = false
        var onContact: LuaCallback?
        var onRemoved: LuaCallback?
        /// Ball handle numbers by body; looked up only when an event or call needs one.
        var handles: [BodyID: UInt64] = [:]
        var destroyed = false
        /// What this world was last charged (see ``PhysicsModule/nativeBytes``).
        var accounted = 0

        init(world: PhysicsWorld, number: UInt64, followsCanvas: Bool) {
            self.world = world
            self.number = number
            self.followsCanvas = followsCanvas
        }
    }

    private unowned let vm: LuaVM
    private let scenes: SceneModule
    /// The canvas rectangle, read when a world is made and before every step.
    private let canvas: () -> Rect
    /// Live worlds in creation order: the order they step and report in.
    private var worlds: [Entry] = []
    private var worldsByNumber: [UInt64: Entry] = [:]
    /// Ball handle numbers, never reused, so a stale handle can never reach a newer ball.
    private var balls: [UInt64: (entry: Entry, body: BodyID)] = [:]
    private var nextWorld: UInt64 = 1
    private var nextBall: UInt64 = 1

    /// Number of live worlds (for tests and leak checks).
    public var worldCount: Int { worlds.count }
    /// Number of balls Lua can still reach, over all worlds.
    public var ballCount: Int { balls.count }
    /// Number of bodies (balls) in all live worlds.
    public var bodyCount: Int { worlds.reduce(0) { $0 + $1.world.bodyCount } }
    /// Number of walls in all live worlds (their bounds not counted).
    public var wallCount: Int { worlds.reduce(0) { $0 + $1.world.wallCount } }
    /// What the worlds, their balls and walls hold natively (see ``NativeCost``), as of the
    /// last change made from Lua or the last step.
    public private(set) var nativeBytes = 0
    private var account = NativeAccount()

    /// Brings the VM's count of native memory up to date with ``nativeBytes``.
    private func syncNative() { account.report(nativeBytes, to: vm) }

    /// Brings `entry`'s charge up to date with what it holds: the estimate per world, ball
    /// and wall, or after a step (`measured`) the world's storage when that is more (the
    /// contacts of balls piled on each other).
    private func recount(_ entry: Entry, measured: Bool = false) {
        let w = entry.world
        var bytes = entry.destroyed ? 0
            : NativeCost.world + w.bodyCount * NativeCost.ball + w.wallCount * NativeCost.wall
        if measured && !entry.destroyed { bytes = max(bytes, w.storageBytes) }
        let changed = bytes != entry.accounted
        nativeBytes += bytes - entry.accounted
        entry.accounted = bytes
        if changed && !stepping { syncNative() }
    }

    /// Set while the worlds step: ``recount(_:measured:)`` leaves the new sum to the end.
    private var stepping = false

    /// Installs `arcade.physics` and the handle classes. `canvas` gives the play area that
    /// `bounds = true` and `remove_outside` use; it may change between steps (a resize).
    public init(vm: LuaVM, scene: SceneModule, canvas: @escaping () -> Rect) {
        self.vm = vm
        self.scenes = scene
        self.canvas = canvas
        defineWorld()
        defineBall()
        defineWall()
        vm.register(in: "arcade.physics", [
            ("world", { s in try self.makeWorld(s) }),
        ])
    }

    // MARK: Stepping

    /// Steps every world by `dt`, in creation order. Bound nodes are written natively.
    public func step(_ dt: Double) {
        guard !worlds.isEmpty else { return }
        let area = canvas()
        stepping = true
        defer {
            stepping = false
            syncNative()  // balls that left are credited, grown storage charged
        }
        for entry in worlds {
            let world = entry.world
            if entry.followsCanvas { world.bounds = area }
            world.removalRect = entry.removesOutside ? world.bounds : nil
            world.step(dt)
            recount(entry, measured: true)  // balls that left are credited, contacts counted
        }
    }

    /// Hands the last step's contacts and removals to the Lua callbacks: worlds in creation
    /// order, each world's contacts (in its order) before its removals.
    ///
    /// - Throws: the first callback error; the events not yet delivered stay queued, and the
    ///   next call (before the next ``step(_:)``) delivers them.
    public func deliverEvents() throws(LuaError) {
        let snapshot = worlds  // callbacks may create or destroy worlds
        for entry in snapshot where !entry.destroyed {
            do {
                try entry.world.drainContactEvents { event in try self.deliver(event, of: entry) }
                try entry.world.drainRemovedBodies { body in try self.deliverRemoval(of: body, in: entry) }
            } catch let error as LuaError {
                throw error
            } catch {
                throw LuaError(kind: .runtime, message: "\(vm.name): physics callback: \(error)")
            }
        }
    }

    /// ``step(_:)`` then ``deliverEvents()``.
    public func advance(_ dt: Double) throws(LuaError) {
        step(dt)
        try deliverEvents()
    }

    /// Destroys every world and releases its callbacks (the game is leaving).
    public func removeAll() {
        for entry in worlds {
            entry.destroyed = true
            recount(entry)
        }
        worlds.removeAll()
        worldsByNumber.removeAll()
        balls.removeAll()
    }

    private func deliver(_ event: ContactEvent, of entry: Entry) throws(LuaError) {
        guard !entry.destroyed, let callback = entry.onContact,
              let ball = entry.handles[event.body] else { return }
        var other: UInt64? = nil
        var wall: UInt64? = nil
        switch event.partner {
        case .bounds: break
        case .wall(let id): wall = entry.number << 32 | UInt64(id.rawValue)
        case .body(let body):
            guard let h = entry.handles[body] else { return }  // removed by an earlier callback
            other = h
        }
        try vm.protectedCall(label: "contact callback") { s in
            s.reserve(7)
            self.vm.push(callback)
            self.vm.pushHandle(s, ball, of: Self.ballClass)
            if let other {
                self.vm.pushHandle(s, other, of: Self.ballClass)
            } else if let identifier = event.identifier {
                s.push(identifier)
            } else {
                s.pushNil()
            }
            s.push(event.point.x)
            s.push(event.point.y)
            if let wall { self.vm.pushHandle(s, wall, of: Self.wallClass) } else { s.pushNil() }
            return 5
        }
    }

    private func deliverRemoval(of body: BodyID, in entry: Entry) throws(LuaError) {
        guard let ball = entry.handles.removeValue(forKey: body) else { return }
        balls.removeValue(forKey: ball)
        guard !entry.destroyed, let callback = entry.onRemoved else { return }
        try vm.protectedCall(label: "removal callback") { s in
            s.reserve(3)
            self.vm.push(callback)
            self.vm.pushHandle(s, ball, of: Self.ballClass)
            return 1
        }
    }

    // MARK: Worlds

    private static let worldOptions: Set<String> = [
        "gravity", "bounds", "bounds_enabled", "remove_outside", "substeps", "restitution_threshold",
    ]

    /// `arcade.physics.world{ gravity = {0, 1}, bounds = true | false | {x, y, width, height},
    /// bounds_enabled = true, remove_outside = false, substeps = 4, restitution_threshold = 100 }`.
    ///
    /// The threshold (px/s) is a speed, so a game that scales gravity down to a small canvas
    /// scales it by the same factor; otherwise nothing on that canvas is ever fast enough to
    /// bounce.
    private func makeWorld(_ s: LuaStack) throws -> Int32 {
        if s.isNoneOrNil(1) { s.setTop(0); s.pushTable() } else { try s.checkTable(1) }
        try rejectUnknown(options: 1, allowed: Self.worldOptions, what: "a world", s)
        let gravity = try s.field("gravity", of: 1) { i in
            guard let g = s.point(at: i), g.x.isFinite, g.y.isFinite else {
                throw LuaArgumentError(1, "field 'gravity' must be { gx, gy } (UIKit units: {0, 1} is 1000 px/s² down)")
            }
            return g
        } ?? Vec2(0, 1)
        var follows = true
        var enabled = true
        var rect = canvas()
        s.getField("bounds", in: 1)
        switch s.type(at: -1) {
        case .nil, .none: break
        case .boolean: enabled = s.truthy(at: -1)
        case .table:
            let r = try self.rect(s, table: s.top, argument: 1, what: "field 'bounds'")
            rect = r
            follows = false
        default:
            throw LuaArgumentError(1, "field 'bounds' must be true, false or { x, y, width, height }, got \(s.typeName(at: -1))")
        }
        s.pop()
        if let on = try s.boolField("bounds_enabled", of: 1) { enabled = on }
        try vm.reserveNative(NativeCost.world, for: "a new physics world")
        let world = PhysicsWorld(bounds: rect, gravity: gravity)
        world.boundsEnabled = enabled
        if let n = try s.numberField("substeps", of: 1) {
            guard n >= 1, n <= 64 else { throw LuaArgumentError(1, "field 'substeps' must be between 1 and 64") }
            world.substeps = Int(n)
        }
        if let v = try s.numberField("restitution_threshold", of: 1) {
            guard v.isFinite, v >= 0 else {
                throw LuaArgumentError(1, "field 'restitution_threshold' must be a finite number >= 0, got \(v)")
            }
            world.restitutionThreshold = v
        }
        let entry = Entry(world: world, number: nextWorld, followsCanvas: follows)
        nextWorld += 1
        entry.removesOutside = try s.boolField("remove_outside", of: 1) ?? false
        worlds.append(entry)
        worldsByNumber[entry.number] = entry
        recount(entry)
        vm.pushHandle(s, entry.number, of: Self.worldClass)
        return 1
    }

    private func defineWorld() {
        vm.defineClass(Self.worldClass, methods: [
            ("add_ball", { s in try self.addBall(s) }),
            ("add_wall", { s in
                let entry = try self.world(s, 1)
                let identifier = try self.identifier(s, 2)
                try s.checkTable(3)
                let r = try self.rect(s, table: 3, argument: 3, what: "the wall")
                try self.vm.reserveNative(NativeCost.wall, for: "a new wall")
                defer { self.recount(entry) }
                return self.pushWall(entry.world.addWall(identifier, rect: r), of: entry, s)
            }),
            ("add_segment", { s in
                let entry = try self.world(s, 1)
                let identifier = try self.identifier(s, 2)
                let a = Vec2(try s.checkNumber(3, "x1"), try s.checkNumber(4, "y1"))
                let b = Vec2(try s.checkNumber(5, "x2"), try s.checkNumber(6, "y2"))
                try self.vm.reserveNative(NativeCost.wall, for: "a new wall")
                defer { self.recount(entry) }
                return self.pushWall(entry.world.addWall(identifier, from: a, to: b), of: entry, s)
            }),
            ("move_wall", { s in
                let (entry, wall) = try self.ownWall(s)
                entry.world.moveWall(wall, to: Vec2(try s.checkNumber(3, "x"), try s.checkNumber(4, "y")))
                return 0
            }),
            ("place_wall", { s in
                let (entry, wall) = try self.ownWall(s)
                entry.world.placeWall(wall, at: Vec2(try s.checkNumber(3, "x"), try s.checkNumber(4, "y")))
                return 0
            }),
            ("remove_wall", { s in
                let entry = try self.world(s, 1)
                let raw = try self.vm.checkHandle(s, at: 2, of: Self.wallClass)
                s.push(raw >> 32 == entry.number && entry.world.removeWall(WallID(rawValue: UInt32(truncatingIfNeeded: raw))))
                self.recount(entry)
                return 1
            }),
            ("remove_walls", { s in
                let entry = try self.world(s, 1)
                s.push(entry.world.removeWalls(identifier: try s.checkString(2)))
                self.recount(entry)
                return 1
            }),
            ("remove_outside", { s in
                let entry = try self.world(s, 1)
                entry.removesOutside = s.isNoneOrNil(2) || s.truthy(at: 2)
                return 0
            }),
            ("on_contact", { s in
                let entry = try self.world(s, 1)
                entry.onContact = try self.callback(s, 2)
                return 0
            }),
            ("on_removed", { s in
                let entry = try self.world(s, 1)
                entry.onRemoved = try self.callback(s, 2)
                return 0
            }),
            ("count", { s in
                s.push(try self.world(s, 1).world.bodyCount)
                return 1
            }),
            ("balls", { s in
                let entry = try self.world(s, 1)
                return self.pushBalls(entry.world.bodies, of: entry, s)
            }),
            ("bodies_in", { s in
                let entry = try self.world(s, 1)
                let r = Rect(x: try s.checkNumber(2, "x"), y: try s.checkNumber(3, "y"),
                             width: try s.checkNumber(4, "width"), height: try s.checkNumber(5, "height"))
                return self.pushBalls(entry.world.bodies(in: r), of: entry, s)
            }),
            ("destroy", { s in
                let entry = try self.world(s, 1)
                self.destroy(entry)
                return 0
            }),
        ], get: { s, id, key in
            let world = try self.resolveWorld(id).world
            switch key {
            case "bounds_enabled": s.push(world.boundsEnabled)
            case "count": s.push(world.bodyCount)
            case "restitution_threshold": s.push(world.restitutionThreshold)
            case "gravity":
                s.pushTable(array: 2)
                s.push(world.gravity.x); s.setIndex(1, in: -2)
                s.push(world.gravity.y); s.setIndex(2, in: -2)
            default: return 0
            }
            return 1
        }, set: { s, id, key in
            let entry = try self.resolveWorld(id)
            switch key {
            case "bounds_enabled": entry.world.boundsEnabled = s.truthy(at: 3)
            case "remove_outside": entry.removesOutside = s.truthy(at: 3)
            case "restitution_threshold":
                guard let v = s.number(at: 3), v.isFinite, v >= 0 else {
                    throw LuaScriptError("world.restitution_threshold must be a finite number >= 0, got \(s.number(at: 3).map { "\($0)" } ?? s.typeName(at: 3))")
                }
                entry.world.restitutionThreshold = v
            case "gravity":
                guard let g = s.point(at: 3), g.x.isFinite, g.y.isFinite else {
                    throw LuaScriptError("world.gravity must be { gx, gy }, got \(s.typeName(at: 3))")
                }
                entry.world.gravity = g
            default:
                throw LuaScriptError("a PhysicsWorld has no settable property '\(key)'")
            }
        }, describe: { id in
            guard let entry = self.worldsByNumber[id] else { return "PhysicsWorld#\(id) (destroyed)" }
            return "PhysicsWorld#\(id) (\(entry.world.bodyCount) balls, \(entry.world.wallCount) walls)"
        })
    }

    private func destroy(_ entry: Entry) {
        guard !entry.destroyed else { return }
        entry.destroyed = true
        for handle in entry.handles.values { balls.removeValue(forKey: handle) }
        entry.handles.removeAll()
        entry.onContact = nil
        entry.onRemoved = nil
        recount(entry)
        worlds.removeAll { $0 === entry }
        worldsByNumber.removeValue(forKey: entry.number)
    }

    private func resolveWorld(_ id: UInt64) throws -> Entry {
        guard let entry = worldsByNumber[id] else { throw LuaScriptError("this world was destroyed") }
        return entry
    }

    private func world(_ s: LuaStack, _ index: Int32) throws -> Entry {
        try resolveWorld(vm.checkHandle(s, at: index, of: Self.worldClass))
    }

    // MARK: Balls

    private static let ballOptions: Set<String> = [
        "x", "y", "radius", "vx", "vy", "elasticity", "friction", "density", "mass", "resistance",
        "angular_resistance", "angle", "spin", "rotates", "node", "rotate_node",
    ]

    /// `world:add_ball{...}`: every number is checked here, because the native world traps
    /// on a bad radius or mass rather than reporting it.
    private func addBall(_ s: LuaStack) throws -> Int32 {
        let entry = try world(s, 1)
        try s.checkTable(2)
        try rejectUnknown(options: 2, allowed: Self.ballOptions, what: "a ball", s)
        func required(_ key: String) throws -> Double {
            guard let v = try s.numberField(key, of: 2) else {
                throw LuaArgumentError(2, "field '\(key)' is required (a number)")
            }
            return v
        }
        let radius = try required("radius")
        guard radius > 0 else { throw LuaArgumentError(2, "field 'radius' must be greater than 0, got \(radius)") }
        var d = BallDefinition(position: Vec2(try required("x"), try required("y")), radius: radius)
        d.velocity = Vec2(try s.numberField("vx", of: 2) ?? 0, try s.numberField("vy", of: 2) ?? 0)
        d.elasticity = try nonNegative("elasticity", s) ?? 0
        d.friction = try nonNegative("friction", s) ?? 0
        d.resistance = try nonNegative("resistance", s) ?? 0
        d.angularResistance = try nonNegative("angular_resistance", s) ?? 0
        if let density = try s.numberField("density", of: 2) {
            guard density > 0 else { throw LuaArgumentError(2, "field 'density' must be greater than 0, got \(density)") }
            d.density = density
        }
        if let mass = try s.numberField("mass", of: 2) {
            guard mass > 0 else { throw LuaArgumentError(2, "field 'mass' must be greater than 0, got \(mass)") }
            d.mass = mass
        }
        guard d.resolvedMass > 0, d.resolvedMass.isFinite else {
            throw LuaArgumentError(2, "the ball's mass (from radius and density) is not a positive number; give 'mass'")
        }
        d.angle = try s.numberField("angle", of: 2) ?? 0
        d.angularVelocity = try s.numberField("spin", of: 2) ?? 0
        d.allowsRotation = try s.boolField("rotates", of: 2) ?? true
        let node = try s.field("node", of: 2) { i in try self.node(s, i) }
        let rotateNode = try s.boolField("rotate_node", of: 2) ?? false

        try vm.reserveNative(NativeCost.ball, for: "a new ball")
        let body = entry.world.addBall(d)
        recount(entry)
        let handle = nextBall
        nextBall += 1
        entry.handles[body] = handle
        balls[handle] = (entry, body)
        if let node { entry.world.bind(body, to: node, rotation: rotateNode) }
        vm.pushHandle(s, handle, of: Self.ballClass)
        return 1
    }

    private func nonNegative(_ key: String, _ s: LuaStack) throws -> Double? {
        guard let v = try s.numberField(key, of: 2) else { return nil }
        guard v >= 0 else { throw LuaArgumentError(2, "field '\(key)' must not be negative, got \(v)") }
        return v
    }

    private func defineBall() {
        vm.defineClass(Self.ballClass, methods: [
            ("remove", { s in
                let id = try self.vm.checkHandle(s, at: 1, of: Self.ballClass)
                let (entry, body) = try self.resolveBall(id)
                entry.world.removeBody(body)
                entry.handles.removeValue(forKey: body)
                self.balls.removeValue(forKey: id)
                self.recount(entry)
                return 0
            }),
            ("alive", { s in
                let id = try self.vm.checkHandle(s, at: 1, of: Self.ballClass)
                s.push((try? self.resolveBall(id)) != nil)
                return 1
            }),
            ("bind", { s in
                let (entry, body) = try self.resolveBall(self.vm.checkHandle(s, at: 1, of: Self.ballClass))
                let node = try self.node(s, 2)
                entry.world.bind(body, to: node, rotation: s.truthy(at: 3))
                return 0
            }),
            ("unbind", { s in
                let (entry, body) = try self.resolveBall(self.vm.checkHandle(s, at: 1, of: Self.ballClass))
                entry.world.unbind(body)
                return 0
            }),
        ], get: { s, id, key in
            let (entry, body) = try self.resolveBall(id)
            let w = entry.world
            switch key {
            case "x": s.push(w.position(of: body)?.x ?? 0)
            case "y": s.push(w.position(of: body)?.y ?? 0)
            case "vx": s.push(w.velocity(of: body)?.x ?? 0)
            case "vy": s.push(w.velocity(of: body)?.y ?? 0)
            case "spin": s.push(w.angularVelocity(of: body) ?? 0)
            case "angle": s.push(w.angle(of: body) ?? 0)
            case "radius": s.push(w.radius(of: body) ?? 0)
            case "mass": s.push(w.mass(of: body) ?? 0)
            default: return 0
            }
            return 1
        }, set: { s, id, key in
            let (entry, body) = try self.resolveBall(id)
            let w = entry.world
            guard let v = s.number(at: 3), v.isFinite else {
                throw LuaScriptError("ball.\(key) must be \(s.numberProblem(at: 3))")
            }
            let p = w.position(of: body) ?? .zero, u = w.velocity(of: body) ?? .zero
            switch key {
            case "x": w.setPosition(Vec2(v, p.y), of: body)
            case "y": w.setPosition(Vec2(p.x, v), of: body)
            case "vx": w.setVelocity(Vec2(v, u.y), of: body)
            case "vy": w.setVelocity(Vec2(u.x, v), of: body)
            case "spin": w.setAngularVelocity(v, of: body)
            default: throw LuaScriptError("a Ball has no settable property '\(key)'")
            }
        }, describe: { id in
            guard let (entry, body) = try? self.resolveBall(id), let p = entry.world.position(of: body) else {
                return "Ball#\(id) (removed)"
            }
            return "Ball#\(id) (\(p.x), \(p.y))"
        })
    }

    private func resolveBall(_ id: UInt64) throws -> (Entry, BodyID) {
        guard let b = balls[id], !b.entry.destroyed, b.entry.world.contains(b.body) else {
            throw LuaScriptError("this ball was removed")
        }
        return (b.entry, b.body)
    }

    private func pushBalls(_ bodies: [BodyID], of entry: Entry, _ s: LuaStack) -> Int32 {
        s.reserve(4)
        s.pushTable(array: Int32(bodies.count))
        var n = 0
        for body in bodies {
            guard let h = entry.handles[body] else { continue }
            n += 1
            vm.pushHandle(s, h, of: Self.ballClass)
            s.setIndex(n, in: -2)
        }
        return 1
    }

    // MARK: Walls

    private func defineWall() {
        vm.defineClass(Self.wallClass, methods: [
            ("remove", { s in
                let (entry, wall) = try self.resolveWall(self.vm.checkHandle(s, at: 1, of: Self.wallClass))
                entry.world.removeWall(wall)
                self.recount(entry)
                return 0
            }),
            ("alive", { s in
                let id = try self.vm.checkHandle(s, at: 1, of: Self.wallClass)
                s.push((try? self.resolveWall(id)) != nil)
                return 1
            }),
        ], get: { s, id, key in
            let (entry, wall) = try self.resolveWall(id)
            guard let shape = entry.world.shape(of: wall) else { return 0 }
            switch key {
            case "id":
                guard let identifier = entry.world.identifier(of: wall) else { return 0 }
                s.push(identifier)
            case "x": s.push(shape.center.x)
            case "y": s.push(shape.center.y)
            case "width", "height":
                guard case .rect(let r) = shape else { return 0 }
                s.push(key == "width" ? r.width : r.height)
            default: return 0
            }
            return 1
        }, describe: { id in
            guard let (entry, wall) = try? self.resolveWall(id) else { return "Wall#\(id & 0xFFFF_FFFF) (removed)" }
            return "Wall#\(wall.rawValue) (\(entry.world.identifier(of: wall) ?? "no id"))"
        })
    }

    private func resolveWall(_ id: UInt64) throws -> (Entry, WallID) {
        let wall = WallID(rawValue: UInt32(truncatingIfNeeded: id))
        guard let entry = worldsByNumber[id >> 32], entry.world.shape(of: wall) != nil else {
            throw LuaScriptError("this wall was removed")
        }
        return (entry, wall)
    }

    /// The world at argument 1 and the wall at argument 2, which must belong to it.
    private func ownWall(_ s: LuaStack) throws -> (Entry, WallID) {
        let entry = try world(s, 1)
        let (owner, wall) = try resolveWall(vm.checkHandle(s, at: 2, of: Self.wallClass))
        guard owner === entry else { throw LuaArgumentError(2, "that wall belongs to another world") }
        return (entry, wall)
    }

    private func pushWall(_ wall: WallID?, of entry: Entry, _ s: LuaStack) -> Int32 {
        guard let wall else { return 0 }
        vm.pushHandle(s, entry.number << 32 | UInt64(wall.rawValue), of: Self.wallClass)
        return 1
    }

    // MARK: Arguments

    /// A wall identifier: a string, or nil for none.
    private func identifier(_ s: LuaStack, _ index: Int32) throws -> String? {
        if s.isNoneOrNil(index) { return nil }
        guard s.type(at: index) == .string, let v = s.string(at: index) else {
            throw LuaArgumentError(index, "wall identifier (a string or nil) expected, got \(s.typeName(at: index))")
        }
        return v
    }

    /// `{ x, y, width, height }` (x, y the top-left corner), all finite, sizes not negative.
    private func rect(_ s: LuaStack, table: Int32, argument: Int32, what: String) throws -> Rect {
        let t = s.absolute(table)
        func value(_ key: String) throws -> Double {
            guard let v = try s.numberField(key, of: t) else {
                throw LuaArgumentError(argument, "\(what) needs '\(key)' (a number)")
            }
            return v
        }
        let r = Rect(x: try value("x"), y: try value("y"), width: try value("width"), height: try value("height"))
        guard r.width >= 0, r.height >= 0 else {
            throw LuaArgumentError(argument, "\(what) must not have a negative width or height")
        }
        return r
    }

    private func callback(_ s: LuaStack, _ index: Int32) throws -> LuaCallback? {
        if s.isNoneOrNil(index) { return nil }
        guard s.type(at: index) == .function else {
            throw LuaArgumentError(index, "function or nil expected, got \(s.typeName(at: index))")
        }
        return vm.callback(s, at: index)
    }

    private func node(_ s: LuaStack, _ index: Int32) throws -> Node {
        let id = try vm.checkHandle(s, at: index, of: SceneModule.nodeClass)
        guard let node = scenes.scene.node(withID: Int(id)) else { throw LuaScriptError("this node was removed") }
        return node
    }

    /// Rejects option names this call does not know (a typo would otherwise be silently
    /// ignored); the first unknown name in sorted order is reported, so the message is stable.
    private func rejectUnknown(options index: Int32, allowed: Set<String>, what: String, _ s: LuaStack) throws {
        let t = s.absolute(index)
        var unknown: [String] = []
        s.pushNil()
        while s.next(in: t) {
            let name = s.type(at: -2) == .string ? s.string(at: -2) ?? "?" : "[\(s.typeName(at: -2))]"
            if !allowed.contains(name) { unknown.append(name) }
            s.pop()
        }
        if let first = unknown.sorted().first {
            throw LuaArgumentError(index, "\(what) has no option '\(first)'")
        }
    }
}
