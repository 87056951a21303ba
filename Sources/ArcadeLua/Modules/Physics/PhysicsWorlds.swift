import ArcadeCore
import ArcadeRender

/// The physics worlds of one game and what its scripts attached to them: the runtime behind
/// `arcade.physics` (``PhysicsModule`` is its binding). It keeps the worlds in creation order
/// with the handle numbers of their balls and walls, charges what they hold against the
/// game's memory cap, and steps them; their events reach Lua in PhysicsWorlds+Events.swift.
///
/// Handle numbers are never reused, so a stale handle can never reach a newer ball: a ball's
/// is a counter, a wall's is its world's number and its id in the world (`world << 32 | id`).
public final class PhysicsWorlds {
    /// One world and what Lua attached to it.
    public final class Entry {
        let world: PhysicsWorld
        let number: UInt64
        /// True when the bounds (and the removal rectangle) are the canvas, kept in step with it.
        var followsCanvas: Bool
        var removesOutside: Bool
        var onContact: LuaCallback?
        var onSeparate: LuaCallback?
        var onRemoved: LuaCallback?
        /// Ball handle numbers by body; looked up only when an event or call needs one.
        var handles: [BodyID: UInt64] = [:]
        var destroyed = false
        /// What this world was last charged (see ``PhysicsWorlds/nativeBytes``).
        var accounted = 0

        init(world: PhysicsWorld, number: UInt64, followsCanvas: Bool, removesOutside: Bool) {
            self.world = world
            self.number = number
            self.followsCanvas = followsCanvas
            self.removesOutside = removesOutside
        }
    }

    /// A ball Lua holds a handle to.
    public struct Ball {
        let entry: Entry
        let body: BodyID
        let handle: UInt64
    }

    /// A wall Lua holds a handle to.
    public struct Wall {
        let entry: Entry
        let wall: WallID
    }

    unowned let vm: LuaVM
    /// The canvas rectangle, read when a world is made and before every step.
    let canvas: () -> Rect
    /// Live worlds in creation order: the order they step and report in.
    private(set) var worlds: [Entry] = []
    private var byNumber: [UInt64: Entry] = [:]
    private var balls: [UInt64: (entry: Entry, body: BodyID)] = [:]
    /// The names games gave their balls (`name = "ball"`), by handle number.
    private var ballNames: [UInt64: String] = [:]
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
    /// Asked while a world searches for pairs (see ``PhysicsWorld/shouldStop``): the host's
    /// step deadline and Ctrl-C.
    public var shouldStop: (() -> Bool)?
    /// Why the last step was stopped for memory (``takeMemoryStop()``).
    var memoryStop: String?

    /// Set while the worlds step: ``recount(_:measured:)`` leaves the new sum to the end.
    var stepping = false

    init(vm: LuaVM, canvas: @escaping () -> Rect) {
        self.vm = vm
        self.canvas = canvas
    }

    // MARK: Memory

    /// Brings the VM's count of native memory up to date with ``nativeBytes``.
    func syncNative() { account.report(nativeBytes, to: vm) }

    /// Brings `entry`'s charge up to date with what it holds: the estimate per world, ball
    /// and wall, or after a step (`measured`) the world's storage when that is more (the
    /// contacts of balls piled on each other).
    func recount(_ entry: Entry, measured: Bool = false) {
        let w = entry.world
        var bytes = entry.destroyed ? 0
            : NativeCost.world + w.bodyCount * NativeCost.ball + w.wallCount * NativeCost.wall
        if measured && !entry.destroyed { bytes = max(bytes, w.storageBytes) }
        let changed = bytes != entry.accounted
        nativeBytes += bytes - entry.accounted
        entry.accounted = bytes
        if changed && !stepping { syncNative() }
    }

    // MARK: Worlds

    /// Adds the world `make` builds, once its charge fits the memory cap.
    func addWorld(followsCanvas: Bool, removesOutside: Bool, _ make: () -> PhysicsWorld) throws -> Entry {
        try vm.reserveNative(NativeCost.world, for: "a new physics world")
        let entry = Entry(world: make(), number: nextWorld, followsCanvas: followsCanvas, removesOutside: removesOutside)
        nextWorld += 1
        worlds.append(entry)
        byNumber[entry.number] = entry
        recount(entry)
        return entry
    }

    /// The live world numbered `number`.
    func world(_ number: UInt64) -> Entry? { byNumber[number] }

    /// Destroys a world: its balls' handles go stale and its callbacks are released.
    func destroy(_ entry: Entry) {
        guard !entry.destroyed else { return }
        entry.destroyed = true
        for handle in entry.handles.values {
            balls.removeValue(forKey: handle)
            ballNames.removeValue(forKey: handle)
        }
        entry.handles.removeAll()
        entry.onContact = nil
        entry.onSeparate = nil
        entry.onRemoved = nil
        recount(entry)
        worlds.removeAll { $0 === entry }
        byNumber.removeValue(forKey: entry.number)
    }

