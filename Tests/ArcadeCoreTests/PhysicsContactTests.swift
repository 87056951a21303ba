import Testing
@testable import ArcadeCore

@Suite struct PhysicsContactTests {
    @Test func beganFiresOncePerTouchWithIdentifierAndPointOnTheWall() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 375, height: 667))
        world.boundsEnabled = false
        let rect = Rect(center: Vec2(145, 250), width: 25, height: 25)
        let score = world.addWall("score1", rect: rect)!
        let ball = world.addBall(BallDefinition(position: Vec2(140, 100), radius: 10, elasticity: 0, friction: 1))
        var events: [ContactEvent] = []
        var removed: [BodyID] = []
        world.run(200, events: &events, removed: &removed)
        // It lands, stays, and that is one touch.
        #expect(events.count == 1)
        let e = events[0]
        #expect(e.body == ball)
        #expect(e.partner == .wall(score))
        #expect(e.identifier == "score1")
        #expect(abs(e.point.y - rect.minY) < 1e-9)
        #expect(e.point.x >= rect.minX && e.point.x <= rect.maxX)
        #expect(abs(e.point.x - 140) < 0.5)
        #expect(abs(world.position(of: ball)!.y - (rect.minY - 10)) < 0.5)

        // Lift it and drop it again: a second touch, a second event.
        world.setPosition(Vec2(140, 150), of: ball)
        world.setVelocity(.zero, of: ball)
        world.run(200, events: &events, removed: &removed)
        #expect(events.count == 2)
        #expect(events.allSatisfy { $0.identifier == "score1" })
    }

    /// At full size, and at the scale of a terminal canvas (tiny balls, gravity scaled down
    /// with the play area as a game does).
    @Test(arguments: [1.0, 0.2])
    func everyBounceIsANewTouch(scale: Double) {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400 * scale, height: 600 * scale), gravity: Vec2(0, scale))
        world.restitutionThreshold *= scale
        let ball = world.addBall(BallDefinition(position: Vec2(200 * scale, 290 * scale), radius: 10 * scale, elasticity: 0.8))
        // Count the touches independently: a touch starts when the ball turns from falling
        // to rising, which happens only at the floor.
        var bounces = 0
        var events = 0
        var lastVY = 0.0
        for _ in 0..<600 {
            world.step()
            events += world.contactEvents.count
            let vy = world.velocity(of: ball)!.y
            if lastVY > 0 && vy < 0 { bounces += 1 }
            lastVY = vy
        }
        #expect(bounces >= 5)
        // Every bounce is one event, plus the final landing when the bounces die out.
        #expect(events == bounces + 1 || events == bounces, "\(events) events for \(bounces) bounces")
        #expect(world.contactEvents.isEmpty)
    }

    @Test func boundsContactHasNoIdentifier() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 200, height: 300))
        _ = world.addBall(BallDefinition(position: Vec2(60, 100), radius: 10))
        var events: [ContactEvent] = []
        var removed: [BodyID] = []
        world.run(120, events: &events, removed: &removed)
        #expect(events.count == 1)
        #expect(events.first?.partner == .bounds)
        #expect(events.first?.identifier == nil)
        #expect(events.first.map { abs($0.point.y - 300) < 1e-9 && abs($0.point.x - 60) < 1e-6 } == true)
    }

    @Test func segmentWallContactPointLiesOnTheSegment() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 400))
        world.boundsEnabled = false
        let a = Vec2(50, 300), b = Vec2(350, 200)
        let ramp = world.addWall("ramp", from: a, to: b)!
        _ = world.addBall(BallDefinition(position: Vec2(200, 100), radius: 8, friction: 0.5))
        var events: [ContactEvent] = []
        var removed: [BodyID] = []
        world.run(90, events: &events, removed: &removed)
        let first = try! #require(events.first)
        #expect(first.partner == .wall(ramp))
        // On the line through a and b, between them.
        let ab = b - a, ap = first.point - a
        #expect(abs(ab.cross(ap)) / ab.length < 1e-9)
        let t = ap.dot(ab) / ab.lengthSquared
        #expect(t >= 0 && t <= 1)
    }

    @Test func twoBallsReportEachOtherOnce() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 200, height: 300))
        let bottom = world.addBall(BallDefinition(position: Vec2(100, 290), radius: 10, friction: 1))
        world.run(30)
        let top = world.addBall(BallDefinition(position: Vec2(100, 150), radius: 10, friction: 1))
        var events: [ContactEvent] = []
        var removed: [BodyID] = []
        world.run(200, events: &events, removed: &removed)
        let between = events.filter { $0.partner == .body(top) }
        #expect(between.count == 1)
        #expect(between.first?.body == bottom)
        // Midway between the surfaces: about the top of the bottom ball.
        #expect(between.first.map { abs($0.point.x - 100) < 1e-6 && abs($0.point.y - 280) < 0.5 } == true)
        // The bottom ball was already on the floor and the top one never reaches it.
        #expect(events.filter { $0.partner == .bounds }.isEmpty)
    }

    @Test func eventsAreOrderedByBallThenWallsBeforeBalls() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 100, height: 100), gravity: .zero)
        // Three balls touching in a row, the last two also on a wall; all begin at once.
        let wall = world.addWall("w", rect: Rect(x: 0, y: 60, width: 100, height: 10))!
        let a = world.addBall(BallDefinition(position: Vec2(20, 50), radius: 10))
        let b = world.addBall(BallDefinition(position: Vec2(40, 50), radius: 10))
        let c = world.addBall(BallDefinition(position: Vec2(60, 50), radius: 10))
        world.step()
        let got = world.contactEvents.map { "\($0.body) \($0.partner)" }
        let want = [
            (a, ContactPartner.wall(wall)), (a, .body(b)),
            (b, .wall(wall)), (b, .body(c)),
            (c, .wall(wall)),
        ].map { "\($0.0) \($0.1)" }
        #expect(got == want)
    }
}
