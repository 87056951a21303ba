#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ArcadeCore

/// The broad phase keeps its candidate pairs between steps and finds them again only for
/// balls that left their fat boxes. These tests hold it to searching every step.
@Suite struct PhysicsBroadPhaseTests {
    /// A busy world: balls rain in, some are kicked, teleported or removed, the paddle moves,
    /// the gate opens and shuts, and what falls out is removed.
    func play(steps: Int, keepingCandidates: Bool) -> (world: PhysicsWorld, bits: [UInt64], events: [ContactEvent]) {
        let screen = Rect(x: 0, y: 0, width: 375, height: 667)
        let world = PhysicsWorld(bounds: screen)
        world.keepsCandidates = keepingCandidates
        world.removalRect = screen
        addBallCatchObstacles(to: world)
        let paddle = world.addWall("board", rect: Rect(center: Vec2(187.5, 560), width: 100, height: 10))!
        var random = SeededRandom(seed: 77)
        var events: [ContactEvent] = []
        for step in 0..<steps {
            if step % 6 == 0 && world.bodyCount < 220 {
                let radius = 4 + random.nextUnit() * 8
                world.addBall(BallDefinition(
                    position: Vec2(15 + random.nextUnit() * 345, 15), radius: radius,
                    elasticity: 0.8, friction: 1))
            }
            let bodies = world.bodies
            if step % 17 == 0, let id = bodies.randomElement(using: &random) {
                world.setVelocity(Vec2(random.nextDouble(in: -900, 900), random.nextDouble(in: -900, 0)), of: id)
            }
            if step % 41 == 0, let id = bodies.randomElement(using: &random) {
                world.setPosition(Vec2(20 + random.nextUnit() * 335, 20 + random.nextUnit() * 300), of: id)
            }
            if step % 53 == 0, let id = bodies.randomElement(using: &random) {
                world.removeBody(id)
            }
            world.boundsEnabled = (step / 400) % 3 != 2
            let t = Double(step) / 60
            if (step / 250) % 2 == 0 {
                world.moveWall(paddle, to: Vec2(187.5 + 120 * sin(t * 1.3), 560 + 40 * sin(t * 0.7)))
            }
            world.step()
            world.drainContactEvents { events.append($0) }
        }
        var bits: [UInt64] = []
        for id in world.bodies {
            let p = world.position(of: id)!, v = world.velocity(of: id)!
            bits += [p.x.bitPattern, p.y.bitPattern, v.x.bitPattern, v.y.bitPattern, world.angle(of: id)!.bitPattern]
        }
        return (world, bits, events)
    }

    @Test func keptPairsGiveTheSameRunAsSearchingEveryStep() {
        let kept = play(steps: 3000, keepingCandidates: true)
        let searched = play(steps: 3000, keepingCandidates: false)
        // (compared first, so a failure does not print every coordinate)
        let samePositions = kept.bits == searched.bits, sameEvents = kept.events == searched.events
        #expect(samePositions)
        #expect(sameEvents)
        #expect(!kept.bits.isEmpty && !kept.events.isEmpty)
        // Both ways of keeping the pairs were used, and full searches were the exception.
        #expect(kept.world.candidateRefreshes > 500, "\(kept.world.candidateRefreshes) partial refreshes")
        #expect(kept.world.candidateSearches < 2000, "\(kept.world.candidateSearches) full searches")
        // (the comparison run searched on every step that had balls)
        #expect(searched.world.candidateRefreshes == 0 && searched.world.candidateSearches > 2900)
    }

    @Test func everyPairWhoseSweptBoxesOverlapIsACandidate() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 300, height: 400))
        addBallCatchObstacles(to: world)
        var random = SeededRandom(seed: 5)
        for _ in 0..<150 {
            world.addBall(BallDefinition(
                position: Vec2(10 + random.nextUnit() * 280, 10 + random.nextUnit() * 380),
                radius: 3 + random.nextUnit() * 9, elasticity: 0.8, friction: 1))
        }
        var missing = 0, unsorted = 0
        for step in 0..<600 {
            if step % 9 == 0, let id = world.bodies.randomElement(using: &random) {
                world.setVelocity(Vec2(random.nextDouble(in: -1500, 1500), random.nextDouble(in: -1500, 1500)), of: id)
            }
            world.step()
            let n = world.bodyCount
            let boxes = world.boxes.base, starts = world.candidateStarts.base, list = world.candidates.base
            for a in 0..<n {
                let mine = Array(UnsafeBufferPointer(start: list + Int(starts[a]), count: Int(starts[a + 1] - starts[a])))
                if zip(mine, mine.dropFirst()).contains(where: { $0 >= $1 }) || mine.contains(where: { Int($0) <= a }) {
                    unsorted += 1
                }
                for b in (a + 1)..<max(n, a + 1) where boxes[a].overlaps(boxes[b]) && !mine.contains(Int32(b)) {
                    missing += 1
                }
            }
        }
        #expect(missing == 0)
        #expect(unsorted == 0)
        #expect(world.candidateRefreshes > 0)
    }
}
