import Testing
@testable import ArcadeCore

@Suite struct PhysicsPileTests {
    /// `count` balls dropped from a jittered grid into a narrow box, left to settle.
    func pile(count: Int, radius: Double, width: Double, height: Double, seed: UInt64) -> PhysicsWorld {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: width, height: height))
        var random = SeededRandom(seed: seed)
        let perRow = Int(width / (radius * 3))
        for i in 0..<count {
            let x = radius * 1.5 + Double(i % perRow) * radius * 3 + random.nextUnit() * radius * 0.5
            let y = radius * 1.5 + Double(i / perRow) * radius * 3
            world.addBall(BallDefinition(position: Vec2(x, y), radius: radius, elasticity: 0.8, friction: 1))
        }
        return world
    }

    @Test func pileComesToRestAndStaysPut() {
        let world = pile(count: 60, radius: 10, width: 200, height: 600, seed: 3)
        world.run(900)
        #expect(world.maxSpeed < 2, "still moving at \(world.maxSpeed) px/s")
        let floor = world.bounds.maxY
        for id in world.bodies {
            let p = world.position(of: id)!
            #expect(p.y + 10 <= floor + 0.1, "sank to \(p.y)")
            #expect(p.x - 10 >= -0.1 && p.x + 10 <= 200.1)
        }
        // Neighbours do not sink into each other either.
        let ps = world.bodies.map { world.position(of: $0)! }
        var deepest = 0.0
        for i in ps.indices {
            for j in ps.indices where j > i {
                deepest = max(deepest, 20 - (ps[i] - ps[j]).length)
            }
        }
        #expect(deepest < 0.25, "overlap \(deepest) px")
        // And it stays put.
        let before = world.bodies.map { world.position(of: $0)! }
        world.run(300)
        let drift = zip(before, world.bodies.map { world.position(of: $0)! }).map { ($0 - $1).length }.max()!
        #expect(drift < 0.5, "drifted \(drift) px")
    }

    @Test func heavyPileOfSmallBallsHoldsTheFloor() {
        let world = pile(count: 300, radius: 5, width: 200, height: 400, seed: 5)
        world.run(900)
        #expect(world.maxSpeed < 5, "still moving at \(world.maxSpeed) px/s")
        let lowest = world.bodies.map { world.position(of: $0)!.y + 5 }.max()!
        #expect(lowest <= 400 + 0.2, "sank to \(lowest)")
    }
}
