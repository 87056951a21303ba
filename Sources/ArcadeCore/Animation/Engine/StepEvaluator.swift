/// The last curve evaluated in a step. Leaves of one group usually share their time and
/// curve (a coin's scale x and scale y), so the second one reuses the first's Bezier solve.
/// Curves are pure, so a hit returns exactly what evaluating again would.
struct CurveMemo {
    var index: Int32 = -1
    var x = 0.0
    var y = 0.0
}

/// Evaluates runs of nodes and writes their targets: the inner loop of a step.
///
/// Holds raw pointers into the ``Animator``'s pools, taken once per step; the pools do not
/// move while it is in use (they only grow when an animation starts).
struct StepEvaluator {
    let nodes: UnsafeMutablePointer<AnimationNode>
    let numbers: UnsafeMutablePointer<Double>
    let indices: UnsafeMutablePointer<Int32>
    let curves: UnsafeMutablePointer<TimingCurve>
    let tableStarts: UnsafeMutablePointer<Int32>
    let bezierTables: UnsafeMutablePointer<Double>
    var memo = CurveMemo()

    init(_ animator: Animator) {
        nodes = animator.nodes.base
        numbers = animator.numbers.base
        indices = animator.indices.base
        curves = animator.curves.curves.base
        tableStarts = animator.curves.tableStarts.base
        bezierTables = animator.curves.bezierTables.base
    }

    /// Writes the state of the run rooted at `root` at `elapsed` seconds since its start.
    /// Returns the root's end time (relative to the start) once it has been reached, else nil.
    @inline(__always)
    mutating func evaluate(root: Int, elapsed: Double, target: TargetRef) -> Double? {
        let tm = numbers + Int(nodes[root].timing)
        let delay = tm[0], speed = tm[1], active = tm[3]
        let since = elapsed - delay
        let ended = since >= -Animator.epsilon && since * speed >= active - Animator.epsilon
        evaluateNode(root, elapsed, 0, true, ended, target)
        guard ended else { return nil }
        return delay + (active > 0 ? active / speed : 0)
    }

    /// ``evaluate(root:elapsed:target:)`` out of line: the step's loop stays small for the
    /// flat runs it mostly meets.
    @inline(never)
    mutating func evaluateOutOfLine(root: Int, elapsed: Double, target: TargetRef) -> Double? {
        evaluate(root: root, elapsed: elapsed, target: target)
    }

    /// A curve of a flat run (linear or cubic Bezier, see ``Animator/isFlat(_:count:)``) at
    /// `x`, read straight from its table: what ``curveValue(_:_:)`` gives.
    @inline(__always)
    func tableCurve(_ index: Int32, _ x: Double) -> Double {
        if index == CurveTable.linearIndex { return x }
        return CurveTable.bezierValue(curves + Int(index), bezierTables + Int(tableStarts[Int(index)]), x)
    }

    /// ``tableCurve(_:_:)`` through `memo`: leaves of a flight usually share their time and
    /// curve (a coin's scale x and scale y). Curves are pure, so a hit is exact.
    @inline(__always)
    func memoCurve(_ memo: inout CurveMemo, _ index: Int32, _ x: Double) -> Double {
        if memo.index == index && memo.x == x { return memo.y }
        let y = tableCurve(index, x)
        memo = CurveMemo(index: index, x: x, y: y)
        return y
    }

    /// Evaluates node `i` (and its subtree) at `parentTime`, where the enclosing group is
    /// `parentProgress` of the way through its pass (after its curve): a plain child takes
    /// both as its own. `parentActive` false means the enclosing group shows nothing now,
    /// so neither does this node. `final` is set for a root whose run is ending: then only
    /// its fill decides what stays.
    mutating func evaluateNode(_ i: Int, _ parentTime: Double, _ parentProgress: Double, _ parentActive: Bool,
                               _ final: Bool, _ target: TargetRef) {
        let n = nodes + i
        var active = parentActive
        var simple = parentTime, u = parentProgress
        if n.pointee.timing >= 0 && active {
            let tm = numbers + Int(n.pointee.timing)
            simple = Self.simpleTime(tm, n.pointee.flags, parentTime, final)
            active = !simple.isNaN
            let d = tm[2]
            u = d > 0 ? (d.isFinite ? simple / d : 0) : (n.pointee.has(AnimationNode.Flag.autoreverses) ? 0 : 1)
        }
        if n.pointee.form != .group {
            leaf(n, u, active, target)
            return
        }
        let curve = n.pointee.curve
        var childTime = simple, childProgress = u
        if active && curve != CurveTable.linearIndex {
            // Groups always have timing of their own (only leaves are plain).
            let d = numbers[Int(n.pointee.timing) &+ 2]
            childProgress = curveValue(curve, u)
            if d.isFinite { childTime = d * childProgress }
        }
        var c = i &+ 1
        let end = i &+ Int(n.pointee.count)
        while c < end {
            let child = nodes + c
            if child.pointee.timing < 0 && child.pointee.form != .group {
                leaf(child, childProgress, active, target)
                c &+= 1
            } else {
                evaluateNode(c, childTime, childProgress, active, false, target)
                c &+= child.pointee.subtreeSize
            }
        }
    }

