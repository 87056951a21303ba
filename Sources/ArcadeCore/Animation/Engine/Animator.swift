/// The native animation engine: runs every animation of a game, one fixed step at a time.
///
/// Lua (or any caller) describes an ``Animation`` once and starts it on a target with
/// ``start(_:on:token:)``; from then on ``advance(by:)`` writes the target's properties
/// each step without calling back. When an animation ends, its ``AnimationCompletion`` is
/// queued; the caller takes completions with ``nextCompletion()`` after advancing, never in
/// the middle of it, and may start or cancel animations while doing so.
///
/// Rules, after Core Animation:
/// - Animations do not keep their target alive. At each step, an animation whose target
///   is referenced by nothing but the engine ends (`targetGone`, not finished) and the
///   engine lets the target go, so its deinit runs at that step rather than at once. (A
///   Swift weak reference would free it at once, but it slows every retain and release
///   of the target for good; see `TargetOwner`.)
/// - Starting an animation on a property of a target replaces the running animation that
///   drives that property (or one it ``AnimatableProperty/overlaps(_:)``), which ends with
///   `replaced`; the whole older animation stops, group included.
/// - Cancelling or replacing leaves properties where they are; finishing applies the fill
///   (keep the final value, or snap back to the value the property had at start).
/// - A started animation shows its first state at once: ``start(_:on:token:)`` writes it.
///
/// Determinism: evaluation is pure arithmetic on the step's time; completions of one step
/// are queued by end time, then start order. Storage is contiguous and reused (see
/// ``storageFootprint``), and a step allocates nothing.
///
/// A reference type: the engine has identity (ids name its animations) and owns its
/// storage. Not thread-safe; targets must not start or cancel animations from inside
/// their property setters.
public final class Animator {
    // Stored properties marked `@exclusivity(unchecked)`: the engine belongs to one thread
    // (see above) and its storage is reached through one access at a time, while starting
    // and ending thousands of animations a second touches it; the runtime's dynamic
    // exclusivity checks showed in the profile of a coin shower.

    /// Per run slot: what a step reads.
    @exclusivity(unchecked) var heads = RawBuffer<RunHead>(capacity: 64)
    /// Per run slot: the rest.
    @exclusivity(unchecked) var runs = RawBuffer<Run>(capacity: 64)
    /// One per target with running animations.
    @exclusivity(unchecked) var owners = RawBuffer<TargetOwner>(capacity: 64)
    @exclusivity(unchecked) var freeOwners: [Int32] = []
    /// The owner entry of each target that does not record it in its own fields (see
    /// ``ownerIndex(of:)``).
    @exclusivity(unchecked) var byObject: [ObjectIdentifier: Int32] = [:]
    @exclusivity(unchecked) var freeRuns: [Int32] = []
    @exclusivity(unchecked) var nodes = SlabPool<AnimationNode>(filler: .empty)
    @exclusivity(unchecked) var numbers = SlabPool<Double>(filler: 0)
    @exclusivity(unchecked) var indices = SlabPool<Int32>(filler: 0)
    @exclusivity(unchecked) var curves = CurveTable()
    /// The running flat runs, stepped by one loop (see ``FlightStore``).
    @exclusivity(unchecked) var flights = FlightStore()
    /// Whether flat runs go to ``flights``; off, every run takes the general walk (tests
    /// compare the two).
    @exclusivity(unchecked) var usesFlights = true
    @exclusivity(unchecked) var completions: [AnimationCompletion] = []
    @exclusivity(unchecked) var completionHead = 0
    /// Runs found ended during a step, retired in order afterwards.
    @exclusivity(unchecked) var ended: [(time: Double, serial: UInt64, slot: Int32, end: AnimationEnd)] = []
    @exclusivity(unchecked) var nextSerial: UInt64 = 0
    @exclusivity(unchecked) var scratch = CompileScratch()
    /// A prepared start's values and model values for its target (see ``PreparedAnimation``).
    @exclusivity(unchecked) var memberValues: [Double] = []
    @exclusivity(unchecked) var memberModels: [Double] = []
    /// Set while a step evaluates: the step reads the pools through raw pointers, so
    /// nothing may start or end an animation until it is done.
    @exclusivity(unchecked) var advancing = false
    /// ``AnimatableFields/heldEpoch`` when the flights' check last read its targets' bits
    /// (see ``handGoneTargetsToTheGeneralWalk()``).
    @exclusivity(unchecked) var heldEpochRead: UInt64 = .max

    /// Seconds of animation time advanced so far.
    @exclusivity(unchecked) public internal(set) var time: Double = 0
    /// Animations started and not yet ended.
    @exclusivity(unchecked) public internal(set) var runningCount = 0

    /// Tolerance for "this time has been reached": steps of 1/60 s summed in floating point
    /// land a hair before or after whole durations.
    static let epsilon = 1e-9

