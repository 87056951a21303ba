#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ArcadeCore

@Suite struct PhysicsDeterminismTests {
    /// What a run leaves behind: every coordinate as raw bits, and every event.
    struct Outcome: Equatable {
        var bits: [UInt64]
        var events: [ContactEvent]
        var removed: [BodyID]
        var dropped: Int
    }

    /// Ball catch, played by a script: a ball every 20 steps at a seeded random x, the gate
    /// opening every 50 balls, the paddle swept back and forth, balls that leave removed.
    func play(steps: Int, seed: UInt64) -> Outcome {
        let screen = Rect(x: 0, y: 0, width: 375, height: 667)
        let world = PhysicsWorld(bounds: screen)
        world.removalRect = screen
        addBallCatchObstacles(to: world)
        let paddle = world.addWall("board", rect: Rect(center: Vec2(187.5, 500), width: 100, height: 10))!
        var random = SeededRandom(seed: seed)
        var outcome = Outcome(bits: [], events: [], removed: [], dropped: 0)
        var count = 0
        for step in 0..<steps {
            if step % 20 == 0 {
                let x = 10 + random.nextUnit() * 355
                world.addBall(BallDefinition(position: Vec2(x, 10), radius: 10, elasticity: 0.8, friction: 1))
                count += 1
                outcome.dropped += 1
                world.boundsEnabled = count != 50
                if count == 50 { count = 0 }
            }
            let t = Double(step) / 60
            world.moveWall(paddle, to: Vec2(187.5 + 120 * sin(t * 1.3), 520 + 60 * sin(t * 0.7)))
            world.step()
            world.drainContactEvents { outcome.events.append($0) }
            world.drainRemovedBodies { outcome.removed.append($0) }
        }
        for id in world.bodies {
            let p = world.position(of: id)!, v = world.velocity(of: id)!
            outcome.bits += [p.x.bitPattern, p.y.bitPattern, v.x.bitPattern, v.y.bitPattern, world.angle(of: id)!.bitPattern]
        }
        return outcome
    }

    @Test func sameInputsGiveBitIdenticalRuns() {
        let first = play(steps: 10_000, seed: 42)
        let second = play(steps: 10_000, seed: 42)
        #expect(first == second)
        // The run did something: balls came and went, walls were hit.
        #expect(first.dropped == 500)
        #expect(first.removed.count > 300)
        #expect(!first.bits.isEmpty)
        #expect(first.events.contains { $0.identifier == "score1" })
        #expect(first.events.contains { $0.identifier == "board" })
        #expect(first.events.contains { $0.partner == .bounds })
        // And a different seed plays differently.
        let other = play(steps: 600, seed: 43)
        #expect(other.bits != play(steps: 600, seed: 42).bits)
    }
}
