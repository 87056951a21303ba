/// A 2D world of balls and walls, stepped natively at the host's fixed rate.
///
/// The meaning follows UIKit Dynamics, which the ball-catch game was written against:
/// gravity in UIKit units (length 1 is 1000 px/s² downwards), elasticity, friction and
/// resistance per ball, walls named by identifier strings, the reference bounds as a wall
/// that can be switched off and on at any time (the gate), and one contact-began event per
/// touch. A game sets the world up and reacts to its events; nothing runs in script per step.
///
/// One ``step(_:)``:
/// 1. kinematic walls get the velocity that takes them to their target by the end of the step;
/// 2. the broad phase pairs every ball with whatever its swept box could reach this step
///    (candidates from a hashed uniform grid over boxes with a skin, kept from step to step
///    while the balls stay inside them), and each pair becomes a contact constraint, even if
///    not yet touching ("speculative": it lets the ball close the gap exactly and no
///    further, which is what stops a fast ball tunnelling through a thin wall);
/// 3. a number of substeps each integrate gravity, re-apply last substep's impulses (warm
///    starting), solve the contacts as soft constraints, move the balls, solve again without
///    the position push (relax, so overlap correction adds no energy) and apply the bounce
///    of any contact that struck in that substep;
/// 4. balls that moved far are swept against the walls and put back where they first
///    touched one they had no contact with (knocked into it mid-step);
/// 5. contacts that began touching become events, bound scene objects get their positions,
///    and balls that left the removal rectangle are removed and reported.
///
/// Determinism: bodies are stored densely in creation order, removal keeps that order, the
/// broad phase emits pairs in body order, and nothing iterates a hashed collection, so the
/// same calls give bit-identical results.
///
/// Lengths are pixels, times seconds, angles radians (clockwise positive, y is down).
public final class PhysicsWorld {
    /// UIKit's gravity scale: a ``gravity`` of length 1 accelerates at 1000 px/s².
    public static let gravityScale = 1000.0

    /// Gravity in UIKit units: `(0, 1)` is UIKit's default, 1000 px/s² straight down.
    @exclusivity(unchecked) public var gravity: Vec2
    /// The reference bounds (usually the play area): a wall on all four sides while
    /// ``boundsEnabled``. They hold only balls whose centre is inside them, so a ball already
    /// on its way out when the gate shuts is not dragged back in.
    @exclusivity(unchecked) public var bounds: Rect
    /// UIKit's `translatesReferenceBoundsIntoBoundary`: switch off to open the gate.
    @exclusivity(unchecked) public var boundsEnabled = true
    /// When set, balls that end a step entirely outside this rectangle are removed and
    /// listed in ``removedBodies`` (ball catch: balls that fall out of the screen).
    @exclusivity(unchecked) public var removalRect: Rect?
    /// Substeps per step; more is stiffer and more accurate, and costs proportionally.
    @exclusivity(unchecked) public var substeps = 4 {
        didSet { substeps = max(1, substeps) }
    }
    /// Impacts slower than this (px/s) do not bounce, so a dropped ball comes to rest
    /// instead of chattering forever.
    @exclusivity(unchecked) public var restitutionThreshold = 100.0
    /// Fastest speed (px/s) at which overlapping balls are pushed apart.
    @exclusivity(unchecked) public var maxPushVelocity = 300.0
    /// Stiffness (Hz) of the soft contacts between balls, at most 3/8 of the substep rate.
    /// A pile's weight presses its lowest balls into each other in proportion to
    /// 1 / hertz²: at 90 Hz a pile of 200 balls of radius 10 sinks under 5 % of a radius.
    @exclusivity(unchecked) public var contactHertz = 90.0
    /// Stiffness (Hz) of the contacts with walls, which cannot give way: at most half the
    /// substep rate.
    @exclusivity(unchecked) public var wallContactHertz = 120.0
    /// Damping ratio of the soft contacts; far above 1, so a pile settles without ringing and
    /// does not creep. (Measured over poured piles of several sizes: with 90 Hz, 20 keeps
    /// them stillest; stiffer or less damped contacts let them flow.)
    @exclusivity(unchecked) public var contactDampingRatio = 20.0

