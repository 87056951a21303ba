import Testing
import ArcadeCore

/// `Animation.mappingValues`: one description read once, started on many targets with values
/// of their own.
@Suite struct AnimationValueMappingTests {
    @Test func everyValueIsMappedAndEverythingElseKept() {
        let halves: [TimingCurve] = [.easeOut, .easeIn]
        let flight = Animation(.group([
            Animation(.path(.cubic(from: Vec2(1, 2), control1: Vec2(3, 4), control2: Vec2(5, 6), to: Vec2(7, 8)))),
            Animation(.keyframes(.scaleX, values: [.scalar(1), .scalar(2), .scalar(3)], keyTimes: [0, 0.25, 1], curves: halves)),
            Animation(.basic(.alpha, from: .scalar(0.5), to: .scalar(1)), duration: 2, delay: 0.5),
            Animation(.spring(.position, from: nil, to: .vector(Vec2(9, 10)), damping: 0.4, initialVelocity: 3)),
            Animation(.basic(.color(0), to: .color(Color(rgb: 0x112233)))),
        ]), duration: 1, delay: 0.25, repeatCount: 2, autoreverses: true, fill: .forwards, curve: .easeIn)
        let mapped = flight.mappingValues { $0 * 10 }
        let expected = Animation(.group([
            Animation(.path(.cubic(from: Vec2(10, 20), control1: Vec2(30, 40), control2: Vec2(50, 60), to: Vec2(70, 80)))),
            Animation(.keyframes(.scaleX, values: [.scalar(10), .scalar(20), .scalar(30)], keyTimes: [0, 0.25, 1], curves: halves)),
            Animation(.basic(.alpha, from: .scalar(5), to: .scalar(10)), duration: 2, delay: 0.5),
            Animation(.spring(.position, from: nil, to: .vector(Vec2(90, 100)), damping: 0.4, initialVelocity: 3)),
            Animation(.basic(.color(0), to: .color(Color(rgb: 0x112233)))),
        ]), duration: 1, delay: 0.25, repeatCount: 2, autoreverses: true, fill: .forwards, curve: .easeIn)
        #expect(mapped == expected)
        #expect(flight.mappingValues { $0 } == flight)
    }

    @Test func aThrowingMapStopsWithItsError() {
        struct Refused: Error {}
        let a = Animation(.keyframes(.x, values: [.scalar(1), .scalar(-1)]))
        #expect(throws: Refused.self) { try a.mappingValues { v throws(Refused) in if v < 0 { throw Refused() }; return v } }
    }
}
