// The contact solver: Erin Catto's substepping (as in Box2D 3), one solve and one relax
// pass per substep, warm starting, and restitution applied in the substep of the strike.
// Velocities are solved rigidly and without any position bias; overlaps are pushed apart by
// pseudo-velocities (split impulses, as in Bullet and Box2D's position pass) that move the
// balls and are then discarded, so separating an overlap never creates kinetic energy.
// Like Box2D's and Chipmunk's position correction, the pseudo-velocities are solved with
// iterations of their own (``solveOverlaps()``), over the pairs deep enough to need them.
extension PhysicsWorld {
    /// Re-applies the impulses the contacts ended the last substep (or step) with, so the
    /// solver starts near the answer and a pile holds with one iteration per substep.
    func warmStart() {
        let st = states.base
        let bc = ballContacts.base
        for i in 0..<ballContacts.count {
            let c = bc[i]
            if c.normalImpulse == 0 && c.tangentImpulse == 0 { continue }
            let a = Int(c.a), b = Int(c.b)
            let tx = -c.ny, ty = c.nx
            let px = c.normalImpulse * c.nx + c.tangentImpulse * tx
            let py = c.normalImpulse * c.ny + c.tangentImpulse * ty
            let ma = st[a].invMass, mb = st[b].invMass
            st[a].vx -= ma * px
            st[a].vy -= ma * py
            st[a].w -= st[a].spin * c.tangentImpulse
            st[b].vx += mb * px
            st[b].vy += mb * py
            st[b].w -= st[b].spin * c.tangentImpulse
        }
        let wc = wallContacts.base
        for i in 0..<wallContacts.count {
            let c = wc[i]
            if c.normalImpulse == 0 && c.tangentImpulse == 0 { continue }
            let b = Int(c.body)
            let tx = -c.ny, ty = c.nx
            let mb = st[b].invMass
            st[b].vx += mb * (c.normalImpulse * c.nx + c.tangentImpulse * tx)
            st[b].vy += mb * (c.normalImpulse * c.ny + c.tangentImpulse * ty)
            st[b].w -= st[b].spin * c.tangentImpulse
        }
    }

    /// One pass over every contact: friction, then non-penetration.
    ///
    /// The solve pass (`relax == false`) runs before the balls move: a pair still apart may
    /// close its gap within the substep but not more, a touching pair may not approach, and an
    /// overlapping pair gets a pseudo-velocity apart (a soft spring's push, in
    /// `pseudoVelocities`) that only the next position update sees. The relax pass runs after
    /// they moved, first refreshing each ball contact's gap along its normal (a wall contact's
    /// whole geometry).
    func solveContacts(h: Double, relax: Bool, time: Double) {
        // Two copies of the pass, each with `relax` a constant, so neither tests it per contact.
        if relax {
            solvePass(h: h, relax: true, time: time)
        } else {
            solvePass(h: h, relax: false, time: time)
        }
    }