    /// Gap within which a pair counts as touching when no impulse passed between them: this
    /// fraction of the (smaller) radius, at most `contactTolerance` px, so small balls on a
    /// small canvas are not "touching" whatever they pass near.
    let contactToleranceRatio = 0.05
    let contactTolerance = 0.5
    /// Largest gap (px) at which a striking pair counts as met and bounces.
    let bounceGap = 0.01
    /// Gauss-Seidel iterations of the bounce problem.
    let bounceIterations = 6
    /// Extra reach (px) of the speculative contacts beyond what the velocities predict, for
    /// velocity changes during the step.
    let speculativeMargin = 2.0
    /// Grid cell size as a multiple of the mean fat box: measured best between 1 and 3.
    let cellScale = 2.0
    /// Skin of the fat boxes the candidate pairs are found with, as a fraction of the radius.
    let candidateSkin = 0.25

    // The columns and settings the step reads are marked `@exclusivity(unchecked)`: the
    // world is confined to one thread and its loops copy what they use into locals, so the
    // runtime's per-access exclusivity bookkeeping (a thread-local lookup on every read of a
    // class property) was pure cost, about 5 % of a small world's step.

    // Bodies, dense and in creation order: index i of every column is the same body.
    @exclusivity(unchecked) var states = Column<BodyState>()
    @exclusivity(unchecked) var angles = Column<Double>()
    @exclusivity(unchecked) var materials = Column<BodyMaterial>()
    @exclusivity(unchecked) var bodyIDs = Column<UInt64>()
    @exclusivity(unchecked) var boxes = Column<AABB>()
    @exclusivity(unchecked) var startPositions = Column<PathStart>()
    var bindings: [BodyBinding?] = []
    var boundBodyCount = 0
    /// Handle slots: body index per slot (-1 when free), the slot's current generation, and
    /// free slots reused last-in first-out.
    var slotIndex: [Int32] = []
    var slotGeneration: [UInt32] = []
    var freeSlots: [Int32] = []

    /// Walls in id order; ids 0...3 name the sides of the bounds in contacts.
    var walls: [WallRecord] = []
    var nextWallID: UInt32 = 4
    /// This step's walls: the bound sides first (when enabled), then `walls` in order.
    @exclusivity(unchecked) var wallGeometry = Column<WallGeometry>()

    /// The step's ball contacts in solving order (see `colorBallContacts`).
    @exclusivity(unchecked) var ballContacts = Column<BallContact>()
    /// For each of `ballContacts`, its index in key order.
    @exclusivity(unchecked) var keyRank = Column<Int32>()
    /// The last step's ball contacts in key order: the warm start of the next step.
    @exclusivity(unchecked) var lastBallContacts = Column<BallContact>()
    @exclusivity(unchecked) var sortedBallContacts = Column<BallContact>()
    // Wall contacts of the current (after a step: the last) step, and of the one before.
    @exclusivity(unchecked) var wallContacts = Column<WallContact>()
    @exclusivity(unchecked) var previousWallContacts = Column<WallContact>()
    @exclusivity(unchecked) var pendingBallBounces = Column<PendingBounce>()
    @exclusivity(unchecked) var pendingWallBounces = Column<PendingBounce>()
    /// The bounce problem of the current substep, and a mark per struck ball (all zero
    /// between uses).
    @exclusivity(unchecked) var bounceRows = Column<BounceRow>()
    @exclusivity(unchecked) var struckMarks = Column<UInt8>()

    /// The broad phase's result, kept while it holds: per ball a box grown from its swept box,
    /// and the balls of higher index whose boxes overlap it, `candidates[candidateStarts[a] ..<
    /// candidateStarts[a + 1]]`, ascending. Invalid after bodies are added or removed.
    @exclusivity(unchecked) var fatBoxes = Column<AABB>()
    @exclusivity(unchecked) var candidateStarts = Column<Int32>()
    @exclusivity(unchecked) var candidates = Column<Int32>()
    @exclusivity(unchecked) var candidatesValid = false
    /// Balls whose fat box changed since the last full search (the grid has them where they
    /// were), with a mark per ball; and the balls whose swept box left its fat box this step,
    /// also marked while their pairs are found again.
    @exclusivity(unchecked) var displaced = Column<Int32>()
    @exclusivity(unchecked) var displacedMarks = Column<UInt8>()
    @exclusivity(unchecked) var escaped = Column<Int32>()
    @exclusivity(unchecked) var escapeMarks = Column<UInt8>()
    @exclusivity(unchecked) var pairKeys = Column<UInt64>()
    @exclusivity(unchecked) var spareCandidates = Column<Int32>()
    @exclusivity(unchecked) var spareCandidateStarts = Column<Int32>()
    /// Tests switch this off to compare with searching every step, and count how often the
    /// lists were searched in full and refreshed in part.
    var keepsCandidates = true
    var candidateSearches = 0
    var candidateRefreshes = 0

