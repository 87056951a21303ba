/// A leaf of a flight: what the flight step reads to write one property in place.
struct FlightLeaf {
    /// Keyframe values or path segments.
    var count: Int32
    /// Curve table index of the leaf's timing curve.
    var curve: Int32
    /// Index pool index of a keyframe leaf's per-segment curves, or -1.
    var segmentCurves: Int32
    /// Index of its flight in the ``FlightStore``.
    var flight: Int32
    var form: AnimationNode.Form
    /// Numbers per value: 1 or 2.
    var dimension: UInt8
    /// ``AnimatableProperty/fieldSlot``.
    var slot: Int8
    /// The slot of the second leaf of a keyframe pair (see ``FlightStore/keyframePairs``),
    /// else -1.
    var slot2: Int8 = -1
    /// Writes its one number into two slots (a uniform scale).
    var paired: Bool
    /// Its place among its flight's leaves.
    var index: UInt8
}

/// The leaves of one form (paths, keyframes, basic tweens) of every flight, back to back:
/// a step runs one loop over each lane, with no switch per leaf. Each leaf's numbers sit
/// in the lane's values column, ``stride`` per leaf, next to those of the leaf before.
struct LeafLane {
    /// Numbers per leaf in ``values``.
    let stride: Int
    private(set) var count = 0
    private(set) var capacity = 64
    private(set) var base = UnsafeMutablePointer<FlightLeaf>.allocate(capacity: 64)
    private(set) var values: UnsafeMutablePointer<Double>
    /// ``tableStride`` per leaf: where the table of each curve the leaf's step reads
    /// starts in the engine's Bezier tables, -1 for the linear curve: its own curve first,
    /// then (keyframes) the curve of each segment, linear where it has none. The step reads
    /// them here, in order, instead of looking the curves up through the index pool and
    /// the curve table.
    private(set) var tables = UnsafeMutablePointer<Int32>.allocate(capacity: 64 * LeafLane.tableStride)
    /// Scratch for a step: the leaves it lists for a second look, as many places as leaves.
    private(set) var revisit = UnsafeMutablePointer<Int32>.allocate(capacity: 64)

    /// Table starts per leaf in ``tables``: the leaf's curve and up to three segments'.
    static let tableStride = 4

    init(stride: Int) {
        self.stride = stride
        values = .allocate(capacity: 64 * stride)
    }

    func destroy() {
        base.deallocate()
        values.deallocate()
        tables.deallocate()
        revisit.deallocate()
    }

    /// Where a leaf's curves' tables start (see ``tables``): its own curve's, then each
    /// segment's.
    typealias CurveTables = (Int32, Int32, Int32, Int32)

    /// Appends `leaf` with its numbers and its curves' table starts and returns its position.
    mutating func append(_ leaf: FlightLeaf, _ numbers: UnsafePointer<Double>, _ n: Int,
                         curveTables: CurveTables) -> Int32 {
        let v = appendZeroed(leaf, curveTables)
        v.update(from: numbers, count: n)
        return Int32(count - 1)
    }

    /// Appends a keyframe pair: `leaf` with the `n` numbers of its first leaf at `a`
    /// followed, from half the stride on, by those of its second leaf at `b`.
    mutating func append(_ leaf: FlightLeaf, _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ n: Int,
                         curveTables: CurveTables) -> Int32 {
        let v = appendZeroed(leaf, curveTables)
        v.update(from: a, count: n)
        (v + stride / 2).update(from: b, count: n)
        return Int32(count - 1)
    }

