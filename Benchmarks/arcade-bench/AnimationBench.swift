import ArcadeCore
#if canImport(Glibc)
import Glibc
#endif

/// Animation benchmarks: the coin bank's stress scene, 10,000 coins in flight at once.
func animationBenchmarks() -> [BenchResult] {
    let flights = coinFlights(count: 10_000)
    return [
        BenchResult(name: "anim.coins_10k_ms", value: flights.stepSeconds * 1000, unit: "ms",
                    note: "CPU per 60 Hz step, 10,000 path + scale keyframe flights; target < 1 ms"),
        BenchResult(name: "anim.coin_start_us", value: flights.startSeconds * 1e6, unit: "us",
                    note: "to start one coin flight (group of 3), 10,000 in a row"),
    ]
}

/// A plain animatable object, standing in for a scene node: stored properties behind a switch.
private final class BenchNode: Animatable {
    var position = Vec2.zero
    var scaleX = 1.0
    var scaleY = 1.0

    func animatableValue(_ property: AnimatableProperty) -> AnimatableValue? {
        switch property {
        case .position: .vector(position)
        case .scale, .scaleX: .scalar(scaleX)
        case .scaleY: .scalar(scaleY)
        default: nil
        }
    }

    func setAnimatableValue(_ value: AnimatableValue, for property: AnimatableProperty) {
        switch (property, value) {
        case (.position, .vector(let v)): position = v
        case (.scaleX, .scalar(let s)): scaleX = s
        case (.scaleY, .scalar(let s)): scaleY = s
        case (.scale, .scalar(let s)):
            scaleX = s
            scaleY = s
        default: break
        }
    }
}

/// The coin bank's flight (coin-bank article): a quadratic path into the bank plus a
/// two-segment squash-and-shrink on scale x and y, ease-out then ease-in, in one group.
private func coinFlight(_ random: inout SeededRandom, width: Double, height: Double) -> Animation {
    let target = Vec2(width / 2, 60)
    let fromX = random.nextDouble(in: 0, width)
    let fromY = random.nextDouble(in: 0, target.y)
    let control = Vec2(target.x + (fromX - target.x) / 2, fromY / 2 - target.y)
    let s = 1 + Double(random.nextInt(in: 0, 9)) * 0.1
    let halves: [TimingCurve] = [.easeOut, .easeIn]
    return Animation(.group([
        Animation(.path(.quadratic(from: Vec2(fromX, height), control: control, to: target))),
        Animation(.keyframes(.scaleX, values: [.scalar(s), .scalar(s * 0.75), .scalar(s / 2)], curves: halves)),
        Animation(.keyframes(.scaleY, values: [.scalar(s / 2), .scalar(s / 2), .scalar(s / 2)], curves: halves)),
    ]), duration: 1.0, fill: .forwards)
}

/// 10,000 coins in flight at once: CPU seconds per 60 Hz step (animation only) and per start.
///
/// CPU time, not wall time: on a shared machine wall time also counts the time other
/// processes hold the core, and what the engine costs is the time it uses. Median of 7 rounds.
private func coinFlights(count: Int) -> (stepSeconds: Double, startSeconds: Double) {
    let steps = 50 // a flight lasts 60 steps (at most 6 of them already flown), so every coin stays in the air
    var stepSamples: [Double] = []
    var startSamples: [Double] = []
    var sink = 0.0
    for round in 0..<7 {
        var random = SeededRandom(seed: UInt64(round))
        let animator = Animator()
        let coins = (0..<count).map { _ in BenchNode() }
        // Every coin at its own point of its flight (up to 0.1 s in), as coins launched over
        // time are: no two share a curve evaluation.
        let flights = (0..<count).map { i in
            var flight = coinFlight(&random, width: 375, height: 667)
            flight.timing.delay = -0.1 * Double(i) / Double(count)
            return flight
        }
        var t0 = threadCPUTime()
        for (coin, flight) in zip(coins, flights) {
            _ = try! animator.start(flight, on: coin)
        }
        startSamples.append((threadCPUTime() - t0) / Double(count))
        t0 = threadCPUTime()
        for _ in 0..<steps {
            animator.advance(by: 1.0 / 60)
        }
        stepSamples.append((threadCPUTime() - t0) / Double(steps))
        precondition(animator.runningCount == count)
        sink += coins[count / 2].position.x + coins[count / 3].scaleX
    }
    blackHole(sink)
    stepSamples.sort()
    startSamples.sort()
    return (stepSamples[stepSamples.count / 2], startSamples[startSamples.count / 2])
}

/// CPU seconds used by this thread.
private func threadCPUTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
