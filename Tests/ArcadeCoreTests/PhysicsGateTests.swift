import Testing
@testable import ArcadeCore

@Suite struct PhysicsGateTests {
    /// A screen with `count` balls dropped one every 15 steps, like the game does.
    func filledWorld(count: Int, obstacles: Bool = true) -> (PhysicsWorld, [BodyID]) {
        let screen = Rect(x: 0, y: 0, width: 375, height: 667)
        let world = PhysicsWorld(bounds: screen)
        world.removalRect = screen
        if obstacles { addBallCatchObstacles(to: world) }
        var random = SeededRandom(seed: 11)
        var ids: [BodyID] = []
        for i in 0..<count {
            let x = 10 + random.nextUnit() * 355
            ids.append(world.addBall(BallDefinition(position: Vec2(x, 10 + Double(i % 5) * 25), radius: 10, elasticity: 0.8, friction: 1)))
            world.run(15)
        }
        return (world, ids)
    }

    @Test func shutGateHoldsEveryBall() {
        let (world, ids) = filledWorld(count: 30)
        var events: [ContactEvent] = []
        var removed: [BodyID] = []
        world.run(600, events: &events, removed: &removed)
        #expect(removed.isEmpty)
        #expect(world.bodyCount == ids.count)
        #expect(world.bodies.allSatisfy { world.bounds.contains(world.position(of: $0)!) })
    }

    @Test func openGateLetsEveryBallFallOutAndReportsThem() {
        // Without obstacles: a ball resting on a box rightly stays when the gate opens.
        let (world, ids) = filledWorld(count: 30, obstacles: false)
        world.run(120)
        world.boundsEnabled = false
        var events: [ContactEvent] = []
        var removed: [BodyID] = []
        world.run(240, events: &events, removed: &removed)
        #expect(world.bodyCount == 0)
        #expect(Set(removed) == Set(ids))
        #expect(removed.count == ids.count)
        #expect(ids.allSatisfy { !world.contains($0) })
    }

    @Test func shuttingTheGateAgainHoldsNewBallsButNotLeavingOnes() {
        let (world, _) = filledWorld(count: 20)
        world.run(120)
        world.boundsEnabled = false
        world.run(20)
        // Some balls are half-way out; shutting the gate must not drag them back in.
        let leaving = world.bodies.filter { world.position(of: $0)!.y > 667 }
        world.boundsEnabled = true
        let fresh = world.addBall(BallDefinition(position: Vec2(187, 10), radius: 10, elasticity: 0.8, friction: 1))
        world.run(400)
        #expect(leaving.allSatisfy { !world.contains($0) })
        #expect(world.contains(fresh))
        #expect(world.bounds.contains(world.position(of: fresh)!))
    }
}
