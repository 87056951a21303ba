import ArcadeCore

/// Physics benchmarks: milliseconds per 60 Hz step of the native world.
///
/// The reference figures are Chipmunk2D's on this machine class for the same scenes (the
/// targets the world was built against): 0.04 ms for 50 balls, 0.25 ms for 200, 3.7 ms
/// for 2000.
func physicsBenchmarks() -> [BenchResult] {
    return [
        ballCatchStep(balls: 50, name: "physics.balls_50_ms", reference: 0.04),
        ballCatchStep(balls: 200, name: "physics.balls_200_ms", reference: 0.25),
        largeWorldStep(),
    ]
}

/// The ball-catch scene: 375 x 667, bounds on, the eight obstacle boxes of GAMES.md §2,
/// balls r = 10, elasticity 0.8, friction 1, UIKit gravity. Balls are dropped from a jittered
/// grid over the upper screen.
private func ballCatchStep(balls: Int, name: String, reference: Double) -> BenchResult {
    timeSteps(name: name, reference: reference) {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 375, height: 667))
        for (cx, cy, size) in [
            (150.0, 200.0, 25.0), (300, 300, 30), (70, 300, 10), (280, 160, 10),
            (100, 160, 10), (390, 250, 10), (145, 250, 25), (330, 350, 20),
        ] {
            world.addWall(nil, rect: Rect(center: Vec2(cx, cy), width: size, height: size))
        }
        dropGrid(into: world, count: balls, radius: 10, width: 375, top: 10)
        return world
    }
}

/// 2000 balls r = 5 in a 1600 x 1200 world with its bounds, same materials.
private func largeWorldStep() -> BenchResult {
    timeSteps(name: "physics.balls_2000_ms", reference: 3.7) {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 1600, height: 1200))
        dropGrid(into: world, count: 2000, radius: 5, width: 1600, top: 5)
        return world
    }
}

private func dropGrid(into world: PhysicsWorld, count: Int, radius: Double, width: Double, top: Double) {
    var random = SeededRandom(seed: 2024)
    let spacing = radius * 2.6
    let perRow = Int((width - 2 * radius) / spacing)
    for i in 0..<count {
        let x = radius + spacing / 2 + Double(i % perRow) * spacing + random.nextDouble(in: -0.2, 0.2) * radius
        let y = top + radius + Double(i / perRow) * spacing
        world.addBall(BallDefinition(position: Vec2(x, y), radius: radius, elasticity: 0.8, friction: 1))
    }
}

/// 60 settling steps, then the mean time of the next 600; the median over three fresh
/// worlds, so one burst of noise on the shared machine does not decide the figure.
private func timeSteps(name: String, reference: Double, makeWorld: () -> PhysicsWorld) -> BenchResult {
    var means: [Double] = []
    for _ in 0..<3 {
        let world = makeWorld()
        for _ in 0..<60 { world.step() }
        let t0 = now()
        for _ in 0..<600 { world.step() }
        means.append((now() - t0) / 600)
        blackHole(world.bodyCount)
    }
    means.sort()
    return BenchResult(name: name, value: means[1] * 1000, unit: "ms", note: "Chipmunk2D ~\(reference) ms")
}
