/// Buffers an animation is compiled into before it is copied into the engine's pools.
/// Kept in the ``Animator`` and cleared per start, so starting reuses their capacity.
struct CompileScratch {
    struct Entry {
        /// `data`, `model`, `curve` and `segmentCurves` are relative to the buffers below.
        var node: AnimationNode
        var timing: NodeTiming
        /// Runs exactly in its group's time, so it needs no timing of its own.
        var plain = false
    }

    /// Nodes in preorder.
    var entries: [Entry] = []
    /// Leaf values, in node order.
    var values: [Double] = []
    /// Model values, in node order.
    var models: [Double] = []
    /// Per-segment curves, as indices into `curves`.
    var indices: [Int32] = []
    /// One entry per curve reference (node curves and segment curves).
    var curves: [TimingCurve] = []
    /// `curves` mapped to curve table indices at commit.
    var curveIndices: [Int32] = []
    /// `curveIndices` is already filled: every curve is pinned (a prepared animation knows
    /// their indices), so commit takes no references.
    var curvesPinned = false
    /// Properties the leaves drive, for replacing older animations.
    var properties: [AnimatableProperty] = []
    /// The target offers ``Animatable/animatableFields``: leaves on its fields write in place.
    var targetHasFields = false

    mutating func reset() {
        entries.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        models.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        curves.removeAll(keepingCapacity: true)
        curveIndices.removeAll(keepingCapacity: true)
        curvesPinned = false
        properties.removeAll(keepingCapacity: true)
    }

    mutating func addCurve(_ c: TimingCurve) -> Int32 {
        curves.append(c)
        return Int32(curves.count - 1)
    }
}

extension Animator {
    /// Core Animation's duration when none is given.
    public static let defaultDuration = 0.25

    /// Starts `animation` on `target` and returns its id; `token` comes back in its completion.
    ///
    /// The property values are read now: a nil `from` starts from the current value, and
    /// the current values are the model values a `removed` fill snaps back to. The first
    /// state is written at once. Running animations on the same properties of `target`
    /// are replaced (their completions report `replaced`). Nothing changes when the
    /// description is invalid.
    @discardableResult
    public func start(_ animation: Animation, on target: any Animatable, token: UInt64 = 0)
        throws(AnimationError) -> AnimationID
    {
        precondition(!advancing, "an animation target started an animation from its property setter")
        scratch.reset()
        scratch.targetHasFields = target.animatableFields != nil
        _ = try compile(animation, inherited: nil, target: target)
        return commit(on: target, token: token)
    }

    /// Starts what the scratch buffers hold on `target`: replaces the runs it overlaps,
    /// copies it into the engine's pools and writes its first state.
    func commit(on target: any Animatable, token: UInt64) -> AnimationID {
        var timed = 0
        for e in scratch.entries where !e.plain { timed += 1 }
        return commit(on: target, token: token, entries: scratch.entries, timed: timed, values: scratch.values,
                      models: scratch.models, indices: scratch.indices, curves: scratch.curves,
                      pinned: scratch.curvesPinned ? scratch.curveIndices : nil, properties: scratch.properties)
    }