    /// Writes leaf `n` at progress `u` (before its own curve), or, when it is not `active`
    /// but wrote last time, puts the model value back.
    @inline(__always)
    mutating func leaf(_ n: UnsafeMutablePointer<AnimationNode>, _ u: Double, _ active: Bool,
                       _ target: TargetRef) {
        if active {
            writeLeaf(n, curveValue(n.pointee.curve, u), target)
            if !n.pointee.has(AnimationNode.Flag.wrote) {
                n.pointee.flags |= AnimationNode.Flag.wrote
            }
        } else if n.pointee.has(AnimationNode.Flag.wrote) {
            restoreModel(n, target)
        }
    }

    /// Leaving the active time without a fill: back to the model value.
    @inline(never)
    func restoreModel(_ n: UnsafeMutablePointer<AnimationNode>, _ target: TargetRef) {
        let m = numbers + Int(n.pointee.model)
        write(n, m, m, 0, target)
        n.pointee.flags &= ~AnimationNode.Flag.wrote
    }

    /// A node's simple time (0...duration, reversing with autoreverse) at `parentTime`, from
    /// its timing numbers `tm`; NaN when the node shows nothing (outside its active time
    /// with no fill there). The end of the active time counts as inside, so a child ending
    /// with its group shows its end while the group holds, unless `final` (the run is over
    /// and only the fill decides).
    @inline(__always)
    static func simpleTime(_ tm: UnsafeMutablePointer<Double>, _ flags: UInt8, _ parentTime: Double,
                           _ final: Bool) -> Double {
        simpleTime(tm[0], tm[1], tm[2], tm[3], tm[4], flags, parentTime, final)
    }

    /// ``simpleTime(_:_:_:_:)`` from the timing numbers themselves (a flight's columns).
    @inline(__always)
    static func simpleTime(_ delay: Double, _ speed: Double, _ d: Double, _ active: Double, _ endSimple: Double,
                           _ flags: UInt8, _ parentTime: Double, _ final: Bool) -> Double {
        let since = parentTime - delay
        if since < -Animator.epsilon {
            return flags & AnimationNode.Flag.holdsStart != 0 ? 0 : .nan
        }
        let t = since > 0 ? since * speed : 0
        if t >= active - Animator.epsilon {
            let shows = flags & AnimationNode.Flag.holdsEnd != 0 || (!final && t <= active + Animator.epsilon)
            return shows ? endSimple : .nan
        }
        // The first pass (most animations have only one) needs no division.
        if t < d { return t }
        if flags & AnimationNode.Flag.autoreverses != 0 {
            let cycle = 2 * d
            if t < cycle { return cycle - t }
            let w = t - (t / cycle).rounded(.down) * cycle
            return w > d ? cycle - w : w
        }
        return t - (t / d).rounded(.down) * d
    }

    @inline(__always)
    mutating func curveValue(_ index: Int32, _ x: Double) -> Double {
        if index == CurveTable.linearIndex { return x }
        if memo.index == index && memo.x == x { return memo.y }
        let c = curves + Int(index)
        let y: Double
        if case .cubicBezier = c.pointee.form {
            y = CurveTable.bezierValue(c, bezierTables + Int(tableStarts[Int(index)]), x)
        } else {
            y = c.pointee.value(at: x)
        }
        memo = CurveMemo(index: index, x: x, y: y)
        return y
    }

