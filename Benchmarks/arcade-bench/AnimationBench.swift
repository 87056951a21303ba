import ArcadeCore
import ArcadeLua
import ArcadeRender
#if canImport(Glibc)
import Glibc
#endif

/// Animation benchmarks: the coin bank's stress scene, 10,000 coins in flight at once.
func animationBenchmarks() -> [BenchResult] {
    // The engine's rounds and the plain loop's alternate, so that load from other work on the
    // machine falls on both alike; each figure is the median of its 7 rounds.
    var steps: [Double] = [], starts: [Double] = [], prepared: [Double] = [], plains: [Double] = []
    let table = PlainCurveTable()
    for round in 0..<7 {
        let sample = coinFlights(count: 10_000, round: round)
        steps.append(sample.stepSeconds)
        starts.append(sample.startSeconds)
        prepared.append(sample.preparedSeconds)
        plains.append(plainCoinFlights(count: 10_000, round: round, table: table))
    }
    let flights = (stepSeconds: median(steps), startSeconds: median(starts), preparedSeconds: median(prepared))
    let plain = median(plains)
    return [
        BenchResult(name: "anim.coins_10k_ms", value: flights.stepSeconds * 1000, unit: "ms",
                    note: "CPU per 60 Hz step, 10,000 path + scale keyframe flights on scene nodes; target <= 0.5 ms"),
        BenchResult(name: "anim.coins_10k_plain_ms", value: plain * 1000, unit: "ms",
                    note: "the same flights as a plain Swift loop over plain arrays"),
        BenchResult(name: "anim.coins_10k_vs_plain", value: flights.stepSeconds / plain, unit: "x",
                    note: "engine / plain loop, same run; target <= 2.0"),
        BenchResult(name: "anim.coin_start_us", value: flights.startSeconds * 1e6, unit: "us",
                    note: "to start one coin flight (group of 3), 10,000 in a row"),
        BenchResult(name: "anim.coin_start_prepared_us", value: flights.preparedSeconds * 1e6, unit: "us",
                    note: "the same, each started from one prepared flight with its own numbers"),
        luaCoinFlights(count: 10_000),
    ]
}

