import Testing
@testable import ArcadeCore

@Suite struct PhysicsTunnellingTests {
    /// A 10 px ball at `speed` in direction `direction` towards a 10 px wall at x 300..310;
    /// returns the ball's largest x over the run.
    func furthestX(speed: Double, direction: Vec2, start: Vec2, elasticity: Double) -> Double {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 600, height: 600), gravity: .zero)
        world.boundsEnabled = false
        world.addWall("thin", rect: Rect(x: 300, y: -1000, width: 10, height: 2600))
        let ball = world.addBall(BallDefinition(position: start, radius: 5, velocity: direction.normalized * speed, elasticity: elasticity))
        var furthest = -Double.infinity
        for _ in 0..<40 {
            world.step()
            furthest = max(furthest, world.position(of: ball)!.x)
        }
        return furthest
    }

    @Test(arguments: [0.0, 0.8])
    func fastBallNeverPassesAThinWall(elasticity: Double) {
        // Many phases, so the wall is met at every point of a step and substep.
        for offset in stride(from: 0.0, to: 50.0, by: 1.7) {
            for direction in [Vec2(1, 0), Vec2(1, 0.5), Vec2(1, -1.5), Vec2(3, 1)] {
                let x = furthestX(speed: 3000, direction: direction, start: Vec2(100 + offset, 300), elasticity: elasticity)
                #expect(x <= 295 + 1e-6, "reached \(x) from offset \(offset) heading \(direction)")
            }
        }
    }

    @Test func fastBallNeverPassesASegment() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 600, height: 600), gravity: .zero)
        world.boundsEnabled = false
        world.addWall("line", from: Vec2(300, -1000), to: Vec2(300, 1600))
        var balls: [BodyID] = []
        for i in 0..<20 {
            balls.append(world.addBall(BallDefinition(
                position: Vec2(100 + Double(i) * 2.3, Double(i) * 25), radius: 5,
                velocity: Vec2(3000, Double(i) * 50), elasticity: 0.5)))
        }
        world.run(40)
        #expect(balls.allSatisfy { world.position(of: $0)!.x <= 295 + 1e-6 })
    }

    @Test func fastBallStaysInsideTheBounds() {
        // No gravity and full elasticity: it keeps rattling around at over 11,000 px/s.
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 100, height: 100), gravity: .zero)
        let ball = world.addBall(BallDefinition(position: Vec2(50, 50), radius: 5, velocity: Vec2(7000, -9000), elasticity: 1))
        var inside = true
        for _ in 0..<300 {
            world.step()
            let p = world.position(of: ball)!
            inside = inside && p.x >= 5 - 1e-6 && p.x <= 95 + 1e-6 && p.y >= 5 - 1e-6 && p.y <= 95 + 1e-6
        }
        #expect(inside)
        #expect(world.velocity(of: ball)!.length > 10_000)
    }
}
