#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ArcadeCore

@Suite struct PhysicsBounceTests {
    /// Drops a ball from `height` (ball bottom above the floor) and returns the height of
    /// its first rebound, measured the same way.
    func reboundHeight(elasticity: Double, height: Double, radius: Double = 10) -> Double {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 1000))
        let floorY = 1000 - radius
        let ball = world.addBall(BallDefinition(position: Vec2(200, floorY - height), radius: radius, elasticity: elasticity))
        var hitFloor = false
        var highest = Double.infinity
        for _ in 0..<600 {
            world.step()
            let y = world.position(of: ball)!.y
            let vy = world.velocity(of: ball)!.y
            if !hitFloor {
                if vy < 0 { hitFloor = true }
            } else {
                highest = min(highest, y)
                if vy > 0 { break }
            }
        }
        return hitFloor ? floorY - highest : 0
    }

    @Test(arguments: [100.0, 300.0, 600.0])
    func reboundIsElasticitySquaredOfTheDrop(height: Double) {
        let e = 0.8
        let rebound = reboundHeight(elasticity: e, height: height)
        let expected = e * e * height
        #expect(abs(rebound - expected) <= 0.05 * expected, "rebound \(rebound) for \(expected)")
    }

    @Test func zeroElasticityDoesNotBounce() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 1000))
        let ball = world.addBall(BallDefinition(position: Vec2(200, 500), radius: 10, elasticity: 0))
        var touched = false
        var highestAfter = Double.infinity
        for _ in 0..<240 {
            world.step()
            if world.contactEvents.contains(where: { $0.partner == .bounds }) { touched = true }
            if touched { highestAfter = min(highestAfter, world.position(of: ball)!.y) }
        }
        #expect(touched)
        // Resting centre is 990; it never leaves the floor by more than a hair.
        #expect(highestAfter > 989.5)
        #expect(abs(world.velocity(of: ball)!.y) < 1)
    }

    /// Drops a ball from 120 px onto one resting on the floor; returns the impact speed and
    /// the fastest the top ball then rises.
    func dropOnRestingBall(elasticity: Double) -> (impact: Double, rebound: Double) {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 200, height: 300))
        world.addBall(BallDefinition(position: Vec2(100, 290), radius: 10, elasticity: elasticity, friction: 1))
        world.run(30)
        let top = world.addBall(BallDefinition(position: Vec2(100, 150), radius: 10, elasticity: elasticity, friction: 1))
        var impact = 0.0, rebound = 0.0
        for _ in 0..<60 {
            world.step()
            let vy = world.velocity(of: top)!.y
            impact = max(impact, vy)
            rebound = max(rebound, -vy)
        }
        return (impact, rebound)
    }

    @Test func ballOnARestingBallBouncesAsOffTheFloor() {
        // The lower ball is held by the floor, so the top one rebounds at e times the impact.
        let bouncy = dropOnRestingBall(elasticity: 0.8)
        #expect(abs(bouncy.rebound - 0.8 * bouncy.impact) < 0.1 * 0.8 * bouncy.impact, "\(bouncy)")
        let dead = dropOnRestingBall(elasticity: 0)
        #expect(dead.impact > 400)
        #expect(dead.rebound < 0.03 * dead.impact, "\(dead)")
    }

    /// Puts a ball on the floor moving sideways at 300 px/s and returns its velocity and
    /// spin after one second.
    func slide(friction: Double, rotates: Bool = true) -> (v: Double, w: Double) {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 2000, height: 400))
        var d = BallDefinition(position: Vec2(100, 390), radius: 10, elasticity: 0, friction: friction)
        d.allowsRotation = rotates
        let ball = world.addBall(d)
        world.run(10)
        world.setVelocity(Vec2(300, 0), of: ball)
        world.run(60)
        return (world.velocity(of: ball)!.x, world.angularVelocity(of: ball)!)
    }

    @Test func frictionSlowsARollingBall() {
        let free = slide(friction: 0)
        let rough = slide(friction: 1)
        let locked = slide(friction: 1, rotates: false)
        #expect(free.v > 299)
        #expect(free.w == 0)
        // Friction turns sliding into rolling: a disc keeps 2/3 of its speed.
        #expect(abs(rough.v - 200) < 6, "rolling speed \(rough.v)")
        #expect(abs(rough.w * 10 - rough.v) < 1, "rolls without slipping")
        // A ball that may not spin is simply braked to a stop.
        #expect(abs(locked.v) < 1)
    }

    @Test func resistanceDampsVelocity() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 100, height: 100), gravity: .zero)
        world.boundsEnabled = false
        var d = BallDefinition(position: Vec2(0, 0), radius: 5, velocity: Vec2(100, 0))
        d.resistance = 1
        let ball = world.addBall(d)
        world.run(60)
        // v' = -v: after one second about e^-1 of the speed is left.
        let v = world.velocity(of: ball)!.x
        #expect(abs(v - 100 * exp(-1.0)) < 1, "\(v)")
    }
}