/// The same 10,000 flights computed the straightforward way: a per-frame `update` in plain
/// Lua that evaluates each coin's curve, easing and scale keyframes and stores the results.
private func luaCoinFlights(count: Int) -> BenchResult {
    let source = """
        local coins = {}
        local rnd = math.random
        for i = 1, \(count) do
          local fx, fy = rnd() * 375, 667
          local tx, ty = 187, 100
          local s = 1 + rnd(0, 9) * 0.1
          coins[i] = { fx = fx, fy = fy, cx = tx + (fx - tx) / 2, cy = rnd() * ty / 2 - ty,
                       tx = tx, ty = ty, s = s, t = rnd(), x = 0, y = 0, sx = 1, sy = 1 }
        end
        local function easeOut(p) return 1 - (1 - p) * (1 - p) end
        local function easeIn(p) return p * p end
        return function(dt)
          for i = 1, #coins do
            local c = coins[i]
            local t = c.t + dt
            if t > 1 then t = t - 1 end
            c.t = t
            local u = 1 - t
            c.x = u * u * c.fx + 2 * u * t * c.cx + t * t * c.tx
            c.y = u * u * c.fy + 2 * u * t * c.cy + t * t * c.ty
            local s = c.s
            if t < 0.5 then
              local k = easeOut(t * 2)
              c.sx = s + (s * 0.75 - s) * k
              c.sy = s / 2 + (s * 0.5 - s / 2) * k
            else
              local k = easeIn((t - 0.5) * 2)
              c.sx = s * 0.75 + (s / 2 - s * 0.75) * k
              c.sy = s * 0.5 + (s / 2 - s * 0.5) * k
            end
          end
        end
        """
    guard let vm = try? LuaVM(name: "bench", limits: .init(memoryBytes: 256 << 20)), (try? vm.installSandbox()) != nil,
          let chunk = try? vm.load(source, chunkName: "=coins"),
          let step = try? vm.protectedCall(label: "setup", nresults: 1, push: { _ in vm.push(chunk); return 0 },
                                           results: { _ in vm.ref() }) else {
        return BenchResult(name: "anim.coins_10k_lua_ms", value: -1, unit: "ms", note: "setup failed")
    }
    let steps = 60
    let perStep = medianSecondsPerOp(iterations: steps, rounds: 5) {
        for _ in 0..<steps {
            try? vm.protectedCall(label: "update()") { s in
                vm.push(step)
                s.push(1.0 / 60)
                return 1
            }
        }
    }
    return BenchResult(name: "anim.coins_10k_lua_ms", value: perStep * 1000, unit: "ms",
                       note: "the same flights as a per-frame Lua update (wall time)")
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

/// `count` coins as the coin bank has them: nodes of a layer in a scene, which the caller
/// keeps while it uses them.
private func coinLayer(count: Int) -> (Scene, [Node]) {
    let scene = Scene()
    let layer = try! scene.add(GroupNode())
    let coins: [Node] = (0..<count).map { _ in GroupNode() }
    try! scene.add(coins, to: layer)
    return (scene, coins)
}

/// 10,000 coins in flight at once, one round (fresh coins and engine, seeded by `round`): CPU
/// seconds per 60 Hz step (animation only), per start, and per start from a prepared flight.
///
/// CPU time, not wall time: on a shared machine wall time also counts the time other
/// processes hold the core, and what the engine costs is the time it uses.
private func coinFlights(count: Int, round: Int) -> (stepSeconds: Double, startSeconds: Double, preparedSeconds: Double) {
    let steps = 50 // a flight lasts 60 steps (at most 6 of them already flown), so every coin stays in the air
    var random = SeededRandom(seed: UInt64(round))
    let animator = Animator()
    let (scene, coins) = coinLayer(count: count)
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
    let start = (threadCPUTime() - t0) / Double(count)
    t0 = threadCPUTime()
    for _ in 0..<steps {
        animator.advance(by: 1.0 / 60)
    }
    let step = (threadCPUTime() - t0) / Double(steps)
    precondition(animator.runningCount == count)
    var sink = coins[count / 2].x + coins[count / 3].scaleX

    // One flight prepared with a placeholder per number (a NaN carrying its index), then
    // each coin started from it with the numbers of its own flight.
    let tag: UInt64 = 0x7FF4_0000_0000_0000
    var slots = 0
    let template = flights[0].mappingValues { _ in
        slots += 1
        return Double(bitPattern: tag | UInt64(slots - 1))
    }
    let numbers = flights.map { f in
        var out: [Double] = []
        _ = f.mappingValues { v in out.append(v); return v }
        return out
    }
    let other = Animator()
    let (otherScene, otherCoins) = coinLayer(count: count)
    t0 = threadCPUTime()
    let prepared = try! other.prepare(template, for: otherCoins[0])
    for i in 0..<count {
        let own = numbers[i]
        _ = try! other.start(prepared, on: otherCoins[i]) { v in
            let bits = v.bitPattern
            return bits & 0xFFFF_FFFF_0000_0000 == tag ? own[Int(bits & 0xFFFF_FFFF)] : v
        }
    }
    let preparedStart = (threadCPUTime() - t0) / Double(count)
    sink += otherCoins[count / 2].x
    blackHole(sink)
    withExtendedLifetime((scene, otherScene)) {}
    return (step, start, preparedStart)
}

/// Ease-out then ease-in, each pre-solved into the same kind of 256-interval cubic table the
/// engine uses: the plain loop's curves.
private struct PlainCurveTable {
    let values: [Double]

    init() {
        values = Self.table(.easeOut) + Self.table(.easeIn)  // the second segment's curve from 1024 on
    }

    /// A timing curve as 256 cubic Hermite pieces, built from its exact values and slopes.
    private static func table(_ curve: TimingCurve) -> [Double] {
        let n = 256
        let h = 1.0 / Double(n)
        func slope(_ x: Double) -> Double {
            let e = 1e-6
            let a = max(0, x - e), b = min(1, x + e)
            return (curve.value(at: b) - curve.value(at: a)) / (b - a)
        }
        var out: [Double] = []
        out.reserveCapacity(4 * n)
        for i in 0..<n {
            let x0 = Double(i) * h
            let y0 = curve.value(at: x0), y1 = curve.value(at: x0 + h)
            let m0 = slope(x0) * h, m1 = slope(x0 + h) * h
            // y(u) = a u^3 + b u^2 + c u + d on u in [0, 1]
            out += [2 * y0 - 2 * y1 + m0 + m1, -3 * y0 + 3 * y1 - 2 * m0 - m1, m0, y0]
        }
        return out
    }
}

/// The coin flights of ``coinFlights(count:round:)`` written as a plain loop over plain arrays,
/// one round: the quadratic path, and scale x and y through their three keyframes with
/// ease-out then ease-in (`table`), results stored in arrays. CPU seconds per 60 Hz step.
private func plainCoinFlights(count: Int, round: Int, table: PlainCurveTable) -> Double {
    let tab = table.values
    let steps = 50
    var random = SeededRandom(seed: UInt64(round))
    let width = 375.0, height = 667.0
    let tx = width / 2, ty = 60.0
    var fx = [Double](), cx = [Double](), cy = [Double](), start = [Double]()
    var sx0 = [Double](), sx1 = [Double](), sx2 = [Double](), sy = [Double]()
    for i in 0..<count {
        let fromX = random.nextDouble(in: 0, width)
        let fromY = random.nextDouble(in: 0, ty)
        let s = 1 + Double(random.nextInt(in: 0, 9)) * 0.1
        fx.append(fromX)
        cx.append(tx + (fromX - tx) / 2)
        cy.append(fromY / 2 - ty)
        start.append(0.1 * Double(i) / Double(count))
        sx0.append(s); sx1.append(s * 0.75); sx2.append(s / 2); sy.append(s / 2)
    }
    var x = [Double](repeating: 0, count: count), y = x, scaleX = x, scaleY = x
    var now = 0.0
    let t0 = threadCPUTime()
    for _ in 0..<steps {
        now += 1.0 / 60
        fx.withUnsafeBufferPointer { fx in
        cx.withUnsafeBufferPointer { cx in
        cy.withUnsafeBufferPointer { cy in
        start.withUnsafeBufferPointer { start in
            for i in 0..<count {
                let p = min(max(now + start[i], 0), 1)
                let u = 1 - p
                x[i] = u * u * fx[i] + 2 * u * p * cx[i] + p * p * tx
                y[i] = u * u * height + 2 * u * p * cy[i] + p * p * ty
                let second = p >= 0.5
                let local = second ? (p - 0.5) * 2 : p * 2
                let f = min(local * 256, 255.999_999)
                let k = Int(f), v = f - Double(k)
                let o = (second ? 1024 : 0) + 4 * k
                let e = ((tab[o] * v + tab[o + 1]) * v + tab[o + 2]) * v + tab[o + 3]
                let a = second ? sx1[i] : sx0[i], b = second ? sx2[i] : sx1[i]
                scaleX[i] = a + (b - a) * e
                scaleY[i] = sy[i] + (sy[i] - sy[i]) * e
            }
        }}}}
    }
    let seconds = (threadCPUTime() - t0) / Double(steps)
    blackHole(x[count / 2] + y[count / 3] + scaleX[count / 4] + scaleY[count / 5])
    return seconds
}
