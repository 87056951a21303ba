/// How a wall's outline is stored for the step.
enum WallKind: UInt8, BitwiseCopyable {
    /// `x0, y0, x1, y1` are the rectangle's min and max corners.
    case rect
    /// `x0, y0` to `x1, y1`.
    case segment
    /// One side of the reference bounds: a half-plane with inward normal `x0, y0` and offset
    /// `x1`. A half-plane has no far side, so nothing inside the bounds can tunnel out.
    case plane
}

/// The point of a wall nearest a ball and the direction that separates them.
struct WallManifold {
    /// Unit normal from the wall towards the ball's centre.
    var nx: Double
    var ny: Double
    /// Gap between the ball's surface and the wall; negative when they overlap.
    var separation: Double
    /// The nearest point on the wall's outline.
    var px: Double
    var py: Double
}

/// A wall (or a side of the bounds) as the solver sees it during one step: its outline at
/// the start of the step, the velocity it moves at (kinematic walls) and the box it sweeps.
struct WallGeometry: BitwiseCopyable {
    var kind: WallKind
    /// Matches contacts across steps: 0...3 for the sides of the bounds, else the wall id.
    var key: UInt32
    /// Index into the world's wall records, -1 for the bounds.
    var record: Int32
    var x0: Double
    var y0: Double
    var x1: Double
    var y1: Double
    var vx: Double
    var vy: Double
    /// The outline's box over the whole step, for the broad phase.
    var box: AABB
    var filter = CollisionFilter.standard
    var isSensor = false

    /// True when a ball with filter `f` may meet this wall at all (as a contact or a sensor's
    /// report).
    @inline(__always) func meets(_ f: BodyFilter) -> Bool {
        !(isSensor && f.isSensor) && filter.accepts(f.filter) && !(kind == .plane && f.isSensor)
    }

    /// True when this wall stops a ball with filter `f`.
    @inline(__always) func blocks(_ f: BodyFilter) -> Bool {
        !isSensor && !f.isSensor && filter.accepts(f.filter)
    }

    /// True when a ball within `box` may touch this wall: its box overlaps the wall's, or,
    /// for a side of the bounds (which has no box), the ball is held by the bounds.
    @inline(__always)
    func mayReach(_ box: AABB, heldByBounds: Bool) -> Bool {
        kind == .plane ? heldByBounds : self.box.overlapsBranchless(box)
    }

    /// Contact geometry for a ball of `radius` centred at `cx, cy`, with the wall where it
    /// is `time` seconds into the step.
    @inline(__always)
    func manifold(cx: Double, cy: Double, radius: Double, time: Double) -> WallManifold {
        switch kind {
        case .plane:
            let distance = cx * x0 + cy * y0 - x1
            return WallManifold(nx: x0, ny: y0, separation: distance - radius, px: cx - x0 * distance, py: cy - y0 * distance)
        case .rect:
            let ox = vx * time, oy = vy * time
            let minX = x0 + ox, minY = y0 + oy, maxX = x1 + ox, maxY = y1 + oy
            let qx = min(max(cx, minX), maxX)
            let qy = min(max(cy, minY), maxY)
            let dx = cx - qx, dy = cy - qy
            let d2 = dx * dx + dy * dy
            if d2 > 0 {
                let d = d2.squareRoot()
                return WallManifold(nx: dx / d, ny: dy / d, separation: d - radius, px: qx, py: qy)
            }
            // The centre is inside (or on) the rectangle: leave through the nearest edge.
            let left = cx - minX, right = maxX - cx, top = cy - minY, bottom = maxY - cy
            if left <= right && left <= top && left <= bottom {
                return WallManifold(nx: -1, ny: 0, separation: -left - radius, px: minX, py: cy)
            }
            if right <= top && right <= bottom {
                return WallManifold(nx: 1, ny: 0, separation: -right - radius, px: maxX, py: cy)
            }
            if top <= bottom {
                return WallManifold(nx: 0, ny: -1, separation: -top - radius, px: cx, py: minY)
            }
            return WallManifold(nx: 0, ny: 1, separation: -bottom - radius, px: cx, py: maxY)
        case .segment:
            let ox = vx * time, oy = vy * time
            let ax = x0 + ox, ay = y0 + oy
            let abx = x1 - x0, aby = y1 - y0
            let len2 = abx * abx + aby * aby
            var u = 0.0
            if len2 > 0 {
                u = min(max(((cx - ax) * abx + (cy - ay) * aby) / len2, 0), 1)
            }
            let qx = ax + abx * u, qy = ay + aby * u
            let dx = cx - qx, dy = cy - qy
            let d2 = dx * dx + dy * dy
            if d2 > 0 {
                let d = d2.squareRoot()
                return WallManifold(nx: dx / d, ny: dy / d, separation: d - radius, px: qx, py: qy)
            }
            // Centre exactly on the line: any side will do, so take the left normal.
            if len2 > 0 {
                let l = len2.squareRoot()
                return WallManifold(nx: -aby / l, ny: abx / l, separation: -radius, px: qx, py: qy)
            }
            return WallManifold(nx: 0, ny: -1, separation: -radius, px: qx, py: qy)
        }
    }
}
