import Testing
@testable import ArcadeCore

/// A ball caught between a kinematic wall (a paddle moved with `moveWall`) and a fixed one,
/// or the bounds, is squeezed out along the free direction: it never ends inside a wall and
/// never crosses one.
@Suite struct PhysicsPinchTests {
    /// How far a ball's surface may sink into a wall at the end of a step.
    func tolerance(_ radius: Double) -> Double { 0.1 * radius + 0.05 }

    /// Distance from `p` to the rectangle (0 inside), and whether `p` is inside it.
    func distance(_ p: Vec2, to r: Rect) -> Double {
        let dx = max(r.minX - p.x, 0, p.x - r.maxX)
        let dy = max(r.minY - p.y, 0, p.y - r.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    @Test func paddlePushingABallToTheEdgeOfTheCanvasDoesNotPushItOut() {
        // The case: an 80 x 24 canvas, a ball pushed right by a paddle at 120 px/s.
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 80, height: 24), gravity: Vec2(0, 0.1))
        world.restitutionThreshold = 10
        let paddle = world.addWall("paddle", rect: Rect(center: Vec2(40, 20), width: 12, height: 4))!
        let ball = world.addBall(BallDefinition(position: Vec2(49, 21.5), radius: 2.5, friction: 0.2))
        var center = world.shape(of: paddle)!.center
        var events: [ContactEvent] = []
        for _ in 0..<120 {
            center.x = min(center.x + 2, 80)
            world.moveWall(paddle, to: center)
            world.step()
            world.drainContactEvents { events.append($0) }
            let p = world.position(of: ball)!
            #expect(p.x <= 80 - 2.5 + tolerance(2.5), "crossed the right edge: \(p)")
            #expect(distance(p, to: world.shape(of: paddle)!.rect!) >= 2.5 - tolerance(2.5), "inside the paddle: \(p)")
        }
        #expect(world.contains(ball))
        #expect(world.velocity(of: ball)!.x < 1, "still flying right at \(world.velocity(of: ball)!.x)")
        #expect(events.contains { $0.body == ball && $0.partner == .bounds })

        // Squeezed out, it is still in play: the paddle pulled back and swung again touches it.
        events.removeAll()
        for _ in 0..<30 {
            center.x -= 2
            world.moveWall(paddle, to: center)
            world.step()
        }
        world.drainContactEvents { _ in }
        world.setPosition(Vec2(60, 21), of: ball)
        world.setVelocity(.zero, of: ball)
        for _ in 0..<20 {
            center.x += 2
            world.moveWall(paddle, to: center)
            world.step()
            world.drainContactEvents { events.append($0) }
        }
        #expect(events.contains { $0.body == ball && $0.partner == .wall(paddle) })
    }

