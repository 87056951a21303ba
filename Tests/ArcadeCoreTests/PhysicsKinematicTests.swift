import Testing
@testable import ArcadeCore

@Suite struct PhysicsKinematicTests {
    func ballOnPaddle() -> (PhysicsWorld, BodyID, WallID) {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 375, height: 667))
        let paddle = world.addWall("board", rect: Rect(center: Vec2(187.5, 500), width: 100, height: 10))!
        let ball = world.addBall(BallDefinition(position: Vec2(187.5, 400), radius: 10, elasticity: 0.8, friction: 1))
        world.run(240)
        return (world, ball, paddle)
    }

    @Test func restingBallSitsOnThePaddle() {
        let (world, ball, _) = ballOnPaddle()
        #expect(abs(world.position(of: ball)!.y - 485) < 0.5)
        #expect(world.velocity(of: ball)!.length < 1)
    }

    @Test func paddleMovingUpLaunchesTheBall() {
        let (world, ball, paddle) = ballOnPaddle()
        var center = world.shape(of: paddle)!.center
        for _ in 0..<6 {
            center.y -= 8  // 480 px/s upwards
            world.moveWall(paddle, to: center)
            world.step()
        }
        #expect(world.shape(of: paddle)!.center == center)
        let vy = world.velocity(of: ball)!.y
        #expect(vy < -470, "launched at \(vy)")
        // It keeps rising after the paddle stops.
        world.run(15)
        #expect(world.position(of: ball)!.y < center.y - 5 - 10 - 40)
    }

    @Test func paddleCarriesTheBallSideways() {
        let (world, ball, paddle) = ballOnPaddle()
        var center = world.shape(of: paddle)!.center
        for _ in 0..<30 {
            center.x += 2  // 120 px/s to the right
            world.moveWall(paddle, to: center)
            world.step()
        }
        // Friction drags it along; rolling lets it lag behind the paddle.
        let v = world.velocity(of: ball)!.x
        #expect(v > 20, "\(v)")
        #expect(world.position(of: ball)!.x > 187.5 + 10)
    }

    @Test func paddleSweepingSidewaysPushesABall() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 300))
        let paddle = world.addWall("board", rect: Rect(center: Vec2(50, 280), width: 20, height: 40))!
        let ball = world.addBall(BallDefinition(position: Vec2(150, 290), radius: 10))
        world.run(30)
        var center = world.shape(of: paddle)!.center
        for _ in 0..<40 {
            center.x += 5
            world.moveWall(paddle, to: center)
            world.step()
        }
        // The ball ends ahead of the paddle's right edge, never inside it.
        #expect(world.position(of: ball)!.x >= center.x + 10 + 10 - 0.5)
    }

    @Test func placedWallDoesNotPush() {
        let (world, ball, paddle) = ballOnPaddle()
        world.placeWall(paddle, at: Vec2(50, 600))
        #expect(world.shape(of: paddle)!.center == Vec2(50, 600))
        world.step()
        // Teleported away: the ball just starts to fall.
        #expect(world.velocity(of: ball)!.y > 0)
    }
}