    /// Starts a compiled animation on `target`: `entries` (`timed` of them not plain) with
    /// their `values`, `models` and per-segment curve `indices` (relative, as
    /// ``CompileScratch`` holds them), their `curves` (or, when every curve is pinned, their
    /// table indices `pinned`) and the `properties` they drive. Replaces the runs it
    /// overlaps, copies it into the engine's pools and writes its first state.
    func commit(on target: any Animatable, token: UInt64, entries: [CompileScratch.Entry], timed: Int,
                values: [Double], models: [Double], indices: [Int32], curves curveList: [TimingCurve],
                pinned: [Int32]?, properties: [AnimatableProperty]) -> AnimationID {
        replaceOverlapping(on: target, properties: properties)

        let slot: Int
        if let free = freeRuns.popLast() {
            slot = Int(free)
        } else {
            runs.append(Run())
            heads.append(RunHead())
            slot = runs.count - 1
        }

        let nodeCount = entries.count
        let timingCount = timed * NodeTiming.fieldCount
        let numberCount = max(timingCount + values.count + models.count, 1)
        let indexCount = indices.count
        let nodeStart = nodes.allocate(nodeCount)
        let numberStart = numbers.allocate(numberCount)
        let indexStart = indexCount > 0 ? self.indices.allocate(indexCount) : 0
        let valueStart = numberStart + timingCount
        let modelStart = valueStart + values.count

        let curveIndices: [Int32]
        if let pinned {
            curveIndices = pinned
        } else {
            scratch.curveIndices.removeAll(keepingCapacity: true)
            for c in curveList {
                scratch.curveIndices.append(curves.retain(c))
            }
            curveIndices = scratch.curveIndices
        }
        let nodeBase = nodes.base, numberBase = numbers.base
        var timingCursor = numberStart
        entries.withUnsafeBufferPointer { entries in
            for k in 0..<nodeCount {
                let e = entries[k]
                var n = e.node
                n.data += Int32(valueStart)
                n.model += Int32(modelStart)
                n.curve = curveIndices[Int(n.curve)]
                if n.segmentCurves >= 0 { n.segmentCurves += Int32(indexStart) }
                if e.plain {
                    n.timing = -1
                } else {
                    n.timing = Int32(timingCursor)
                    numberBase[timingCursor] = e.timing.delay
                    numberBase[timingCursor + 1] = e.timing.speed
                    numberBase[timingCursor + 2] = e.timing.duration
                    numberBase[timingCursor + 3] = e.timing.activeDuration
                    numberBase[timingCursor + 4] = e.timing.endSimple
                    timingCursor += NodeTiming.fieldCount
                }
                nodeBase[nodeStart + k] = n
            }
        }
        values.withUnsafeBufferPointer {
            if let from = $0.baseAddress { (numberBase + valueStart).update(from: from, count: $0.count) }
        }
        models.withUnsafeBufferPointer {
            if let from = $0.baseAddress { (numberBase + modelStart).update(from: from, count: $0.count) }
        }
        for k in 0..<indexCount {
            self.indices[indexStart + k] = curveIndices[Int(indices[k])]
        }

        let generation = runs[slot].generation
        var run = Run()
        run.serial = nextSerial
        run.token = token
        run.generation = generation
        run.nodeCount = Int32(nodeCount)
        run.numberStart = Int32(numberStart)
        run.numberCount = Int32(numberCount)
        run.indexStart = Int32(indexStart)
        run.indexCount = Int32(indexCount)
        runs[slot] = run
        heads[slot] = RunHead(start: time, root: Int32(nodeStart), owner: -1, target: TargetRef(target))
        nextSerial += 1
        link(slot, target)
        runningCount += 1

        var evaluator = StepEvaluator(self)
        advancing = true
        _ = evaluator.evaluate(root: nodeStart, elapsed: 0, target: TargetRef(target))
        advancing = false
        if usesFlights && isFlat(nodeStart, count: nodeCount) {
            addFlight(slot, target: target)
        }
        return AnimationID(slot: slot, generation: generation)
    }

    /// True when the run of `count` nodes at `root` may take the flat step (the
    /// ``FlightStore``): a group with a linear curve and a finite, positive duration, whose
    /// children (at most ``FlightStore/maxLeaves``) are all plain leaves (no timing of their
    /// own) writing field slots no other leaf writes: basic, paths of one segment, and
    /// keyframes of two values or more (four numbers at most) without key times, on linear
    /// and cubic Bezier curves.
    func isFlat(_ root: Int, count: Int) -> Bool {
        let g = nodes[root]
        guard count > 1, count - 1 <= FlightStore.maxLeaves, g.form == .group, g.curve == CurveTable.linearIndex,
              g.timing >= 0 else { return false }
        let d = numbers[Int(g.timing) + 2]
        guard d > 0, d.isFinite else { return false }
        // Slots written so far: no two leaves may write one (the store writes leaves by form,
        // not in the group's order).
        var written: UInt32 = 0
        for i in root + 1..<root + count {
            let n = nodes[i]
            guard n.form != .group, n.timing < 0, n.slot >= 0, tabled(n.curve) else { return false }
            let two = n.form == .path || n.dimension == 2 || n.has(AnimationNode.Flag.pairedSlot)
            let mask: UInt32 = (two ? 3 : 1) << UInt32(n.slot)
            guard written & mask == 0 else { return false }
            written |= mask
            let numberCount = FlightStore.numberCount(n.form, dimension: n.dimension, count: n.count)
            guard FlightStore.fits(n.form, numbers: numberCount) else { return false }
            if n.form == .keyframes {
                guard n.count >= 2, !n.has(AnimationNode.Flag.keyTimes) else { return false }
                if n.segmentCurves >= 0 {
                    for k in 0..<Int(n.count) - 1 where !tabled(indices[Int(n.segmentCurves) + k]) { return false }
                }
            }
        }
        return true
    }

    /// True for the linear curve and cubic Beziers, which the flat step reads from their tables.
    private func tabled(_ curve: Int32) -> Bool {
        if curve == CurveTable.linearIndex { return true }
        if case .cubicBezier = curves.curves[Int(curve)].form { return true }
        return false
    }

