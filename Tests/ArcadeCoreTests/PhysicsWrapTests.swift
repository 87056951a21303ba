import Testing
@testable import ArcadeCore

/// A scene object stand-in that records the wrap regions it is told.
final class WrapRecordingNode: Animatable {
    var position = Vec2.zero
    var regions: [WrapRegion?] = []

    func animatableValue(_ property: AnimatableProperty) -> AnimatableValue? {
        property == .position ? .vector(position) : nil
    }

    func setAnimatableValue(_ value: AnimatableValue, for property: AnimatableProperty) {
        if case (.position, .vector(let v)) = (property, value) { position = v }
    }

    func setWrapRegion(_ region: WrapRegion?) { regions.append(region) }
}

/// Wrap-around worlds: balls leave one edge and come back at the other, touch across the
/// seam, and bound objects are told the region.
@Suite struct PhysicsWrapTests {
    func world(x: Bool = true, y: Bool = true) -> PhysicsWorld {
        let w = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 160, height: 96), gravity: .zero)
        w.wrapsX = x
        w.wrapsY = y
        return w
    }

    @Test(arguments: [Vec2(100, 0), Vec2(-100, 0), Vec2(0, 100), Vec2(0, -100)])
    func aBallCrossingAnEdgeComesBackAtTheOther(velocity: Vec2) {
        let w = world()
        w.removalRect = w.bounds  // does nothing on a wrapping axis
        let ball = w.addBall(BallDefinition(position: Vec2(80, 48), radius: 4, velocity: velocity))
        var crossed = false
        var last = w.position(of: ball)!
        for _ in 0..<120 {
            w.step()
            let p = w.position(of: ball)!
            #expect(p.x >= 0 && p.x < 160 && p.y >= 0 && p.y < 96, "\(p) is outside")
            if (p - last).length > 50 { crossed = true }
            last = p
        }
        #expect(crossed)
        #expect(w.contains(ball))
        // Two seconds at 100 px/s: 200 px along the axis, folded.
        let expected = Vec2(80 + 2 * velocity.x, 48 + 2 * velocity.y)
        let folded = Vec2(expected.x - 160 * (expected.x / 160).rounded(.down), expected.y - 96 * (expected.y / 96).rounded(.down))
        #expect((w.position(of: ball)! - folded).length < 1e-6)
        #expect(w.velocity(of: ball)! == velocity)
    }

    @Test func onlyTheWrappingAxisWraps() {
        let w = world(x: true, y: false)
        w.removalRect = w.bounds
        let across = w.addBall(BallDefinition(position: Vec2(150, 48), radius: 4, velocity: Vec2(100, 0)))
        let down = w.addBall(BallDefinition(position: Vec2(80, 80), radius: 4, velocity: Vec2(0, 100)))
        var removed: [BodyID] = [], events: [ContactEvent] = []
        w.run(30, events: &events, removed: &removed)
        #expect(w.contains(across))
        // Bounds on: the bottom wall stops it. (The x axis has no bound sides.)
        #expect(w.contains(down))
        #expect(abs(w.position(of: down)!.y - 92) < 0.5)
        w.boundsEnabled = false
        w.setVelocity(Vec2(0, 100), of: down)
        w.run(30, events: &events, removed: &removed)
        #expect(removed == [down])
    }

    @Test(arguments: [false, true])
    func ballsCollideAcrossTheSeam(vertical: Bool) {
        let w = world()
        // One near each edge, moving towards the seam between them.
        let (pa, pb, va) = vertical
            ? (Vec2(80, 6), Vec2(80, 90), Vec2(0, -200))
            : (Vec2(6, 48), Vec2(154, 48), Vec2(-200, 0))
        let a = w.addBall(BallDefinition(position: pa, radius: 4, velocity: va, elasticity: 1))
        let b = w.addBall(BallDefinition(position: pb, radius: 4, elasticity: 1))
        var events: [ContactEvent] = [], removed: [BodyID] = []
        w.run(15, events: &events, removed: &removed)
        #expect(events.map(\.partner) == [.body(b)])
        // An elastic hit between equal balls: a stops, b carries on.
        #expect(w.velocity(of: a)!.length < 1)
        #expect((w.velocity(of: b)! - va).length < 1)
        // Where they met: on b's near surface, across the seam from a.
        if let e = events.first {
            let coordinate = vertical ? e.point.y : e.point.x
            #expect(abs(coordinate - (vertical ? 94 : 158)) < 2, "\(e.point)")
        }
    }

    @Test func overlappingAcrossTheSeamSeparatesWithoutSpeed() {
        let w = world()
        let a = w.addBall(BallDefinition(position: Vec2(2, 48), radius: 5))
        let b = w.addBall(BallDefinition(position: Vec2(157, 48), radius: 5))
        w.run(120)
        #expect(w.velocity(of: a)!.length < 0.01 && w.velocity(of: b)!.length < 0.01)
        var dx = w.position(of: a)!.x - w.position(of: b)!.x
        dx -= 160 * (dx / 160).rounded()
        #expect(abs(dx) > 9.9, "\(dx)")
    }

    @Test func boundObjectsAreToldTheRegion() {
        let w = world(x: true, y: false)
        let node = WrapRecordingNode()
        let ball = w.addBall(BallDefinition(position: Vec2(10, 10), radius: 4))
        w.bind(ball, to: node)
        let region = WrapRegion(x: 0, y: 0, width: 160, height: 96, wrapsX: true, wrapsY: false)
        #expect(node.regions == [region])
        w.step()
        #expect(node.regions == [region])
        // The bounds follow a resize: told again.
        w.bounds = Rect(x: 0, y: 0, width: 200, height: 96)
        w.step()
        #expect(node.regions.last == WrapRegion(x: 0, y: 0, width: 200, height: 96, wrapsX: true, wrapsY: false))
        // Unbound: nil.
        w.unbind(ball)
        #expect(node.regions.last == .some(nil))
        let count = node.regions.count
        w.bind(ball, to: node)
        #expect(node.regions.count == count + 1)
        // The world stops wrapping: nil.
        w.wrapsX = false
        w.step()
        #expect(node.regions.last == .some(nil))
        // A plain world tells nothing.
        let plain = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 100, height: 100))
        let other = WrapRecordingNode()
        plain.bind(plain.addBall(BallDefinition(position: Vec2(10, 10), radius: 4)), to: other)
        plain.step()
        #expect(other.regions.isEmpty)
        // A removed ball's object is told nil.
        let again = world()
        let third = WrapRecordingNode()
        let gone = again.addBall(BallDefinition(position: Vec2(10, 10), radius: 4))
        again.bind(gone, to: third)
        again.removeBody(gone)
        #expect(third.regions.count == 2 && third.regions.last == .some(nil))
    }

    /// A crowded wrap-around world finds the same contacts whether it keeps its candidate
    /// lists or searches every step.
    @Test func keptCandidatesMatchAFullSearchAcrossSeams() {
        func run(keeping: Bool) -> [Vec2] {
            let w = world()
            w.keepsCandidates = keeping
            var random = SeededRandom(seed: 8)
            for _ in 0..<120 {
                w.addBall(BallDefinition(position: Vec2(random.nextDouble(in: 0, 160), random.nextDouble(in: 0, 96)),
                                         radius: 3, velocity: Vec2(random.nextDouble(in: -90, 90), random.nextDouble(in: -90, 90)),
                                         elasticity: 1))
            }
            w.run(240)
            return w.bodies.map { w.position(of: $0)! }
        }
        #expect(run(keeping: true) == run(keeping: false))
    }
}