    @inline(__always)
    private func solvePass(h: Double, relax: Bool, time: Double) {
        let st = states.base, pv = pseudoVelocities.base
        let topology = self.topology
        let invH = 1 / h
        var bounces = pendingBallBounces
        defer { pendingBallBounces = bounces }
        let ballPass = ContactPass(invH: invH, maxPush: maxPushVelocity, restitutionThreshold: restitutionThreshold,
                                   overlapRate: overlapCorrection * invH, overlapSlop: overlapSlop, pushLimit: overlapPushLimit, relax: relax)
        // The solve pass gathers the overlap problem that ``solveOverlaps()`` solves further.
        var rows = overlapRows
        if !relax { rows.removeAll() }
        defer { if !relax { overlapRows = rows } }
        let rowDepth = overlapRowDepth
        let bc = ballContacts.base
        for i in 0..<ballContacts.count {
            let c = bc[i]
            let a = Int(c.a), b = Int(c.b)
            let sa = st[a], sb = st[b]
            let nx = c.nx, ny = c.ny
            var s = c.separation
            if relax {
                var dx = sb.px - sa.px, dy = sb.py - sa.py
                if c.flags & ContactFlags.image != 0 {
                    let o = topology.offset(c.flags)
                    dx += o.x
                    dy += o.y
                }
                // The gap along the normal the contact was made with (as Box2D 3 does): no
                // square root, and within one step exact enough for the small moves of a
                // substep; the next step takes the normal afresh.
                s = dx * nx + dy * ny - sa.radius - sb.radius
                bc[i].separation = s
            }
            // An idle contact (apart, no impulse) that the pair does not close this substep
            // would change nothing: skip the arithmetic. (The relax pass never adds impulse
            // to a pair apart.)
            if c.normalImpulse == 0 && c.tangentImpulse == 0 && s > 0 {
                if relax { continue }
                let vn = (sb.vx - sa.vx) * nx + (sb.vy - sa.vy) * ny
                if vn + s * invH >= 0 { continue }
            }
            let tx = -ny, ty = nx
            let ma = sa.invMass, mb = sb.invMass
            let ia = sa.spin, ib = sb.spin
            var vax = sa.vx, vay = sa.vy, wa = sa.w
            var vbx = sb.vx, vby = sb.vy, wb = sb.w

            let vt = (vbx - vax) * tx + (vby - vay) * ty - wb * sb.radius - wa * sa.radius
            let lt = ballPass.friction(bc, i, c, tangentVelocity: vt)
            vax -= ma * lt * tx
            vay -= ma * lt * ty
            wa -= ia * lt
            vbx += mb * lt * tx
            vby += mb * lt * ty
            wb -= ib * lt

            let vn = (vbx - vax) * nx + (vby - vay) * ny
            let ln = ballPass.push(bc, i, c, normalVelocity: vn, separation: s, bounces: &bounces)
            vax -= ma * ln * nx
            vay -= ma * ln * ny
            vbx += mb * ln * nx
            vby += mb * ln * ny

            // The overlap is pushed out by pseudo-velocity, which moves the balls this substep
            // and is then thrown away: separating them never becomes speed. Within the slop a
            // pair is left alone, as in Box2D's position pass: most of a resting pile is.
            let radius = min(sa.radius, sb.radius)
            if !relax && s < -ballPass.overlapSlop * radius {
                let pa = pv[a], pb = pv[b]
                let pvn = (pb.x - pa.x) * nx + (pb.y - pa.y) * ny
                let target = ballPass.overlapTarget(separation: s, radius: radius)
                let p = max(c.normalMass * (target - pvn), 0)
                if p > 0 {
                    pv[a] = PseudoVelocity(x: pa.x - ma * p * nx, y: pa.y - ma * p * ny)
                    pv[b] = PseudoVelocity(x: pb.x + mb * p * nx, y: pb.y + mb * p * ny)
                }
                if s < -rowDepth * radius {
                    rows.append(OverlapRow(a: c.a, b: c.b, nx: nx, ny: ny, target: target,
                                           normalMass: c.normalMass, impulse: p))
                }
            }

            st[a].vx = vax
            st[a].vy = vay
            st[a].w = wa
            st[b].vx = vbx
            st[b].vy = vby
            st[b].w = wb
        }

        var wallBounces = pendingWallBounces
        defer { pendingWallBounces = wallBounces }
        let wallPass = ContactPass(invH: invH, maxPush: maxPushVelocity, restitutionThreshold: restitutionThreshold,
                                   overlapRate: overlapCorrection * invH, overlapSlop: overlapSlop, pushLimit: overlapPushLimit, relax: relax)
        let walls = wallGeometry.base
        let wc = wallContacts.base
        // Without a deep pair the overlap problem has nothing to solve further: a ball pressed
        // only against walls is pushed out well enough by this pass alone.
        let gathers = !relax && rows.count > 0
        let rowGap = contactTolerance
        for i in 0..<wallContacts.count {
            let c = wc[i]
            let b = Int(c.body)
            let sb = st[b]
            let wg = walls[Int(c.wall)]
            var nx = c.nx, ny = c.ny, s = c.separation
            if relax {
                let m = wg.manifold(cx: sb.px, cy: sb.py, radius: sb.radius, time: time)
                wc[i].setGeometry(m)
                nx = m.nx
                ny = m.ny
                s = m.separation
            }
            let rvx0 = -wg.vx, rvy0 = -wg.vy
            if !relax && s >= 0 {
                // Pseudo-velocity (pushed on by other balls' overlaps) may not carry the ball
                // past the gap the real velocity leaves: a small ball in a squeezed chain
                // would be pushed through the wall.
                let pb = pv[b]
                let nearby = gathers && s <= rowGap
                if pb.x != 0 || pb.y != 0 || nearby {
                    let vn = (sb.vx + rvx0) * nx + (sb.vy + rvy0) * ny
                    let room = max(s * invH + min(vn, 0), 0)
                    let p = max(-c.normalMass * (pb.x * nx + pb.y * ny + room), 0)
                    if p > 0 { pv[b] = PseudoVelocity(x: pb.x + sb.invMass * p * nx, y: pb.y + sb.invMass * p * ny) }
                    if nearby {
                        rows.append(OverlapRow(a: -1, b: c.body, nx: nx, ny: ny, target: -room,
                                               normalMass: c.normalMass, impulse: p))
                    }
                }
            }
            // An idle contact (apart, no impulse) that the ball does not close this substep
            // would change nothing: skip the arithmetic.
            if c.normalImpulse == 0 && c.tangentImpulse == 0 && s > 0 {
                if relax { continue }
                let vn = (sb.vx + rvx0) * nx + (sb.vy + rvy0) * ny
                if vn + s * invH >= 0 { continue }
            }
            let tx = -ny, ty = nx
            let mb = sb.invMass
            let ib = sb.spin
            var vbx = sb.vx, vby = sb.vy, wb = sb.w

            let vt = (vbx + rvx0) * tx + (vby + rvy0) * ty - wb * sb.radius
            let lt = wallPass.friction(wc, i, c, tangentVelocity: vt)
            vbx += mb * lt * tx
            vby += mb * lt * ty
            wb -= ib * lt

            let vn = (vbx + rvx0) * nx + (vby + rvy0) * ny
            let ln = wallPass.push(wc, i, c, normalVelocity: vn, separation: s, bounces: &wallBounces)
            vbx += mb * ln * nx
            vby += mb * ln * ny

            if !relax && s < 0 {
                let pb = pv[b]
                let target = wallPass.overlapTarget(separation: s, radius: sb.radius)
                let p = max(c.normalMass * (target - (pb.x * nx + pb.y * ny)), 0)
                if p > 0 { pv[b] = PseudoVelocity(x: pb.x + mb * p * nx, y: pb.y + mb * p * ny) }
                if gathers {
                    rows.append(OverlapRow(a: -1, b: c.body, nx: nx, ny: ny, target: target,
                                           normalMass: c.normalMass, impulse: p))
                }
            }

            st[b].vx = vbx
            st[b].vy = vby
            st[b].w = wb
        }
    }

