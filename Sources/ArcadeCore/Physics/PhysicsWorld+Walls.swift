extension PhysicsWorld {
    /// Number of walls (the bounds not counted).
    public var wallCount: Int { walls.count }

    /// Adds a wall and returns its handle. Like UIKit's collision boundaries, identifiers
    /// need not be unique; they come back in the wall's contact events. A shape with a
    /// non-finite coordinate or a negative size is not added (nil).
    @discardableResult
    public func addWall(_ identifier: String?, shape: WallShape, filter: CollisionFilter = .standard,
                        sensor: Bool = false) -> WallID? {
        guard shape.isValid else { return nil }
        let id = WallID(rawValue: nextWallID)
        nextWallID += 1
        walls.append(WallRecord(id: id, identifier: identifier, shape: shape, target: nil, filter: filter, isSensor: sensor))
        return id
    }

    /// The wall's collision filter, or nil for a stale handle.
    public func filter(of id: WallID) -> CollisionFilter? {
        wallIndex(id).map { walls[$0].filter }
    }

    /// Changes what the wall collides with from the next step on.
    public func setFilter(_ filter: CollisionFilter, of id: WallID) {
        if let i = wallIndex(id) { walls[i].filter = filter }
    }

    /// Whether the wall is a sensor (balls pass through it; it reports them), or nil for a
    /// stale handle.
    public func isSensor(_ id: WallID) -> Bool? {
        wallIndex(id).map { walls[$0].isSensor }
    }

    /// Makes the wall a sensor (or solid again) from the next step on.
    public func setSensor(_ sensor: Bool, of id: WallID) {
        if let i = wallIndex(id) { walls[i].isSensor = sensor }
    }

    /// Adds a solid rectangle (UIKit's `addBoundaryWithIdentifier:forPath:` with a rect path).
    @discardableResult
    public func addWall(_ identifier: String?, rect: Rect, filter: CollisionFilter = .standard,
                        sensor: Bool = false) -> WallID? {
        addWall(identifier, shape: .rect(rect), filter: filter, sensor: sensor)
    }

    /// Adds a line segment (UIKit's `addBoundaryWithIdentifier:fromPoint:toPoint:`).
    @discardableResult
    public func addWall(_ identifier: String?, from a: Vec2, to b: Vec2, filter: CollisionFilter = .standard,
                        sensor: Bool = false) -> WallID? {
        addWall(identifier, shape: .segment(a, b), filter: filter, sensor: sensor)
    }

    /// Removes a wall; false when it was already gone.
    @discardableResult
    public func removeWall(_ id: WallID) -> Bool {
        guard let i = wallIndex(id) else { return false }
        walls.remove(at: i)
        return true
    }

    /// Removes every wall with this identifier (UIKit's `removeBoundaryWithIdentifier:`)
    /// and returns how many went.
    @discardableResult
    public func removeWalls(identifier: String) -> Int {
        let before = walls.count
        walls.removeAll { $0.identifier == identifier }
        return before - walls.count
    }

    /// Every wall, in the order they were added.
    public var wallIDs: [WallID] { walls.map(\.id) }

    /// The walls with this identifier, in the order they were added.
    public func walls(identifier: String) -> [WallID] {
        walls.filter { $0.identifier == identifier }.map(\.id)
    }

    /// The wall's identifier, or nil (no identifier or a stale handle).
    public func identifier(of id: WallID) -> String? {
        wallIndex(id).flatMap { walls[$0].identifier }
    }

    /// The wall's current outline, or nil for a stale handle.
    public func shape(of id: WallID) -> WallShape? {
        wallIndex(id).map { walls[$0].shape }
    }

    /// Replaces the wall's outline at once (resizing it, say); balls it now overlaps are
    /// pushed out over the next few steps. Invalid shapes are ignored.
    public func setShape(_ shape: WallShape, of id: WallID) {
        guard let i = wallIndex(id), shape.isValid else { return }
        walls[i].shape = shape
        walls[i].target = nil
    }

    /// Moves the wall kinematically: during the next step it travels at constant velocity to
    /// have its centre at `center`, pushing the balls in its way and passing its velocity to
    /// the balls it touches (the paddle). Call it every step the wall should move; a wall
    /// without a new target stands still.
    public func moveWall(_ id: WallID, to center: Vec2) {
        guard let i = wallIndex(id), finite(center) else { return }
        walls[i].target = center
    }

    /// Puts the wall's centre at `center` at once, without giving it a velocity.
    public func placeWall(_ id: WallID, at center: Vec2) {
        guard let i = wallIndex(id), finite(center) else { return }
        walls[i].shape = walls[i].shape.centered(at: center)
        walls[i].target = nil
    }

    /// Index of a wall in `walls`, which is sorted by id.
    func wallIndex(_ id: WallID) -> Int? {
        var lo = 0, hi = walls.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if walls[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < walls.count && walls[lo].id == id ? lo : nil
    }

    /// Fills this step's wall geometry: the bound sides (inward half-planes) when enabled,
    /// then every wall with the velocity that reaches its target in `dt`.
    ///
    /// A wrapping axis has no bound sides. Also decides whether this step tests filters.
    func prepareWalls(_ dt: Double) {
        wallGeometry.removeAll()
        let b = bounds
        var special = specialBodyCount > 0
        if boundsEnabled && b.x.isFinite && b.y.isFinite && b.width.isFinite && b.height.isFinite {
            let everywhere = AABB(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
            let filter = boundsFilter
            if filter != .standard { special = true }
            func side(_ key: UInt32, _ nx: Double, _ ny: Double, _ offset: Double) -> WallGeometry {
                WallGeometry(kind: .plane, key: key, record: -1, x0: nx, y0: ny, x1: offset, y1: 0, vx: 0, vy: 0,
                             box: everywhere, filter: filter)
            }
            if !wrapsX { wallGeometry.append(side(0, 1, 0, b.minX)) }
            if !wrapsY { wallGeometry.append(side(1, 0, 1, b.minY)) }
            if !wrapsX { wallGeometry.append(side(2, -1, 0, -b.maxX)) }
            if !wrapsY { wallGeometry.append(side(3, 0, -1, -b.maxY)) }
        }
        for (i, wall) in walls.enumerated() {
            if wall.isSensor || wall.filter != .standard { special = true }
            var v = Vec2.zero
            if let target = wall.target {
                v = (target - wall.shape.center) / dt
                if !finite(v) { v = .zero }
            }
            var g: WallGeometry
            switch wall.shape {
            case .rect(let r):
                g = WallGeometry(
                    kind: .rect, key: wall.id.rawValue, record: Int32(i),
                    x0: r.minX, y0: r.minY, x1: r.maxX, y1: r.maxY, vx: v.x, vy: v.y,
                    box: AABB(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY))
            case .segment(let a, let b):
                g = WallGeometry(
                    kind: .segment, key: wall.id.rawValue, record: Int32(i),
                    x0: a.x, y0: a.y, x1: b.x, y1: b.y, vx: v.x, vy: v.y,
                    box: AABB(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y)))
            }
            g.filter = wall.filter
            g.isSensor = wall.isSensor
            // Sweep the box over the step.
            let dx = v.x * dt, dy = v.y * dt
            g.box.minX += min(dx, 0)
            g.box.maxX += max(dx, 0)
            g.box.minY += min(dy, 0)
            g.box.maxY += max(dy, 0)
            wallGeometry.append(g)
        }
        filtering = special
    }

    /// Ends the step for the walls: kinematic walls arrive exactly at their targets.
    func finishWalls() {
        for i in walls.indices {
            if let target = walls[i].target {
                walls[i].shape = walls[i].shape.centered(at: target)
                walls[i].target = nil
            }
        }
    }
}
