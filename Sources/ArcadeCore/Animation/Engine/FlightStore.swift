/// A leaf of a flight: what the flight step reads to write one property in place.
struct FlightLeaf {
    /// Numbers index of the leaf's values (as ``AnimationNode/data``).
    var values: Int32
    /// Keyframe values or path segments.
    var count: Int32
    /// Curve table index of the leaf's timing curve.
    var curve: Int32
    /// Index pool index of a keyframe leaf's per-segment curves, or -1.
    var segmentCurves: Int32
    var form: AnimationNode.Form
    /// Numbers per value: 1 or 2.
    var dimension: UInt8
    /// ``AnimatableProperty/fieldSlot``.
    var slot: Int8
    /// Writes its one number into two slots (a uniform scale).
    var paired: Bool

    static let empty = FlightLeaf(values: 0, count: 0, curve: CurveTable.linearIndex, segmentCurves: -1,
                                  form: .basic, dimension: 1, slot: 0, paired: false)
}

/// The running flights: runs of the flat shape (a group of a finite, positive duration on
/// a linear curve whose children are all plain leaves writing their target's fields in
/// place, see ``Animator/isFlat(_:count:)``), kept as structure of arrays so that a step
/// walks them in one loop over flat columns: the group's timing numbers, the target's
/// fields, and up to ``maxLeaves`` leaves each with their curves resolved.
///
/// Dense: a flight that ends is replaced by the last one (``remove(at:)``), and the run
/// head of the moved flight learns its new index. Order in the store does not matter: a
/// flight writes only its own target's fields, the properties of two runs on one target
/// never overlap (starting one replaces the other), and completions are ordered by end
/// time and start order, not by the order the step met them.
///
/// The run keeps its nodes and numbers in the engine's pools as every run does (cancel,
/// replace and the steps where the group shows nothing read them there); the store holds
/// copies of what a step reads and indices into the numbers pool for leaf values.
struct FlightStore {
    /// Leaves per flight at most; a group with more takes the general step.
    static let maxLeaves = 4

    /// Bits of ``flags`` above the group's own ``AnimationNode/Flag`` bits.
    enum Bit {
        /// The leaves' nodes are marked as having written (``AnimationNode/Flag/wrote``).
        static let wrote: UInt8 = 1 << 6
        /// A leaf writes a position, scale or turn, so a step raises ``AnimatableFields/moved``.
        static let moves: UInt8 = 1 << 7
    }

    private(set) var count = 0
    private(set) var capacity = 0
    /// Run slot.
    private(set) var slot: UnsafeMutablePointer<Int32>
    /// Animation time at which the run started.
    private(set) var start: UnsafeMutablePointer<Double>
    /// The group's timing: delay, speed, duration of one pass, active duration, simple time
    /// shown once over.
    private(set) var delay: UnsafeMutablePointer<Double>
    private(set) var speed: UnsafeMutablePointer<Double>
    private(set) var duration: UnsafeMutablePointer<Double>
    private(set) var active: UnsafeMutablePointer<Double>
    private(set) var endSimple: UnsafeMutablePointer<Double>
    /// The group's node flags, with ``Bit``.
    private(set) var flags: UnsafeMutablePointer<UInt8>
    private(set) var leafCount: UnsafeMutablePointer<UInt8>
    /// Owner entry of the target.
    private(set) var owner: UnsafeMutablePointer<Int32>
    private(set) var fields: UnsafeMutablePointer<UnsafeMutablePointer<AnimatableFields>>
    /// ``maxLeaves`` per flight.
    private(set) var leaves: UnsafeMutablePointer<FlightLeaf>

    init() {
        slot = .allocate(capacity: 0)
        start = .allocate(capacity: 0)
        delay = .allocate(capacity: 0)
        speed = .allocate(capacity: 0)
        duration = .allocate(capacity: 0)
        active = .allocate(capacity: 0)
        endSimple = .allocate(capacity: 0)
        flags = .allocate(capacity: 0)
        leafCount = .allocate(capacity: 0)
        owner = .allocate(capacity: 0)
        fields = .allocate(capacity: 0)
        leaves = .allocate(capacity: 0)
        grow(to: 64)
    }

    /// Frees the columns; called once, by the engine's deinit.
    func destroy() {
        slot.deallocate()
        start.deallocate()
        delay.deallocate()
        speed.deallocate()
        duration.deallocate()
        active.deallocate()
        endSimple.deallocate()
        flags.deallocate()
        leafCount.deallocate()
        owner.deallocate()
        fields.deallocate()
        leaves.deallocate()
    }