    /// Solves the overlap problem gathered by this substep's solve pass again, a few times
    /// over: each row's pseudo-velocity reaches its target (or its push is taken back, never
    /// below none), so neighbours' pushes no longer undo a deep pair's own.
    func solveOverlaps() {
        let count = overlapRows.count
        if count == 0 { return }
        let st = states.base, pv = pseudoVelocities.base, rows = overlapRows.base
        for _ in 1..<overlapIterations {
            for r in 0..<count {
                let row = rows[r]
                let b = Int(row.b)
                let pb = pv[b]
                if row.a < 0 {
                    let pvn = pb.x * row.nx + pb.y * row.ny
                    let total = max(row.impulse + row.normalMass * (row.target - pvn), 0)
                    let p = total - row.impulse
                    if p == 0 { continue }
                    rows[r].impulse = total
                    let mb = st[b].invMass * p
                    pv[b] = PseudoVelocity(x: pb.x + mb * row.nx, y: pb.y + mb * row.ny)
                } else {
                    let a = Int(row.a)
                    let pa = pv[a]
                    let pvn = (pb.x - pa.x) * row.nx + (pb.y - pa.y) * row.ny
                    let total = max(row.impulse + row.normalMass * (row.target - pvn), 0)
                    let p = total - row.impulse
                    if p == 0 { continue }
                    rows[r].impulse = total
                    let ma = st[a].invMass * p, mb = st[b].invMass * p
                    pv[a] = PseudoVelocity(x: pa.x - ma * row.nx, y: pa.y - ma * row.ny)
                    pv[b] = PseudoVelocity(x: pb.x + mb * row.nx, y: pb.y + mb * row.ny)
                }
            }
        }
    }