    /// Destroys every world and releases its callbacks (the game is leaving).
    public func removeAll() {
        for entry in worlds {
            entry.destroyed = true
            recount(entry)
        }
        worlds.removeAll()
        byNumber.removeAll()
        balls.removeAll()
        ballNames.removeAll()
    }

    // MARK: Balls

    /// Adds a ball to `entry`'s world, bound to `node` if given and called `name` if given,
    /// and returns its handle number.
    func addBall(_ definition: BallDefinition, to entry: Entry, node: Node?, rotateNode: Bool,
                 name: String? = nil) throws -> UInt64 {
        try vm.reserveNative(NativeCost.ball, for: "a new ball")
        let body = entry.world.addBall(definition)
        recount(entry)
        let handle = nextBall
        nextBall += 1
        entry.handles[body] = handle
        balls[handle] = (entry, body)
        if let name { ballNames[handle] = name }
        if let node { entry.world.bind(body, to: node, rotation: rotateNode) }
        return handle
    }

    /// The ball with handle number `handle`, while it is in its world.
    func ball(_ handle: UInt64) -> Ball? {
        guard let b = balls[handle], !b.entry.destroyed, b.entry.world.contains(b.body) else { return nil }
        return Ball(entry: b.entry, body: b.body, handle: handle)
    }

    /// Takes `ball` out of its world; its handle goes stale.
    func remove(_ ball: Ball) {
        ball.entry.world.removeBody(ball.body)
        ball.entry.handles.removeValue(forKey: ball.body)
        balls.removeValue(forKey: ball.handle)
        ballNames.removeValue(forKey: ball.handle)
        recount(ball.entry)
    }

    /// Forgets the handle number of a ball its world removed.
    func forget(ball handle: UInt64) {
        balls.removeValue(forKey: handle)
        ballNames.removeValue(forKey: handle)
    }

    /// The name of the ball with handle number `handle`, if the game gave it one.
    func name(of handle: UInt64) -> String? { ballNames[handle] }

    /// A ball as the game's tests see it (``PhysicsWorlds/ballViews()``).
    public struct BallView: Equatable, Sendable {
        public var x, y, radius, vx, vy: Double
        public var name: String?
    }

    /// Every ball in a live world, worlds in creation order and each world's balls in theirs.
    public func ballViews() -> [BallView] {
        var views: [BallView] = []
        for entry in worlds where !entry.destroyed {
            let w = entry.world
            for (body, handle) in entry.handles.sorted(by: { $0.value < $1.value }) {
                guard w.contains(body), let p = w.position(of: body), let v = w.velocity(of: body) else { continue }
                views.append(BallView(x: p.x, y: p.y, radius: w.radius(of: body) ?? 0, vx: v.x, vy: v.y,
                                      name: ballNames[handle]))
            }
        }
        return views
    }

    /// The handle numbers of `bodies` (those Lua can reach) in `entry`'s world.
    func handles(of bodies: [BodyID], in entry: Entry) -> [UInt64] {
        bodies.compactMap { entry.handles[$0] }
    }

    // MARK: Walls

    /// Adds the wall `add` puts in `entry`'s world, once its charge fits, and returns its
    /// handle number (nil when the world made no wall).
    func addWall(to entry: Entry, _ add: (PhysicsWorld) -> WallID?) throws -> UInt64? {
        try vm.reserveNative(NativeCost.wall, for: "a new wall")
        defer { recount(entry) }
        return add(entry.world).map { entry.number << 32 | UInt64($0.rawValue) }
    }

    /// The wall with handle number `handle`, while it is in its world.
    func wall(_ handle: UInt64) -> Wall? {
        let wall = WallID(rawValue: UInt32(truncatingIfNeeded: handle))
        guard let entry = byNumber[handle >> 32], entry.world.shape(of: wall) != nil else { return nil }
        return Wall(entry: entry, wall: wall)
    }

    /// Removes the wall with handle number `handle` when it is one of `entry`'s.
    func removeWall(_ handle: UInt64, from entry: Entry) -> Bool {
        defer { recount(entry) }
        return handle >> 32 == entry.number && entry.world.removeWall(WallID(rawValue: UInt32(truncatingIfNeeded: handle)))
    }

    /// Removes every wall of `entry`'s world named `identifier`; returns how many.
    func removeWalls(named identifier: String, from entry: Entry) -> Int {
        defer { recount(entry) }
        return entry.world.removeWalls(identifier: identifier)
    }

    /// Removes `wall` from its world.
    func remove(_ wall: Wall) {
        wall.entry.world.removeWall(wall.wall)
        recount(wall.entry)
    }
}
