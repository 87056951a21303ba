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

        finishContacts()
        finishWalls()
        removeEscapedBodies()
        if boundBodyCount > 0 {
            for i in 0..<states.count where bindings[i] != nil { writeBinding(i) }
        }
    }

    func integrateVelocities(_ h: Double) {
        let gx = gravity.x * Self.gravityScale * h
        let gy = gravity.y * Self.gravityScale * h
        let st = states.base, mat = materials.base
        for i in 0..<states.count {
            let lf = mat[i].linearFactor
            st[i].vx = st[i].vx * lf + gx
            st[i].vy = st[i].vy * lf + gy
            st[i].w *= mat[i].angularFactor
        }
    }

    func integratePositions(_ h: Double) {
        let st = states.base
        for i in 0..<states.count {
            st[i].px += st[i].vx * h
            st[i].py += st[i].vy * h
            st[i].angle += st[i].w * h
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
            st[a].w -= st[a].invInertia * st[a].radius * c.tangentImpulse
            st[b].vx += mb * px
            st[b].vy += mb * py
            st[b].w -= st[b].invInertia * st[b].radius * c.tangentImpulse
        }
        let wc = wallContacts.base
        for i in 0..<wallContacts.count {
            let c = wc[i]
            let b = Int(c.body)
            let tx = -c.ny, ty = c.nx
            let mb = st[b].invMass
            st[b].vx += mb * (c.normalImpulse * c.nx + c.tangentImpulse * tx)
            st[b].vy += mb * (c.normalImpulse * c.ny + c.tangentImpulse * ty)
            st[b].w -= st[b].invInertia * st[b].radius * c.tangentImpulse
        }
    }

    /// One pass over every contact: friction, then non-penetration.
    ///
    /// The solve pass (`relax == false`) runs before the balls move, with the soft position
    /// bias that pushes overlapping pairs apart; the relax pass runs after they moved, first
    /// refreshing each contact's geometry, and without the bias, so the push does not survive
    /// as velocity. A pair still apart may close its gap within the substep but not more.
    func solveContacts(h: Double, ballSoftness: Softness, wallSoftness: Softness, relax: Bool, time: Double) {
        let st = states.base
        let invH = 1 / h
        let maxPush = maxPushVelocity
        let threshold = restitutionThreshold

        let bc = ballContacts.base
        for i in 0..<ballContacts.count {
            var c = bc[i]
            let a = Int(c.a), b = Int(c.b)
            let sa = st[a], sb = st[b]
            if relax {
                let dx = sb.px - sa.px, dy = sb.py - sa.py
                let d2 = dx * dx + dy * dy
                if d2 > 0 {
                    let d = d2.squareRoot()
                    c.nx = dx / d
                    c.ny = dy / d
                    c.separation = d - sa.radius - sb.radius
                } else {
                    c.separation = -sa.radius - sb.radius
                }
            }
            let nx = c.nx, ny = c.ny
            let tx = -ny, ty = nx
            let ma = sa.invMass, mb = sb.invMass
            let ra = sa.radius, rb = sb.radius
            let ia = sa.invInertia * ra, ib = sb.invInertia * rb
            var vax = sa.vx, vay = sa.vy, wa = sa.w
            var vbx = sb.vx, vby = sb.vy, wb = sb.w

            // Friction, bounded by what the normal impulse can hold.
            let vt = (vbx - vax) * tx + (vby - vay) * ty - wb * rb - wa * ra
            let maxFriction = c.friction * c.normalImpulse
            let newTangent = min(max(c.tangentImpulse - c.tangentMass * vt, -maxFriction), maxFriction)
            let lt = newTangent - c.tangentImpulse
            c.tangentImpulse = newTangent
            vax -= ma * lt * tx
            vay -= ma * lt * ty
            wa -= ia * lt
            vbx += mb * lt * tx
            vby += mb * lt * ty
            wb -= ib * lt

            // Non-penetration.
            let s = c.separation
            var bias = 0.0, massScale = 1.0, impulseScale = 0.0
            if s > 0 {
                bias = s * invH
            } else if !relax {
                bias = max(ballSoftness.biasRate * s, -maxPush)
                massScale = ballSoftness.massScale
                impulseScale = ballSoftness.impulseScale
            }
            let vn = (vbx - vax) * nx + (vby - vay) * ny
            let newNormal = max(c.normalImpulse - c.normalMass * massScale * (vn + bias) - impulseScale * c.normalImpulse, 0)
            let ln = newNormal - c.normalImpulse
            c.normalImpulse = newNormal
            c.maxNormalImpulse = max(c.maxNormalImpulse, newNormal)
            vax -= ma * ln * nx
            vay -= ma * ln * ny
            vbx += mb * ln * nx
            vby += mb * ln * ny

            // A strike: remember how fast they met; the bounce comes after this substep.
            if newNormal > 0 && vn < -threshold && c.restitution > 0
                && c.flags & (ContactFlags.bounced | ContactFlags.bouncePending) == 0 {
                c.flags |= ContactFlags.bouncePending
                c.approachVelocity = vn
                pendingBallBounces.append(Int32(i))
            }

            bc[i] = c
            st[a].vx = vax
            st[a].vy = vay
            st[a].w = wa
            st[b].vx = vbx
            st[b].vy = vby
            st[b].w = wb
        }

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
            let rb = sb.radius
            let ib = sb.invInertia * rb
            var vbx = sb.vx, vby = sb.vy, wb = sb.w
            let rvx0 = -wg.vx, rvy0 = -wg.vy

            let vt = (vbx + rvx0) * tx + (vby + rvy0) * ty - wb * rb
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
            } else if !relax {
                bias = max(wallSoftness.biasRate * s, -maxPush)
                massScale = wallSoftness.massScale
                impulseScale = wallSoftness.impulseScale
            }
            let vn = (vbx + rvx0) * nx + (vby + rvy0) * ny
            let newNormal = max(c.normalImpulse - c.normalMass * massScale * (vn + bias) - impulseScale * c.normalImpulse, 0)
            let ln = newNormal - c.normalImpulse
            c.normalImpulse = newNormal
            c.maxNormalImpulse = max(c.maxNormalImpulse, newNormal)
            vbx += mb * ln * nx
            vby += mb * ln * ny

            if newNormal > 0 && vn < -threshold && c.restitution > 0
                && c.flags & (ContactFlags.bounced | ContactFlags.bouncePending) == 0 {
                c.flags |= ContactFlags.bouncePending
                c.approachVelocity = vn
                pendingWallBounces.append(Int32(i))
            }

            wc[i] = c
            st[b].vx = vbx
            st[b].vy = vby
            st[b].w = wb
        }
    }

    /// Restitution for the contacts that struck this substep: the normal velocity becomes
    /// `-elasticity` times the approach velocity (Box2D applies it once per step; applying
    /// it in the substep of the strike keeps rebound heights within a substep's travel).
    func applyBounces() {
        let st = states.base
        let bc = ballContacts.base
        for k in 0..<pendingBallBounces.count {
            let i = Int(pendingBallBounces[k])
            var c = bc[i]
            let a = Int(c.a), b = Int(c.b)
            let vn = (st[b].vx - st[a].vx) * c.nx + (st[b].vy - st[a].vy) * c.ny
            let impulse = c.normalMass * (-c.restitution * c.approachVelocity - vn)
            if impulse > 0 {
                st[a].vx -= st[a].invMass * impulse * c.nx
                st[a].vy -= st[a].invMass * impulse * c.ny
                st[b].vx += st[b].invMass * impulse * c.nx
                st[b].vy += st[b].invMass * impulse * c.ny
            }
            c.flags = (c.flags & ~ContactFlags.bouncePending) | ContactFlags.bounced
            bc[i] = c
        }
        pendingBallBounces.removeAll()

        let walls = wallGeometry.base
        let wc = wallContacts.base
        for k in 0..<pendingWallBounces.count {
            let i = Int(pendingWallBounces[k])
            var c = wc[i]
            let b = Int(c.body)
            let wg = walls[Int(c.wall)]
            let vn = (st[b].vx - wg.vx) * c.nx + (st[b].vy - wg.vy) * c.ny
            let impulse = c.normalMass * (-c.restitution * c.approachVelocity - vn)
            if impulse > 0 {
                st[b].vx += st[b].invMass * impulse * c.nx
                st[b].vy += st[b].invMass * impulse * c.ny
            }
            c.flags = (c.flags & ~ContactFlags.bouncePending) | ContactFlags.bounced
            wc[i] = c
        }
        pendingWallBounces.removeAll()
    }

    /// Decides which contacts touched this step and queues an event for each that was not
    /// touching before, ordered by ball, walls before balls.
    func finishContacts() {
        let tolerance = contactTolerance
        wallEvents.removeAll()
        ballEvents.removeAll()
        let wc = wallContacts.base
        for i in 0..<wallContacts.count {
            let touching = wc[i].maxNormalImpulse > 0 || wc[i].separation <= tolerance
            if touching {
                if wc[i].flags & ContactFlags.wasTouching == 0 { wallEvents.append(Int32(i)) }
                wc[i].flags |= ContactFlags.touching
            }
        }
        let bc = ballContacts.base
        for i in 0..<ballContacts.count {
            let touching = bc[i].maxNormalImpulse > 0 || bc[i].separation <= tolerance
            if touching {
                if bc[i].flags & ContactFlags.wasTouching == 0 { ballEvents.append(Int32(i)) }
                bc[i].flags |= ContactFlags.touching
            }
        }
        if wallEvents.count == 0 && ballEvents.count == 0 { return }

        let st = states.base
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