    /// Restitution for the contacts that struck: their normal velocity becomes `-elasticity`
    /// times the approach velocity.
    ///
    /// Box2D applies restitution once per step; applying it in the substep of the strike
    /// keeps rebound heights within a substep's travel. A strike seen while the gap was
    /// still closing waits until the pair actually meets, or a ball would stop (or turn back)
    /// short of the wall. The bounce is solved together with the other touching contacts of
    /// the struck balls, a few iterations, so a ball dropped on one resting on the floor
    /// rebounds as from the floor instead of pressing the lower ball into it.
    func applyBounces() {
        let st = states.base, mat = materials.base
        let meet = bounceGap
        var rows = bounceRows
        rows.removeAll()
        defer { bounceRows = rows }
        let marks = struckMarks.base

        // The strikes that met.
        let bc = ballContacts.base
        PhysicsWorld.takeMetBounces(&pendingBallBounces, of: bc, meet: meet) { i, bounce in
            let a = Int(bc[i].a), b = Int(bc[i].b)
            let restitution = max(mat[a].elasticity, mat[b].elasticity)
            rows.append(BounceRow(contact: Int32(i), isWall: false, target: -restitution * bounce.approachVelocity))
            marks[a] = 1
            marks[b] = 1
        }
        let wc = wallContacts.base
        PhysicsWorld.takeMetBounces(&pendingWallBounces, of: wc, meet: meet) { i, bounce in
            let b = Int(wc[i].body)
            rows.append(BounceRow(contact: Int32(i), isWall: true, target: -mat[b].elasticity * bounce.approachVelocity))
            marks[b] = 1
        }
        let struck = rows.count
        if struck == 0 { return }

        // The other touching contacts of the struck balls hold them back (target 0).
        let tolerance = contactTolerance, ratio = contactToleranceRatio
        for i in 0..<ballContacts.count
        where marks[Int(bc[i].a)] | marks[Int(bc[i].b)] != 0
            && bc[i].separation <= min(tolerance, ratio * min(st[Int(bc[i].a)].radius, st[Int(bc[i].b)].radius))
            && bc[i].flags & ContactFlags.bounced == 0 {
            rows.append(BounceRow(contact: Int32(i), isWall: false, target: 0))
        }
        for i in 0..<wallContacts.count
        where marks[Int(wc[i].body)] != 0 && wc[i].separation <= min(tolerance, ratio * st[Int(wc[i].body)].radius)
            && wc[i].flags & ContactFlags.bounced == 0 {
            rows.append(BounceRow(contact: Int32(i), isWall: true, target: 0))
        }

        // Normal velocities only: each row may push (never pull) until it reaches its target.
        let walls = wallGeometry.base
        let rs = rows.base
        for _ in 0..<bounceIterations {
            for r in 0..<rows.count {
                let row = rs[r]
                let i = Int(row.contact)
                if row.isWall {
                    let b = Int(wc[i].body)
                    let wg = walls[Int(wc[i].wall)]
                    let nx = wc[i].nx, ny = wc[i].ny
                    let vn = (st[b].vx - wg.vx) * nx + (st[b].vy - wg.vy) * ny
                    let total = max(row.impulse + wc[i].normalMass * (row.target - vn), 0)
                    let impulse = total - row.impulse
                    rs[r].impulse = total
                    st[b].vx += st[b].invMass * impulse * nx
                    st[b].vy += st[b].invMass * impulse * ny
                } else {
                    let a = Int(bc[i].a), b = Int(bc[i].b)
                    let nx = bc[i].nx, ny = bc[i].ny
                    let vn = (st[b].vx - st[a].vx) * nx + (st[b].vy - st[a].vy) * ny
                    let total = max(row.impulse + bc[i].normalMass * (row.target - vn), 0)
                    let impulse = total - row.impulse
                    rs[r].impulse = total
                    st[a].vx -= st[a].invMass * impulse * nx
                    st[a].vy -= st[a].invMass * impulse * ny
                    st[b].vx += st[b].invMass * impulse * nx
                    st[b].vy += st[b].invMass * impulse * ny
                }
            }
        }

        // The impulses that stopped an impact are not a resting load: warm-starting the next
        // substep with them (one iteration per substep) would kick the struck balls, and what
        // they rest on, back up. Those contacts start the next substep cold instead.
        for i in 0..<ballContacts.count where marks[Int(bc[i].a)] | marks[Int(bc[i].b)] != 0 {
            bc[i].normalImpulse = 0
            bc[i].tangentImpulse = 0
        }
        for i in 0..<wallContacts.count where marks[Int(wc[i].body)] != 0 {
            wc[i].normalImpulse = 0
            wc[i].tangentImpulse = 0
        }
        for r in 0..<struck {
            let i = Int(rs[r].contact)
            if rs[r].isWall {
                marks[Int(wc[i].body)] = 0
            } else {
                marks[Int(bc[i].a)] = 0
                marks[Int(bc[i].b)] = 0
            }
        }
    }