    /// Writes a leaf's value at progress `p` (after its curve).
    @inline(__always)
    mutating func writeLeaf(_ n: UnsafeMutablePointer<AnimationNode>, _ p: Double, _ target: TargetRef) {
        let values = numbers + Int(n.pointee.data)
        let d = Int(n.pointee.dimension)
        switch n.pointee.form {
        case .basic:
            write(n, values, values + d, p, target)
        case .keyframes:
            let count = Int(n.pointee.count)
            if count == 1 {
                write(n, values, values, 0, target)
                return
            }
            var segment = 0
            var local: Double
            var v = values
            if n.pointee.has(AnimationNode.Flag.keyTimes) {
                v = values + count
                while segment < count &- 2 && p >= values[segment &+ 1] {
                    segment &+= 1
                }
                let t0 = values[segment], t1 = values[segment &+ 1]
                local = t1 > t0 ? (p - t0) / (t1 - t0) : 1
            } else {
                (segment, local) = Self.evenSegment(p, count: count)
            }
            if n.pointee.segmentCurves >= 0 {
                local = curveValue(indices[Int(n.pointee.segmentCurves) &+ segment], local)
            }
            let a = v + segment &* d
            write(n, a, a + d, local, target)
        case .path:
            let xy = BezierPath.evaluate(values, 0, Int(n.pointee.count), p)
            if n.pointee.slot >= 0 {
                let f = target.fieldSlots(Int(n.pointee.slot))
                f[0] = xy.0
                f[1] = xy.1
                return
            }
            target.set(.vector(Vec2(xy.0, xy.1)), for: n.pointee.animatableProperty)
        case .group:
            break
        }
    }

    /// The segment of `count` evenly spaced keyframes (two or more) that progress `p` falls
    /// in, and how far along it `p` is.
    @inline(__always)
    static func evenSegment(_ p: Double, count: Int) -> (segment: Int, local: Double) {
        let s = p * Double(count &- 1)
        // Truncation is the floor here: negative and NaN progress take the first segment.
        let segment = s > 0 ? min(Int(min(s, Double(count))), count &- 2) : 0
        return (segment, s - Double(segment))
    }

    /// ``evenSegment(_:count:)`` of two to four keyframes (a flight's), found by comparisons
    /// instead of a conversion to an integer: the same segment and the same local progress.
    @inline(__always)
    static func evenSegmentOfFew(_ p: Double, count: Int) -> (segment: Int, local: Double) {
        let s = p * Double(count &- 1)
        // Segments whose start `s` has reached; false for NaN, as the first segment is taken there.
        let reached = (s >= 1 ? 1 : 0) &+ (s >= 2 ? 1 : 0)
        let segment = min(reached, count &- 2)
        return (segment, s - Double(segment))
    }

    /// Writes the value `p` of the way from the numbers at `a` to those at `b`. The blend
    /// lands exactly on `a` at 0 and on `b` at 1, so a held end value is exactly the value
    /// the animation was given.
    @inline(__always)
    func write(_ n: UnsafeMutablePointer<AnimationNode>, _ a: UnsafeMutablePointer<Double>,
               _ b: UnsafeMutablePointer<Double>, _ p: Double, _ target: TargetRef) {
        let q = 1 - p
        if n.pointee.slot >= 0 {
            // In place: scalars and vectors only (colours have no slot).
            let f = target.fieldSlots(Int(n.pointee.slot))
            let v = a[0] * q + b[0] * p
            f[0] = v
            if n.pointee.dimension == 2 {
                f[1] = a[1] * q + b[1] * p
            } else if n.pointee.has(AnimationNode.Flag.pairedSlot) {
                f[1] = v
            }
            return
        }
        switch n.pointee.dimension {
        case 1:
            target.set(.scalar(a[0] * q + b[0] * p), for: n.pointee.animatableProperty)
        case 2:
            target.set(.vector(Vec2(a[0] * q + b[0] * p, a[1] * q + b[1] * p)),
                                      for: n.pointee.animatableProperty)
        default:
            writeColor(n, a, b, p, target)
        }
    }

    /// The colour case of ``write(_:_:_:_:_:)``, kept out of line: channels round and clamp
    /// to 0...255.
    @inline(never)
    func writeColor(_ n: UnsafeMutablePointer<AnimationNode>, _ a: UnsafeMutablePointer<Double>,
                    _ b: UnsafeMutablePointer<Double>, _ p: Double, _ target: TargetRef) {
        let q = 1 - p
        // NaN (a curve or spring pushed past what doubles hold) reads as 0, not a trap
        func channel(_ k: Int) -> UInt8 {
            let v = (a[k] * q + b[k] * p).rounded()
            return v >= 255 ? 255 : v > 0 ? UInt8(v) : 0
        }
        target.set(.color(Color(r: channel(0), g: channel(1), b: channel(2), a: channel(3))),
                                  for: n.pointee.animatableProperty)
    }
}
