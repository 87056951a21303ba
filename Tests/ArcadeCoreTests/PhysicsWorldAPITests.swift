import Testing
@testable import ArcadeCore

@Suite struct PhysicsWorldAPITests {
    func world() -> PhysicsWorld {
        PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 300, height: 300))
    }

    @Test func removedHandlesGoStaleAndSlotsAreReusedUnderANewGeneration() {
        let w = world()
        let a = w.addBall(BallDefinition(position: Vec2(50, 50), radius: 5))
        let b = w.addBall(BallDefinition(position: Vec2(100, 50), radius: 5))
        #expect(w.bodyCount == 2)
        #expect(w.removeBody(a))
        #expect(!w.removeBody(a))
        #expect(!w.contains(a))
        #expect(w.position(of: a) == nil)
        #expect(w.bodyCount == 1)
        let c = w.addBall(BallDefinition(position: Vec2(150, 50), radius: 5))
        #expect(c != a)
        #expect(!w.contains(a))
        #expect(w.position(of: c) == Vec2(150, 50))
        #expect(w.position(of: b) == Vec2(100, 50))
        #expect(w.bodies == [b, c])
        #expect(BodyID(rawValue: c.rawValue) == c)
    }

    @Test func positionAndVelocityCanBeSet() {
        let w = world()
        w.gravity = .zero
        let a = w.addBall(BallDefinition(position: Vec2(50, 50), radius: 5))
        w.setVelocity(Vec2(60, -30), of: a)
        w.run(60)
        let p = w.position(of: a)!
        #expect(abs(p.x - 110) < 1e-9 && abs(p.y - 20) < 1e-9)
        w.setPosition(Vec2(10, 200), of: a)
        w.setPosition(Vec2(.nan, 0), of: a)
        #expect(w.position(of: a) == Vec2(10, 200))
        #expect(w.velocity(of: a) == Vec2(60, -30))
    }

    @Test func gravityIsInUIKitUnits() {
        let w = world()
        w.boundsEnabled = false
        w.gravity = Vec2(0, 0.5)
        let a = w.addBall(BallDefinition(position: Vec2(0, 0), radius: 5))
        w.run(60)
        // 500 px/s² for one second.
        #expect(abs(w.velocity(of: a)!.y - 500) < 1e-9)
    }

    @Test func massComesFromDensityOrIsGiven() {
        let w = world()
        let light = w.addBall(BallDefinition(position: Vec2(50, 50), radius: 10))
        var d = BallDefinition(position: Vec2(100, 50), radius: 10)
        d.mass = 3
        let heavy = w.addBall(d)
        #expect(abs(w.mass(of: light)! - Double.pi * 100 / 10_000) < 1e-12)
        #expect(w.mass(of: heavy) == 3)
    }

    /// A heavy ball (mass 4) at 300 px/s runs into a light one at rest; returns both
    /// velocities and the light one's mass.
    func collide(elasticity: Double) -> (heavy: Double, light: Double, lightMass: Double) {
        let w = world()
        w.gravity = .zero
        var d = BallDefinition(position: Vec2(100, 150), radius: 10, velocity: Vec2(300, 0), elasticity: elasticity)
        d.mass = 4
        let heavy = w.addBall(d)
        let light = w.addBall(BallDefinition(position: Vec2(140, 150), radius: 10, elasticity: elasticity))
        w.run(10)
        return (w.velocity(of: heavy)!.x, w.velocity(of: light)!.x, w.mass(of: light)!)
    }

    @Test func collisionsKeepMomentumAndFollowElasticity() {
        for e in [0.0, 1.0] {
            let r = collide(elasticity: e)
            let m = r.lightMass
            #expect(abs(4 * r.heavy + m * r.light - 1200) < 1e-6, "momentum")
            // One-dimensional collision with restitution e.
            let heavy = (4 * 300 - m * e * 300) / (4 + m)
            let light = (4 * 300 + 4 * e * 300) / (4 + m)
            #expect(abs(r.heavy - heavy) < 0.01 * 300, "\(e): \(r.heavy) vs \(heavy)")
            #expect(abs(r.light - light) < 0.01 * 300, "\(e): \(r.light) vs \(light)")
        }
    }

    @Test func bodiesInARect() {
        let w = world()
        let a = w.addBall(BallDefinition(position: Vec2(10, 10), radius: 5))
        _ = w.addBall(BallDefinition(position: Vec2(100, 100), radius: 5))
        let c = w.addBall(BallDefinition(position: Vec2(40, 20), radius: 5))
        #expect(w.bodies(in: Rect(x: 0, y: 0, width: 50, height: 50)) == [a, c])
        #expect(w.bodies(in: Rect(x: 200, y: 200, width: 50, height: 50)).isEmpty)
    }

    @Test func boundObjectFollowsItsBallAndIsHeldWeakly() {
        let w = world()
        let a = w.addBall(BallDefinition(position: Vec2(50, 50), radius: 5, velocity: Vec2(0, 0)))
        var node: RecordingNode? = RecordingNode()
        w.bind(a, to: node!, rotation: true)
        #expect(node!.position == Vec2(50, 50))
        w.run(30)
        #expect(node!.position == w.position(of: a)!)
        #expect(node!.position.y > 50)
        weak let gone = node
        node = nil
        #expect(gone == nil)
        w.run(5)  // nothing to write to any more, and nothing breaks
        #expect(w.contains(a))
    }

    @Test func unbindStopsTheWrites() {
        let w = world()
        let a = w.addBall(BallDefinition(position: Vec2(50, 50), radius: 5))
        let node = RecordingNode()
        w.bind(a, to: node)
        w.unbind(a)
        let writes = node.writes
        w.run(10)
        #expect(node.writes == writes)
    }

    @Test func wallsByIdentifier() {
        let w = world()
        let first = w.addWall("box1", rect: Rect(x: 10, y: 10, width: 10, height: 10))!
        let second = w.addWall("box1", rect: Rect(x: 50, y: 10, width: 10, height: 10))!
        let other = w.addWall(nil, from: Vec2(0, 100), to: Vec2(100, 120))!
        #expect(w.addWall("bad", rect: Rect(x: .nan, y: 0, width: 1, height: 1)) == nil)
        #expect(w.wallCount == 3)
        #expect(w.walls(identifier: "box1") == [first, second])
        #expect(w.identifier(of: first) == "box1")
        #expect(w.identifier(of: other) == nil)
        #expect(w.removeWalls(identifier: "box1") == 2)
        #expect(w.shape(of: first) == nil)
        #expect(w.wallIDs == [other])
        #expect(w.removeWall(other))
        #expect(!w.removeWall(other))
        #expect(w.wallCount == 0)
    }

    @Test func wallsMoveAndReshape() {
        let w = world()
        let id = w.addWall("p", rect: Rect(x: 0, y: 0, width: 20, height: 10))!
        w.placeWall(id, at: Vec2(100, 100))
        #expect(w.shape(of: id) == .rect(Rect(x: 90, y: 95, width: 20, height: 10)))
        w.moveWall(id, to: Vec2(130, 100))
        // A kinematic move happens during the step.
        #expect(w.shape(of: id)!.center == Vec2(100, 100))
        w.step()
        #expect(w.shape(of: id)!.center == Vec2(130, 100))
        w.setShape(.segment(Vec2(0, 0), Vec2(10, 0)), of: id)
        #expect(w.shape(of: id)!.center == Vec2(5, 0))
    }

    @Test func removedWallStopsHoldingBalls() {
        let w = world()
        w.boundsEnabled = false
        let shelf = w.addWall("shelf", rect: Rect(x: 0, y: 200, width: 300, height: 10))!
        let a = w.addBall(BallDefinition(position: Vec2(150, 150), radius: 10))
        w.run(60)
        #expect(abs(w.position(of: a)!.y - 190) < 0.5)
        w.removeWall(shelf)
        w.run(30)
        #expect(w.position(of: a)!.y > 220)
    }

    @Test func eventsAreDrainedOnce() {
        let w = world()
        _ = w.addBall(BallDefinition(position: Vec2(150, 280), radius: 10))
        var seen = 0
        for _ in 0..<30 where seen == 0 {
            w.step()
            w.drainContactEvents { _ in seen += 1 }
        }
        #expect(seen == 1)
        #expect(w.contactEvents.isEmpty)
        w.drainContactEvents { _ in seen += 1 }
        #expect(seen == 1)
    }

    @Test func removalRectReportsLeavers() {
        let w = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 100, height: 100))
        w.boundsEnabled = false
        w.removalRect = w.bounds
        let a = w.addBall(BallDefinition(position: Vec2(50, 50), radius: 5))
        let b = w.addBall(BallDefinition(position: Vec2(50, -200), radius: 5))
        w.step()
        // b started outside and never came in: it is removed on the first step.
        #expect(w.removedBodies == [b])
        w.run(60)
        #expect(!w.contains(a))
        #expect(w.bodyCount == 0)
    }
}
