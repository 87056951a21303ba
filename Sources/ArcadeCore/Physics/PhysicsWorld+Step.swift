extension PhysicsWorld {
    /// Advances the world by `dt` seconds (the host's fixed step, 1/60 s by default).
    ///
    /// Afterwards ``contactEvents`` holds the contacts that began during this step and
    /// ``removedBodies`` the balls that left ``removalRect``; both are replaced by the next step.
    public func step(_ dt: Double = 1.0 / 60.0) {
        contactEvents.removeAll(keepingCapacity: true)
        separationEvents.removeAll(keepingCapacity: true)
        removedBodies.removeAll(keepingCapacity: true)
        stopped = nil
        guard dt > 0, dt.isFinite else { return }

        syncWrapRegion()
        let topology = self.topology
        if topology.wraps { foldPositions(topology) }
        let count = substeps
        let h = dt / Double(count)
        prepareWalls(dt)
        buildContacts(dt, h: h)
        // the search for pairs was stopped (``shouldStop``, ``pairLimit``): nothing moves
        if stopped != nil { return }

        for k in 0..<count {
            integrateVelocities(h)
            warmStart()
            solveContacts(h: h, relax: false, time: Double(k) * h)
            solveOverlaps()
            integratePositions(h)
            solveContacts(h: h, relax: true, time: Double(k + 1) * h)
            applyBounces()
        }

        sweepFastBodies(dt)
        squeezePinchedBalls(dt)
        finishContacts(topology)
        finishSensors(dt, topology)
        finishWalls()
        if topology.wraps { foldPositions(topology) }
        removeEscapedBodies(topology)
        if boundBodyCount > 0 { writeBindings() }
    }

    /// Gravity in px/s²; a non-finite setting counts as none rather than poisoning every body.
    var acceleration: Vec2 {
        let g = gravity * Self.gravityScale
        return finite(g) ? g : .zero
    }

    /// Writes every bound ball's position (and rotation) to its object, dropping bindings
    /// whose object has gone. Walks a snapshot of the bindings and re-reads the body columns
    /// for each, so an object whose setter calls back into the world cannot trip the loop.
    func writeBindings() {
        let bound = bindings
        var anyLost = false
        for i in bound.indices {
            guard let binding = bound[i] else { continue }
            guard let object = binding.object else {
                anyLost = true
                continue
            }
            guard i < states.count else { break }
            let s = states[i]
            object.setAnimatableValue(.vector(Vec2(s.px, s.py)), for: .position)
            if binding.writesRotation, i < angles.count {
                object.setAnimatableValue(.scalar(angles[i]), for: .rotation)
            }
        }
        if anyLost {
            for i in bindings.indices where bindings[i] != nil && bindings[i]!.object == nil {
                bindings[i] = nil
                boundBodyCount -= 1
            }
        }
    }

    func integrateVelocities(_ h: Double) {
        let g = acceleration
        let gx = g.x * h
        let gy = g.y * h
        let st = states.base, mat = materials.base
        if !anyDamping {
            // Every factor is 1: the same sums without reading the materials.
            for i in 0..<states.count {
                st[i].vx += gx
                st[i].vy += gy
            }
            return
        }
        for i in 0..<states.count {
            let lf = mat[i].linearFactor
            st[i].vx = st[i].vx * lf + gx
            st[i].vy = st[i].vy * lf + gy
            st[i].w *= mat[i].angularFactor
        }
    }

    /// Moves every body by its velocity and its pseudo-velocity, which is then spent.
    func integratePositions(_ h: Double) {
        let st = states.base, ang = angles.base, pv = pseudoVelocities.base
        for i in 0..<states.count {
            st[i].px += (st[i].vx + pv[i].x) * h
            st[i].py += (st[i].vy + pv[i].y) * h
            ang[i] += st[i].w * h
            pv[i] = .zero
        }
    }

    /// Decides which contacts touched this step, puts the ball contacts back in key order
    /// for the next step's warm start, and queues an event for each contact that was not
    /// touching before, ordered by ball, walls before balls; and a separation event for each
    /// touch of the last step that ended.
    func finishContacts(_ topology: WrapTopology) {
        let tolerance = contactTolerance, ratio = contactToleranceRatio
        let st = states.base
        wallEvents.removeAll()
        ballEvents.removeAll()
        let wc = wallContacts.base
        var carriedWalls = 0, touchingWalls = 0
        for i in 0..<wallContacts.count {
            let gap = min(tolerance, ratio * st[Int(wc[i].body)].radius)
            let touching = wc[i].flags & ContactFlags.pushed != 0 || wc[i].separation <= gap
            if touching {
                if wc[i].flags & ContactFlags.wasTouching == 0 { wallEvents.append(Int32(i)) } else { carriedWalls += 1 }
                wc[i].flags |= ContactFlags.touching
                touchingWalls += 1
            }
        }
        // What the next step needs of the solved contacts goes back to key order beside last
        // step's, which are kept until the touches that ended are found.
        let m = ballContacts.count
        earlierBallContacts.resizeUninitialized(to: m)
        let solved = ballContacts.base, rank = keyRank.base
        let out = earlierBallContacts.base
        var touchingBalls = 0
        for k in 0..<m {
            let c = solved[k]
            var flags = c.flags
            let gap = min(tolerance, ratio * min(st[Int(c.a)].radius, st[Int(c.b)].radius))
            if c.flags & ContactFlags.pushed != 0 || c.separation <= gap {
                flags |= ContactFlags.touching
                touchingBalls += 1
            }
            out[Int(rank[k])] = CarriedContact(a: c.a, b: c.b, flags: flags, normalImpulse: c.normalImpulse,
                                               tangentImpulse: c.tangentImpulse)
        }
        swap(&lastBallContacts, &earlierBallContacts)
        let bc = lastBallContacts.base
        var carriedBalls = 0
        for i in 0..<m where bc[i].flags & ContactFlags.touching != 0 {
            if bc[i].flags & ContactFlags.wasTouching == 0 { ballEvents.append(Int32(i)) } else { carriedBalls += 1 }
        }
        // Every touch of the last step that carried on is counted: fewer means some ended.
        let endedWalls = carriedWalls < touchingWallCount, endedBalls = carriedBalls < touchingBallCount
        touchingWallCount = touchingWalls
        touchingBallCount = touchingBalls
        if reportsSeparations && (endedWalls || endedBalls) {
            findSeparations(walls: endedWalls, balls: endedBalls, topology)
        }
        if wallEvents.count == 0 && ballEvents.count == 0 { return }

        let geometry = wallGeometry.base
        var w = 0, b = 0
        while w < wallEvents.count || b < ballEvents.count {
            let takeWall: Bool
            if w == wallEvents.count {
                takeWall = false
            } else if b == ballEvents.count {
                takeWall = true
            } else {
                takeWall = wc[Int(wallEvents[w])].body <= bc[Int(ballEvents[b])].a
            }
            if takeWall {
                let c = wc[Int(wallEvents[w])]
                w += 1
                let g = geometry[Int(c.wall)]
                if let event = wallEvent(body: Int(c.body), key: g.key, point: Vec2(c.px, c.py)) {
                    contactEvents.append(event)
                }
            } else {
                let c = bc[Int(ballEvents[b])]
                b += 1
                contactEvents.append(ballEvent(Int(c.a), Int(c.b), topology))
            }
        }
    }

    /// The event of ball `body` with the wall (or side of the bounds) matched by `key`, at
    /// `point`; nil when that wall has been removed.
    func wallEvent(body: Int, key: UInt32, point: Vec2) -> ContactEvent? {
        let partner: ContactPartner
        var identifier: String?
        if key < 4 {
            partner = .bounds
        } else {
            guard let i = wallIndex(WallID(rawValue: key)) else { return nil }
            partner = .wall(walls[i].id)
            identifier = walls[i].identifier
        }
        return ContactEvent(body: BodyID(rawValue: bodyIDs[body]), partner: partner, identifier: identifier, point: point)
    }

    /// The event of balls `a < b`, at the point midway between their surfaces (folded into a
    /// wrap-around world's bounds).
    func ballEvent(_ a: Int, _ b: Int, _ topology: WrapTopology) -> ContactEvent {
        let sa = states[a], sb = states[b]
        var dx = sb.px - sa.px, dy = sb.py - sa.py
        if topology.wraps {
            let o = topology.imageOffset(dx: dx, dy: dy)
            dx += o.x
            dy += o.y
        }
        let d = (dx * dx + dy * dy).squareRoot()
        let nx = d > 0 ? dx / d : 0, ny = d > 0 ? dy / d : -1
        let reach = sa.radius + (d - sa.radius - sb.radius) / 2
        let point = Vec2(topology.foldX(sa.px + nx * reach), topology.foldY(sa.py + ny * reach))
        return ContactEvent(body: BodyID(rawValue: bodyIDs[a]), partner: .body(BodyID(rawValue: bodyIDs[b])),
                            identifier: nil, point: point)
    }

    /// Queues a separation event for every contact that touched at the end of the last step
    /// and does not now: last step's contacts (`previousWallContacts`, and
    /// `earlierBallContacts` after ``finishContacts(_:)`` swapped them) against this step's.
    private func findSeparations(walls: Bool, balls: Bool, _ topology: WrapTopology) {
        var ended: [(body: Int, rank: Int, event: ContactEvent)] = []
        if walls {
            let prev = previousWallContacts.base, cur = wallContacts.base
            var j = 0
            for i in 0..<previousWallContacts.count where prev[i].flags & ContactFlags.touching != 0 {
                let key = prev[i].key
                while j < wallContacts.count && cur[j].key < key { j += 1 }
                if j < wallContacts.count && cur[j].key == key && cur[j].flags & ContactFlags.touching != 0 { continue }
                let body = Int(prev[i].body)
                if let event = wallEvent(body: body, key: prev[i].wallKey, point: Vec2(prev[i].px, prev[i].py)) {
                    ended.append((body, 0, event))
                }
            }
        }
        if balls {
            let prev = earlierBallContacts.base, cur = lastBallContacts.base
            var j = 0
            for i in 0..<earlierBallContacts.count where prev[i].flags & ContactFlags.touching != 0 {
                let key = prev[i].key
                while j < lastBallContacts.count && cur[j].key < key { j += 1 }
                if j < lastBallContacts.count && cur[j].key == key && cur[j].flags & ContactFlags.touching != 0 { continue }
                ended.append((Int(prev[i].a), 1, ballEvent(Int(prev[i].a), Int(prev[i].b), topology)))
            }
        }
        // By ball, walls (already in order) before balls (likewise).
        ended.sort { ($0.body, $0.rank) < ($1.body, $1.rank) }
        separationEvents.append(contentsOf: ended.map(\.event))
    }

    /// Decides which sensor pairs within reach overlap now that the balls have moved, and
    /// queues contact events for the overlaps that began and separation events for those that
    /// ended. Sensor events follow the others, by ball, walls before balls.
    func finishSensors(_ dt: Double, _ topology: WrapTopology) {
        if sensorBallPairs.count == 0 && sensorWallPairs.count == 0
            && sensorBallTouches.count == 0 && sensorWallTouches.count == 0 { return }
        let st = states.base
        // Ball pairs.
        var now = spareSensorTouches
        now.removeAll()
        let pairs = sensorBallPairs.base
        for k in 0..<sensorBallPairs.count {
            let a = Int(pairs[k] >> 32), b = Int(pairs[k] & 0xFFFF_FFFF)
            var dx = st[b].px - st[a].px, dy = st[b].py - st[a].py
            if topology.wraps {
                let o = topology.imageOffset(dx: dx, dy: dy)
                dx += o.x
                dy += o.y
            }
            let reach = st[a].radius + st[b].radius
            if dx * dx + dy * dy <= reach * reach { now.append(pairs[k]) }
        }
        var began: [(body: Int, rank: Int, event: ContactEvent)] = []
        var ended: [(body: Int, rank: Int, event: ContactEvent)] = []
        Self.compare(sensorBallTouches, now) { key, begins in
            let a = Int(key >> 32), b = Int(key & 0xFFFF_FFFF)
            let event = ballEvent(a, b, topology)
            if begins { began.append((a, 1, event)) } else { ended.append((a, 1, event)) }
        }
        spareSensorTouches = sensorBallTouches
        sensorBallTouches = now

        // Wall pairs: keyed by the wall's key from here on.
        now = spareSensorTouches
        now.removeAll()
        var points: [UInt64: Vec2] = [:]
        let geometry = wallGeometry.base, wallPairs = sensorWallPairs.base
        for k in 0..<sensorWallPairs.count {
            let body = Int(wallPairs[k] >> 32)
            let g = geometry[Int(wallPairs[k] & 0xFFFF_FFFF)]
            let m = g.manifold(cx: st[body].px, cy: st[body].py, radius: st[body].radius, time: dt)
            if m.separation <= 0 {
                let key = UInt64(body) << 32 | UInt64(g.key)
                now.append(key)
                points[key] = Vec2(m.px, m.py)
            }
        }
        Self.compare(sensorWallTouches, now) { key, begins in
            let body = Int(key >> 32)
            let s = st[body]
            guard let event = wallEvent(body: body, key: UInt32(key & 0xFFFF_FFFF),
                                        point: points[key] ?? Vec2(s.px, s.py)) else { return }
            if begins { began.append((body, 0, event)) } else { ended.append((body, 0, event)) }
        }
        spareSensorTouches = sensorWallTouches
        sensorWallTouches = now

        began.sort { ($0.body, $0.rank) < ($1.body, $1.rank) }
        ended.sort { ($0.body, $0.rank) < ($1.body, $1.rank) }
        contactEvents.append(contentsOf: began.map(\.event))
        separationEvents.append(contentsOf: ended.map(\.event))
    }

    /// Walks two ascending key lists and reports each key in only one of them: `true` when
    /// only in `now` (a touch began), `false` when only in `before` (it ended).
    private static func compare(_ before: Column<UInt64>, _ now: Column<UInt64>, _ report: (UInt64, Bool) -> Void) {
        var i = 0, j = 0
        let p = before.base, q = now.base
        while i < before.count || j < now.count {
            if j == now.count || (i < before.count && p[i] < q[j]) {
                report(p[i], false)
                i += 1
            } else if i == before.count || q[j] < p[i] {
                report(q[j], true)
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
    }

    /// Removes the balls that ended the step entirely outside ``removalRect``; not on an axis
    /// that wraps: nothing leaves the world that way.
    func removeEscapedBodies(_ topology: WrapTopology) {
        guard let rect = removalRect else { return }
        let n = states.count
        let st = states.base
        var any = false
        doomed.fill(count: n, with: 0)
        let checksX = !topology.wrapsX, checksY = !topology.wrapsY
        for i in 0..<n {
            let s = st[i]
            if (checksX && (s.px + s.radius < rect.minX || s.px - s.radius > rect.maxX))
                || (checksY && (s.py + s.radius < rect.minY || s.py - s.radius > rect.maxY))
                || !(s.px.isFinite && s.py.isFinite) {
                doomed[i] = 1
                any = true
            }
        }
        guard any else { return }
        compactBodies(reporting: true)
        // A ball that left is reported removed, not touching: its handle is stale by the time
        // the events are handed over.
        let gone = { (e: ContactEvent) -> Bool in
            if !self.contains(e.body) { return true }
            if case .body(let other) = e.partner, !self.contains(other) { return true }
            return false
        }
        contactEvents.removeAll(where: gone)
        separationEvents.removeAll(where: gone)
    }
}