    // Scratch.
    @exclusivity(unchecked) var grid = SpatialHash()
    @exclusivity(unchecked) var neighbours = Column<Int32>()
    @exclusivity(unchecked) var colorMasks = Column<UInt64>()
    @exclusivity(unchecked) var contactColors = Column<UInt8>()
    @exclusivity(unchecked) var colorStarts = Column<Int32>()
    @exclusivity(unchecked) var remap = Column<Int32>()
    @exclusivity(unchecked) var doomed = Column<UInt8>()
    @exclusivity(unchecked) var wallEvents = Column<Int32>()
    @exclusivity(unchecked) var ballEvents = Column<Int32>()

    /// Contacts that began during the last step: ordered by the ball's creation, and for one
    /// ball the bounds, then walls (by id), then other balls (by creation). Replaced by the
    /// next step; ``drainContactEvents(_:)`` hands them over exactly once.
    public internal(set) var contactEvents: [ContactEvent] = []
    /// Balls the last step removed because they left ``removalRect``, in creation order.
    public internal(set) var removedBodies: [BodyID] = []

    /// An empty world over `bounds`, with UIKit's default gravity unless told otherwise.
    public init(bounds: Rect, gravity: Vec2 = Vec2(0, 1)) {
        self.bounds = bounds
        self.gravity = gravity
    }

    deinit {
        states.deallocate()
        angles.deallocate()
        materials.deallocate()
        bodyIDs.deallocate()
        boxes.deallocate()
        startPositions.deallocate()
        wallGeometry.deallocate()
        ballContacts.deallocate()
        keyRank.deallocate()
        lastBallContacts.deallocate()
        sortedBallContacts.deallocate()
        colorMasks.deallocate()
        contactColors.deallocate()
        colorStarts.deallocate()
        wallContacts.deallocate()
        previousWallContacts.deallocate()
        pendingBallBounces.deallocate()
        pendingWallBounces.deallocate()
        bounceRows.deallocate()
        struckMarks.deallocate()
        grid.deallocate()
        fatBoxes.deallocate()
        candidateStarts.deallocate()
        candidates.deallocate()
        displaced.deallocate()
        displacedMarks.deallocate()
        escaped.deallocate()
        escapeMarks.deallocate()
        pairKeys.deallocate()
        spareCandidates.deallocate()
        spareCandidateStarts.deallocate()
        neighbours.deallocate()
        remap.deallocate()
        doomed.deallocate()
        wallEvents.deallocate()
        ballEvents.deallocate()
    }

    // MARK: - Bodies

    /// Number of balls in the world.
    public var bodyCount: Int { states.count }

    /// Every ball, in creation order.
    public var bodies: [BodyID] {
        (0..<states.count).map { BodyID(rawValue: bodyIDs[$0]) }
    }