    private static func moved<T>(_ p: UnsafeMutablePointer<T>, _ count: Int, _ capacity: Int) -> UnsafeMutablePointer<T> {
        let q = UnsafeMutablePointer<T>.allocate(capacity: capacity)
        q.moveInitialize(from: p, count: count)
        p.deallocate()
        return q
    }

    private mutating func grow(to needed: Int) {
        let c = max(needed, capacity * 2)
        slot = Self.moved(slot, count, c)
        start = Self.moved(start, count, c)
        delay = Self.moved(delay, count, c)
        speed = Self.moved(speed, count, c)
        duration = Self.moved(duration, count, c)
        active = Self.moved(active, count, c)
        endSimple = Self.moved(endSimple, count, c)
        flags = Self.moved(flags, count, c)
        leafCount = Self.moved(leafCount, count, c)
        owner = Self.moved(owner, count, c)
        fields = Self.moved(fields, count, c)
        leaves = Self.moved(leaves, count * Self.maxLeaves, c * Self.maxLeaves)
        capacity = c
    }

    /// Appends a flight and returns its index.
    mutating func append(slot s: Int32, start t: Double, timing tm: UnsafeMutablePointer<Double>, flags f: UInt8,
                         owner o: Int32, fields fp: UnsafeMutablePointer<AnimatableFields>,
                         leaves ls: UnsafeBufferPointer<FlightLeaf>) -> Int32 {
        if count == capacity { grow(to: count + 1) }
        let i = count
        slot[i] = s
        start[i] = t
        delay[i] = tm[0]
        speed[i] = tm[1]
        duration[i] = tm[2]
        active[i] = tm[3]
        endSimple[i] = tm[4]
        var fl = f
        for l in ls where Int(l.slot) < AnimatableFields.alphaSlot { fl |= Bit.moves }
        flags[i] = fl
        leafCount[i] = UInt8(ls.count)
        owner[i] = o
        fields[i] = fp
        let lb = leaves + i * Self.maxLeaves
        for k in 0..<Self.maxLeaves {
            lb[k] = k < ls.count ? ls[k] : .empty
        }
        count += 1
        return Int32(i)
    }

    /// Removes flight `i` by moving the last one into its place; returns the run slot of
    /// the flight moved, or -1 when `i` was the last.
    mutating func remove(at i: Int) -> Int32 {
        count -= 1
        guard i != count else { return -1 }
        let j = count
        slot[i] = slot[j]
        start[i] = start[j]
        delay[i] = delay[j]
        speed[i] = speed[j]
        duration[i] = duration[j]
        active[i] = active[j]
        endSimple[i] = endSimple[j]
        flags[i] = flags[j]
        leafCount[i] = leafCount[j]
        owner[i] = owner[j]
        fields[i] = fields[j]
        (leaves + i * Self.maxLeaves).update(from: leaves + j * Self.maxLeaves, count: Self.maxLeaves)
        return slot[i]
    }

    /// Sets or clears ``Bit/wrote`` of flight `i`.
    func setWrote(_ i: Int, _ on: Bool) {
        if on { flags[i] |= Bit.wrote } else { flags[i] &= ~Bit.wrote }
    }
}

extension Animator {
    /// Adds the flat run in `slot` (started, linked and with its first state written) to
    /// the flight store.
    func addFlight(_ slot: Int, target: any Animatable) {
        let root = Int(heads[slot].root)
        let g = nodes[root]
        var ls: [FlightLeaf] = []
        ls.reserveCapacity(Int(g.count) - 1)
        for i in root + 1..<root + Int(g.count) {
            let n = nodes[i]
            ls.append(FlightLeaf(values: n.data, count: n.count, curve: n.curve, segmentCurves: n.segmentCurves,
                                 form: n.form, dimension: n.dimension, slot: n.slot,
                                 paired: n.has(AnimationNode.Flag.pairedSlot)))
        }
        var f = g.flags & (AnimationNode.Flag.autoreverses | AnimationNode.Flag.holdsStart | AnimationNode.Flag.holdsEnd)
        if nodes[root + 1].has(AnimationNode.Flag.wrote) { f |= FlightStore.Bit.wrote }
        let i = ls.withUnsafeBufferPointer { lb in
            flights.append(slot: Int32(slot), start: heads[slot].start, timing: numbers.base + Int(g.timing), flags: f,
                           owner: heads[slot].owner, fields: target.animatableFields.unsafelyUnwrapped, leaves: lb)
        }
        heads.base[slot].flight = i
    }

