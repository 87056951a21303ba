#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ArcadeCore

/// Every animation the five games use (GAMES.md), written with the engine's API, with no
/// per-frame game code.
@Suite struct AnimationSeedTests {
    // MARK: Coin bank

    /// The coin bank article's flight: a quadratic curve from below the screen to just above
    /// the bank, squashed to (s, s/2) and shrinking to s/2, easing out then in.
    static func coinFlight(from: Vec2, target: Vec2, fromY: Double, scale s: Double) -> Animation {
        let control = Vec2(target.x + (from.x - target.x) / 2, fromY / 2 - target.y)
        let halves: [TimingCurve] = [.easeOut, .easeIn]
        return Animation(.group([
            Animation(.path(.quadratic(from: from, control: control, to: target))),
            Animation(.keyframes(.scaleX, values: [.s(s), .s(s * 0.75), .s(s / 2)], curves: halves)),
            Animation(.keyframes(.scaleY, values: [.s(s / 2), .s(s / 2), .s(s / 2)], curves: halves)),
        ]), duration: 1.0, fill: .forwards)
    }

    @Test func coinFlightFollowsItsCurveAndShrinks() throws {
        let animator = Animator()
        let coin = Sprite()
        let from = Vec2(120, 687), target = Vec2(187, 80), fromY = 40.0, s = 1.6
        let control = Vec2(target.x + (from.x - target.x) / 2, fromY / 2 - target.y)
        try animator.start(Self.coinFlight(from: from, target: target, fromY: fromY, scale: s), on: coin, token: 17)
        #expect(coin.position == from)
        #expect(coin.scaleX == s && coin.scaleY == s / 2)
        animator.run(steps: 15)
        #expect(near(coin.scaleX, s - 0.25 * s * TimingCurve.easeOut.value(at: 0.5), 1e-6))
        animator.run(steps: 15)
        #expect(near(coin.position, (from + control * 2 + target) / 4, 1e-9))
        #expect(near(coin.scaleX, 0.75 * s, 1e-9))
        #expect(near(coin.scaleY, s / 2, 1e-12))
        animator.run(steps: 15)
        #expect(near(coin.scaleX, 0.75 * s - 0.25 * s * TimingCurve.easeIn.value(at: 0.5), 1e-6))
        animator.run(steps: 15)
        #expect(coin.position == target)
        #expect(coin.scaleX == s / 2 && coin.scaleY == s / 2)
        #expect(animator.drain() == [AnimationCompletion(id: AnimationID(slot: 0, generation: 1), token: 17,
                                                         end: .finished)])
    }

    @Test func threeHundredCoinsThenTheBankShakes() throws {
        let animator = Animator()
        let bank = Sprite()
        var random = SeededRandom(seed: 2024)
        var coins: [Int: Sprite] = [:]
        var launched = 0, arrived: [UInt64] = []
        var shake: AnimationID?
        var launchClock = 0.0
        for _ in 0..<300 {
            // One coin every 0.01 s (a timer's job in the game).
            launchClock += step
            while launched < 300 && Double(launched) * 0.01 <= launchClock {
                let coin = Sprite()
                coins[launched] = coin
                let flight = Self.coinFlight(from: Vec2(random.nextDouble(in: 0, 375), 687), target: Vec2(187, 80),
                                             fromY: random.nextDouble(in: 0, 80),
                                             scale: 1 + Double(random.nextInt(in: 0, 9)) * 0.1)
                try animator.start(flight, on: coin, token: UInt64(launched))
                launched += 1
            }
            animator.advance(by: step)
            while let c = animator.nextCompletion() {
                if c.token == 1000 {
                    #expect(c.finished)
                    continue
                }
                #expect(c.finished)
                arrived.append(c.token)
                coins[Int(c.token)] = nil // the coin disappears when it arrives
                if arrived.count == 300 {
                    // The bank article's shake: -0.2 to 0.2 rad, 0.1 s each way, three times.
                    shake = try animator.start(Animation(.basic(.rotation, from: .s(-0.2), to: .s(0.2)), duration: 0.1,
                                                         repeatCount: 3, autoreverses: true), on: bank, token: 1000)
                }
            }
        }
        #expect(arrived == (0..<300).map(UInt64.init)) // in launch order
        #expect(coins.isEmpty)
        #expect(shake != nil && !animator.isRunning(shake!))
        #expect(bank.rotation == 0) // Core Animation's default fill: back to the model value
        #expect(animator.runningCount == 0)
    }

    @Test func bankShakePassesThroughItsExtremes() throws {
        let animator = Animator()
        let bank = Sprite()
        try animator.start(Animation(.basic(.rotation, from: .s(-0.2), to: .s(0.2)), duration: 0.1, repeatCount: 3,
                                     autoreverses: true), on: bank)
        var trace: [Double] = [bank.rotation]
        for _ in 0..<36 {
            animator.advance(by: step)
            trace.append(bank.rotation)
        }
        #expect(near(trace[3], 0)) // 0.05 s: half-way
        #expect(near(trace[6], 0.2))
        #expect(near(trace[12], -0.2))
        #expect(near(trace[30], 0.2)) // third trip's far end
        #expect(trace[36] == 0)
        #expect(trace.dropLast().allSatisfy { $0 >= -0.2 - 1e-12 && $0 <= 0.2 + 1e-12 })
        #expect(animator.drain().map(\.finished) == [true])
    }

    // MARK: Gift combo

    /// The counter's pop: 3x then 0.7x in 0.25 s, then a spring back to 1x in 0.25 s
    /// (damping 0.7, initial velocity 10), as one group with one completion.
    static let counterPop = Animation(.group([
        Animation(.keyframes(.scale, values: [.s(1), .s(3), .s(0.7)]), duration: 0.25),
        Animation(.spring(.scale, from: .s(0.7), to: .s(1), damping: 0.7, initialVelocity: 10), duration: 0.25,
                  delay: 0.25),
    ]), fill: .forwards)

    @Test func giftCounterPops() throws {
        let animator = Animator()
        let counter = Sprite()
        try animator.start(Self.counterPop, on: counter)
        var trace: [Double] = []
        for _ in 0..<30 {
            animator.advance(by: step)
            trace.append(counter.scaleX)
        }
        #expect(near(trace[5], 2.6)) // 6 steps: 0.8 of the way to 3
        #expect(trace.max()! <= 3 + 1e-9)
        #expect(near(trace[14], 0.7)) // 0.25 s
        #expect(trace[15..<29].contains { $0 > 1.01 }) // the spring overshoots
        #expect(trace[29] == 1)
        #expect(counter.scaleY == 1)
        #expect(animator.drain().count == 1)
    }

    @Test func repeatedTicksReplaceThePopInFlight() throws {
        let animator = Animator()
        let counter = Sprite()
        let first = try animator.start(Self.counterPop, on: counter, token: 1)
        animator.run(steps: 20)
        try animator.start(Self.counterPop, on: counter, token: 2)
        #expect(!animator.isRunning(first))
        animator.run(steps: 30)
        #expect(animator.drain().map { ($0.token, $0.finished) }.elementsEqual([(1, false), (2, true)], by: ==))
        #expect(counter.scaleX == 1)
    }

    // MARK: Fishing

    @Test func hookCastKeyframesAndLineStroke() throws {
        let animator = Animator()
        let hook = Sprite(position: Vec2(187, 5))
        let line = Sprite()
        line.strokeEnd = 1
        let top = Vec2(187, 5), lineLength = 300.0, angle = 0.3
        let atDepth = Vec2(187 - lineLength * 0.8 * tan(angle), lineLength * 0.8)
        let end = Vec2(187 - lineLength * tan(angle), lineLength)
        try animator.start(Animation(.keyframes(.position, values: [.vector(top), .vector(atDepth), .vector(end)],
                                                keyTimes: [0, 0.7, 1]), duration: 1, fill: .forwards), on: hook)
        try animator.start(Animation(.keyframes(.strokeEnd, values: [.s(0), .s(0.8), .s(1)], keyTimes: [0, 0.6, 1]),
                                     duration: 1), on: line)
        #expect(line.strokeEnd == 0)
        animator.run(steps: 21)
        #expect(near(hook.position, top.lerp(to: atDepth, 0.5))) // 0.35 s: half of the first 0.7
        #expect(near(line.strokeEnd, 0.8 * 0.35 / 0.6))
        animator.run(steps: 21)
        #expect(near(hook.position, atDepth))
        animator.run(steps: 9)
        #expect(near(hook.position, atDepth.lerp(to: end, 0.5))) // 0.85 s
        #expect(near(line.strokeEnd, 0.8 + 0.2 * 0.25 / 0.4))
        animator.run(steps: 9)
        #expect(hook.position == end)
        #expect(line.strokeEnd == 1)
        #expect(animator.drain().count == 2)
        // Reeling in: the line erases from its start, the hook returns to the top, in 1 s.
        try animator.start(Animation(.basic(.strokeStart, from: .s(0), to: .s(1)), duration: 1, fill: .forwards),
                           on: line)
        try animator.start(Animation(.keyframes(.position, values: [.vector(end), .vector(top)], keyTimes: [0, 1]),
                                     duration: 1, fill: .forwards), on: hook)
        animator.run(steps: 30)
        #expect(near(line.strokeStart, 0.5))
        #expect(near(hook.position, end.lerp(to: top, 0.5)))
        animator.run(steps: 30)
        #expect(hook.position == top && line.strokeStart == 1)
    }

    // MARK: Last Circle

    @Test func circlePopsInWithASpring() throws {
        let animator = Animator()
        let circle = Sprite()
        circle.scaleX = 0.1
        circle.scaleY = 0.1
        circle.alpha = 0
        let popIn = Animation(.group([
            Animation(.spring(.scale, to: .s(1), damping: 0.5, initialVelocity: 6)),
            Animation(.spring(.alpha, to: .s(1), damping: 0.5, initialVelocity: 6)),
        ]), duration: 0.5, delay: 0.2, fill: .forwards)
        try animator.start(popIn, on: circle)
        animator.run(steps: 12)
        #expect(circle.scaleX == 0.1 && circle.alpha == 0) // still waiting out its delay
        var peak = 0.0
        for _ in 0..<30 {
            animator.advance(by: step)
            peak = max(peak, circle.scaleX)
        }
        #expect(peak > 1.1)
        #expect(circle.scaleX == 1 && circle.scaleY == 1 && circle.alpha == 1)
        #expect(animator.drain().map(\.finished) == [true])
    }

    @Test func rightCircleBlinks() throws {
        let animator = Animator()
        let circle = Sprite()
        try animator.start(Animation(.basic(.scale, to: .s(1.5)), duration: 0.2, repeatCount: 3, autoreverses: true),
                           on: circle, token: 5)
        animator.run(steps: 12)
        #expect(near(circle.scaleX, 1.5))
        animator.run(steps: 6)
        #expect(near(circle.scaleX, 1.25))
        animator.run(steps: 53)
        #expect(animator.drain().isEmpty)
        animator.run(steps: 1) // 3 round trips of 0.4 s
        #expect(circle.scaleX == 1)
        #expect(animator.drain().map(\.token) == [5]) // then the game is over
    }

    @Test func startButtonPulsesForeverUntilTheGameCloses() throws {
        let animator = Animator()
        let button = Sprite()
        let id = try animator.start(Animation(.basic(.scale, from: .s(1), to: .s(1.5)), duration: 1,
                                              repeatCount: AnimationTiming.forever, autoreverses: true,
                                              curve: .easeInEaseOut), on: button)
        animator.run(steps: 15)
        #expect(near(button.scaleX, 1 + 0.5 * TimingCurve.easeInEaseOut.value(at: 0.25), 1e-6))
        animator.run(steps: 45)
        #expect(near(button.scaleX, 1.5, 1e-9))
        animator.run(steps: 60)
        #expect(near(button.scaleX, 1, 1e-9))
        animator.run(steps: 60 * 120)
        #expect(animator.isRunning(id))
        #expect(animator.cancelAll() == 1)
        #expect(animator.drain().map(\.end) == [.cancelled])
    }

    /// One background circle's life: after a delay, fade in to 0.4 while growing 0.5x -> 1x,
    /// then fade out while growing to 2x, over the same time each, linearly.
    static func backgroundCircle(delay: Double, phase: Double) -> Animation {
        Animation(.group([
            Animation(.keyframes(.alpha, values: [.s(0), .s(0.4), .s(0)])),
            Animation(.keyframes(.scale, values: [.s(0.5), .s(1), .s(2)])),
        ]), duration: 2 * phase, delay: delay, fill: .forwards)
    }

    @Test func backgroundCircleFadesInThenOut() throws {
        let animator = Animator()
        let circle = Sprite()
        circle.alpha = 0
        circle.scaleX = 0.5
        try animator.start(Self.backgroundCircle(delay: 0.5, phase: 1.5), on: circle)
        animator.run(steps: 30)
        #expect(circle.alpha == 0)
        animator.run(steps: 45)
        #expect(near(circle.alpha, 0.2) && near(circle.scaleX, 0.75))
        animator.run(steps: 45)
        #expect(near(circle.alpha, 0.4) && near(circle.scaleX, 1))
        animator.run(steps: 45)
        #expect(near(circle.alpha, 0.2) && near(circle.scaleX, 1.5))
        animator.run(steps: 45)
        #expect(circle.alpha == 0 && circle.scaleX == 2)
        #expect(animator.drain().count == 1)
    }

    @Test func sevenBackgroundLoopsStayBoundedAndStopWhenLeaving() throws {
        let animator = Animator()
        var random = SeededRandom(seed: 7)
        var circles: [UInt64: Sprite] = [:]
        var nextToken: UInt64 = 0
        func spawn() throws {
            let circle = Sprite()
            circle.alpha = 0
            nextToken += 1
            circles[nextToken] = circle
            try animator.start(Self.backgroundCircle(delay: random.nextDouble(in: 0, 1),
                                                     phase: random.nextDouble(in: 0.5, 4.5)),
                               on: circle, token: nextToken)
        }
        for _ in 0..<7 { try spawn() }
        var footprint = 0
        for i in 0..<(60 * 120) {
            animator.advance(by: step)
            while let c = animator.nextCompletion() {
                circles[c.token] = nil // never let a finished circle stay alive
                if c.finished { try spawn() }
            }
            #expect(animator.runningCount == 7)
            if i == 60 * 30 { footprint = animator.storageFootprint }
        }
        #expect(nextToken > 30)
        #expect(circles.count == 7)
        #expect(animator.storageFootprint == footprint)
        // Leaving the start screen: everything stops, nothing restarts.
        #expect(animator.cancelAll() == 7)
        while let c = animator.nextCompletion() {
            circles[c.token] = nil
            if c.finished { try spawn() }
        }
        #expect(circles.isEmpty)
        #expect(animator.runningCount == 0)
    }

    @Test func countdownBarGrowsAndTurnsFromGreenToRed() throws {
        let animator = Animator()
        let bar = Sprite()
        bar.scaleX = 0
        bar.color = Color(r: 0, g: 255, b: 0)
        let total = 5.0
        try animator.start(Animation(.group([
            Animation(.basic(.scaleX, from: .s(0), to: .s(1))),
            Animation(.keyframes(.color(0), values: [.color(Color(r: 0, g: 255, b: 0)),
                                                     .color(Color(r: 255, g: 255, b: 0)),
                                                     .color(Color(r: 255, g: 0, b: 0))])),
        ]), duration: total, delay: 0.3, fill: .forwards), on: bar)
        animator.run(steps: 18 + 60) // 1 s into the countdown: t / T = 0.2
        #expect(near(bar.scaleX, 0.2))
        #expect(bar.color == Color(r: 102, g: 255, b: 0))
        animator.run(steps: 180) // t / T = 0.8
        #expect(bar.color == Color(r: 255, g: 102, b: 0))
        animator.run(steps: 60)
        #expect(bar.scaleX == 1 && bar.color == Color(r: 255, g: 0, b: 0))
        #expect(animator.drain().map(\.finished) == [true]) // the game is over
    }
}