    /// What this engine writes in ``AnimatableFields/ownerEngine`` of the targets whose owner
    /// entries they record: bits of its address, never 0.
    @exclusivity(unchecked) var engineTag: UInt16 = 1

    /// An empty engine at time 0.
    public init() {
        let bits = UInt16(truncatingIfNeeded: UInt(bitPattern: ObjectIdentifier(self)) >> 4)
        engineTag = bits == 0 ? 1 : bits
    }

    deinit {
        // Targets that outlive the engine forget the owner entries it recorded in them.
        let tag = engineTag
        for o in 0..<owners.count {
            if let f = owners[o].fields, f.pointee.ownerEngine == tag { f.pointee.ownerEngine = 0 }
        }
        heads.destroy()
        runs.destroy()
        owners.destroy()
        nodes.destroy()
        numbers.destroy()
        indices.destroy()
        curves.destroy()
        flights.destroy()
    }

    /// True from ``start(_:on:token:)`` until the animation ends in any way.
    public func isRunning(_ id: AnimationID) -> Bool {
        let s = id.slot
        return s < runs.count && heads[s].root >= 0 && runs[s].generation == id.generation
    }

    /// Cancels one animation: its properties stay where they are and its completion reports
    /// `cancelled`. Returns false when it was not running.
    @discardableResult
    public func cancel(_ id: AnimationID) -> Bool {
        precondition(!advancing, "an animation target cancelled an animation from its property setter")
        guard isRunning(id) else { return false }
        retire(id.slot, .cancelled)
        return true
    }

    /// Cancels every animation on `target`, in the order they were started; returns how many.
    @discardableResult
    public func cancelAll(on target: any Animatable) -> Int {
        precondition(!advancing, "an animation target cancelled animations from its property setter")
        guard let o = ownerIndex(of: target) else { return 0 }
        var n = 0
        // The owner entry goes away with the last run, so read the list before it does.
        while owners[Int(o)].first >= 0 && owners[Int(o)].object === target {
            retire(Int(owners[Int(o)].first), .cancelled)
            n += 1
        }
        return n
    }

    /// Cancels every animation (a game is closing), in the order they were started.
    @discardableResult
    public func cancelAll() -> Int {
        precondition(!advancing, "an animation target cancelled animations from its property setter")
        var live: [(serial: UInt64, slot: Int)] = []
        for s in 0..<runs.count where heads[s].root >= 0 {
            live.append((runs[s].serial, s))
        }
        live.sort { $0.serial < $1.serial }
        for (_, s) in live {
            retire(s, .cancelled)
        }
        return live.count
    }

    /// Advances every animation by `dt` seconds and writes their properties.
    ///
    /// Animations that end are queued for ``nextCompletion()`` ordered by the time they
    /// ended, then by start order. Nothing is called back during the step except the
    /// targets' property setters.
    public func advance(by dt: Double) {
        if dt > 0 { time += dt }
        let now = time
        let heads = self.heads.base, owners = self.owners.base, runs = self.runs.base
        var evaluator = StepEvaluator(self)
        advancing = true
        if flights.count > 0 {
            stepFlights(now, &evaluator)
        }
        // The other runs, when there are any, in slot order.
        if runningCount > flights.count {
            for slot in 0..<self.heads.count {
                let head = heads + slot
                let root = head.pointee.root
                if root < 0 || head.pointee.flight >= 0 { continue }
                if owners[Int(head.pointee.owner)].targetIsGone() {
                    ended.append((now, runs[slot].serial, Int32(slot), .targetGone))
                    continue
                }
                let start = head.pointee.start
                if let end = evaluator.evaluateOutOfLine(root: Int(root), elapsed: now - start,
                                                         target: head.pointee.target.unsafelyUnwrapped) {
                    ended.append((start + end, runs[slot].serial, Int32(slot), .finished))
                }
            }
        }
        advancing = false
        if !ended.isEmpty {
            ended.sort { $0.time != $1.time ? $0.time < $1.time : $0.serial < $1.serial }
            for e in ended {
                retire(Int(e.slot), e.end)
            }
            ended.removeAll(keepingCapacity: true)
        }
    }

    /// The oldest queued completion, removed from the queue; nil when there is none.
    ///
    /// Completions queued while draining (a callback cancels or replaces an animation) are
    /// delivered by later calls of the same drain loop.
    public func nextCompletion() -> AnimationCompletion? {
        guard completionHead < completions.count else { return nil }
        let c = completions[completionHead]
        completionHead += 1
        if completionHead == completions.count {
            completions.removeAll(keepingCapacity: true)
            completionHead = 0
        }
        return c
    }

    /// Completions waiting for ``nextCompletion()``.
    public var pendingCompletionCount: Int { completions.count - completionHead }

