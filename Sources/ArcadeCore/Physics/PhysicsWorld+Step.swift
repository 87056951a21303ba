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

        // Contacts stiffer than a fraction of the substep rate would ring (Box2D keeps to a
        // quarter; with the heavier damping here ball pairs hold still up to 3/8).
        let ballSoftness = Softness(hertz: min(contactHertz, 0.375 / h), dampingRatio: contactDampingRatio, h: h)
        let wallSoftness = Softness(hertz: min(wallContactHertz, 0.5 / h), dampingRatio: contactDampingRatio, h: h)
        for k in 0..<count {
            integrateVelocities(h)
            warmStart()
            solveContacts(h: h, ballSoftness: ballSoftness, wallSoftness: wallSoftness, relax: false, time: Double(k) * h)
            integratePositions(h)
            solveContacts(h: h, ballSoftness: ballSoftness, wallSoftness: wallSoftness, relax: true, time: Double(k + 1) * h)
            applyBounces()
        }

        sweepFastBodies(dt)
        squeezePinchedBalls(dt)
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