    /// Appends `leaf` with zeros for its numbers; returns where its numbers go.
    private mutating func appendZeroed(_ leaf: FlightLeaf, _ curveTables: CurveTables)
        -> UnsafeMutablePointer<Double>
    {
        if count == capacity {
            let c = capacity * 2
            let q = UnsafeMutablePointer<FlightLeaf>.allocate(capacity: c)
            q.moveInitialize(from: base, count: count)
            base.deallocate()
            base = q
            let v = UnsafeMutablePointer<Double>.allocate(capacity: c * stride)
            v.moveInitialize(from: values, count: count * stride)
            values.deallocate()
            values = v
            let t = UnsafeMutablePointer<Int32>.allocate(capacity: c * Self.tableStride)
            t.moveInitialize(from: tables, count: count * Self.tableStride)
            tables.deallocate()
            tables = t
            revisit.deallocate()
            revisit = .allocate(capacity: c)
            capacity = c
        }
        (base + count).initialize(to: leaf)
        let t = tables + count * Self.tableStride
        t[0] = curveTables.0
        t[1] = curveTables.1
        t[2] = curveTables.2
        t[3] = curveTables.3
        let v = values + count * stride
        v.initialize(repeating: 0, count: stride)
        count += 1
        return v
    }

    /// Removes the leaf at `i` by moving the last one into its place; returns the leaf now
    /// at `i`, or nil when `i` was the last.
    mutating func remove(at i: Int) -> FlightLeaf? {
        count -= 1
        guard i != count else { return nil }
        base[i] = base[count]
        (values + i * stride).update(from: values + count * stride, count: stride)
        (tables + i * Self.tableStride).update(from: tables + count * Self.tableStride, count: Self.tableStride)
        return base[i]
    }
}