    @Test func ballPinchedAgainstAThinWallIsSqueezedOutNotThrough() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 200, height: 100), gravity: .zero)
        let wall = Rect(x: 150, y: 0, width: 2, height: 100)
        world.addWall("wall", rect: wall)
        let paddle = world.addWall("paddle", rect: Rect(center: Vec2(100, 50), width: 10, height: 30))!
        let ball = world.addBall(BallDefinition(position: Vec2(120, 52), radius: 5))
        var center = world.shape(of: paddle)!.center
        for _ in 0..<60 {
            center.x = min(center.x + 4, wall.minX - 5)
            world.moveWall(paddle, to: center)
            world.step()
            let p = world.position(of: ball)!
            #expect(p.x < wall.minX - 5 + tolerance(5), "into or past the wall: \(p)")
            #expect(distance(p, to: world.shape(of: paddle)!.rect!) >= 5 - tolerance(5), "inside the paddle: \(p)")
        }
        // Out along the free direction: above or below the paddle.
        let p = world.position(of: ball)!
        #expect(abs(p.y - 50) >= 15 + 5 - tolerance(5))
    }

    /// Random paddle paths next to a wall or the bounds, with balls of random radius between.
    @Test(arguments: 0..<200)
    func randomPaddlePathsNeverPushABallIntoOrThroughAWall(seed: Int) {
        paddlePath(seed: seed, balls: 1)
    }

    /// The same with several balls, so a ball is also pressed into the wall by another ball
    /// that the paddle pushes.
    @Test(arguments: 0..<400)
    func randomPaddlePathsNeverPushBallsPressedByBallsIntoOrThroughAWall(seed: Int) {
        paddlePath(seed: 1_000_000 + seed, balls: 4)
    }

    func paddlePath(seed: Int, balls ballCount: Int) {
        var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 17)
        let width = random.nextDouble(in: 80, 240), height = random.nextDouble(in: 30, 120)
        let bounds = Rect(x: 0, y: 0, width: width, height: height)
        let gravity = random.nextUnit() < 0.5 ? Vec2.zero : Vec2(0, random.nextDouble(in: 0.05, 1))
        let world = PhysicsWorld(bounds: bounds, gravity: gravity)
        world.restitutionThreshold = random.nextDouble(in: 5, 100)
        // Towards the right (+1) or the left (-1); against the bounds or a fixed wall.
        let direction = random.nextUnit() < 0.5 ? 1.0 : -1.0
        var fixed: Rect?
        // Where the paddle's leading edge must stop.
        var stop = direction > 0 ? width : 0
        if random.nextUnit() < 0.6 {
            let thickness = random.nextDouble(in: 0.5, 6)
            let x = direction > 0 ? random.nextDouble(in: width * 0.6, width - 10) : random.nextDouble(in: 10, width * 0.4)
            let r = Rect(x: x - thickness / 2, y: -20, width: thickness, height: height + 40)
            world.addWall("fixed", rect: r)
            fixed = r
            stop = direction > 0 ? r.minX : r.maxX
        }
        // Room above the paddle for the largest ball, so a pinched ball always has a way out.
        let room = 2 * 6 + 1.0
        let paddleWidth = random.nextDouble(in: 2, 20), paddleHeight = random.nextDouble(in: 2, min(height / 2, height - room - 2))
        var center = Vec2(
            stop - direction * random.nextDouble(in: width * 0.3, width * 0.5),
            random.nextDouble(in: paddleHeight / 2 + room, height - paddleHeight / 2))
        let paddle = world.addWall("paddle", rect: Rect(center: center, width: paddleWidth, height: paddleHeight))!

        // Balls between the paddle and the wall.
        var balls: [(id: BodyID, radius: Double)] = []
        var placed: [(Vec2, Double)] = []
        for _ in 0..<ballCount {
            let r = random.nextDouble(in: 1, 6)
            for _ in 0..<20 {
                let lead = center.x + direction * paddleWidth / 2
                let lo = min(lead, stop) + r + 0.5, hi = max(lead, stop) - r - 0.5
                guard lo < hi, height - 2 * r > 1 else { break }
                let p = Vec2(random.nextDouble(in: lo, hi), random.nextDouble(in: r + 0.5, height - r - 0.5))
                if placed.contains(where: { ($0.0 - p).length < $0.1 + r + 0.5 }) { continue }
                placed.append((p, r))
                balls.append((world.addBall(BallDefinition(
                    position: p, radius: r, velocity: Vec2(random.nextDouble(in: -60, 60), random.nextDouble(in: -60, 60)),
                    elasticity: random.nextDouble(in: 0, 0.9), friction: random.nextDouble(in: 0, 1))), r))
                break
            }
        }

        var sunk = [Int](repeating: 0, count: balls.count)
        var failures: [String] = []
        let speed = random.nextDouble(in: 0.5, 8)
        for step in 0..<240 {
            // Mostly towards the wall, sometimes back; a little up and down.
            center.x += direction * speed * random.nextDouble(in: -0.4, 1)
            center.y += random.nextDouble(in: -1, 1) * speed * 0.5
            let lead = center.x + direction * paddleWidth / 2
            if direction * (lead - stop) > 0 { center.x = stop - direction * paddleWidth / 2 }
            center.y = min(max(center.y, paddleHeight / 2 + room), height - paddleHeight / 2)
            world.moveWall(paddle, to: center)
            world.step()
            let paddleRect = world.shape(of: paddle)!.rect!
            for (k, ball) in balls.enumerated() {
                guard failures.count < 5, let p = world.position(of: ball.id) else { continue }
                let r = ball.radius, tol = tolerance(r)
                let where_ = "seed \(seed) step \(step) ball \(k) r \(r) at \(p) v \(world.velocity(of: ball.id)!) in \(bounds), paddle \(paddleRect)"
                if !bounds.contains(p) { failures.append("outside the bounds: \(where_)") }
                var depth = max(r - distance(p, to: paddleRect), r - p.x, p.x + r - width, r - p.y, p.y + r - height)
                if let fixed {
                    depth = max(depth, r - distance(p, to: fixed))
                    if direction * (p.x - fixed.center.x) > 0 { failures.append("crossed the wall: \(where_)") }
                }
                sunk[k] = depth > tol ? sunk[k] + 1 : 0
                if sunk[k] > 2 { failures.append("inside a wall by \(depth): \(where_)") }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}

extension WallShape {
    var rect: Rect? {
        if case .rect(let r) = self { return r }
        return nil
    }
}