    /// Ends (as `replaced`) the runs on `target` that drive a property the new animation drives.
    func replaceOverlapping(on target: any Animatable, properties: [AnimatableProperty]) {
        guard let o = ownerIndex(of: target) else { return }
        var slot = Int(owners[Int(o)].first)
        while slot >= 0 {
            let next = Int(runs[slot].nextOnObject)
            if drivesAny(slot, of: properties) {
                retire(slot, .replaced)
            }
            slot = next
        }
    }

    /// True when a leaf of the run in `slot` drives one of `properties` or one overlapping it.
    func drivesAny(_ slot: Int, of properties: [AnimatableProperty]) -> Bool {
        let first = Int(heads[slot].root), last = first + Int(runs[slot].nodeCount)
        for i in first..<last where nodes[i].form != .group {
            let p = nodes[i].animatableProperty
            for q in properties where p.overlaps(q) {
                return true
            }
        }
        return false
    }

    // MARK: Compiling

    /// Appends `a` (and its subtree) to the scratch buffers and returns its entry index.
    /// `inherited` is the enclosing group's explicit duration.
    func compile(_ a: Animation, inherited: Double?, target: any Animatable) throws(AnimationError) -> Int {
        let t = a.timing
        try validate(t)
        var node = AnimationNode.empty
        if t.autoreverses { node.flags |= AnimationNode.Flag.autoreverses }
        if t.fill.holdsStart { node.flags |= AnimationNode.Flag.holdsStart }
        if t.fill.holdsEnd { node.flags |= AnimationNode.Flag.holdsEnd }
        node.curve = scratch.addCurve(t.curve)
        let duration = t.duration ?? inherited ?? Self.defaultDuration

        switch a.kind {
        case .group(let children):
            guard !children.isEmpty else { throw .emptyGroup }
            let me = scratch.entries.count
            scratch.entries.append(CompileScratch.Entry(node: node, timing: Self.resolve(t, duration: 0)))
            var longest = 0.0
            for child in children {
                let c = scratch.entries[try compile(child, inherited: t.duration, target: target)].timing
                let end: Double
                if c.activeDuration == 0 {
                    end = max(0, c.delay)
                } else {
                    end = c.speed > 0 ? c.delay + c.activeDuration / c.speed : .infinity
                }
                longest = max(longest, end)
            }
            node.form = .group
            node.count = Int32(scratch.entries.count - me)
            let timing = Self.resolve(t, duration: t.duration ?? longest)
            scratch.entries[me] = CompileScratch.Entry(node: node, timing: timing)
            markPlainChildren(of: me)
            return me

        case .basic(let property, let from, let to):
            let model = try currentValue(property, target)
            try check(to, for: property, model: model)
            if let from { try check(from, for: property, model: model) }
            try beginLeaf(&node, property, model, form: .basic)
            (from ?? model).append(to: &scratch.values)
            to.append(to: &scratch.values)

        case .spring(let property, let from, let to, let damping, let velocity):
            let model = try currentValue(property, target)
            try check(to, for: property, model: model)
            if let from { try check(from, for: property, model: model) }
            guard damping.isFinite, velocity.isFinite else {
                throw .invalidTiming("spring damping and velocity must be finite numbers")
            }
            try beginLeaf(&node, property, model, form: .basic)
            (from ?? model).append(to: &scratch.values)
            to.append(to: &scratch.values)
            scratch.curves[Int(node.curve)] = .spring(damping: damping, initialVelocity: velocity, duration: duration)

        case .keyframes(let property, let values, let keyTimes, let segmentCurves):
            guard !values.isEmpty else { throw .empty("keyframe values") }
            let model = try currentValue(property, target)
            for v in values { try check(v, for: property, model: model) }
            if let keyTimes { try Self.validate(keyTimes, count: values.count) }
            if let segmentCurves, segmentCurves.count < values.count - 1 {
                throw .tooFewCurves(needed: values.count - 1, got: segmentCurves.count)
            }
            try beginLeaf(&node, property, model, form: .keyframes)
            node.count = Int32(values.count)
            if let keyTimes {
                node.flags |= AnimationNode.Flag.keyTimes
                scratch.values += keyTimes
            }
            for v in values { v.append(to: &scratch.values) }
            if let segmentCurves, values.count > 1 {
                node.segmentCurves = Int32(scratch.indices.count)
                for c in segmentCurves.prefix(values.count - 1) {
                    scratch.indices.append(scratch.addCurve(c))
                }
            }

        case .path(let path, let property):
            guard !path.segments.isEmpty else { throw .empty("path") }
            let model = try currentValue(property, target)
            try check(.vector(path.start), for: property, model: model)
            try beginLeaf(&node, property, model, form: .path)
            node.count = Int32(path.segments.count)
            scratch.values += path.cubicControlPoints()
        }
        scratch.entries.append(CompileScratch.Entry(node: node, timing: Self.resolve(t, duration: duration)))
        return scratch.entries.count - 1
    }

