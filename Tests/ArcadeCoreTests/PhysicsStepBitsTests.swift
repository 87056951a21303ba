#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ArcadeCore

/// Pins the exact floating-point outcome of a few hundred steps of busy scenes. The order in
/// which contacts are found, solved and carried over, and the order of every sum, decide the
/// bits: a change to how the step is organised must leave these hashes as they are.
@Suite struct PhysicsStepBitsTests {
    /// FNV-1a over 64-bit words.
    struct Digest {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ word: UInt64) {
            for k in 0..<8 {
                value ^= (word >> UInt64(8 * k)) & 0xFF
                value = value &* 0x100_0000_01b3
            }
        }
        mutating func add(_ v: Double) { add(v.bitPattern) }
        mutating func add(_ e: ContactEvent) {
            add(e.body.rawValue)
            switch e.partner {
            case .bounds: add(UInt64(1))
            case .wall(let id): add(UInt64(2)); add(UInt64(id.rawValue))
            case .body(let id): add(UInt64(3)); add(id.rawValue)
            }
            add(e.point.x)
            add(e.point.y)
        }
        mutating func add(_ world: PhysicsWorld) {
            for id in world.bodies {
                let p = world.position(of: id)!, v = world.velocity(of: id)!
                add(p.x)
                add(p.y)
                add(v.x)
                add(v.y)
                add(world.angle(of: id)!)
                add(world.angularVelocity(of: id)!)
            }
        }
    }

    /// Steps `world` `steps` times, with `poke` before each step, hashing every event, and
    /// the bodies every 50 steps and at the end.
    func digest(_ world: PhysicsWorld, steps: Int, poke: (Int) -> Void = { _ in }) -> UInt64 {
        var d = Digest()
        for step in 0..<steps {
            poke(step)
            world.step()
            world.drainContactEvents { d.add($0) }
            world.drainSeparationEvents { d.add($0) }
            world.drainRemovedBodies { d.add($0.rawValue) }
            if step % 50 == 49 { d.add(world) }
        }
        d.add(world)
        d.add(UInt64(world.bodyCount))
        return d.value
    }

    /// Ball catch crowded with mixed balls: sizes, materials, damping and fixed rotation
    /// vary; balls rain in, some are kicked, the paddle sweeps and the gate opens and shuts.
    @Test func crowdedBallCatch() {
        let screen = Rect(x: 0, y: 0, width: 375, height: 667)
        let world = PhysicsWorld(bounds: screen)
        world.removalRect = screen
        addBallCatchObstacles(to: world)
        let paddle = world.addWall("board", rect: Rect(center: Vec2(187.5, 560), width: 100, height: 10))!
        var random = SeededRandom(seed: 901)
        let hash = digest(world, steps: 400) { step in
            if step % 2 == 0 && world.bodyCount < 260 {
                var d = BallDefinition(
                    position: Vec2(15 + random.nextUnit() * 345, 15 + random.nextUnit() * 40),
                    radius: 4 + random.nextUnit() * 8, elasticity: random.nextUnit(), friction: random.nextUnit() * 1.2)
                d.resistance = step % 7 == 0 ? 0.5 : 0
                d.allowsRotation = step % 5 != 0
                world.addBall(d)
            }
            if step % 13 == 0, let id = world.bodies.randomElement(using: &random) {
                world.setVelocity(Vec2(random.nextDouble(in: -700, 700), random.nextDouble(in: -700, 0)), of: id)
            }
            world.boundsEnabled = (step / 150) % 3 != 2
            let t = Double(step) / 60
            world.moveWall(paddle, to: Vec2(187.5 + 120 * sin(t * 1.3), 560 + 40 * sin(t * 0.7)))
        }
        #expect(hash == 13884570174878718827)
    }

    /// A resting pile of equal small balls, as the large benchmark scene: dropped from a
    /// jittered grid into a narrow box, settled and then left to rest.
    @Test func settlingPile() {
        #expect(digest(Self.pile(width: 300, height: 400, count: 600), steps: 300) == 1401722690617520087)
    }

    /// `count` equal balls of radius 5 on a jittered grid in a `width` x `height` box.
    static func pile(width: Double, height: Double, count: Int) -> PhysicsWorld {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: width, height: height))
        var random = SeededRandom(seed: 2024)
        let radius = 5.0, spacing = radius * 2.6
        let perRow = Int((width - 2 * radius) / spacing)
        for i in 0..<count {
            let x = radius + spacing / 2 + Double(i % perRow) * spacing + random.nextDouble(in: -0.2, 0.2) * radius
            let y = 5 + radius + Double(i / perRow) * spacing
            world.addBall(BallDefinition(position: Vec2(x, y), radius: radius, elasticity: 0.8, friction: 1))
        }
        return world
    }

    /// The large benchmark scene: 2,000 balls dropped into a wide box, still settling.
    @Test func largePile() {
        #expect(digest(Self.pile(width: 1600, height: 1200, count: 2000), steps: 200) == 11943218171460876300)
    }

    /// A big ball ringed by more small balls than there are colours, so the last colour is
    /// shared by contacts with a ball in common.
    func crowdedRing() -> PhysicsWorld {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 400), gravity: .zero)
        world.addBall(BallDefinition(position: Vec2(200, 200), radius: 100, elasticity: 0.5, friction: 0.5))
        for k in 0..<100 {
            let angle = Double(k) * 2 * Double.pi / 100
            let reach = 102.5 + Double(k % 3) * 0.2
            world.addBall(BallDefinition(
                position: Vec2(200 + reach * cos(angle), 200 + reach * sin(angle)), radius: 3,
                velocity: Vec2(-40 * cos(angle), -40 * sin(angle)), elasticity: 0.5, friction: 0.5))
        }
        return world
    }

    @Test func moreContactsOnOneBallThanColours() {
        #expect(digest(crowdedRing(), steps: 120) == 3370086335043782420)
    }

    /// The solving order: colour by colour, and within a colour no ball twice, except in the
    /// last (shared) colour, which keeps key order.
    @Test func solvingOrderKeepsEachColourFreeOfSharedBalls() {
        let world = crowdedRing()
        var sawShared = false
        for _ in 0..<20 {
            world.step()
            let m = world.ballContacts.count
            let bc = world.ballContacts.base, rank = world.keyRank.base, buckets = world.contactColors.base
            var previousBucket = -1
            var seen = Set<Int32>()
            var lastKey: UInt64 = 0
            for k in 0..<m {
                let bucket = Int(buckets[Int(rank[k])])
                #expect(bucket >= previousBucket)
                if bucket != previousBucket {
                    seen.removeAll()
                    lastKey = 0
                }
                previousBucket = bucket
                #expect(bc[k].key >= lastKey)
                lastKey = bc[k].key
                if bucket / 2 == 63 {
                    #expect(bucket == 126)
                    sawShared = sawShared || seen.contains(bc[k].a) || seen.contains(bc[k].b)
                } else {
                    #expect(!seen.contains(bc[k].a) && !seen.contains(bc[k].b))
                }
                seen.insert(bc[k].a)
                seen.insert(bc[k].b)
            }
        }
        #expect(sawShared)
    }

    /// A wrap-around world without gravity, with filters and sensors: contacts across the
    /// seams, pairs that do not collide, sensors that only report.
    @Test func wrappedAndFiltered() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 200, height: 150), gravity: .zero)
        world.wrapsX = true
        world.wrapsY = true
        world.addWall("rock", rect: Rect(center: Vec2(100, 75), width: 20, height: 20))
        var random = SeededRandom(seed: 31)
        for i in 0..<160 {
            var d = BallDefinition(
                position: Vec2(random.nextUnit() * 200, random.nextUnit() * 150), radius: 3 + random.nextUnit() * 5,
                velocity: Vec2(random.nextDouble(in: -150, 150), random.nextDouble(in: -150, 150)),
                elasticity: 0.9, friction: 0.3)
            let category: UInt32 = i % 3 == 0 ? 2 : 4
            d.filter = CollisionFilter(category: category, mask: i % 3 == 1 ? 1 | 4 : .max)
            d.isSensor = i % 17 == 0
            world.addBall(d)
        }
        #expect(digest(world, steps: 300) == 13791503994800634636)
    }
}