    /// Adds a ball and returns its handle. The radius must be positive and finite, the mass
    /// (given or from density) positive; a script binding checks these before calling.
    @discardableResult
    public func addBall(_ definition: BallDefinition) -> BodyID {
        let d = definition
        precondition(d.radius > 0 && d.radius.isFinite, "a ball needs a positive finite radius")
        let mass = d.resolvedMass
        precondition(mass > 0 && mass.isFinite, "a ball needs a positive finite mass")
        precondition(d.position.x.isFinite && d.position.y.isFinite, "a ball needs a finite position")
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = Int(free)
        } else {
            slot = slotIndex.count
            slotIndex.append(-1)
            slotGeneration.append(1)
        }
        let index = states.count
        slotIndex[slot] = Int32(index)
        let id = BodyID(slot: slot, generation: slotGeneration[slot])
        let inertia = 0.5 * mass * d.radius * d.radius
        let velocity = finite(d.velocity) ? d.velocity : .zero
        states.append(BodyState(
            px: d.position.x, py: d.position.y, vx: velocity.x, vy: velocity.y,
            w: d.angularVelocity.isFinite ? d.angularVelocity : 0,
            invMass: 1 / mass, spin: d.allowsRotation ? d.radius / inertia : 0, radius: d.radius))
        angles.append(d.angle.isFinite ? d.angle : 0)
        materials.append(BodyMaterial(
            mass: mass, elasticity: max(0, d.elasticity), friction: max(0, d.friction),
            linearDamping: max(0, d.resistance), angularDamping: max(0, d.angularResistance)))
        bodyIDs.append(id.rawValue)
        boxes.append(AABB(minX: 0, minY: 0, maxX: 0, maxY: 0))
        bindings.append(nil)
        candidatesValid = false
        return id
    }

    /// Removes a ball; false when the handle was already stale.
    @discardableResult
    public func removeBody(_ id: BodyID) -> Bool {
        guard let i = index(of: id) else { return false }
        doomed.fill(count: states.count, with: 0)
        doomed[i] = 1
        compactBodies(reporting: false)
        return true
    }

    /// True while `id` names a ball in this world.
    public func contains(_ id: BodyID) -> Bool {
        index(of: id) != nil
    }

    /// Centre of the ball, or nil for a stale handle.
    public func position(of id: BodyID) -> Vec2? {
        guard let i = index(of: id) else { return nil }
        return Vec2(states[i].px, states[i].py)
    }

    /// Moves the ball instantly (its velocity is kept); non-finite positions are ignored.
    public func setPosition(_ position: Vec2, of id: BodyID) {
        guard let i = index(of: id), finite(position) else { return }
        states.base[i].px = position.x
        states.base[i].py = position.y
        writeBinding(i)
    }

    /// Velocity in px/s, or nil for a stale handle.
    public func velocity(of id: BodyID) -> Vec2? {
        guard let i = index(of: id) else { return nil }
        return Vec2(states[i].vx, states[i].vy)
    }

    /// Sets the velocity in px/s; non-finite values are ignored.
    public func setVelocity(_ velocity: Vec2, of id: BodyID) {
        guard let i = index(of: id), finite(velocity) else { return }
        states.base[i].vx = velocity.x
        states.base[i].vy = velocity.y
    }

    /// Angle in radians, or nil for a stale handle.
    public func angle(of id: BodyID) -> Double? {
        guard let i = index(of: id) else { return nil }
        return angles[i]
    }

    /// Angular velocity in rad/s, or nil for a stale handle.
    public func angularVelocity(of id: BodyID) -> Double? {
        guard let i = index(of: id) else { return nil }
        return states[i].w
    }

    /// Sets the angular velocity in rad/s; ignored for balls that may not rotate.
    public func setAngularVelocity(_ w: Double, of id: BodyID) {
        guard let i = index(of: id), w.isFinite, states[i].spin > 0 else { return }
        states.base[i].w = w
    }

    /// Radius of the ball, or nil for a stale handle.
    public func radius(of id: BodyID) -> Double? {
        guard let i = index(of: id) else { return nil }
        return states[i].radius
    }

    /// Mass of the ball, or nil for a stale handle.
    public func mass(of id: BodyID) -> Double? {
        guard let i = index(of: id) else { return nil }
        return materials[i].mass
    }

    /// Balls whose centre lies inside `rect` (edges included), in creation order.
    public func bodies(in rect: Rect) -> [BodyID] {
        var found: [BodyID] = []
        let st = states.base
        for i in 0..<states.count where rect.contains(Vec2(st[i].px, st[i].py)) {
            found.append(BodyID(rawValue: bodyIDs[i]))
        }
        return found
    }

    /// Makes `object` mirror the ball: its `.position` (and `.rotation` when `rotation` is
    /// true) is written now and after every step. The object is held weakly; binding again
    /// replaces the previous object.
    public func bind(_ id: BodyID, to object: any Animatable, rotation: Bool = false) {
        guard let i = index(of: id) else { return }
        if bindings[i] == nil { boundBodyCount += 1 }
        bindings[i] = BodyBinding(object: object, writesRotation: rotation)
        writeBinding(i)
    }

    /// Stops writing the ball's position to its bound object.
    public func unbind(_ id: BodyID) {
        guard let i = index(of: id), bindings[i] != nil else { return }
        bindings[i] = nil
        boundBodyCount -= 1
    }

    // MARK: - Events

    /// Calls `handle` with each event of the last step, in order, then forgets them, so each
    /// event is delivered once however often this is called. When `handle` throws, the
    /// events after the one it threw on stay queued for the next call.
    public func drainContactEvents(_ handle: (ContactEvent) throws -> Void) rethrows {
        var events: [ContactEvent] = []
        swap(&events, &contactEvents)
        var delivered = 0
        defer {
            // a handler threw: what it did not reach waits for the next drain
            if delivered < events.count { contactEvents.insert(contentsOf: events[delivered...], at: 0) }
            events.removeAll(keepingCapacity: true)
            if contactEvents.isEmpty { swap(&events, &contactEvents) }
        }
        while delivered < events.count {
            delivered += 1
            try handle(events[delivered - 1])
        }
    }

    /// Calls `handle` with each ball the last step removed, then forgets them. When `handle`
    /// throws, the balls after the one it threw on stay queued for the next call.
    public func drainRemovedBodies(_ handle: (BodyID) throws -> Void) rethrows {
        var removed: [BodyID] = []
        swap(&removed, &removedBodies)
        var delivered = 0
        defer {
            if delivered < removed.count { removedBodies.insert(contentsOf: removed[delivered...], at: 0) }
            removed.removeAll(keepingCapacity: true)
            if removedBodies.isEmpty { swap(&removed, &removedBodies) }
        }
        while delivered < removed.count {
            delivered += 1
            try handle(removed[delivered - 1])
        }
    }

    // MARK: - Internals

    /// Dense index of a live body.
    @inline(__always) func index(of id: BodyID) -> Int? {
        let slot = id.slot
        guard slot < slotIndex.count, slotGeneration[slot] == id.generation else { return nil }
        let i = slotIndex[slot]
        return i >= 0 ? Int(i) : nil
    }

    @inline(__always) func finite(_ v: Vec2) -> Bool {
        v.x.isFinite && v.y.isFinite
    }

    /// Removes every body marked in `doomed`, keeping the rest in creation order, and
    /// renumbers last step's contacts so warm starting still finds them.
    func compactBodies(reporting: Bool) {
        let n = states.count
        remap.resizeUninitialized(to: n)
        let st = states.base, mat = materials.base, ids = bodyIDs.base, bx = boxes.base, ang = angles.base
        var kept = 0
        for r in 0..<n {
            let id = BodyID(rawValue: ids[r])
            if doomed[r] != 0 {
                remap[r] = -1
                slotIndex[id.slot] = -1
                slotGeneration[id.slot] &+= 1
                freeSlots.append(Int32(id.slot))
                if bindings[r] != nil { boundBodyCount -= 1 }
                if reporting { removedBodies.append(id) }
                continue
            }
            if kept != r {
                st[kept] = st[r]
                ang[kept] = ang[r]
                mat[kept] = mat[r]
                ids[kept] = ids[r]
                bx[kept] = bx[r]
                bindings[kept] = bindings[r]
            }
            slotIndex[id.slot] = Int32(kept)
            remap[r] = Int32(kept)
            kept += 1
        }
        if kept != n { candidatesValid = false }
        states.truncate(to: kept)
        angles.truncate(to: kept)
        materials.truncate(to: kept)
        bodyIDs.truncate(to: kept)
        boxes.truncate(to: kept)
        bindings.removeLast(n - kept)

        // Renumbering is monotonic, so the lists stay sorted by their keys.
        let map = remap.base
        var w = 0
        let bc = lastBallContacts.base
        for i in 0..<lastBallContacts.count {
            let a = map[Int(bc[i].a)], b = map[Int(bc[i].b)]
            if a < 0 || b < 0 { continue }
            bc[w] = bc[i]
            bc[w].a = a
            bc[w].b = b
            w += 1
        }
        lastBallContacts.truncate(to: w)
        w = 0
        let wc = wallContacts.base
        for i in 0..<wallContacts.count {
            let a = map[Int(wc[i].body)]
            if a < 0 { continue }
            wc[w] = wc[i]
            wc[w].body = a
            w += 1
        }
        wallContacts.truncate(to: w)
    }

    /// Writes body `i`'s position (and rotation) to its bound object, dropping the binding
    /// when the object has gone.
    func writeBinding(_ i: Int) {
        guard let binding = bindings[i] else { return }
        guard let object = binding.object else {
            bindings[i] = nil
            boundBodyCount -= 1
            return
        }
        let s = states[i]
        object.setAnimatableValue(.vector(Vec2(s.px, s.py)), for: .position)
        if binding.writesRotation {
            object.setAnimatableValue(.scalar(angles[i]), for: .rotation)
        }
    }
}