    /// Takes from `pending` the bounces whose pair has met (gap at most `meet`), marks their
    /// contacts bounced and hands each to `met` with its contact's index, in order; the
    /// others keep waiting, in order.
    @inline(__always)
    private static func takeMetBounces<C: SolverContact>(
        _ pending: inout Column<PendingBounce>, of contacts: UnsafeMutablePointer<C>, meet: Double,
        _ met: (Int, PendingBounce) -> Void
    ) {
        var waiting = 0
        let queued = pending.base
        for k in 0..<pending.count {
            let bounce = queued[k]
            let i = Int(bounce.contact)
            if contacts[i].separation > meet {
                queued[waiting] = bounce
                waiting += 1
                continue
            }
            contacts[i].flags = (contacts[i].flags & ~ContactFlags.bouncePending) | ContactFlags.bounced
            met(i, bounce)
        }
        pending.truncate(to: waiting)
    }
}

/// The constants of one solve or relax pass over one kind of contact, and the two steps of
/// it that ball and wall contacts share. Each returns the impulse to apply (the change of
/// the contact's accumulated impulse) and has already stored the new accumulated one.
struct ContactPass {
    let invH: Double
    let maxPush: Double
    let restitutionThreshold: Double
    /// The fraction of an overlap pushed out per second (solve pass only), the overlap left
    /// alone and the furthest a substep pushes, as fractions of the (smaller) radius.
    let overlapRate: Double
    let overlapSlop: Double
    let pushLimit: Double
    let relax: Bool

    /// The pseudo-velocity apart that pushes an overlap `s` (negative) out, softly and at most
    /// at `maxPush`; zero within the slop (a wall contact may then only not be pushed deeper).
    @inline(__always)
    func overlapTarget(separation s: Double, radius: Double) -> Double {
        min(-overlapRate * min(s + overlapSlop * radius, 0), min(maxPush, pushLimit * radius * invH))
    }

    /// Friction for contact `i` (`c`) at tangential velocity `vt`, bounded by what the normal
    /// impulse can hold.
    @inline(__always)
    func friction<C: SolverContact>(_ contacts: UnsafeMutablePointer<C>, _ i: Int, _ c: C,
                                    tangentVelocity vt: Double) -> Double {
        let maxFriction = c.friction * c.normalImpulse
        let newTangent = min(max(c.tangentImpulse - c.tangentMass * vt, -maxFriction), maxFriction)
        contacts[i].tangentImpulse = newTangent
        return newTangent - c.tangentImpulse
    }

    /// Non-penetration for contact `i` (`c`) with gap `s` at normal velocity `vn` (negative:
    /// closing): a gap may close within the substep, an overlap may not grow. A strike is
    /// flagged and queued in `bounces`.
    @inline(__always)
    func push<C: SolverContact>(_ contacts: UnsafeMutablePointer<C>, _ i: Int, _ c: C, normalVelocity vn: Double,
                                separation s: Double, bounces: inout Column<PendingBounce>) -> Double {
        let normalImpulse = c.normalImpulse
        // Velocity: a gap may close within the substep, an overlap may not deepen; nothing
        // here pushes an overlap apart (that is the pseudo-velocity's work).
        let bias = s > 0 ? s * invH : 0
        var newNormal = max(normalImpulse - c.normalMass * (vn + bias), 0)
        // A pair still apart after moving may give back push (so an overlap correction does
        // not fling them apart) but gets none: closing the gap is the next solve pass's
        // work, and that pass must see the full approach speed of a strike.
        if relax && s > 0 { newNormal = min(newNormal, normalImpulse) }
        contacts[i].normalImpulse = newNormal

        // A strike: a pair that was not pressing on each other starts to, fast. The bounce
        // comes after this substep. Pairs already pressing (a ball in a pile, or under one
        // that was just hit) do not bounce on what is passed through them.
        if newNormal > 0 {
            var flags = c.flags | ContactFlags.pushed
            if vn < -restitutionThreshold && normalImpulse == 0
                && c.flags & (ContactFlags.pushed | ContactFlags.bounced | ContactFlags.bouncePending) == 0 {
                flags |= ContactFlags.bouncePending
                bounces.append(PendingBounce(contact: Int32(truncatingIfNeeded: i), approachVelocity: vn))
            }
            contacts[i].flags = flags
        }
        return newNormal - normalImpulse
    }
}
