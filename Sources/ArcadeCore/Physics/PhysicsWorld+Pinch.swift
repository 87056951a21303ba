extension PhysicsWorld {
    /// Balls caught between a kinematic wall and another wall (or the bounds) are squeezed out
    /// sideways.
    ///
    /// The solver meets the two contacts one after the other, and the one solved last wins:
    /// the ball either follows the moving wall into (and through) the fixed one, or stays
    /// while the moving wall sweeps over it. Neither can be fixed by impulses, since no
    /// velocity satisfies both. So after the step, a ball that a moving wall touches at the
    /// end or pushed during it, and that ends sunk into one of the two walls, is moved: out
    /// of the fixed wall along its normal, then along the fixed wall's face, whichever way is
    /// shorter and free, until it clears the moving wall. Its velocity loses what would take
    /// it back into either. Balls touching no moving wall are not looked at, so ordinary
    /// contacts are unchanged.
    ///
    /// The same holds down a chain of touching balls: a ball that balls pushed by a moving
    /// wall press into a fixed wall is squeezed out along that wall until clear of the ball
    /// pressing it, and a ball the moving wall presses into balls that cannot give way is
    /// kept out of the moving wall (the balls' soft contacts take the overlap).
    func squeezePinchedBalls(_ dt: Double) {
        let count = wallContacts.count
        guard count > 0 else { return }
        let wc = wallContacts.base, geometry = wallGeometry.base
        var anyPressed = false
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
            if moving {
                squeezeIfPinched(Int(body), dt: dt, contactsFrom: first, pushed: pushed)
                if !anyPressed { pressers.fill(count: states.count, with: -2) }
                anyPressed = true
                pressers.base[Int(body)] = -1
            }
        }
        if anyPressed && ballContacts.count > 0 { squeezeBallsPressedByBalls(dt: dt) }
    }

    /// The pinch test and the squeeze for ball `b`, whose wall contacts start at
    /// `wallContacts[first]`; `pushed` when a moving wall pushed it during the step (it may
    /// have been squeezed away from it by the end).
    private func squeezeIfPinched(_ b: Int, dt: Double, contactsFrom first: Int, pushed: Bool) {
        let st = states.base, geometry = wallGeometry.base
        let s = st[b]
        let r = s.radius
        guard r > 0, s.px.isFinite, s.py.isFinite else { return }
        // Sunk deeper than this is a pinch; within `touch` of a wall counts as pressed by it.
        let deep = 0.05 * r
        let touch = min(contactTolerance, contactToleranceRatio * r)

        // The moving wall pressing deepest, and the deepest other wall.
        var mover = -1, moverSeparation = Double.infinity
        for k in 0..<wallGeometry.count {
            let g = geometry[k]
            // Not limited to the walls within reach: one that pushed the ball may have flung it
            // clear by the end of the step.
            if g.vx == 0 && g.vy == 0 { continue }
            if filtering && !g.blocks(filters[b]) { continue }
            let m = g.manifold(cx: s.px, cy: s.py, radius: r, time: dt)
            if m.separation < moverSeparation {
                mover = k
                moverSeparation = m.separation
            }
        }
        guard mover >= 0, pushed || moverSeparation < touch else { return }
        let (fixed, fixedManifold) = deepestWall(for: b, dt: dt, skipping: mover)
        let m = geometry[mover]
        guard fixed >= 0, fixedManifold.separation < touch else {
            // Pressed by the moving wall into something soft (other balls held by a wall):
            // the wall wins, and the balls share the overlap.
            if moverSeparation < -deep { pushOut(b, from: m, dt: dt, contactsFrom: first) }
            return
        }
        guard min(moverSeparation, fixedManifold.separation) < -deep else { return }
        let f = geometry[fixed]

        // Out of the fixed wall, then along its face until clear of the moving one.
        let (px, py, nx, ny) = squeezeOut(
            b, of: f, manifold: fixedManifold, dt: dt, skipping: mover,
            reach: (m.box.maxX - m.box.minX) + (m.box.maxY - m.box.minY) + 2 * r + 1
        ) { x, y in m.manifold(cx: x, cy: y, radius: r, time: dt).separation >= 0 }
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
        forgetWallImpulses(of: b, from: first)
    }

    /// The wall (but `skipping`) that ball `b` is sunk deepest into, or nearest to, at the end
    /// of the step, among those within two radii: its index (-1 for none) and manifold.
    private func deepestWall(for b: Int, dt: Double, skipping: Int) -> (Int, WallManifold) {
        let s = states[b], start = startPositions[b], r = s.radius
        let heldByBounds = bounds.contains(Vec2(start.x, start.y))
        let reach = AABB(minX: s.px - 2 * r, minY: s.py - 2 * r, maxX: s.px + 2 * r, maxY: s.py + 2 * r)
        let geometry = wallGeometry.base
        var deepest = -1
        var manifold = WallManifold(nx: 0, ny: 0, separation: .infinity, px: 0, py: 0)
        let filter = filters[b], filtering = self.filtering
        for k in 0..<wallGeometry.count where k != skipping {
            let g = geometry[k]
            if !g.mayReach(reach, heldByBounds: heldByBounds) { continue }
            if filtering && !g.blocks(filter) { continue }
            let m = g.manifold(cx: s.px, cy: s.py, radius: r, time: dt)
            if m.separation < manifold.separation {
                deepest = k
                manifold = m
            }
        }
        return (deepest, manifold)
    }

    /// Moves ball `b` out of moving wall `m` along its normal, with no velocity into it left.
    private func pushOut(_ b: Int, from m: WallGeometry, dt: Double, contactsFrom first: Int) {
        let st = states.base
        let s = st[b]
        let mm = m.manifold(cx: s.px, cy: s.py, radius: s.radius, time: dt)
        guard mm.separation < 0 else { return }
        st[b].px = s.px - mm.nx * mm.separation
        st[b].py = s.py - mm.ny * mm.separation
        let rel = (s.vx - m.vx) * mm.nx + (s.vy - m.vy) * mm.ny
        if rel < 0 {
            st[b].vx = s.vx - rel * mm.nx
            st[b].vy = s.vy - rel * mm.ny
        }
        forgetWallImpulses(of: b, from: first)
    }

    /// Zeroes the accumulated impulses of ball `b`'s wall contacts, which start at
    /// `wallContacts[first]`.
    private func forgetWallImpulses(of b: Int, from first: Int) {
        let wc = wallContacts.base
        var i = first
        while i < wallContacts.count && Int(wc[i].body) == b {
            wc[i].normalImpulse = 0
            wc[i].tangentImpulse = 0
            i += 1
        }
    }

    /// Where ball `b`, sunk into wall `f` (its manifold at the end of the step given), goes
    /// to be out of it and clear of what presses it: out of the wall on the side the ball
    /// started on, then along the wall's face, at most `reach` px, until `clear` holds; the
    /// shorter of the two ways that ends inside no wall but `skipping`. Walled in on both
    /// sides, it stays just out of the wall. Returns the place and the wall's normal there.
    private func squeezeOut(
        _ b: Int, of f: WallGeometry, manifold fm: WallManifold, dt: Double, skipping: Int, reach: Double,
        clear: (Double, Double) -> Bool
    ) -> (x: Double, y: Double, nx: Double, ny: Double) {
        let s = states[b], start = startPositions[b]
        let r = s.radius, deep = 0.05 * r
        let heldByBounds = bounds.contains(Vec2(start.x, start.y))
        let geometry = wallGeometry.base

        // If its centre crossed the wall's outline, onto the face it started in front of.
        var nx = fm.nx, ny = fm.ny
        var x0 = s.px, y0 = s.py
        let before = f.manifold(cx: start.x, cy: start.y, radius: r, time: 0)
        if before.separation > -r && before.nx * nx + before.ny * ny <= 0 {
            nx = before.nx
            ny = before.ny
            let d = (s.px - before.px) * nx + (s.py - before.py) * ny
            x0 += nx * (r - d)
            y0 += ny * (r - d)
        } else if fm.separation < 0 {
            x0 -= nx * fm.separation
            y0 -= ny * fm.separation
        }
        if clear(x0, y0) { return (x0, y0, nx, ny) }

        let filter = filters[b], filtering = self.filtering
        func free(_ x: Double, _ y: Double) -> Bool {
            let box = AABB(minX: x - r, minY: y - r, maxX: x + r, maxY: y + r)
            for k in 0..<wallGeometry.count where k != skipping {
                let g = geometry[k]
                if !g.mayReach(box, heldByBounds: heldByBounds) { continue }
                if filtering && !g.blocks(filter) { continue }
                if g.manifold(cx: x, cy: y, radius: r, time: dt).separation < -deep { return false }
            }
            return true
        }
        // A line leaves a convex obstacle (the presser grown by the radius) once, so bisection
        // finds where. The way the ball is already going is tried first, so it wins a tie.
        let tx = -ny, ty = nx
        var best = Double.infinity, place = (x0, y0)
        let first = s.vx * tx + s.vy * ty >= 0 ? 1.0 : -1.0
        for sign in [first, -first] {
            let dx = tx * sign, dy = ty * sign
            guard clear(x0 + dx * reach, y0 + dy * reach) else { continue }
            var lo = 0.0, hi = reach
            for _ in 0..<48 {
                let mid = 0.5 * (lo + hi)
                if clear(x0 + dx * mid, y0 + dy * mid) { hi = mid } else { lo = mid }
            }
            let x = x0 + dx * hi, y = y0 + dy * hi
            if hi < best && free(x, y) {
                best = hi
                place = (x, y)
            }
        }
        return (place.0, place.1, nx, ny)
    }

    /// Balls pressed into a fixed wall by other balls that a moving wall pushes (through any
    /// chain of touching balls) are squeezed out the same way, along the wall's face until
    /// clear of the ball pressing them. Ball contacts are soft, so without this a ball at the
    /// end of such a chain ends the step a little inside the wall. On entry `pressers` marks
    /// the balls a moving wall touches.
    private func squeezeBallsPressedByBalls(dt: Double) {
        let n = states.count, st = states.base, bc = ballContacts.base
        let presser = pressers.base
        let topology = self.topology
        // Each sweep carries the press one ball further down a chain.
        var spread = true, sweeps = 0
        while spread && sweeps < 8 {
            spread = false
            sweeps += 1
            for i in 0..<ballContacts.count {
                let a = Int(bc[i].a), b = Int(bc[i].b)
                let aPressed = presser[a] != -2
                if aPressed == (presser[b] != -2) { continue }
                let sa = st[a], sb = st[b]
                var dx = sb.px - sa.px, dy = sb.py - sa.py
                if bc[i].flags & ContactFlags.image != 0 {
                    let o = topology.offset(bc[i].flags)
                    dx += o.x
                    dy += o.y
                }
                let touch = min(contactTolerance, contactToleranceRatio * min(sa.radius, sb.radius))
                if (dx * dx + dy * dy).squareRoot() - sa.radius - sb.radius >= touch { continue }
                if aPressed { presser[b] = Int32(a) } else { presser[a] = Int32(b) }
                spread = true
            }
        }
        for b in 0..<n where presser[b] >= 0 { squeezeIfPressed(b, by: Int(presser[b]), dt: dt) }
    }

    /// The squeeze for ball `b`, touching ball `p` that is pressed towards it, when `b` ends
    /// the step sunk into a fixed wall.
    private func squeezeIfPressed(_ b: Int, by p: Int, dt: Double) {
        let st = states.base, geometry = wallGeometry.base
        let s = st[b], q = st[p]
        let r = s.radius
        guard r > 0, s.px.isFinite, s.py.isFinite, q.px.isFinite, q.py.isFinite else { return }
        let (fixed, fm) = deepestWall(for: b, dt: dt, skipping: -1)
        guard fixed >= 0, fm.separation < -0.05 * r else { return }
        let f = geometry[fixed]
        // Sunk into a moving wall is the other pass's case.
        guard f.vx == 0 && f.vy == 0 else { return }

        let apart = r + q.radius
        let (px, py, nx, ny) = squeezeOut(b, of: f, manifold: fm, dt: dt, skipping: -1, reach: 2 * apart + 1) { x, y in
            let dx = x - q.px, dy = y - q.py
            return dx * dx + dy * dy >= apart * apart
        }
        st[b].px = px
        st[b].py = py

        // No velocity towards the presser or into the wall, the wall last.
        var vx = s.vx, vy = s.vy
        let dx = px - q.px, dy = py - q.py, d = (dx * dx + dy * dy).squareRoot()
        if d > 0 {
            let ux = dx / d, uy = dy / d
            let rel = (vx - q.vx) * ux + (vy - q.vy) * uy
            if rel < 0 {
                vx -= rel * ux
                vy -= rel * uy
            }
        }
        let into = vx * nx + vy * ny
        if into < 0 {
            vx -= into * nx
            vy -= into * ny
        }
        st[b].vx = vx
        st[b].vy = vy
        let wc = wallContacts.base
        var first = 0
        while first < wallContacts.count && Int(wc[first].body) < b { first += 1 }
        forgetWallImpulses(of: b, from: first)
    }
}