/// The running flights: runs of the flat shape (a group of a finite, positive duration on
/// a linear curve whose children are all plain leaves writing distinct slots of their
/// target's fields in place, see ``Animator/isFlat(_:count:)``), kept as structure of
/// arrays. A step runs one loop over the flights' columns (the group's timing numbers) that
/// leaves each flight's progress in a column, then one loop per leaf form over that form's
/// ``LeafLane``, which reads the progress and writes the target's fields. Two keyframe
/// leaves of a flight that take the same steps share one entry of their own lane
/// (``keyframePairs``).
///
/// Dense: a flight or leaf that ends is replaced by the last one, and whatever refers to
/// the one moved learns its new place. Order does not matter: a flight writes only its own
/// target's fields, its leaves write distinct slots, the properties of two runs on one
/// target never overlap (starting one replaces the other), and completions are ordered by
/// end time and start order, not by the order the step met them.
///
/// The run keeps its nodes and numbers in the engine's pools as every run does (cancel,
/// replace and the steps where the group shows nothing read them there); the store holds
/// copies of what a step reads, the leaves' values included.
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
    /// Written by a step: the group's progress (simple time over duration), NaN when its
    /// leaves write nothing this step.
    private(set) var progress: UnsafeMutablePointer<Double>
    /// Scratch for a step: the flights it lists for a second look (see
    /// ``Animator/stepFlights(_:_:)``), as many places as flights.
    private(set) var revisit: UnsafeMutablePointer<Int32>
    /// ``maxLeaves`` per flight: the lane of each leaf and its position there.
    private(set) var leafLane: UnsafeMutablePointer<UInt8>
    private(set) var leafPosition: UnsafeMutablePointer<Int32>
    /// Leaves by form (see ``Lane``).
    var basics = LeafLane(stride: 4)
    var keyframes = LeafLane(stride: 4)
    var paths = LeafLane(stride: 8)
    /// Two keyframe leaves of one flight that take the same steps: scalars, as many values,
    /// the same curve and the same curve per segment (a coin's scale x and scale y). One
    /// entry finds the segment and its curve value once and writes both slots; the first
    /// leaf's values fill the first half of its numbers, the second's the other half.
    var keyframePairs = LeafLane(stride: 8)

    /// Where a leaf lives (``leafLane``): the lane of its form, the lane of keyframe pairs,
    /// or (the second leaf of a pair) nowhere of its own.
    enum Lane {
        static let basic = AnimationNode.Form.basic.rawValue
        static let keyframes = AnimationNode.Form.keyframes.rawValue
        static let path = AnimationNode.Form.path.rawValue
        static let pair: UInt8 = 4
        static let none: UInt8 = 0xFF
    }

    /// Numbers a leaf of `form` may have to live in its lane: a basic tween of scalars or
    /// vectors, keyframes of up to four numbers, a path of one segment.
    static func fits(_ form: AnimationNode.Form, numbers: Int) -> Bool {
        switch form {
        case .basic, .keyframes: numbers <= 4
        case .path: numbers == 8
        case .group: false
        }
    }

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
        progress = .allocate(capacity: 0)
        revisit = .allocate(capacity: 0)
        leafLane = .allocate(capacity: 0)
        leafPosition = .allocate(capacity: 0)
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
        progress.deallocate()
        revisit.deallocate()
        leafLane.deallocate()
        leafPosition.deallocate()
        basics.destroy()
        keyframes.destroy()
        paths.destroy()
        keyframePairs.destroy()
    }

    /// Elements reserved, in use or free.
    var footprint: Int { capacity + basics.capacity + keyframes.capacity + paths.capacity + keyframePairs.capacity }

    /// Bytes the columns and lanes take at their capacity.
    var bytes: Int {
        let perFlight = 4 + 7 * 8 + 2 + 4 + 8 + 4 + Self.maxLeaves * 5
        let lanes = [basics, keyframes, paths, keyframePairs].reduce(0) {
            $0 + $1.capacity * (MemoryLayout<FlightLeaf>.stride + $1.stride * 8 + LeafLane.tableStride * 4 + 4)
        }
        return capacity * perFlight + lanes
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
        progress = Self.moved(progress, count, c)
        revisit = Self.moved(revisit, 0, c)
        leafLane = Self.moved(leafLane, count * Self.maxLeaves, c * Self.maxLeaves)
        leafPosition = Self.moved(leafPosition, count * Self.maxLeaves, c * Self.maxLeaves)
        capacity = c
    }

    /// The lane `lane` (a ``Lane``, not ``Lane/none``).
    @inline(__always)
    private mutating func withLane<R>(_ lane: UInt8, _ body: (inout LeafLane) -> R) -> R {
        switch lane {
        case Lane.basic: body(&basics)
        case Lane.keyframes: body(&keyframes)
        case Lane.pair: body(&keyframePairs)
        default: body(&paths)
        }
    }

    /// True when keyframe leaves `a` and `b` take the same steps, so one entry of
    /// ``keyframePairs`` can write both: scalars (each to its one slot), as many values, the
    /// same curve and the same curves per segment (`indices` holds those).
    static func pairs(_ a: AnimationNode, _ b: AnimationNode, _ indices: UnsafeMutablePointer<Int32>) -> Bool {
        guard a.form == .keyframes, b.form == .keyframes, a.dimension == 1, b.dimension == 1,
              !a.has(AnimationNode.Flag.pairedSlot), !b.has(AnimationNode.Flag.pairedSlot),
              a.count == b.count, a.curve == b.curve else { return false }
        if a.segmentCurves < 0 || b.segmentCurves < 0 { return a.segmentCurves == b.segmentCurves }
        for k in 0..<Int(a.count) - 1 where indices[Int(a.segmentCurves) + k] != indices[Int(b.segmentCurves) + k] {
            return false
        }
        return true
    }

    /// Appends a flight and returns its index: the run in `slot` whose group's timing is at
    /// `tm` and whose leaves are the `leafTotal` nodes at `leaves`, their values in `numbers`
    /// and their per-segment curves in `indices`.
    mutating func append(slot s: Int32, start t: Double, timing tm: UnsafeMutablePointer<Double>, flags f: UInt8,
                         owner o: Int32, fields fp: UnsafeMutablePointer<AnimatableFields>,
                         leaves nodes: UnsafeMutablePointer<AnimationNode>, leafTotal: Int,
                         numbers: UnsafePointer<Double>, indices: UnsafeMutablePointer<Int32>,
                         tableStarts: UnsafePointer<Int32>) -> Int32 {
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
        leafCount[i] = UInt8(leafTotal)
        owner[i] = o
        fields[i] = fp
        progress[i] = .nan
        let lanes = leafLane + i * Self.maxLeaves, positions = leafPosition + i * Self.maxLeaves
        for k in 0..<leafTotal {
            lanes[k] = nodes[k].form.rawValue
        }
        for k in 0..<leafTotal where lanes[k] != Lane.none {
            let n = nodes[k]
            if Int(n.slot) < AnimatableFields.alphaSlot { fl |= Bit.moves }
            var leaf = FlightLeaf(count: n.count, curve: n.curve, segmentCurves: n.segmentCurves, flight: Int32(i),
                                  form: n.form, dimension: n.dimension, slot: n.slot,
                                  paired: n.has(AnimationNode.Flag.pairedSlot), index: UInt8(k))
            let values = numbers + Int(n.data), c = Self.numberCount(n.form, dimension: n.dimension, count: n.count)
            // Segments without a curve of their own ease linearly (-1).
            func segment(_ k: Int) -> Int32 {
                guard n.form == .keyframes, n.segmentCurves >= 0, k < Int(n.count) - 1 else { return -1 }
                return Self.tableStart(indices[Int(n.segmentCurves) + k], tableStarts)
            }
            let curveTables = (Self.tableStart(n.curve, tableStarts), segment(0), segment(1), segment(2))
            if let m = (k + 1..<leafTotal).first(where: { lanes[$0] != Lane.none && Self.pairs(n, nodes[$0], indices) }) {
                let second = nodes[m]
                if Int(second.slot) < AnimatableFields.alphaSlot { fl |= Bit.moves }
                leaf.slot2 = second.slot
                lanes[k] = Lane.pair
                lanes[m] = Lane.none
                positions[m] = -1
                positions[k] = keyframePairs.append(leaf, values, numbers + Int(second.data), c,
                                                    curveTables: curveTables)
            } else {
                positions[k] = withLane(lanes[k]) { $0.append(leaf, values, c, curveTables: curveTables) }
            }
        }
        flags[i] = fl
        count += 1
        return Int32(i)
    }

    /// Where the table of curve `index` (linear or a cubic Bezier, as a flight's are) starts
    /// in the engine's Bezier tables (`tableStarts` per curve), -1 for the linear curve.
    /// A run holds its curves while it runs, so the table stays where it is until then.
    static func tableStart(_ index: Int32, _ tableStarts: UnsafePointer<Int32>) -> Int32 {
        index == CurveTable.linearIndex ? -1 : tableStarts[Int(index)]
    }

    /// Removes flight `i` and its leaves, moving the last flight into its place; returns
    /// the run slot of the flight moved, or -1 when `i` was the last.
    mutating func remove(at i: Int) -> Int32 {
        for k in 0..<Int(leafCount[i]) where leafLane[i * Self.maxLeaves + k] != Lane.none {
            let lane = leafLane[i * Self.maxLeaves + k]
            let position = Int(leafPosition[i * Self.maxLeaves + k])
            if let moved = withLane(lane, { $0.remove(at: position) }) {
                leafPosition[Int(moved.flight) * Self.maxLeaves + Int(moved.index)] = Int32(position)
            }
        }
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
        progress[i] = progress[j]
        for k in 0..<Int(leafCount[j]) {
            let lane = leafLane[j * Self.maxLeaves + k]
            let position = leafPosition[j * Self.maxLeaves + k]
            leafLane[i * Self.maxLeaves + k] = lane
            leafPosition[i * Self.maxLeaves + k] = position
            if lane != Lane.none { withLane(lane) { $0.base[Int(position)].flight = Int32(i) } }
        }
        return slot[i]
    }

    /// The numbers of the values of a leaf of `form` (not a group).
    static func numberCount(_ form: AnimationNode.Form, dimension: UInt8, count: Int32) -> Int {
        switch form {
        case .basic: 2 * Int(dimension)
        case .keyframes: Int(count) * Int(dimension)
        default: 8 * Int(count)
        }
    }

    /// Flight `i`'s group at animation time `now`: seconds since its start, whether its
    /// run ends, and its simple time (NaN when it shows nothing), as
    /// ``StepEvaluator/evaluate(root:elapsed:target:)`` finds them.
    @inline(__always)
    func timing(_ i: Int, _ now: Double) -> (elapsed: Double, done: Bool, simple: Double) {
        let elapsed = now - start[i]
        let delay = delay[i], speed = speed[i], active = active[i]
        let since = elapsed - delay
        let done = since >= -Animator.epsilon && since * speed >= active - Animator.epsilon
        let simple = StepEvaluator.simpleTime(delay, speed, duration[i], active, endSimple[i], flags[i], elapsed, done)
        return (elapsed, done, simple)
    }

    /// Sets or clears ``Bit/wrote`` of flight `i`.
    func setWrote(_ i: Int, _ on: Bool) {
        if on { flags[i] |= Bit.wrote } else { flags[i] &= ~Bit.wrote }
    }

    /// Sets the progress of flight `i`.
    @inline(__always)
    func setProgress(_ i: Int, _ u: Double) { progress[i] = u }
}

