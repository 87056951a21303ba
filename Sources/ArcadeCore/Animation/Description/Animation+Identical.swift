extension Animation {
    /// True when `other` is this description exactly: the same structure, and every number
    /// the same bits. Unlike `==`, a NaN (a placeholder of ``mappingValues(_:)``'s callers)
    /// matches the same NaN, and 0 does not match -0: what a description compiles to may be
    /// reused for an identical one (see ``Animator/prepare(_:for:)``).
    public func isIdentical(to other: Animation) -> Bool {
        timing.isIdentical(to: other.timing) && kind.isIdentical(to: other.kind)
    }
}

/// The same bits.
@inline(__always) private func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }

private func same(_ a: Double?, _ b: Double?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case let (x?, y?): same(x, y)
    default: false
    }
}

@inline(__always) private func same(_ a: Vec2, _ b: Vec2) -> Bool { same(a.x, b.x) && same(a.y, b.y) }

private func same(_ a: [Double]?, _ b: [Double]?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case let (x?, y?): x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    default: false
    }
}

extension AnimationTiming {
    func isIdentical(to o: AnimationTiming) -> Bool {
        same(duration, o.duration) && same(delay, o.delay) && same(speed, o.speed) && same(repeatCount, o.repeatCount)
            && autoreverses == o.autoreverses && fill == o.fill && curve.isIdentical(to: o.curve)
    }
}

extension TimingCurve {
    func isIdentical(to o: TimingCurve) -> Bool {
        form == o.form && same(k0, o.k0) && same(k1, o.k1) && same(k2, o.k2) && same(k3, o.k3) && same(k4, o.k4)
            && same(k5, o.k5)
    }
}

extension AnimatableValue {
    func isIdentical(to o: AnimatableValue) -> Bool {
        switch (self, o) {
        case let (.scalar(a), .scalar(b)): same(a, b)
        case let (.vector(a), .vector(b)): same(a, b)
        case let (.color(a), .color(b)): a == b
        default: false
        }
    }
}

private func same(_ a: AnimatableValue?, _ b: AnimatableValue?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case let (x?, y?): x.isIdentical(to: y)
    default: false
    }
}

private func same(_ a: [AnimatableValue], _ b: [AnimatableValue]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
}

private func same(_ a: [TimingCurve]?, _ b: [TimingCurve]?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case let (x?, y?): x.count == y.count && zip(x, y).allSatisfy { $0.isIdentical(to: $1) }
    default: false
    }
}

extension PathSegment {
    func isIdentical(to o: PathSegment) -> Bool {
        switch (self, o) {
        case let (.line(a), .line(b)): same(a, b)
        case let (.quad(a, b), .quad(c, d)): same(a, c) && same(b, d)
        case let (.cubic(a, b, c), .cubic(d, e, f)): same(a, d) && same(b, e) && same(c, f)
        default: false
        }
    }
}

extension AnimationKind {
    func isIdentical(to o: AnimationKind) -> Bool {
        switch (self, o) {
        case let (.basic(p, f, t), .basic(q, g, u)):
            return p == q && same(f, g) && t.isIdentical(to: u)
        case let (.keyframes(p, v, k, c), .keyframes(q, w, l, d)):
            return p == q && same(v, w) && same(k, l) && same(c, d)
        case let (.path(a, p), .path(b, q)):
            return p == q && same(a.start, b.start) && a.segments.count == b.segments.count
                && zip(a.segments, b.segments).allSatisfy { $0.isIdentical(to: $1) }
        case let (.spring(p, f, t, damping, velocity), .spring(q, g, u, damping2, velocity2)):
            return p == q && same(f, g) && t.isIdentical(to: u) && same(damping, damping2) && same(velocity, velocity2)
        case let (.group(a), .group(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        default:
            return false
        }
    }
}
