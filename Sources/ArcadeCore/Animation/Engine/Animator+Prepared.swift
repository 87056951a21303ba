/// An animation compiled once to be started on many like targets, each with numbers of its
/// own (``Animator/prepare(_:for:)``, ``Animator/start(_:on:token:values:)``).
///
/// The description may hold placeholders (numbers a start maps to the target's own); the
/// compiled form keeps every leaf's place, so a start rewrites only the leaves' values and
/// the target's model values instead of compiling the description again.
public struct PreparedAnimation {
    /// The description as given: what a start on an unlike target compiles.
    let animation: Animation
    let entries: [CompileScratch.Entry]
    let values: [Double]
    let models: [Double]
    let indices: [Int32]
    let curves: [TimingCurve]
    /// The curve table index of each of `curves` when all are pinned (the same in every
    /// engine, and never counted), else nil.
    let pinnedCurves: [Int32]?
    let properties: [AnimatableProperty]
    let leaves: [Leaf]
    /// The kind of target it was compiled for and whether that target offers fields.
    let targetType: ObjectIdentifier
    let targetHasFields: Bool
    /// Entries with timing of their own (not plain).
    let timedCount: Int

    /// True when it was compiled for targets like `target` (of its type, with fields or
    /// without alike), which a start then takes without compiling again.
    public func isCompiled(for target: any Animatable) -> Bool {
        ObjectIdentifier(type(of: target)) == targetType && (target.animatableFields != nil) == targetHasFields
    }

    /// A leaf of the description and where its numbers went.
    struct Leaf {
        let kind: AnimationKind
        let property: AnimatableProperty
        let data: Int
        let model: Int
        let dimension: UInt8
    }
}

extension Animator {
    /// Compiles `animation` for targets like `target` (of its type). Throws what starting
    /// it on `target` would throw; nothing starts and nothing changes.
    public func prepare(_ animation: Animation, for target: any Animatable) throws(AnimationError)
        -> PreparedAnimation
    {
        precondition(!advancing, "an animation target started an animation from its property setter")
        scratch.reset()
        scratch.targetHasFields = target.animatableFields != nil
        _ = try compile(animation, inherited: nil, target: target)
        var kinds: [AnimationKind] = []
        Self.collectLeaves(animation, into: &kinds)
        var leaves: [PreparedAnimation.Leaf] = []
        leaves.reserveCapacity(kinds.count)
        var k = 0
        for e in scratch.entries where e.node.form != .group {
            let kind = kinds[k]
            k += 1
            leaves.append(PreparedAnimation.Leaf(kind: kind, property: Self.property(of: kind), data: Int(e.node.data),
                                                 model: Int(e.node.model), dimension: e.node.dimension))
        }
        var pinned: [Int32]? = []
        for c in scratch.curves {
            guard let i = curves.pinnedIndex(c) else { pinned = nil; break }
            pinned?.append(i)
        }
        return PreparedAnimation(
            animation: animation, entries: scratch.entries, values: scratch.values, models: scratch.models,
            indices: scratch.indices, curves: scratch.curves, pinnedCurves: pinned, properties: scratch.properties,
            leaves: leaves,
            targetType: ObjectIdentifier(type(of: target)), targetHasFields: scratch.targetHasFields,
            timedCount: scratch.entries.reduce(0) { $0 + ($1.plain ? 0 : 1) })
    }

    /// Starts `prepared` on `target` with each of its numbers replaced by `values`, exactly
    /// as ``start(_:on:token:)`` would start the description so mapped.
    @discardableResult
    public func start(_ prepared: PreparedAnimation, on target: any Animatable, token: UInt64 = 0,
                      values map: (Double) -> Double) throws(AnimationError) -> AnimationID
    {
        precondition(!advancing, "an animation target started an animation from its property setter")
        guard ObjectIdentifier(type(of: target)) == prepared.targetType,
              (target.animatableFields != nil) == prepared.targetHasFields
        else {
            return try start(prepared.animation.mappingValues(map), on: target, token: token)
        }
        // This target's numbers: the leaves' values mapped and its model values, in buffers
        // of their own (the compiled layout is the prepared one, shared by every start).
        memberValues.removeAll(keepingCapacity: true)
        memberValues.append(contentsOf: prepared.values)
        memberModels.removeAll(keepingCapacity: true)
        memberModels.append(contentsOf: prepared.models)
        for k in prepared.leaves.indices {
            let property = prepared.leaves[k].property, data = prepared.leaves[k].data
            guard let model = target.animatableValue(property), model.dimension == Int(prepared.leaves[k].dimension) else {
                return try start(prepared.animation.mappingValues(map), on: target, token: token)
            }
            Self.write(model, into: &memberModels, at: prepared.leaves[k].model)
            switch prepared.leaves[k].kind {
            case let .basic(_, from, to), let .spring(_, from, to, _, _):
                let i = Self.write(from?.mappingValues(map) ?? model, into: &memberValues, at: data)
                Self.write(to.mappingValues(map), into: &memberValues, at: i)
            case let .keyframes(_, values, keyTimes, _):
                var i = data + (keyTimes?.count ?? 0)
                for v in values { i = Self.write(v.mappingValues(map), into: &memberValues, at: i) }
            case let .path(path, _):
                path.writeCubicControlPoints(into: &memberValues, at: data, mapping: map)
            case .group:
                break
            }
        }
        return commit(on: target, token: token, entries: prepared.entries, timed: prepared.timedCount,
                      values: memberValues, models: memberModels, indices: prepared.indices, curves: prepared.curves,
                      pinned: prepared.pinnedCurves, properties: prepared.properties)
    }

    /// The leaves of `a` in the order ``compile(_:inherited:target:)`` lays them out.
    private static func collectLeaves(_ a: Animation, into out: inout [AnimationKind]) {
        if case .group(let children) = a.kind {
            for c in children { collectLeaves(c, into: &out) }
        } else {
            out.append(a.kind)
        }
    }

    private static func property(of kind: AnimationKind) -> AnimatableProperty {
        switch kind {
        case let .basic(p, _, _), let .keyframes(p, _, _, _), let .spring(p, _, _, _, _): p
        case let .path(_, p): p
        case .group: .position
        }
    }

    /// Writes `v`'s numbers (as ``AnimatableValue/append(to:)`` lays them out) from `i`;
    /// returns the index after them.
    @discardableResult
    private static func write(_ v: AnimatableValue, into numbers: inout [Double], at i: Int) -> Int {
        switch v {
        case .scalar(let x):
            numbers[i] = x
            return i + 1
        case .vector(let p):
            numbers[i] = p.x
            numbers[i + 1] = p.y
            return i + 2
        case .color(let c):
            numbers[i] = Double(c.r)
            numbers[i + 1] = Double(c.g)
            numbers[i + 2] = Double(c.b)
            numbers[i + 3] = Double(c.a)
            return i + 4
        }
    }
}
