extension PhysicsWorld {
    /// Advances the world by `dt` seconds (the host's fixed step, 1/60 s by default).
    ///
    /// Afterwards ``contactEvents`` holds the contacts that began during this step and
    /// ``removedBodies`` the balls that left ``removalRect``; both are replaced by the next step.
    public func step(_ dt: Double = 1.0 / 60.0) {
        contactEvents.removeAll(keepingCapacity: true)
        removedBodies.removeAll(keepingCapacity: true)
        guard dt > 0, dt.isFinite else { return }

        let count = substeps
        let h = dt / Double(count)
        prepareWalls(dt)
        buildContacts(dt, h: h)

        // Contacts may not be stiffer than a quarter of the substep rate (Box2D's rule), and
        // walls, which cannot give way, are twice as stiff as ball pairs.
        let hertz = min(contactHertz, 0.25 / h)
        let ballSoftness = Softness(hertz: hertz, dampingRatio: contactDampingRatio, h: h)
        let wallSoftness = Softness(hertz: 2 * hertz, dampingRatio: contactDampingRatio, h: h)
        for k in 0..<count {
            integrateVelocities(h)
            warmStart()
            solveContacts(h: h, ballSoftness: ballSoftness, wallSoftness: wallSoftness, relax: false, time: Double(k) * h)
            integratePositions(h)
            solveContacts(h: h, ballSoftness: ballSoftness, wallSoftness: wallSoftness, relax: true, time: Double(k + 1) * h)
            applyBounces()
        }

        sweepFastBodies(dt)
        finishContacts()
        finishWalls()
        removeEscapedBodies()
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
        for i in 0..<states.count {
            let lf = mat[i].linearFactor
            st[i].vx = st[i].vx * lf + gx
            st[i].vy = st[i].vy * lf + gy
            st[i].w *= mat[i].angularFactor
        }
    }

    func integratePositions(_ h: Double) {
        let st = states.base, ang = angles.base
        for i in 0..<states.count {
            st[i].px += st[i].vx * h
            st[i].py += st[i].vy * h
            ang[i] += st[i].w * h
        }
    }

