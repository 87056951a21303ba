import Testing
@testable import ArcadeCore

/// `Animation.isIdentical(to:)`: what lets a compiled description be reused must tell apart
/// every difference that changes what it compiles to, placeholders and the sign of zero too.
@Suite struct AnimationIdenticalTests {
    /// A placeholder as `arcade.animate_many` makes them: a NaN carrying a column's index.
    func placeholder(_ k: UInt64) -> Double { Double(bitPattern: 0x7FF4_0000_0000_0000 | k) }

    func flight(fx: Double, duration: Double = 1, curves: [TimingCurve] = [.easeOut, .easeIn],
                to: Vec2 = Vec2(50, 5)) -> Animation {
        Animation(.group([
            Animation(.path(.quadratic(from: Vec2(fx, 90), control: Vec2(placeholder(1), placeholder(2)), to: to))),
            Animation(.keyframes(.scaleX, values: [.s(placeholder(3)), .s(placeholder(4)), .s(0.5)], curves: curves)),
        ]), duration: duration)
    }

    @Test func aDescriptionIsIdenticalToItsCopyPlaceholdersIncluded() {
        let a = flight(fx: placeholder(0)), b = flight(fx: placeholder(0))
        #expect(a != b)  // `==` never matches a NaN
        #expect(a.isIdentical(to: b))
        #expect(flight(fx: 3).isIdentical(to: flight(fx: 3)))
    }

    @Test func everyDifferenceCounts() {
        let a = flight(fx: placeholder(0))
        #expect(!a.isIdentical(to: flight(fx: placeholder(5))))
        #expect(!a.isIdentical(to: flight(fx: 7)))
        #expect(!a.isIdentical(to: flight(fx: placeholder(0), duration: 2)))
        #expect(!a.isIdentical(to: flight(fx: placeholder(0), curves: [.easeOut, .linear])))
        #expect(!a.isIdentical(to: flight(fx: placeholder(0), curves: [.easeOut])))
        #expect(!a.isIdentical(to: flight(fx: placeholder(0), to: Vec2(50, 6))))
        #expect(!flight(fx: 0).isIdentical(to: flight(fx: -0.0)))
        var delayed = a
        delayed.timing.delay = 0.1
        #expect(!a.isIdentical(to: delayed))
        var eased = a
        eased.timing.curve = .easeIn
        #expect(!a.isIdentical(to: eased))
        guard case .group(let children) = a.kind else { return }
        #expect(!a.isIdentical(to: Animation(.group(children.reversed()), duration: 1)))
        #expect(!a.isIdentical(to: Animation(.group(Array(children.prefix(1))), duration: 1)))
        let basic = Animation(.basic(.x, from: nil, to: .s(1)), duration: 1)
        #expect(basic.isIdentical(to: Animation(.basic(.x, from: nil, to: .s(1)), duration: 1)))
        #expect(!basic.isIdentical(to: Animation(.basic(.x, from: .s(0), to: .s(1)), duration: 1)))
        #expect(!basic.isIdentical(to: Animation(.basic(.y, from: nil, to: .s(1)), duration: 1)))
        let spring = Animation(.spring(.x, to: .s(1), damping: 0.5, initialVelocity: 2), duration: 1)
        #expect(spring.isIdentical(to: Animation(.spring(.x, to: .s(1), damping: 0.5, initialVelocity: 2), duration: 1)))
        #expect(!spring.isIdentical(to: Animation(.spring(.x, to: .s(1), damping: 0.6, initialVelocity: 2), duration: 1)))
        #expect(!spring.isIdentical(to: basic))
        let keyed = Animation(.keyframes(.y, values: [.s(0), .s(1)], keyTimes: [0, 1]), duration: 1)
        #expect(!keyed.isIdentical(to: Animation(.keyframes(.y, values: [.s(0), .s(1)]), duration: 1)))
    }
}
