import Testing
@testable import ArcadeCore

/// A scene-node stand-in that keeps its numbers in ``AnimatableFields``, which the engine
/// writes in place; colours still go through its setter.
final class FieldSprite: Animatable {
    let fields: UnsafeMutablePointer<AnimatableFields>
    var color = Color.white
    /// Writes that came through the setter.
    var writes = 0

    init() {
        fields = .allocate(capacity: 1)
        fields.initialize(to: AnimatableFields())
    }

    deinit { fields.deallocate() }

    var animatableFields: UnsafeMutablePointer<AnimatableFields>? { fields }

    func animatableValue(_ property: AnimatableProperty) -> AnimatableValue? {
        let f = fields.pointee
        switch property {
        case .x: return .scalar(f.x)
        case .y: return .scalar(f.y)
        case .position: return .vector(Vec2(f.x, f.y))
        case .scale, .scaleX: return .scalar(f.scaleX)
        case .scaleY: return .scalar(f.scaleY)
        case .rotation: return .scalar(f.rotation)
        case .alpha: return .scalar(f.alpha)
        case .color(0): return .color(color)
        default: return nil
        }
    }

    func setAnimatableValue(_ value: AnimatableValue, for property: AnimatableProperty) {
        writes += 1
        if case (.color(0), .color(let c)) = (property, value) { color = c }
    }

    /// The six numbers, to compare with a ``Sprite``'s.
    var numbers: [Double] {
        let f = fields.pointee
        return [f.x, f.y, f.scaleX, f.scaleY, f.rotation, f.alpha]
    }
}

extension Sprite {
    var numbers: [Double] { [position.x, position.y, scaleX, scaleY, rotation, alpha] }
}

/// Writing a target's fields in place (and the flat step of a coin's flight) gives exactly
/// what writing through its setter gives.
@Suite struct AnimationFieldsTests {
    /// Animations of every shape the flat step takes and of some it does not.
    static let animations: [Animation] = {
        let halves: [TimingCurve] = [.easeOut, .easeIn]
        var flight = Animation(.group([
            Animation(.path(.quadratic(from: Vec2(10, 90), control: Vec2(40, -20), to: Vec2(50, 5)))),
            Animation(.keyframes(.scaleX, values: [.s(1.4), .s(1.05), .s(0.7)], curves: halves)),
            Animation(.keyframes(.scaleY, values: [.s(0.7), .s(0.7), .s(0.7)], curves: halves)),
        ]), duration: 1)
        var delayed = flight
        delayed.timing.delay = 0.2
        delayed.timing.fill = .removed
        var bouncing = Animation(.group([
            Animation(.basic(.scale, from: .s(1), to: .s(2))),
            Animation(.basic(.alpha, from: .s(1), to: .s(0.25))),
        ]), duration: 0.3, fill: .removed)
        bouncing.timing.autoreverses = true
        bouncing.timing.repeatCount = 2.5
        var eased = Animation(.group([
            Animation(.basic(.rotation, from: .s(0), to: .s(3))),
            Animation(.basic(.position, from: .v(0, 0), to: .v(30, 12))),
        ]), duration: 0.5, fill: .forwards)
        eased.timing.curve = .easeInEaseOut
        return [
            Animation(flight.kind, duration: 1, fill: .forwards),
            delayed,
            bouncing,
            eased,
            Animation(.spring(.x, from: .s(0), to: .s(20), damping: 8, initialVelocity: 1), duration: 0.8),
            Animation(.keyframes(.y, values: [.s(0), .s(5), .s(2)], keyTimes: [0, 0.3, 1]), duration: 0.6,
                      fill: .removed),
        ]
    }()

    @Test(arguments: 0..<6) func fieldsMatchTheSetterEveryStep(_ k: Int) throws {
        let a = Animator(), b = Animator()
        let inPlace = FieldSprite(), plain = Sprite()
        try a.start(Self.animations[k], on: inPlace)
        try b.start(Self.animations[k], on: plain)
        #expect(inPlace.numbers == plain.numbers)
        for _ in 0..<90 {
            a.advance(by: step)
            b.advance(by: step)
            #expect(inPlace.numbers == plain.numbers)
        }
        #expect(a.drain() == b.drain())
        #expect(inPlace.writes == 0)
    }

    @Test func writesRaiseMovedExceptAlpha() throws {
        let animator = Animator()
        let sprite = FieldSprite()
        sprite.fields.pointee.moved = false
        try animator.start(Animation(.basic(.alpha, from: .s(1), to: .s(0)), duration: 1), on: sprite)
        animator.run(steps: 3)
        #expect(!sprite.fields.pointee.moved)
        try animator.start(Animation(.basic(.scale, from: .s(1), to: .s(3)), duration: 1), on: sprite)
        #expect(sprite.fields.pointee.moved)
        #expect(sprite.fields.pointee.scaleX == 1 && sprite.fields.pointee.scaleY == 1)
        sprite.fields.pointee.moved = false
        animator.run(steps: 30)
        #expect(sprite.fields.pointee.moved)
        #expect(near(sprite.fields.pointee.scaleX, 2) && sprite.fields.pointee.scaleY == sprite.fields.pointee.scaleX)
    }

    @Test func coloursStillGoThroughTheSetter() throws {
        let animator = Animator()
        let sprite = FieldSprite()
        try animator.start(Animation(.basic(.color(0), from: .color(.black), to: .color(.white)), duration: 1), on: sprite)
        animator.run(steps: 30)
        #expect(sprite.writes == 31)
        #expect(sprite.color.r > 100 && sprite.color.r < 155)
    }
}
