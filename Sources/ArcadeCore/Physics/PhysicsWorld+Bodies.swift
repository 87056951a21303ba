// Adding, reading, moving and removing balls, and binding them to scene objects.
extension PhysicsWorld {
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
        let filter = BodyFilter(filter: d.filter, isSensor: d.isSensor)
        filters.append(filter)
        if !filter.isStandard { specialBodyCount += 1 }
        bindings.append(nil)
        candidatesValid = false
        return id
    }

    /// The ball's collision filter, or nil for a stale handle.
    public func filter(of id: BodyID) -> CollisionFilter? {
        index(of: id).map { filters[$0].filter }
    }

    /// Changes what the ball collides with from the next step on. Touches the new filter
    /// parts end with a separation event.
    public func setFilter(_ filter: CollisionFilter, of id: BodyID) {
        guard let i = index(of: id) else { return }
        var f = filters[i]
        f.filter = filter
        setBodyFilter(f, at: i)
    }

    /// Whether the ball is a sensor, or nil for a stale handle.
    public func isSensor(_ id: BodyID) -> Bool? {
        index(of: id).map { filters[$0].isSensor }
    }

    /// Makes the ball a sensor (or solid again) from the next step on.
    public func setSensor(_ sensor: Bool, of id: BodyID) {
        guard let i = index(of: id) else { return }
        var f = filters[i]
        f.isSensor = sensor
        setBodyFilter(f, at: i)
    }

    private func setBodyFilter(_ f: BodyFilter, at i: Int) {
        let old = filters[i]
        if old.filter == f.filter && old.isSensor == f.isSensor { return }
        specialBodyCount += (f.isStandard ? 0 : 1) - (old.isStandard ? 0 : 1)
        filters[i] = f
        candidatesValid = false
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
        index(of: id).map { states[$0].position }
    }

    /// Moves the ball instantly (its velocity is kept); non-finite positions are ignored.
    public func setPosition(_ position: Vec2, of id: BodyID) {
        guard let i = index(of: id), finite(position) else { return }
        states.base[i].position = position
        writeBinding(i)
    }

    /// Velocity in px/s, or nil for a stale handle.
    public func velocity(of id: BodyID) -> Vec2? {
        index(of: id).map { states[$0].velocity }
    }

    /// Sets the velocity in px/s; non-finite values are ignored.
    public func setVelocity(_ velocity: Vec2, of id: BodyID) {
        if let i = index(of: id), finite(velocity) { states.base[i].velocity = velocity }
    }

    /// Angle in radians, or nil for a stale handle.
    public func angle(of id: BodyID) -> Double? {
        index(of: id).map { angles[$0] }
    }

    /// Angular velocity in rad/s, or nil for a stale handle.
    public func angularVelocity(of id: BodyID) -> Double? {
        index(of: id).map { states[$0].w }
    }

    /// Sets the angular velocity in rad/s; ignored for balls that may not rotate.
    public func setAngularVelocity(_ w: Double, of id: BodyID) {
        guard let i = index(of: id), w.isFinite, states[i].spin > 0 else { return }
        states.base[i].w = w
    }

    /// Radius of the ball, or nil for a stale handle.
    public func radius(of id: BodyID) -> Double? {
        index(of: id).map { states[$0].radius }
    }

    /// Mass of the ball, or nil for a stale handle.
    public func mass(of id: BodyID) -> Double? {
        index(of: id).map { materials[$0].mass }
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
        syncWrapRegion()
        if let old = bindings[i]?.object, old !== object, toldWrapRegion != nil { old.setWrapRegion(nil) }
        if bindings[i] == nil { boundBodyCount += 1 }
        bindings[i] = BodyBinding(object: object, writesRotation: rotation)
        if let region = toldWrapRegion { object.setWrapRegion(region) }
        writeBinding(i)
    }

    /// Stops writing the ball's position to its bound object.
    public func unbind(_ id: BodyID) {
        guard let i = index(of: id), let binding = bindings[i] else { return }
        bindings[i] = nil
        boundBodyCount -= 1
        if toldWrapRegion != nil { binding.object?.setWrapRegion(nil) }
    }

    /// The region the world folds balls into: its bounds, on the axes that wrap; nil when
    /// neither does.
    public var wrapRegion: WrapRegion? {
        guard wrapsX || wrapsY else { return nil }
        return WrapRegion(x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height,
                          wrapsX: wrapsX, wrapsY: wrapsY)
    }

    /// Tells every bound object the current ``wrapRegion`` when it differs from what they
    /// were last told (wrapping switched on or off, the bounds moved or resized).
    func syncWrapRegion() {
        let region = wrapRegion
        guard region != toldWrapRegion else { return }
        toldWrapRegion = region
        for binding in bindings { binding?.object?.setWrapRegion(region) }
    }

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
        let fl = filters.base
        var kept = 0
        for r in 0..<n {
            let id = BodyID(rawValue: ids[r])
            if doomed[r] != 0 {
                remap[r] = -1
                slotIndex[id.slot] = -1
                slotGeneration[id.slot] &+= 1
                freeSlots.append(Int32(id.slot))
                if !fl[r].isStandard { specialBodyCount -= 1 }
                if let binding = bindings[r] {
                    boundBodyCount -= 1
                    if toldWrapRegion != nil { binding.object?.setWrapRegion(nil) }
                }
                if reporting { removedBodies.append(id) }
                continue
            }
            if kept != r {
                st[kept] = st[r]
                ang[kept] = ang[r]
                mat[kept] = mat[r]
                ids[kept] = ids[r]
                bx[kept] = bx[r]
                fl[kept] = fl[r]
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
        filters.truncate(to: kept)
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
        // A removed ball's touches end without a separation event.
        touchingBallCount = Self.countTouching(lastBallContacts)
        touchingWallCount = Self.countTouching(wallContacts)
        Self.renumber(&sensorBallTouches, map, pair: true)
        Self.renumber(&sensorWallTouches, map, pair: false)
    }

    /// Renumbers the bodies in keys `a << 32 | rest` (and `rest` too when `pair`), dropping the
    /// keys of removed bodies; the order is kept.
    static func renumber(_ keys: inout Column<UInt64>, _ map: UnsafeMutablePointer<Int32>, pair: Bool) {
        var w = 0
        let k = keys.base
        for i in 0..<keys.count {
            let a = map[Int(k[i] >> 32)]
            var low = k[i] & 0xFFFF_FFFF
            if pair {
                let b = map[Int(low)]
                if b < 0 { continue }
                low = UInt64(UInt32(bitPattern: b))
            }
            if a < 0 { continue }
            k[w] = UInt64(UInt32(bitPattern: a)) << 32 | low
            w += 1
        }
        keys.truncate(to: w)
    }

    /// How many of `contacts` are touching.
    static func countTouching<C: SolverContact>(_ contacts: Column<C>) -> Int {
        var count = 0
        for i in 0..<contacts.count where contacts.base[i].flags & ContactFlags.touching != 0 { count += 1 }
        return count
    }

    static func countTouching(_ contacts: Column<CarriedContact>) -> Int {
        var count = 0
        for i in 0..<contacts.count where contacts.base[i].flags & ContactFlags.touching != 0 { count += 1 }
        return count
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