    /// Marks the direct leaf children of group entry `g` that run exactly in the group's
    /// time: no delay, speed 1, one forward pass of the group's own duration. They are
    /// evaluated from the group's progress without timing of their own (their fill cannot
    /// matter: the group's time never leaves their active time).
    private func markPlainChildren(of g: Int) {
        let group = scratch.entries[g].timing
        guard group.duration.isFinite && group.duration > 0 else { return }
        var c = g + 1
        let end = g + Int(scratch.entries[g].node.count)
        while c < end {
            let e = scratch.entries[c]
            let t = e.timing
            if e.node.form != .group && t.delay == 0 && t.speed == 1 && t.duration == group.duration
                && t.activeDuration == t.duration && !e.node.has(AnimationNode.Flag.autoreverses)
            {
                scratch.entries[c].plain = true
            }
            c += e.node.subtreeSize
        }
    }

    /// Fills in a leaf's property and form and records its model value.
    private func beginLeaf(_ node: inout AnimationNode, _ property: AnimatableProperty,
                           _ model: AnimatableValue, form: AnimationNode.Form) throws(AnimationError) {
        guard let code = property.engineCode else { throw .noSuchProperty(property) }
        node.form = form
        node.property = code
        node.dimension = UInt8(model.dimension)
        node.data = Int32(scratch.values.count)
        node.model = Int32(scratch.models.count)
        if scratch.targetHasFields, let slot = property.fieldSlot {
            node.slot = slot
            if property == .scale { node.flags |= AnimationNode.Flag.pairedSlot }
        }
        model.append(to: &scratch.models)
        scratch.properties.append(property)
    }

    private func currentValue(_ property: AnimatableProperty, _ target: any Animatable) throws(AnimationError)
        -> AnimatableValue
    {
        guard let v = target.animatableValue(property) else { throw .noSuchProperty(property) }
        return v
    }

    private func check(_ value: AnimatableValue, for property: AnimatableProperty, model: AnimatableValue)
        throws(AnimationError)
    {
        guard value.dimension == model.dimension else {
            throw .valueKindMismatch(property, expected: model.kindName, got: value.kindName)
        }
    }

    private func validate(_ t: AnimationTiming) throws(AnimationError) {
        if let d = t.duration, !(d.isFinite && d >= 0) {
            throw .invalidTiming("duration must be a finite number >= 0, got \(d)")
        }
        guard t.delay.isFinite else { throw .invalidTiming("delay must be finite, got \(t.delay)") }
        guard t.speed.isFinite && t.speed >= 0 else {
            throw .invalidTiming("speed must be a finite number >= 0, got \(t.speed)")
        }
        guard t.repeatCount >= 0 else {
            throw .invalidTiming("repeat count must be >= 0 or forever, got \(t.repeatCount)")
        }
    }

    private static func validate(_ keyTimes: [Double], count: Int) throws(AnimationError) {
        guard keyTimes.count == count else {
            throw .invalidKeyTimes("\(keyTimes.count) key times for \(count) values")
        }
        guard keyTimes.first == 0, keyTimes.last == 1 else {
            throw .invalidKeyTimes("they must run from 0 to 1")
        }
        for i in 1..<keyTimes.count where !(keyTimes[i] >= keyTimes[i - 1]) {
            throw .invalidKeyTimes("they must not decrease (\(keyTimes[i - 1]) then \(keyTimes[i]))")
        }
    }

    /// Turns duration, repeat count and autoreverse into the active duration and end state.
    static func resolve(_ t: AnimationTiming, duration d: Double) -> NodeTiming {
        let repeats = t.repeatCount == 0 ? 1 : t.repeatCount
        let cycle = t.autoreverses ? 2 * d : d
        var r = NodeTiming(delay: t.delay, speed: t.speed, duration: d, activeDuration: 0, endSimple: 0)
        if d == 0 {
            r.activeDuration = 0
        } else if !repeats.isFinite || !d.isFinite {
            r.activeDuration = .infinity
        } else {
            r.activeDuration = cycle * repeats
            let fraction = repeats - repeats.rounded(.down)
            if fraction == 0 {
                // A whole number of cycles ends where a cycle ends: back at the start when reversing.
                r.endSimple = t.autoreverses ? 0 : d
            } else {
                let w = fraction * cycle
                r.endSimple = t.autoreverses && w > d ? cycle - w : w
            }
        }
        return r
    }
}
