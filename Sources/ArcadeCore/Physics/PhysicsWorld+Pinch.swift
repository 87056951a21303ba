extension PhysicsWorld {
    /// Balls caught between a kinematic wall and another wall (or the bounds) are squeezed out
    /// sideways.
    ///
    /// The solver meets the two contacts one after the other, and the one solved last wins:
    /// the ball either follows the moving wall into (and through) the fixed one, or stays
    /// while the moving wall sweeps over it. Neither can be fixed by impulses, since no
    /// velocity satisfies both. So after the step, a ball that a moving wall touches at the
    /// end or pushed during it, and that ends sunk into one of the two walls, is moved: out of the fixed wall along its normal, then along
    /// the fixed wall's face, whichever way is shorter and free, until it clears the moving
    /// wall. Its velocity loses what would take it back into either. Balls touching no
    /// moving wall are not looked at, so ordinary contacts are unchanged.
    func squeezePinchedBalls(_ dt: Double) {
        let count = wallContacts.count
        guard count > 0 else { return }
        let wc = wallContacts.base, geometry = wallGeometry.base
        var i = 0
        while i < count {
            // The ball's contacts are consecutive: is one of them with a moving wall, and did
            // that wall push?
            let body = wc[i].body
            let first = i
            var moving = false, pushed = false
            while i < count && wc[i].body == body {
                let g = geometry[Int(wc[i].wall)]
                if g.vx != 0 || g.vy != 0 {
                    moving = true
                    if wc[i].flags & ContactFlags.pushed != 0 { pushed = true }
                }
                i += 1
            }
            if moving { squeezeIfPinched(Int(body), dt: dt, contactsFrom: first, pushed: pushed) }
        }
    }

    /// The pinch test and the squeeze for ball `b`, whose wall contacts start at
    /// `wallContacts[first]`; `pushed` when a moving wall pushed it during the step (it may
    /// have been squeezed away from it by the end).
    private func squeezeIfPinched(_ b: Int, dt: Double, contactsFrom first: Int, pushed: Bool) {
        let st = states.base, geometry = wallGeometry.base
        let s = st[b]
        let r = s.radius
        guard r > 0, s.px.isFinite, s.py.isFinite else { return }
        let start = startPositions.base[b]
        let heldByBounds = bounds.contains(Vec2(start.x, start.y))
        // Sunk deeper than this is a pinch; within `touch` of a wall counts as pressed by it.
        let deep = 0.05 * r
        let touch = min(contactTolerance, contactToleranceRatio * r)
        let reach = AABB(minX: s.px - 2 * r, minY: s.py - 2 * r, maxX: s.px + 2 * r, maxY: s.py + 2 * r)

        // The moving wall pressing deepest, and the deepest other wall.
        var mover = -1, moverSeparation = Double.infinity
        for k in 0..<wallGeometry.count {
            let g = geometry[k]
            // Not limited to the walls within reach: one that pushed the ball may have flung it
            // clear by the end of the step.
            if g.vx == 0 && g.vy == 0 { continue }
            let m = g.manifold(cx: s.px, cy: s.py, radius: r, time: dt)
            if m.separation < moverSeparation {
                mover = k
                moverSeparation = m.separation
            }
        }
        guard mover >= 0, pushed || moverSeparation < touch else { return }
        var fixed = -1
        var fixedManifold = WallManifold(nx: 0, ny: 0, separation: .infinity, px: 0, py: 0)
        for k in 0..<wallGeometry.count where k != mover {
            let g = geometry[k]
            if !g.mayReach(reach, heldByBounds: heldByBounds) { continue }
            let m = g.manifold(cx: s.px, cy: s.py, radius: r, time: dt)
            if m.separation < fixedManifold.separation {
                fixed = k
                fixedManifold = m
            }
        }
        guard fixed >= 0, fixedManifold.separation < touch,
              min(moverSeparation, fixedManifold.separation) < -deep else { return }
        let m = geometry[mover], f = geometry[fixed]

        // Out of the fixed wall on the side the ball started on: if its centre crossed the
        // wall's outline, onto the face it started in front of.
        var nx = fixedManifold.nx, ny = fixedManifold.ny
        var x0 = s.px, y0 = s.py
        let before = f.manifold(cx: start.x, cy: start.y, radius: r, time: 0)
        if before.separation > -r && before.nx * nx + before.ny * ny <= 0 {
            nx = before.nx
            ny = before.ny
            let d = (s.px - before.px) * nx + (s.py - before.py) * ny
            x0 += nx * (r - d)
            y0 += ny * (r - d)
        } else if fixedManifold.separation < 0 {
            x0 -= nx * fixedManifold.separation
            y0 -= ny * fixedManifold.separation
        }

        // Then along the fixed wall's face until clear of the moving one: the shorter of the
        // two ways that ends touching no other wall. A line meets the moving wall's outline
        // grown by the radius (convex) in one interval, so bisection finds where it leaves.
        func clearOfMover(_ x: Double, _ y: Double) -> Bool {
            m.manifold(cx: x, cy: y, radius: r, time: dt).separation >= 0
        }
        func free(_ x: Double, _ y: Double) -> Bool {
            let box = AABB(minX: x - r, minY: y - r, maxX: x + r, maxY: y + r)
            for k in 0..<wallGeometry.count where k != mover {
                let g = geometry[k]
                if !g.mayReach(box, heldByBounds: heldByBounds) { continue }
                if g.manifold(cx: x, cy: y, radius: r, time: dt).separation < -deep { return false }
            }
            return true
        }
        var px = x0, py = y0
        if !clearOfMover(x0, y0) {
            let tx = -ny, ty = nx
            let extent = (m.box.maxX - m.box.minX) + (m.box.maxY - m.box.minY) + 2 * r + 1
            var best = Double.infinity
            var found = false
            // The way the ball is already going first, so it wins a tie.
            let first = s.vx * tx + s.vy * ty >= 0 ? 1.0 : -1.0
            for sign in [first, -first] {
                let dx = tx * sign, dy = ty * sign
                guard clearOfMover(x0 + dx * extent, y0 + dy * extent) else { continue }
                var lo = 0.0, hi = extent
                for _ in 0..<48 {
                    let mid = 0.5 * (lo + hi)
                    if clearOfMover(x0 + dx * mid, y0 + dy * mid) { hi = mid } else { lo = mid }
                }
                let x = x0 + dx * hi, y = y0 + dy * hi
                if hi < best && free(x, y) {
                    best = hi
                    px = x
                    py = y
                    found = true
                }
            }
            // Walled in on both sides: stay out of the fixed wall, whatever the moving one does.
            if !found {
                px = x0
                py = y0
            }
        }
        st[b].px = px
        st[b].py = py

        // No velocity back into either wall: the moving one's first, so the fixed one has the
        // last word.
        var vx = s.vx, vy = s.vy
        let mm = m.manifold(cx: px, cy: py, radius: r, time: dt)
        if mm.separation < touch {
            let rel = (vx - m.vx) * mm.nx + (vy - m.vy) * mm.ny
            if rel < 0 {
                vx -= rel * mm.nx
                vy -= rel * mm.ny
            }
        }
        let into = (vx - f.vx) * nx + (vy - f.vy) * ny
        if into < 0 {
            vx -= into * nx
            vy -= into * ny
        }
        st[b].vx = vx
        st[b].vy = vy

        // The impulses the two contacts built up fighting each other must not be warm-started.
        let wc = wallContacts.base
        var i = first
        while i < wallContacts.count && Int(wc[i].body) == b {
            wc[i].normalImpulse = 0
            wc[i].tangentImpulse = 0
            i += 1
        }
    }
}
