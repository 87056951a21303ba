extension PhysicsWorld {
    /// Continuous collision against walls for balls that moved far this step.
    ///
    /// Speculative contacts already stop a ball flying straight at a wall, but only for the
    /// walls it could reach at the start of the step. A ball kicked hard mid-step (by another
    /// ball, or squeezed out of a pile) may meet a wall it had no contact with and end the
    /// step deep inside it or beyond it. For such balls this sweeps the step's path against
    /// the walls (and the bounds) and, when it crosses one, puts the ball back where it first
    /// touched: the time of impact. Its velocity is kept, so next step's contact bounces it.
    func sweepFastBodies(_ dt: Double) {
        let n = states.count
        let wallCount = wallGeometry.count
        guard n > 0, wallCount > 0 else { return }
        let st = states.base, start = startPositions.base
        let walls = wallGeometry.base
        let b0 = bounds
        let fl = filters.base, filtering = self.filtering
        for i in 0..<n {
            let s = st[i]
            // A sensor passes through everything.
            if filtering && fl[i].isSensor { continue }
            let x0 = start[i].x, y0 = start[i].y
            let dx = s.px - x0, dy = s.py - y0
            let r = s.radius
            // Slow balls cannot have skipped past a contact they did not have.
            if dx * dx + dy * dy <= 0.25 * r * r { continue }
            let path = AABB(
                minX: min(x0, s.px) - r, minY: min(y0, s.py) - r,
                maxX: max(x0, s.px) + r, maxY: max(y0, s.py) + r)
            let heldByBounds = b0.contains(Vec2(x0, y0))
            var earliest = 2.0
            for k in 0..<wallCount {
                if !walls[k].mayReach(path, heldByBounds: heldByBounds) { continue }
                let wg = walls[k]
                if filtering && !wg.blocks(fl[i]) { continue }
                let t = timeOfImpact(wg, x0: x0, y0: y0, dx: dx, dy: dy, radius: r, dt: dt, endX: s.px, endY: s.py)
                earliest = min(earliest, t)
            }
            if earliest <= 1 {
                st[i].px = x0 + dx * earliest
                st[i].py = y0 + dy * earliest
            }
        }
    }

    /// The fraction of the path `(x0, y0) + t (dx, dy)` at which the ball first touches
    /// `wall`, or 2 when the path is fine as it is: it never touches, it started overlapping
    /// (the solver's business), or it ends on the near side without sinking in.
    @inline(__always)
    func timeOfImpact(
        _ wall: WallGeometry, x0: Double, y0: Double, dx: Double, dy: Double,
        radius r: Double, dt: Double, endX: Double, endY: Double
    ) -> Double {
        let first = wall.manifold(cx: x0, cy: y0, radius: r, time: 0)
        if first.separation <= 0 { return 2 }
        let last = wall.manifold(cx: endX, cy: endY, radius: r, time: dt)
        let sameSide = last.nx * first.nx + last.ny * first.ny > 0
        if sameSide && last.separation >= -0.25 * r { return 2 }
        // Conservative advancement: nothing on the path is closer than the gap, and the
        // ball approaches the wall no faster than it moves relative to it, so stepping by
        // gap / speed never steps past the first touch.
        let rdx = dx - wall.vx * dt, rdy = dy - wall.vy * dt
        let speed = (rdx * rdx + rdy * rdy).squareRoot()
        if speed == 0 { return 2 }
        let target = 0.01 * r
        var t = 0.0
        var gap = first.separation
        for _ in 0..<32 {
            if gap <= target { return t }
            t += (gap - 0.5 * target) / speed
            if t > 1 { return 2 }
            gap = wall.manifold(cx: x0 + dx * t, cy: y0 + dy * t, radius: r, time: t * dt).separation
        }
        return 2
    }
}
