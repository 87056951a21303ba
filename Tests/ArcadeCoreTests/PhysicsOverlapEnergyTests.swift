import Testing
@testable import ArcadeCore

/// Overlapping balls are pushed apart without gaining speed: the correction moves them and
/// never becomes velocity, so a step without gravity or moving walls cannot create energy.
@Suite struct PhysicsOverlapEnergyTests {
    /// The three balls of the asteroid game's spawn, two of them 1 px apart.
    @Test(arguments: [1.0, 0.0])
    func threeOverlappingBallsSeparateAtRest(elasticity: Double) {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 80, height: 48), gravity: .zero)
        world.boundsEnabled = false
        let a = world.addBall(BallDefinition(position: Vec2(40, 24), radius: 6.5, elasticity: elasticity))
        let b = world.addBall(BallDefinition(position: Vec2(40, 23), radius: 6.5, elasticity: elasticity))
        let c = world.addBall(BallDefinition(position: Vec2(40, 10), radius: 6.5, elasticity: elasticity))
        func gap() -> Double {
            (world.position(of: a)! - world.position(of: b)!).length - 13
        }
        let before = gap()
        world.step()
        for id in [a, b, c] {
            #expect(world.velocity(of: id)!.length < 0.01, "\(world.velocity(of: id)!) px/s after one step")
        }
        #expect(gap() > before, "the overlap did not shrink")
        world.run(240)
        for id in [a, b, c] {
            #expect(world.velocity(of: id)!.length < 0.01, "\(world.velocity(of: id)!) px/s after 4 s")
        }
        #expect(gap() > -0.1, "still overlapping by \(-gap()) px")
        #expect((world.position(of: b)! - world.position(of: c)!).length > 13 - 0.1)
    }

    /// Random overlapping clusters at rest, bouncy and dead, with friction, with and without
    /// the bounds: separating them creates no kinetic energy at all.
    @Test(arguments: [0.0, 1.0])
    func overlappingClustersAtRestGainNoEnergy(elasticity: Double) {
        for seed: UInt64 in 1...12 {
            let world = cluster(seed: seed, elasticity: elasticity, friction: true, speed: 0)
            for k in 0..<120 {
                world.step()
                #expect(world.kineticEnergy < 1e-12, "seed \(seed) step \(k): \(world.kineticEnergy)")
                if world.kineticEnergy >= 1e-12 { return }
            }
        }
    }

    /// 40 balls of mixed sizes and densities within 30 px of one point, no gravity.
    func cluster(seed: UInt64, elasticity: Double, friction: Bool, speed: Double) -> PhysicsWorld {
        var random = SeededRandom(seed: seed)
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 400), gravity: .zero)
        world.boundsEnabled = seed % 2 == 0
        for _ in 0..<40 {
            var d = BallDefinition(
                position: Vec2(200 + random.nextDouble(in: -30, 30), 200 + random.nextDouble(in: -30, 30)),
                radius: random.nextDouble(in: 4, 10), elasticity: elasticity,
                friction: friction ? random.nextDouble(in: 0, 1) : 0)
            d.velocity = Vec2(random.nextDouble(in: -speed, speed), random.nextDouble(in: -speed, speed))
            d.density = random.nextDouble(in: 0.5, 2)
            world.addBall(d)
        }
        return world
    }

    /// A resting pile still settles without the overlap correction's push: checked with a
    /// cluster dropped on the floor, which comes to rest with its balls apart.
    @Test func clusterDroppedOnTheFloorSettlesApart() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 120, height: 200))
        var random = SeededRandom(seed: 9)
        for _ in 0..<30 {
            world.addBall(BallDefinition(
                position: Vec2(60 + random.nextDouble(in: -15, 15), 100 + random.nextDouble(in: -15, 15)),
                radius: 8, elasticity: 0.5, friction: 0.5))
        }
        world.run(600)
        #expect(world.maxSpeed < 2, "still moving at \(world.maxSpeed) px/s")
        let ps = world.bodies.map { world.position(of: $0)! }
        var deepest = 0.0
        for i in ps.indices {
            for j in ps.indices where j > i { deepest = max(deepest, 16 - (ps[i] - ps[j]).length) }
        }
        #expect(deepest < 0.5, "overlap \(deepest) px")
    }
}
