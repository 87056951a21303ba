import Testing
@testable import ArcadeCore

/// `Animator.prepare` and starting from the prepared form: each target, with numbers of its
/// own, moves exactly as the description mapped to those numbers and started plainly does.
@Suite struct AnimationPreparedTests {
    /// A NaN carrying `k`: a placeholder no finite number can be.
    static func slot(_ k: Int) -> Double { Double(bitPattern: 0x7FF4_0000_0000_0000 | UInt64(k)) }

    /// Target `row`'s number for `v`: its placeholder's own value, or `v` itself.
    static func own(_ v: Double, row: Int) -> Double {
        let bits = v.bitPattern
        guard bits & 0xFFFF_FFFF_0000_0000 == 0x7FF4_0000_0000_0000 else { return v }
        return Double(row + 1) * 10 + Double(bits & 0xFFFF_FFFF)
    }

    /// Paths of every kind, keyframes with key times and segment curves, a basic and a
    /// spring starting from the current value, a colour: placeholders among fixed numbers.
    static let template = Animation(.group([
        Animation(.path(BezierPath(start: Vec2(slot(0), 4), segments: [
            .quad(control: Vec2(slot(1), slot(2)), to: Vec2(30, slot(3))),
            .line(to: Vec2(slot(4), 7)),
            .cubic(control1: Vec2(1, slot(5)), control2: Vec2(slot(6), 2), to: Vec2(0, 0)),
        ]))),
        Animation(.keyframes(.scaleX, values: [.scalar(slot(7)), .scalar(2), .scalar(slot(8))], keyTimes: [0, 0.3, 1],
                             curves: [.easeOut, .easeIn])),
        Animation(.basic(.alpha, to: .scalar(slot(9))), duration: 0.5, delay: 0.1),
        Animation(.spring(.rotation, to: .scalar(slot(10)), damping: 0.5, initialVelocity: 2), duration: 0.8),
        Animation(.basic(.color(0), from: .color(.black), to: .color(Color(rgb: 0x336699)))),
    ]), duration: 1.2, fill: .forwards, curve: .easeInEaseOut)

    @Test func preparedStartsMoveExactlyAsMappedStarts() throws {
        let plain = Animator(), batch = Animator()
        let a = (0..<4).map { Sprite(position: Vec2(Double($0), 1)) }
        let b = (0..<4).map { Sprite(position: Vec2(Double($0), 1)) }
        for (i, s) in a.enumerated() { s.alpha = 0.2 * Double(i); s.rotation = Double(i) }
        for (i, s) in b.enumerated() { s.alpha = 0.2 * Double(i); s.rotation = Double(i) }
        let prepared = try batch.prepare(Self.template, for: b[0])
        for row in 0..<4 {
            try plain.start(Self.template.mappingValues { Self.own($0, row: row) }, on: a[row], token: UInt64(row))
            try batch.start(prepared, on: b[row], token: UInt64(row)) { Self.own($0, row: row) }
        }
        for _ in 0..<90 {
            for (x, y) in zip(a, b) {
                #expect(x.position == y.position)
                #expect(x.scaleX == y.scaleX)
                #expect(x.alpha == y.alpha)
                #expect(x.rotation == y.rotation)
                #expect(x.color == y.color)
            }
            plain.advance(by: step)
            batch.advance(by: step)
        }
        #expect(plain.drain() == batch.drain())
    }

    @Test func targetsOfFieldsAndUnlikeTargetsMatchToo() throws {
        let flight = Animation(.group([
            Animation(.path(.quadratic(from: Vec2(Self.slot(0), 50), control: Vec2(Self.slot(1), Self.slot(2)), to: Vec2(9, 9)))),
            Animation(.keyframes(.scaleY, values: [.scalar(Self.slot(3)), .scalar(1), .scalar(0.5)], curves: [.easeOut, .easeIn])),
        ]), duration: 1, fill: .forwards)
        let plain = Animator(), batch = Animator()
        let a = FieldSprite(), b = FieldSprite()
        let c = Sprite(), d = Sprite()
        let prepared = try batch.prepare(flight, for: b)
        try plain.start(flight.mappingValues { Self.own($0, row: 0) }, on: a)
        try batch.start(prepared, on: b) { Self.own($0, row: 0) }
        // a target of another type than the prepared one is compiled for itself
        try plain.start(flight.mappingValues { Self.own($0, row: 1) }, on: c)
        try batch.start(prepared, on: d) { Self.own($0, row: 1) }
        for _ in 0..<70 {
            let f = a.fields.pointee, g = b.fields.pointee
            #expect(f.x == g.x && f.y == g.y && f.scaleX == g.scaleX && f.scaleY == g.scaleY)
            #expect(c.position == d.position && c.scaleY == d.scaleY)
            plain.advance(by: step)
            batch.advance(by: step)
        }
        #expect(d.position == Vec2(9, 9))
    }

    /// A prepared animation whose curves are all pinned carries their indices, which are the
    /// same in every engine; one with a curve of its own takes a reference per start.
    @Test func preparedCurvesAreCountedOnlyWhenNotPinned() throws {
        let custom = TimingCurve.cubicBezier(0.2, 0.7, 0.4, 1)
        func flight(_ curve: TimingCurve) -> Animation {
            Animation(.group([
                Animation(.keyframes(.scaleX, values: [.scalar(Self.slot(0)), .scalar(2), .scalar(1)], curves: [.easeOut, .easeIn])),
                Animation(.basic(.alpha, from: .scalar(1), to: .scalar(0.25)), curve: curve),
                Animation(.basic(.rotation, from: .scalar(0), to: .scalar(2)), curve: .easeInEaseOut),
            ]), duration: 1, fill: .forwards)
        }
        let animator = Animator(), elsewhere = Animator(), plain = Animator()
        let sprites = (0..<3).map { _ in FieldSprite() }
        let pinned = try elsewhere.prepare(flight(.easeIn), for: sprites[0])
        let counted = try animator.prepare(flight(custom), for: sprites[0])
        #expect(pinned.pinnedCurves != nil)
        #expect(counted.pinnedCurves == nil)
        try animator.start(pinned, on: sprites[0]) { Self.own($0, row: 0) }
        let id = try animator.start(counted, on: sprites[1]) { Self.own($0, row: 1) }
        try plain.start(flight(.easeIn).mappingValues { Self.own($0, row: 0) }, on: sprites[2])
        #expect(animator.curves.liveCustomCount == 1)
        for _ in 0..<70 {
            #expect(AnimationFlightTests.bits(sprites[0]) == AnimationFlightTests.bits(sprites[2]))
            animator.advance(by: step)
            plain.advance(by: step)
        }
        #expect(animator.isRunning(id) == false)
        #expect(animator.curves.liveCustomCount == 0)
        #expect(animator.drain().count == 2)
    }

    @Test func preparingThrowsWhatStartingWould() {
        let bad = Animation(.group([Animation(.basic(.position, to: .scalar(Self.slot(0))))]), duration: 1)
        let animator = Animator()
        #expect(throws: AnimationError.valueKindMismatch(.position, expected: "vector", got: "scalar")) {
            try animator.prepare(bad, for: Sprite())
        }
        #expect(throws: AnimationError.valueKindMismatch(.position, expected: "vector", got: "scalar")) {
            try animator.start(bad, on: Sprite())
        }
        #expect(animator.runningCount == 0)
    }
}