extension Animator {
    /// Adds the flat run in `slot` (started, linked and with its first state written) to
    /// the flight store.
    func addFlight(_ slot: Int, target: any Animatable) {
        let root = Int(heads[slot].root)
        let g = nodes[root]
        var f = g.flags & (AnimationNode.Flag.autoreverses | AnimationNode.Flag.holdsStart | AnimationNode.Flag.holdsEnd)
        if nodes[root + 1].has(AnimationNode.Flag.wrote) { f |= FlightStore.Bit.wrote }
        let i = flights.append(slot: Int32(slot), start: heads[slot].start, timing: numbers.base + Int(g.timing),
                               flags: f, owner: heads[slot].owner, fields: target.animatableFields.unsafelyUnwrapped,
                               leaves: nodes.base + root + 1, leafTotal: Int(g.count) - 1, numbers: numbers.base,
                               indices: indices.base, tableStarts: curves.tableStarts.base)
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

    /// Steps every flight at animation time `now`: the same arithmetic, in the same order,
    /// as the general walk (``StepEvaluator/evaluate(root:elapsed:target:)``) on these runs.
    /// First the groups, one loop over the flights' columns that leaves each flight's
    /// progress in a column; then the leaves, one loop per form.
    ///
    /// The groups' loop is plain arithmetic and calls nothing, so the columns stay in
    /// registers (a call on any of its paths had the loop reload them and spill its numbers
    /// for every flight): the few flights a step has more to do for (ending, showing nothing
    /// before a delay or after an end without fill, or writing for the first time) it lists,
    /// and a second loop goes through the list. While a group shows nothing the general walk
    /// runs for it.
    func stepFlights(_ now: Double, _ evaluator: inout StepEvaluator) {
        handGoneTargetsToTheGeneralWalk()
        let fs = flights
        var listed = 0
        for i in 0..<fs.count {
            let t = fs.timing(i, now)
            // NaN, showing nothing, stays NaN.
            fs.setProgress(i, t.simple / fs.duration[i])
            let flags = fs.flags[i]
            if flags & FlightStore.Bit.moves != 0 && !t.simple.isNaN { fs.fields[i].pointee.moved = true }
            if t.simple.isNaN || t.done || flags & FlightStore.Bit.wrote == 0 {
                fs.revisit[listed] = Int32(i)
                listed &+= 1
            }
        }
        let runs = self.runs.base, heads = self.heads.base
        // Flights whose group shows nothing: all of them are listed.
        var hidden = 0
        for k in 0..<listed {
            let i = Int(fs.revisit[k])
            let s = Int(fs.slot[i])
            let t = fs.timing(i, now)
            if t.simple.isNaN {
                hidden &+= 1
                let root = Int(heads[s].root)
                evaluator.evaluateNode(root, t.elapsed, 0, true, t.done, heads[s].target.unsafelyUnwrapped)
                fs.setWrote(i, evaluator.nodes[root + 1].has(AnimationNode.Flag.wrote))
            } else if fs.flags[i] & FlightStore.Bit.wrote == 0 {
                markWrote(i, root: Int(heads[s].root))
            }
            if t.done {
                let delay = fs.delay[i], speed = fs.speed[i], active = fs.active[i]
                ended.append((fs.start[i] + (delay + (active > 0 ? active / speed : 0)), runs[s].serial, Int32(s),
                              .finished))
            }
        }
        // When every group shows something (as is usual), the paths' and pairs' loops skip
        // the check for a flight that shows nothing.
        let allShown = hidden == 0
        if fs.paths.count > 0 { Self.stepPaths(fs, evaluator, allShown: allShown) }
        if fs.keyframes.count > 0 { Self.stepKeyframes(fs, evaluator) }
        if fs.keyframePairs.count > 0 { Self.stepKeyframePairs(fs, evaluator, allShown: allShown) }
        if fs.basics.count > 0 { Self.stepBasics(fs, evaluator) }
    }

    /// Takes out of the flight store the runs whose target only the engine still holds, so
    /// the general walk meets them at this step and ends them (`targetGone`), as it ends its
    /// own. A target that says it is held elsewhere (a scene node in its parent's child
    /// array: ``AnimatableFields/heldElsewhereBit``) is not asked; any other is asked with
    /// a call into the runtime. The bits are read from the targets only when some animated
    /// target has lowered its bit since the last read (``AnimatableFields/heldEpoch``
    /// moved on); otherwise the owner entries keep what was read, and ten thousand coins
    /// are checked without loading their memory.
    ///
    /// One check per owner entry, in a loop of its own: in the flights' loop the call made
    /// the loop keep its numbers in memory around it. The loop is a function of its own
    /// too: inside the step, the step's values took the registers that keep their values
    /// across the call, and the loop kept its own in memory.
    @inline(never)
    private func handGoneTargetsToTheGeneralWalk() {
        let owners = self.owners.base, count = self.owners.count
        let epoch = AnimatableFields.heldEpoch.load(ordering: .relaxed)
        if epoch != heldEpochRead {
            heldEpochRead = epoch
            var o = 0
            while o < count {
                owners[o].held = owners[o].fields?.pointee.isHeldElsewhere ?? false
                o &+= 1
            }
        }
        var o = 0
        while o < count {
            if !owners[o].held, isKnownUniquelyReferenced(&owners[o].object) { handToTheGeneralWalk(o) }
            o &+= 1
        }
    }

    /// Takes the runs on owner entry `o` out of the flight store.
    @inline(never)
    private func handToTheGeneralWalk(_ o: Int) {
        let runs = self.runs.base
        var s = owners.base[o].first
        while s >= 0 {
            removeFlight(Int(s))
            s = runs[Int(s)].nextOnObject
        }
    }

    /// The slots a leaf of `fs` writes, and its progress after its curve; nil when its
    /// flight writes nothing this step.
    @inline(__always)
    private static func place(_ l: FlightLeaf, _ fs: FlightStore, _ e: StepEvaluator, _ memo: inout CurveMemo)
        -> (out: UnsafeMutablePointer<Double>, p: Double)?
    {
        let f = Int(l.flight)
        let u = fs.progress[f]
        if u.isNaN { return nil }
        let out = UnsafeMutableRawPointer(fs.fields[f]).assumingMemoryBound(to: Double.self) + Int(l.slot)
        return (out, l.curve == CurveTable.linearIndex ? u : e.memoCurve(&memo, l.curve, u))
    }

    /// Path leaves (one segment: a line, a quadratic or a cubic curve):
    /// ``BezierPath/evaluate(_:_:_:_:)``.
    ///
    /// The loop reads each leaf's curve from its table (``LeafLane/tables``) and calls
    /// nothing, so it keeps its pointers in registers; the leaves whose curve value falls
    /// in an interval the table leaves to the exact solve (NaN) it lists, and a second loop
    /// writes them again through the exact curve.
    ///
    /// `allShown` says that every flight shows something this step: no progress is NaN.
    private static func stepPaths(_ fs: FlightStore, _ e: StepEvaluator, allShown: Bool) {
        let listed = allShown ? stepPaths(fs, e, checks: false) : stepPaths(fs, e, checks: true)
        for k in 0..<listed {
            writePath(Int(fs.paths.revisit[k]), fs, e)
        }
    }

    /// The loop of ``stepPaths(_:_:allShown:)``, which `checks` the progress for NaN or
    /// not; returns how many leaves it listed.
    @inline(__always)
    private static func stepPaths(_ fs: FlightStore, _ e: StepEvaluator, checks: Bool) -> Int {
        let lane = fs.paths.base, values = fs.paths.values, tables = fs.paths.tables, revisit = fs.paths.revisit
        let progress = fs.progress, fields = fs.fields, bezier = e.bezierTables
        var listed = 0
        for j in 0..<fs.paths.count {
            let l = lane[j]
            let f = Int(l.flight)
            let u = progress[f]
            if checks && u.isNaN { continue }
            let c = tables[j &* LeafLane.tableStride]
            let p = c < 0 ? u : CurveTable.tabledValue(bezier + Int(c), u)
            // One segment: the segment search gives the progress unchanged.
            let xy = BezierPath.segment(values + j &* 8, p)
            let out = UnsafeMutableRawPointer(fields[f]).assumingMemoryBound(to: Double.self) + Int(l.slot)
            out[0] = xy.0
            out[1] = xy.1
            if p.isNaN {
                revisit[listed] = Int32(truncatingIfNeeded: j)
                listed &+= 1
            }
        }
        return listed
    }

    /// Path leaf `j` with its exact curve: what ``stepPaths(_:_:allShown:)`` writes.
    @inline(never)
    private static func writePath(_ j: Int, _ fs: FlightStore, _ e: StepEvaluator) {
        let l = fs.paths.base[j]
        var memo = CurveMemo()
        guard let r = place(l, fs, e, &memo) else { return }
        let xy = BezierPath.segment(fs.paths.values + j &* 8, r.p)
        r.out[0] = xy.0
        r.out[1] = xy.1
    }

    /// Keyframe leaves (two values or more, no key times): ``StepEvaluator/writeLeaf(_:_:_:)``.
    private static func stepKeyframes(_ fs: FlightStore, _ e: StepEvaluator) {
        let lane = fs.keyframes.base, values = fs.keyframes.values, indices = e.indices
        var memo = CurveMemo()
        for j in 0..<fs.keyframes.count {
            let l = lane[j]
            guard let r = place(l, fs, e, &memo) else { continue }
            let out = r.out, p = r.p
            let even = StepEvaluator.evenSegmentOfFew(p, count: Int(l.count))
            let segment = even.segment
            var t = even.local
            if l.segmentCurves >= 0 {
                t = e.memoCurve(&memo, indices[Int(l.segmentCurves) &+ segment], t)
            }
            let a = values + (j &* 4 &+ segment &* Int(l.dimension))
            let b = a + Int(l.dimension)
            blend(l, a, b, t, out)
        }
    }

    /// Keyframe pairs: ``stepKeyframes(_:_:)`` for both leaves, sharing the segment and its
    /// curve value, which both leaves' steps compute alike.
    ///
    /// As ``stepPaths(_:_:allShown:)``, the loop reads the curves from their tables (the leaf's and
    /// each segment's, ``LeafLane/tables``) and calls nothing; the entries that meet an
    /// interval left to the exact solve it lists for ``writePair(_:_:_:)``.
    private static func stepKeyframePairs(_ fs: FlightStore, _ e: StepEvaluator, allShown: Bool) {
        let listed = allShown ? stepKeyframePairs(fs, e, checks: false) : stepKeyframePairs(fs, e, checks: true)
        for k in 0..<listed {
            writePair(Int(fs.keyframePairs.revisit[k]), fs, e)
        }
    }

    /// The loop of ``stepKeyframePairs(_:_:allShown:)``, which `checks` the progress for
    /// NaN or not; returns how many entries it listed.
    @inline(__always)
    private static func stepKeyframePairs(_ fs: FlightStore, _ e: StepEvaluator, checks: Bool) -> Int {
        let lane = fs.keyframePairs.base, values = fs.keyframePairs.values, tables = fs.keyframePairs.tables
        let revisit = fs.keyframePairs.revisit, progress = fs.progress, fields = fs.fields, bezier = e.bezierTables
        var listed = 0
        for j in 0..<fs.keyframePairs.count {
            let l = lane[j]
            let f = Int(l.flight)
            let u = progress[f]
            if checks && u.isNaN { continue }
            let curves = tables + j &* LeafLane.tableStride
            var p = u
            if curves[0] >= 0 {
                p = CurveTable.tabledValue(bezier + Int(curves[0]), u)
                // The segment's curve must not read a NaN.
                if p.isNaN {
                    revisit[listed] = Int32(truncatingIfNeeded: j)
                    listed &+= 1
                    continue
                }
            }
            let even = StepEvaluator.evenSegmentOfFew(p, count: Int(l.count))
            let segment = even.segment
            var t = even.local
            let c = curves[1 &+ segment]
            if c >= 0 { t = CurveTable.tabledValue(bezier + Int(c), t) }
            blendPair(l, fields[f], values + (j &* 8 &+ segment), t)
            if t.isNaN {
                revisit[listed] = Int32(truncatingIfNeeded: j)
                listed &+= 1
            }
        }
        return listed
    }

    /// Keyframe pair `j` with its exact curves: what ``stepKeyframePairs(_:_:allShown:)`` writes.
    @inline(never)
    private static func writePair(_ j: Int, _ fs: FlightStore, _ e: StepEvaluator) {
        let l = fs.keyframePairs.base[j]
        let f = Int(l.flight)
        let u = fs.progress[f]
        if u.isNaN { return }
        let p = e.tableCurve(l.curve, u)
        let even = StepEvaluator.evenSegmentOfFew(p, count: Int(l.count))
        let segment = even.segment
        var t = even.local
        if l.segmentCurves >= 0 {
            t = e.tableCurve(e.indices[Int(l.segmentCurves) &+ segment], t)
        }
        blendPair(l, fs.fields[f], fs.keyframePairs.values + (j &* 8 &+ segment), t)
    }

    /// Writes keyframe pair `l`'s two values at local time `t` of a segment whose ends are
    /// `a[0]`, `a[1]` (first leaf) and `a[4]`, `a[5]` (second leaf) into `fields`.
    @inline(__always)
    private static func blendPair(_ l: FlightLeaf, _ fields: UnsafeMutablePointer<AnimatableFields>,
                                  _ a: UnsafePointer<Double>, _ t: Double) {
        let out = UnsafeMutableRawPointer(fields).assumingMemoryBound(to: Double.self)
        let q = 1 - t
        out[Int(l.slot)] = a[0] * q + a[1] * t
        out[Int(l.slot2)] = a[4] * q + a[5] * t
    }

    /// Basic leaves.
    private static func stepBasics(_ fs: FlightStore, _ e: StepEvaluator) {
        let lane = fs.basics.base, values = fs.basics.values
        var memo = CurveMemo()
        for j in 0..<fs.basics.count {
            let l = lane[j]
            guard let r = place(l, fs, e, &memo) else { continue }
            let out = r.out, p = r.p
            let a = values + j &* 4
            blend(l, a, a + Int(l.dimension), p, out)
        }
    }

    /// ``StepEvaluator/write(_:_:_:_:_:)`` into field slots.
    @inline(__always)
    private static func blend(_ l: FlightLeaf, _ a: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<Double>,
                              _ t: Double, _ out: UnsafeMutablePointer<Double>) {
        let q = 1 - t
        let v = a[0] * q + b[0] * t
        out[0] = v
        if l.dimension == 2 {
            out[1] = a[1] * q + b[1] * t
        } else if l.paired {
            out[1] = v
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
