extension PhysicsWorld {
    /// Finds every pair that could touch during a step of `dt` and makes it a contact,
    /// warm-started from the same pair's impulses last step.
    ///
    /// Both lists are built sorted (balls by `(a, b)`, walls by `(body, wall key)`), as last
    /// step's were kept, so matching them is a merge rather than a lookup. The ball contacts
    /// are then put in solving order (``colorBallContacts(bodyCount:)``).
    func buildContacts(_ dt: Double, h: Double) {
        swap(&wallContacts, &previousWallContacts)
        var sorted = sortedBallContacts
        var wallOut = wallContacts
        sorted.removeAll()
        wallOut.removeAll()
        ballContacts.removeAll()
        pendingBallBounces.removeAll()
        pendingWallBounces.removeAll()
        defer {
            sortedBallContacts = sorted
            wallContacts = wallOut
        }
        sensorBallPairs.removeAll()
        sensorWallPairs.removeAll()
        let n = states.count
        guard n > 0 else { return }
        let topology = self.topology
        if topology != searchTopology {
            searchTopology = topology
            candidatesValid = false
        }
        struckMarks.fill(count: n, with: 0)
        pseudoVelocities.fill(count: n, with: .zero)

        startPositions.resizeUninitialized(to: n)
        let st = states.base, mat = materials.base, bx = boxes.base, start = startPositions.base
        let g = acceleration
        let gravityReach = g.length * dt * dt
        let maxMargin = speculativeMargin, marginRatio = speculativeMarginRatio

        // Swept boxes: everything the ball could reach this step.
        var damped = false
        for i in 0..<n {
            let s = st[i]
            start[i] = PathStart(x: s.px, y: s.py)
            let dx = s.vx * dt + g.x * dt * dt, dy = s.vy * dt + g.y * dt * dt
            let r = s.radius + min(maxMargin, marginRatio * s.radius)
            bx[i] = AABB(
                minX: s.px + min(dx, 0) - r, minY: s.py + min(dy, 0) - r,
                maxX: s.px + max(dx, 0) + r, maxY: s.py + max(dy, 0) + r)
            mat[i].linearFactor = 1 / (1 + h * mat[i].linearDamping)
            mat[i].angularFactor = 1 / (1 + h * mat[i].angularDamping)
            damped = damped || mat[i].linearFactor != 1 || mat[i].angularFactor != 1
        }
        anyDamping = damped
        leadTime = dt
        updateCandidates(count: n)

        let candidateStarts = self.candidateStarts.base, candidates = self.candidates.base
        let walls = wallGeometry.base, wallCount = wallGeometry.count
        let prevBall = lastBallContacts.base, prevBallCount = lastBallContacts.count
        let prevWall = previousWallContacts.base, prevWallCount = previousWallContacts.count
        var pb = 0, pw = 0
        let b0 = bounds
        let boundsHold = boundsEnabled
        let fl = filters.base, filtering = self.filtering, wrapping = topology.wraps
        var sensorBalls = sensorBallPairs, sensorWalls = sensorWallPairs
        defer {
            sensorBallPairs = sensorBalls
            sensorWallPairs = sensorWalls
        }
        // A little over 1, so the cheap bounds below cannot reject what rounding would let in.
        let outOfReach = 1 + 1e-9
        // Each ball contact is coloured as it is made (``colorBallContacts(bodyCount:)``).
        colorMasks.fill(count: n, with: 0)
        colorStarts.fill(count: 129, with: 0)
        var colors = contactColors
        colors.removeAll()
        defer { contactColors = colors }
        let masks = colorMasks.base, colorCounts = colorStarts.base

        // many walls make every ball look at each: the step stops at the host's deadline too
        let ask = wallCount > 1024 ? shouldStop : nil
        for a in 0..<n {
            if let ask, a & 15 == 0, ask() {
                stopped = .asked
                return
            }
            let sa = st[a]
            let boxA = bx[a]
            let ma = mat[a]

            // Walls, in geometry order: the bound sides (keys 0...3), then walls by id.
            let heldByBounds = boundsHold && b0.contains(Vec2(sa.px, sa.py))
            let marginA = min(maxMargin, marginRatio * sa.radius)
            let wallReachBase = gravityReach + marginA
            let filterA = fl[a]
            for k in 0..<wallCount {
                // The box test reads the kind and the box alone: most walls stop there.
                if !walls[k].mayReach(boxA, heldByBounds: heldByBounds) { continue }
                let wg = walls[k]
                if filtering && !wg.meets(filterA) { continue }
                let m = wg.manifold(cx: sa.px, cy: sa.py, radius: sa.radius, time: 0)
                let rvx = sa.vx - wg.vx, rvy = sa.vy - wg.vy
                // |v| <= |vx| + |vy|: most walls are out of reach by that bound already.
                if m.separation > ((abs(rvx) + abs(rvy)) * dt + wallReachBase) * outOfReach { continue }
                let reach = (rvx * rvx + rvy * rvy).squareRoot() * dt + wallReachBase
                if !(m.separation <= reach) { continue }
                if filtering && (wg.isSensor || filterA.isSensor) {
                    // A sensor pair: looked at once the balls have moved, never solved.
                    sensorWalls.append(UInt64(a) << 32 | UInt64(k))
                    continue
                }
                var c = WallContact(body: Int32(a), wall: Int32(k), wallKey: wg.key)
                c.setGeometry(m)
                c.normalMass = 1 / sa.invMass
                c.tangentMass = 1 / (sa.invMass + sa.spin * sa.radius)
                c.friction = ma.friction
                c.carryOver(from: prevWall, count: prevWallCount, cursor: &pw)
                wallOut.append(c)
            }

            // Candidates with a higher index, ascending, whose swept box overlaps this one's.
            for k in Int(candidateStarts[a])..<Int(candidateStarts[a + 1]) {
                let b32 = candidates[k]
                let b = Int(b32)
                let sb = st[b]
                var dx = sb.px - sa.px, dy = sb.py - sa.py
                var image: UInt32 = 0
                if wrapping {
                    // The nearest image of b across the seams.
                    let o = topology.imageOffset(dx: dx, dy: dy)
                    let boxB = bx[b]
                    let shifted = AABB(minX: boxB.minX + o.x, minY: boxB.minY + o.y, maxX: boxB.maxX + o.x, maxY: boxB.maxY + o.y)
                    if !shifted.overlaps(boxA) { continue }
                    dx += o.x
                    dy += o.y
                    image = ContactFlags.image(o.x, o.y)
                } else if !bx[b].overlaps(boxA) {
                    continue
                }
                let d2 = dx * dx + dy * dy
                let margin = min(maxMargin, marginRatio * min(sa.radius, sb.radius))
                let rvx = sb.vx - sa.vx, rvy = sb.vy - sa.vy
                // The same bound on the reach, before any square root.
                let far = ((abs(rvx) + abs(rvy)) * dt + margin) * outOfReach + sa.radius + sb.radius
                if d2 > far * far * outOfReach { continue }
                let d = d2.squareRoot()
                let separation = d - sa.radius - sb.radius
                // Within reach: the gap beyond the margin is at most the relative speed's
                // travel, compared squared so no second square root is taken.
                let beyond = separation - margin
                if !(beyond <= 0 || beyond * beyond <= (rvx * rvx + rvy * rvy) * (dt * dt)) { continue }
                if filtering && (filterA.isSensor || fl[b].isSensor) {
                    sensorBalls.append(UInt64(a) << 32 | UInt64(b))
                    continue
                }
                var c = BallContact(a: Int32(a), b: b32)
                if d > 0 {
                    c.nx = dx / d
                    c.ny = dy / d
                } else {
                    c.nx = 0
                    c.ny = -1
                }
                c.separation = separation
                c.normalMass = 1 / (sa.invMass + sb.invMass)
                c.tangentMass = 1 / (sa.invMass + sb.invMass
                    + sa.spin * sa.radius + sb.spin * sb.radius)
                let mb = mat[b]
                // sqrt(f * f) is f, so equal frictions (the usual case) need no root
                c.friction = ma.friction == mb.friction ? ma.friction : (ma.friction * mb.friction).squareRoot()
                c.carryOver(from: prevBall, count: prevBallCount, cursor: &pb)
                c.flags |= image
                sorted.append(c)
                let bucket = Self.colorBucket(c, masks)
                colors.append(UInt8(truncatingIfNeeded: bucket))
                colorCounts[bucket + 1] += 1
            }
        }
        sortedBallContacts = sorted
        contactColors = colors
        colorBallContacts(bodyCount: n)
    }