    /// Elements held by the engine's internal storage, in use or free for reuse. It grows
    /// to the high-water mark of concurrent animations and stays there: a game that
    /// starts and ends animations forever does not grow it.
    public var storageFootprint: Int {
        runs.count + owners.count + nodes.footprint + numbers.footprint + indices.footprint
            + curves.footprint + flights.footprint + byObject.capacity + completions.capacity + ended.capacity
    }

    // MARK: Ending

    /// Ends the run in `slot`: queues its completion and frees its storage.
    func retire(_ slot: Int, _ end: AnimationEnd) {
        removeFlight(slot)
        let run = runs[slot]
        completions.append(AnimationCompletion(id: AnimationID(slot: slot, generation: run.generation),
                                               token: run.token, end: end))

        let first = Int(heads[slot].root), last = first + Int(run.nodeCount)
        for i in first..<last {
            let n = nodes[i]
            curves.release(n.curve)
            if n.segmentCurves >= 0 {
                for s in 0..<Int(n.count) - 1 {
                    curves.release(indices[Int(n.segmentCurves) + s])
                }
            }
        }
        nodes.release(first, count: Int(run.nodeCount))
        numbers.release(Int(run.numberStart), count: Int(run.numberCount))
        if run.indexCount > 0 {
            indices.release(Int(run.indexStart), count: Int(run.indexCount))
        }
        heads.base[slot].root = -1
        heads.base[slot].target = nil
        let g = run.generation &+ 1
        runs.base[slot].generation = g == 0 ? 1 : g
        freeRuns.append(Int32(slot))
        runningCount -= 1
        // Last: dropping the engine's reference to the target may run its deinit.
        unlink(slot)
    }

    // MARK: Per-target lists

    /// The owner entry of `target`, or nil when no animation runs on it. A target with
    /// fields records its entry there (the first engine to animate it does; any other engine
    /// animating it at the same time uses `byObject`), so most starts and ends find or drop
    /// it with no lookup. Two live engines may share a tag: an entry found through the
    /// fields counts only when it is this engine's entry for these fields.
    @inline(__always)
    func ownerIndex(of target: any Animatable) -> Int32? {
        if let f = target.animatableFields, f.pointee.ownerEngine == engineTag {
            let o = Int(f.pointee.ownerIndex)
            if o >= 0 && o < owners.count && owners.base[o].fields == f { return Int32(o) }
        }
        if byObject.isEmpty { return nil }
        return byObject[ObjectIdentifier(target)]
    }

    /// Appends `slot` to the list of runs on `target` (start order), creating its owner
    /// entry (and taking the engine's reference) for the first one.
    func link(_ slot: Int, _ target: any Animatable) {
        let o: Int
        if let existing = ownerIndex(of: target) {
            o = Int(existing)
        } else {
            if let free = freeOwners.popLast() {
                o = Int(free)
            } else {
                owners.append(TargetOwner())
                o = owners.count - 1
            }
            var entry = TargetOwner(object: target, first: -1, last: -1)
            if let f = target.animatableFields, f.pointee.ownerEngine == 0 {
                f.pointee.ownerEngine = engineTag
                f.pointee.ownerIndex = Int32(o)
                entry.fields = f
                // Lowered from now on, the bit moves the epoch on (the entry is this engine's).
                entry.held = f.pointee.isHeldElsewhere
            } else {
                byObject[ObjectIdentifier(target)] = Int32(o)
            }
            owners.base[o] = entry
        }
        let s = Int32(slot)
        let r = runs.base, ow = owners.base + o
        r[slot].nextOnObject = -1
        r[slot].previousOnObject = ow.pointee.last
        if ow.pointee.last >= 0 {
            r[Int(ow.pointee.last)].nextOnObject = s
        } else {
            ow.pointee.first = s
        }
        ow.pointee.last = s
        heads.base[slot].owner = Int32(o)
    }

    /// Removes `slot` from its target's list; the last run out releases the target.
    func unlink(_ slot: Int) {
        let r = runs.base
        let o = Int(heads[slot].owner)
        let ow = owners.base + o
        let prev = r[slot].previousOnObject, next = r[slot].nextOnObject
        if prev >= 0 { r[Int(prev)].nextOnObject = next } else { ow.pointee.first = next }
        if next >= 0 { r[Int(next)].previousOnObject = prev } else { ow.pointee.last = prev }
        heads.base[slot].owner = -1
        if ow.pointee.first < 0 {
            // Before the reference goes (the target's deinit frees its fields).
            if let f = ow.pointee.fields {
                f.pointee.ownerEngine = 0
            } else if let object = ow.pointee.object {
                byObject[ObjectIdentifier(object)] = nil
            }
            freeOwners.append(Int32(o))
            ow.pointee = TargetOwner()
        }
    }
}
