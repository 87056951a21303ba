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

    /// Deepest overlap in the world: ball against ball, and ball against the bounds.
    func deepestOverlap(_ world: PhysicsWorld) -> Double {
        let balls = world.bodies.map { (world.position(of: $0)!, world.radius(of: $0)!) }
        let b = world.bounds
        var deepest = 0.0
        for (i, (p, r)) in balls.enumerated() {
            deepest = max(deepest, r - (p.x - b.minX), r - (b.maxX - p.x), r - (p.y - b.minY), r - (b.maxY - p.y))
            for (q, s) in balls[(i + 1)...] {
                deepest = max(deepest, r + s - (p - q).length)
            }
        }
        return deepest
    }

    /// 400 small balls dropped at once from a tight grid (columns 2.6 radii apart, as the
    /// benchmark drops them) land hard enough to be driven deep into each other, some right
    /// on top of one another on the floor; 6 s later no pair, and no ball against the box,
    /// overlaps by more than half a pixel.
    @Test func droppedPileClearsItsDeepOverlaps() {
        let radius = 5.0
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 600))
        var random = SeededRandom(seed: 2024)
        let spacing = radius * 2.6
        let perRow = Int((400 - 2 * radius) / spacing)
        for i in 0..<400 {
            let x = radius + spacing / 2 + Double(i % perRow) * spacing + random.nextDouble(in: -0.2, 0.2) * radius
            let y = 2 * radius + Double(i / perRow) * spacing
            world.addBall(BallDefinition(position: Vec2(x, y), radius: radius, elasticity: 0.8, friction: 1))
        }
        world.run(360)
        let overlap = deepestOverlap(world)
        #expect(overlap < 0.5, "deepest overlap \(overlap) px")
    }

    /// 200 balls poured into a box, ten at a time from a jittered row at the top, the way ball
    /// catch fills up: within 3 s of the last drop the pile is at rest (kinetic energy under
    /// 1 % of its peak), balls sink into each other and the walls by under 5 % of a radius,
    /// and over the next 2 s no ball wanders, even back and forth, by a pixel.
    @Test func pouredPileOf200SettlesWithin3Seconds() {
        let radius = 10.0
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 240, height: 480))
        var random = SeededRandom(seed: 11)
        var peak = 0.0
        let lastDrop = 190
        for step in 0...(lastDrop + 180) {
            if step % 10 == 0 && step <= lastDrop {
                for k in 0..<10 {
                    let x = 12 + Double(k) * 24 + random.nextDouble(in: -1.5, 1.5)
                    world.addBall(BallDefinition(position: Vec2(x, 12), radius: radius, elasticity: 0.8, friction: 1))
                }
            }
            world.step()
            peak = max(peak, world.kineticEnergy)
        }
        #expect(world.bodyCount == 200)
        let energy = world.kineticEnergy
        #expect(peak > 0)
        #expect(energy < 0.01 * peak, "kinetic energy \(energy) is \(100 * energy / peak) % of its peak 3 s after the last drop")
        let overlap = deepestOverlap(world)
        #expect(overlap < 0.05 * radius, "deepest overlap \(overlap) px")

        // At rest: over 2 s, each ball stays within a pixel of where it was, on both axes.
        let ids = world.bodies
        var low = ids.map { world.position(of: $0)! }
        var high = low
        for _ in 0..<120 {
            world.step()
            for (i, id) in ids.enumerated() {
                let p = world.position(of: id)!
                low[i] = Vec2(min(low[i].x, p.x), min(low[i].y, p.y))
                high[i] = Vec2(max(high[i].x, p.x), max(high[i].y, p.y))
            }
        }
        let wander = zip(low, high).map { max($1.x - $0.x, $1.y - $0.y) }.max()!
        #expect(wander < 1, "a ball wandered \(wander) px at rest")
        #expect(deepestOverlap(world) < 0.05 * radius)
    }
}