    /// Orders the ball contacts for solving: greedy graph colouring, so that within a colour
    /// no two contacts share a ball. Consecutive contacts then do not wait on each other's
    /// velocity updates and the processor overlaps them; in key order they would form one
    /// long dependency chain through the shared ball. `keyRank` remembers each contact's
    /// place in key order for putting them back at the end of the step.
    ///
    /// Within a colour the pressing contacts (carrying impulse from the last step, or already
    /// overlapping) come first and the idle ones after, each in key order, so the solver's
    /// test for an idle contact is not a coin toss. Contacts of one colour share no ball, so
    /// their order among themselves changes no result. The last colour is the exception (it
    /// is shared once all 64 are taken) and keeps key order.
    ///
    /// Each contact's bucket (``colorBucket(_:_:)``) is found as ``buildContacts(_:h:)`` makes
    /// it, in key order, and counted in `colorStarts`; this puts them in bucket order.
    func colorBallContacts(bodyCount n: Int) {
        let m = sortedBallContacts.count
        ballContacts.resizeUninitialized(to: m)
        keyRank.resizeUninitialized(to: m)
        guard m > 0 else { return }
        assert(contactColors.count == m)
        let colors = contactColors.base, starts = colorStarts.base
        let sorted = sortedBallContacts.base
        for c in 0..<128 { starts[c + 1] += starts[c] }
        let out = ballContacts.base, rank = keyRank.base
        for i in 0..<m {
            let bucket = Int(colors[i])
            let k = Int(starts[bucket])
            starts[bucket] += 1
            out[k] = sorted[i]
            rank[k] = Int32(truncatingIfNeeded: i)
        }
    }

    /// The solving bucket of contact `c`, the next in key order, and takes its colour in
    /// both balls' `masks`: the lowest colour neither ball has yet, twice over (pressing
    /// contacts, then idle ones); with all 64 colours taken the last one is shared, which is
    /// still correct, only slower.
    @inline(__always)
    static func colorBucket(_ c: BallContact, _ masks: UnsafeMutablePointer<UInt64>) -> Int {
        let a = Int(c.a), b = Int(c.b)
        let used = masks[a] | masks[b]
        let color = used == .max ? 63 : (~used).trailingZeroBitCount
        let bit: UInt64 = 1 << UInt64(color)
        masks[a] |= bit
        masks[b] |= bit
        let idle = c.normalImpulse == 0 && c.tangentImpulse == 0 && c.separation > 0 && color != 63
        return 2 * color + (idle ? 1 : 0)
    }
}