    /// Re-applies the impulses the contacts ended the last substep (or step) with, so the
    /// solver starts near the answer and a pile holds with one iteration per substep.
    func warmStart() {
        let st = states.base
        let bc = ballContacts.base
        for i in 0..<ballContacts.count {
            let c = bc[i]
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
    /// The solve pass (`relax == false`) runs before the balls move, with the soft position
    /// bias that pushes overlapping pairs apart; a pair still apart may close its gap within
    /// the substep but not more. The relax pass runs after they moved, first refreshing each
    /// contact's geometry, and without the bias, so the push does not survive as velocity.
    func solveContacts(h: Double, ballSoftness: Softness, wallSoftness: Softness, relax: Bool, time: Double) {
        let st = states.base
        let invH = 1 / h
        let maxPush = maxPushVelocity
        let threshold = restitutionThreshold
        var bounces = pendingBallBounces
        defer { pendingBallBounces = bounces }
        // The soft coefficients of this pass: the relax pass is rigid and unbiased.
        let biasRate = relax ? 0 : ballSoftness.biasRate
        let softMass = relax ? 1 : ballSoftness.massScale
        let softImpulse = relax ? 0 : ballSoftness.impulseScale

        let bc = ballContacts.base
        for i in 0..<ballContacts.count {
            let a = Int(bc[i].a), b = Int(bc[i].b)
            let sa = st[a], sb = st[b]
            var nx = bc[i].nx, ny = bc[i].ny, s = bc[i].separation
            if relax {
                let dx = sb.px - sa.px, dy = sb.py - sa.py
                let d2 = dx * dx + dy * dy
                if d2 > 0 {
                    let d = d2.squareRoot()
                    let inv = 1 / d
                    nx = dx * inv
                    ny = dy * inv
                    s = d - sa.radius - sb.radius
                } else {
                    s = -sa.radius - sb.radius
                }
                bc[i].nx = nx
                bc[i].ny = ny
                bc[i].separation = s
            }
            let tx = -ny, ty = nx
            let ma = sa.invMass, mb = sb.invMass
            let ia = sa.spin, ib = sb.spin
            var vax = sa.vx, vay = sa.vy, wa = sa.w
            var vbx = sb.vx, vby = sb.vy, wb = sb.w

            // Friction, bounded by what the normal impulse can hold.
            let normalImpulse = bc[i].normalImpulse
            let tangentImpulse = bc[i].tangentImpulse
            let vt = (vbx - vax) * tx + (vby - vay) * ty - wb * sb.radius - wa * sa.radius
            let maxFriction = bc[i].friction * normalImpulse
            let newTangent = min(max(tangentImpulse - bc[i].tangentMass * vt, -maxFriction), maxFriction)
            let lt = newTangent - tangentImpulse
            bc[i].tangentImpulse = newTangent
            vax -= ma * lt * tx
            vay -= ma * lt * ty
            wa -= ia * lt
            vbx += mb * lt * tx
            vby += mb * lt * ty
            wb -= ib * lt

            // Non-penetration: a gap may close within the substep; an overlap is pushed out
            // softly (solve pass only).
            var bias = 0.0, massScale = 1.0, impulseScale = 0.0
            if s > 0 {
                bias = s * invH
            } else {
                bias = max(biasRate * s, -maxPush)
                massScale = softMass
                impulseScale = softImpulse
            }
            let vn = (vbx - vax) * nx + (vby - vay) * ny
            var newNormal = max(normalImpulse - bc[i].normalMass * massScale * (vn + bias) - impulseScale * normalImpulse, 0)
            // A pair still apart after moving may give back push (so an overlap correction does
            // not fling them apart) but gets none: closing the gap is the next solve pass's
            // work, and that pass must see the full approach speed of a strike.
            if relax && s > 0 { newNormal = min(newNormal, normalImpulse) }
            let ln = newNormal - normalImpulse
            bc[i].normalImpulse = newNormal
            vax -= ma * ln * nx
            vay -= ma * ln * ny
            vbx += mb * ln * nx
            vby += mb * ln * ny

            // A strike: a pair that was not pressing on each other starts to, fast. The
            // bounce comes after this substep. Pairs already pressing (a ball in a pile, or
            // under one that was just hit) do not bounce on what is passed through them.
            if newNormal > 0 {
                var flags = bc[i].flags | ContactFlags.pushed
                if vn < -threshold && normalImpulse == 0
                    && bc[i].flags & (ContactFlags.pushed | ContactFlags.bounced | ContactFlags.bouncePending) == 0 {
                    flags |= ContactFlags.bouncePending
                    bounces.append(PendingBounce(contact: Int32(truncatingIfNeeded: i), approachVelocity: vn))
                }
                bc[i].flags = flags
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
        let wallBiasRate = relax ? 0 : wallSoftness.biasRate
        let wallSoftMass = relax ? 1 : wallSoftness.massScale
        let wallSoftImpulse = relax ? 0 : wallSoftness.impulseScale
        let walls = wallGeometry.base
        let wc = wallContacts.base
        for i in 0..<wallContacts.count {
            var c = wc[i]
            let b = Int(c.body)
            let sb = st[b]
            let wg = walls[Int(c.wall)]
            if relax {
                c.setGeometry(wg.manifold(cx: sb.px, cy: sb.py, radius: sb.radius, time: time))
            }
            let nx = c.nx, ny = c.ny
            let tx = -ny, ty = nx
            let mb = sb.invMass
            let ib = sb.spin
            var vbx = sb.vx, vby = sb.vy, wb = sb.w
            let rvx0 = -wg.vx, rvy0 = -wg.vy

            let vt = (vbx + rvx0) * tx + (vby + rvy0) * ty - wb * sb.radius
            let maxFriction = c.friction * c.normalImpulse
            let newTangent = min(max(c.tangentImpulse - c.tangentMass * vt, -maxFriction), maxFriction)
            let lt = newTangent - c.tangentImpulse
            c.tangentImpulse = newTangent
            vbx += mb * lt * tx
            vby += mb * lt * ty
            wb -= ib * lt

            let s = c.separation
            var bias = 0.0, massScale = 1.0, impulseScale = 0.0
            if s > 0 {
                bias = s * invH
            } else {
                bias = max(wallBiasRate * s, -maxPush)
                massScale = wallSoftMass
                impulseScale = wallSoftImpulse
            }
            let vn = (vbx + rvx0) * nx + (vby + rvy0) * ny
            let wallImpulse = c.normalImpulse
            var newNormal = max(c.normalImpulse - c.normalMass * massScale * (vn + bias) - impulseScale * c.normalImpulse, 0)
            if relax && s > 0 { newNormal = min(newNormal, c.normalImpulse) }
            let ln = newNormal - c.normalImpulse
            c.normalImpulse = newNormal
            vbx += mb * ln * nx
            vby += mb * ln * ny

            if newNormal > 0 {
                if vn < -threshold && wallImpulse == 0
                    && c.flags & (ContactFlags.pushed | ContactFlags.bounced | ContactFlags.bouncePending) == 0 {
                    c.flags |= ContactFlags.bouncePending
                    wallBounces.append(PendingBounce(contact: Int32(truncatingIfNeeded: i), approachVelocity: vn))
                }
                c.flags |= ContactFlags.pushed
            }

            wc[i] = c
            st[b].vx = vbx
            st[b].vy = vby
            st[b].w = wb
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
        var waiting = 0
        let ballPending = pendingBallBounces.base
        for k in 0..<pendingBallBounces.count {
            let bounce = ballPending[k]
            let i = Int(bounce.contact)
            if bc[i].separation > meet {
                ballPending[waiting] = bounce
                waiting += 1
                continue
            }
            let a = Int(bc[i].a), b = Int(bc[i].b)
            let restitution = max(mat[a].elasticity, mat[b].elasticity)
            rows.append(BounceRow(contact: Int32(i), isWall: false, target: -restitution * bounce.approachVelocity))
            bc[i].flags = (bc[i].flags & ~ContactFlags.bouncePending) | ContactFlags.bounced
            marks[a] = 1
            marks[b] = 1
        }
        pendingBallBounces.truncate(to: waiting)
        let wc = wallContacts.base
        waiting = 0
        let wallPending = pendingWallBounces.base
        for k in 0..<pendingWallBounces.count {
            let bounce = wallPending[k]
            let i = Int(bounce.contact)
            if wc[i].separation > meet {
                wallPending[waiting] = bounce
                waiting += 1
                continue
            }
            let b = Int(wc[i].body)
            rows.append(BounceRow(contact: Int32(i), isWall: true, target: -mat[b].elasticity * bounce.approachVelocity))
            wc[i].flags = (wc[i].flags & ~ContactFlags.bouncePending) | ContactFlags.bounced
            marks[b] = 1
        }
        pendingWallBounces.truncate(to: waiting)
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

    /// Decides which contacts touched this step, puts the ball contacts back in key order
    /// for the next step's warm start, and queues an event for each contact that was not
    /// touching before, ordered by ball, walls before balls.
    func finishContacts() {
        let tolerance = contactTolerance, ratio = contactToleranceRatio
        let st = states.base
        wallEvents.removeAll()
        ballEvents.removeAll()
        let wc = wallContacts.base
        for i in 0..<wallContacts.count {
            let gap = min(tolerance, ratio * st[Int(wc[i].body)].radius)
            let touching = wc[i].flags & ContactFlags.pushed != 0 || wc[i].separation <= gap
            if touching {
                if wc[i].flags & ContactFlags.wasTouching == 0 { wallEvents.append(Int32(i)) }
                wc[i].flags |= ContactFlags.touching
            }
        }
        let m = ballContacts.count
        lastBallContacts.resizeUninitialized(to: m)
        let solved = ballContacts.base, rank = keyRank.base
        let bc = lastBallContacts.base
        for k in 0..<m {
            var c = solved[k]
            let gap = min(tolerance, ratio * min(st[Int(c.a)].radius, st[Int(c.b)].radius))
            if c.flags & ContactFlags.pushed != 0 || c.separation <= gap {
                c.flags |= ContactFlags.touching
            }
            bc[Int(rank[k])] = c
        }
        for i in 0..<m where bc[i].flags & (ContactFlags.touching | ContactFlags.wasTouching) == ContactFlags.touching {
            ballEvents.append(Int32(i))
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
                let partner: ContactPartner
                var identifier: String?
                if g.record < 0 {
                    partner = .bounds
                } else {
                    let record = walls[Int(g.record)]
                    partner = .wall(record.id)
                    identifier = record.identifier
                }
                contactEvents.append(ContactEvent(
                    body: BodyID(rawValue: bodyIDs[Int(c.body)]), partner: partner,
                    identifier: identifier, point: Vec2(c.px, c.py)))
            } else {
                let c = bc[Int(ballEvents[b])]
                b += 1
                let sa = st[Int(c.a)]
                let reach = sa.radius + c.separation / 2
                contactEvents.append(ContactEvent(
                    body: BodyID(rawValue: bodyIDs[Int(c.a)]),
                    partner: .body(BodyID(rawValue: bodyIDs[Int(c.b)])),
                    identifier: nil, point: Vec2(sa.px + c.nx * reach, sa.py + c.ny * reach)))
            }
        }
    }

    /// Removes the balls that ended the step entirely outside ``removalRect``.
    func removeEscapedBodies() {
        guard let rect = removalRect else { return }
        let n = states.count
        let st = states.base
        var any = false
        doomed.fill(count: n, with: 0)
        for i in 0..<n {
            let s = st[i]
            if s.px + s.radius < rect.minX || s.px - s.radius > rect.maxX
                || s.py + s.radius < rect.minY || s.py - s.radius > rect.maxY
                || !(s.px.isFinite && s.py.isFinite) {
                doomed[i] = 1
                any = true
            }
        }
        if any { compactBodies(reporting: true) }
    }
}