    /// Takes the run in `slot` out of the flight store, if it is there.
    func removeFlight(_ slot: Int) {
        let i = Int(heads[slot].flight)
        guard i >= 0 else { return }
        let moved = flights.remove(at: i)
        if moved >= 0 { heads.base[Int(moved)].flight = Int32(i) }
        heads.base[slot].flight = -1
    }

    /// Steps every flight at animation time `now`: the flat step, one loop over the store's
    /// columns. The same arithmetic, in the same order, as the general walk
    /// (``StepEvaluator/evaluate(root:elapsed:target:)``) on these runs; while a group shows
    /// nothing (before a delay, after an end without fill) the general walk runs instead.
    func stepFlights(_ now: Double, _ evaluator: inout StepEvaluator) {
        let fs = flights
        let owners = self.owners.base, runs = self.runs.base, heads = self.heads.base
        let numbers = evaluator.numbers, indices = evaluator.indices
        var memo = CurveMemo()
        for i in 0..<fs.count {
            let s = Int(fs.slot[i])
            if isKnownUniquelyReferenced(&owners[Int(fs.owner[i])].object) {
                ended.append((now, runs[s].serial, Int32(s), .targetGone))
                continue
            }
            let start = fs.start[i]
            let elapsed = now - start
            let delay = fs.delay[i], speed = fs.speed[i], active = fs.active[i], duration = fs.duration[i]
            let flags = fs.flags[i]
            let since = elapsed - delay
            let done = since >= -Animator.epsilon && since * speed >= active - Animator.epsilon
            let simple = StepEvaluator.simpleTime(delay, speed, duration, active, fs.endSimple[i], flags, elapsed, done)
            if simple.isNaN {
                let root = Int(heads[s].root)
                evaluator.evaluateNode(root, elapsed, 0, true, done, heads[s].target.unsafelyUnwrapped)
                fs.setWrote(i, evaluator.nodes[root + 1].has(AnimationNode.Flag.wrote))
            } else {
                let u = simple / duration
                let fields = fs.fields[i]
                let slots = UnsafeMutableRawPointer(fields).assumingMemoryBound(to: Double.self)
                var leaf = fs.leaves + i &* FlightStore.maxLeaves
                let last = leaf + Int(fs.leafCount[i])
                while leaf < last {
                    let l = leaf.pointee
                    let out = slots + Int(l.slot)
                    let values = numbers + Int(l.values)
                    let p = l.curve == CurveTable.linearIndex ? u : evaluator.memoCurve(&memo, l.curve, u)
                    let a: UnsafeMutablePointer<Double>, b: UnsafeMutablePointer<Double>, t: Double
                    switch l.form {
                    case .path:
                        let xy = BezierPath.evaluate(values, 0, Int(l.count), p)
                        out[0] = xy.0
                        out[1] = xy.1
                        leaf += 1
                        continue
                    case .keyframes:
                        // at least two values and no key times (see ``Animator/isFlat(_:count:)``)
                        let count = Int(l.count)
                        let s = p * Double(count &- 1)
                        var segment = 0
                        if s > 0 { segment = min(Int(min(s, Double(count))), count &- 2) }
                        var local = s - Double(segment)
                        if l.segmentCurves >= 0 {
                            local = evaluator.memoCurve(&memo, indices[Int(l.segmentCurves) &+ segment], local)
                        }
                        a = values + segment &* Int(l.dimension)
                        b = a + Int(l.dimension)
                        t = local
                    default:
                        a = values
                        b = values + Int(l.dimension)
                        t = p
                    }
                    let q = 1 - t
                    let v = a[0] * q + b[0] * t
                    out[0] = v
                    if l.dimension == 2 {
                        out[1] = a[1] * q + b[1] * t
                    } else if l.paired {
                        out[1] = v
                    }
                    leaf += 1
                }
                if flags & FlightStore.Bit.moves != 0 { fields.pointee.moved = true }
                if flags & FlightStore.Bit.wrote == 0 { markWrote(i, root: Int(heads[s].root)) }
            }
            if done {
                ended.append((start + (delay + (active > 0 ? active / speed : 0)), runs[s].serial, Int32(s), .finished))
            }
        }
    }

    /// The first step a flight's group shows: marks its leaves' nodes as having written, as
    /// the general walk does, so leaving the active time puts the model values back.
    @inline(never)
    func markWrote(_ i: Int, root: Int) {
        let n = nodes.base
        for k in root + 1..<root + Int(n[root].count) {
            n[k].flags |= AnimationNode.Flag.wrote
        }
        flights.setWrote(i, true)
    }
}
