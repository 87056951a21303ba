extension Animation {
    /// This description with every number of its values replaced by `transform`: the
    /// `from`, `to` and keyframe values (each coordinate of a vector), and every point of a
    /// path, in groups too. Timing, key times, curves, spring parameters and colours are kept.
    /// One description read once can so be started on many targets, each with values of its own.
    public func mappingValues<E: Error>(_ transform: (Double) throws(E) -> Double) throws(E) -> Animation {
        var out = self
        out.kind = try kind.mappingValues(transform)
        return out
    }
}

extension AnimationKind {
    /// ``Animation/mappingValues(_:)`` for the kind alone.
    public func mappingValues<E: Error>(_ f: (Double) throws(E) -> Double) throws(E) -> AnimationKind {
        switch self {
        case let .basic(p, from, to):
            return .basic(p, from: try from?.mappingValues(f), to: try to.mappingValues(f))
        case let .keyframes(p, values, keyTimes, curves):
            var mapped: [AnimatableValue] = []
            mapped.reserveCapacity(values.count)
            for v in values { mapped.append(try v.mappingValues(f)) }
            return .keyframes(p, values: mapped, keyTimes: keyTimes, curves: curves)
        case let .path(path, property):
            return .path(try path.mappingPoints(f), property: property)
        case let .spring(p, from, to, damping, velocity):
            return .spring(p, from: try from?.mappingValues(f), to: try to.mappingValues(f),
                           damping: damping, initialVelocity: velocity)
        case let .group(children):
            var mapped: [Animation] = []
            mapped.reserveCapacity(children.count)
            for c in children { mapped.append(try c.mappingValues(f)) }
            return .group(mapped)
        }
    }
}

extension AnimatableValue {
    /// The value with each number replaced by `f` (a colour is kept as it is).
    public func mappingValues<E: Error>(_ f: (Double) throws(E) -> Double) throws(E) -> AnimatableValue {
        switch self {
        case .scalar(let v): .scalar(try f(v))
        case .vector(let v): .vector(Vec2(try f(v.x), try f(v.y)))
        case .color: self
        }
    }
}

extension BezierPath {
    /// The path with each coordinate of each point replaced by `f`.
    public func mappingPoints<E: Error>(_ f: (Double) throws(E) -> Double) throws(E) -> BezierPath {
        func m(_ p: Vec2) throws(E) -> Vec2 { Vec2(try f(p.x), try f(p.y)) }
        var segs: [PathSegment] = []
        segs.reserveCapacity(segments.count)
        for s in segments {
            switch s {
            case .line(let to): segs.append(.line(to: try m(to)))
            case .quad(let c, let to): segs.append(.quad(control: try m(c), to: try m(to)))
            case .cubic(let a, let b, let to): segs.append(.cubic(control1: try m(a), control2: try m(b), to: try m(to)))
            }
        }
        return BezierPath(start: try m(start), segments: segs)
    }
}
