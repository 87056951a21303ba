import Testing
@testable import ArcadeCore

/// Ids, cancelling, replacing, completions and storage.
@Suite struct AnimationControlTests {
    func fade(_ to: Double = 1, duration: Double = 1) -> Animation {
        Animation(.basic(.alpha, from: .s(0), to: .s(to)), duration: duration, fill: .forwards)
    }

    @Test func cancelStopsInPlaceAndReportsNotFinished() throws {
        let animator = Animator()
        let sprite = Sprite()
        let id = try animator.start(fade(), on: sprite, token: 42)
        #expect(animator.isRunning(id))
        animator.run(steps: 30)
        #expect(animator.cancel(id))
        #expect(!animator.isRunning(id))
        #expect(!animator.cancel(id))
        #expect(near(sprite.alpha, 0.5))
        animator.run(steps: 30)
        #expect(near(sprite.alpha, 0.5)) // left where it was
        #expect(animator.drain() == [AnimationCompletion(id: id, token: 42, end: .cancelled)])
        #expect(animator.runningCount == 0)
    }

    @Test func newAnimationOnTheSamePropertyReplacesTheOld() throws {
        let animator = Animator()
        let sprite = Sprite()
        let first = try animator.start(fade(), on: sprite, token: 1)
        let other = try animator.start(Animation(.basic(.rotation, to: .s(1)), duration: 1), on: sprite, token: 2)
        animator.run(steps: 15)
        let second = try animator.start(Animation(.basic(.alpha, to: .s(0)), duration: 0.25), on: sprite, token: 3)
        #expect(!animator.isRunning(first))
        #expect(animator.isRunning(other)) // a different property keeps running
        #expect(animator.isRunning(second))
        #expect(animator.drain() == [AnimationCompletion(id: first, token: 1, end: .replaced)])
        // The replacement started from the value the old one had reached.
        animator.run(steps: 7)
        #expect(near(sprite.alpha, 0.25 * (1 - 7.0 / 15), 1e-9))
        // Overlapping properties replace too: position replaces x, scale replaces scale y.
        let x = try animator.start(Animation(.basic(.x, to: .s(9)), duration: 1), on: sprite, token: 4)
        let y = try animator.start(Animation(.basic(.scaleY, to: .s(9)), duration: 1), on: sprite, token: 5)
        try animator.start(Animation(.group([Animation(.basic(.position, to: .v(1, 1))),
                                             Animation(.basic(.scale, to: .s(2)))])), on: sprite, token: 6)
        #expect(animator.drain().map(\.token) == [4, 5])
        #expect(!animator.isRunning(x) && !animator.isRunning(y))
    }

    @Test func cancelAllOnATargetInStartOrder() throws {
        let animator = Animator()
        let a = Sprite(), b = Sprite()
        try animator.start(fade(), on: a, token: 1)
        try animator.start(fade(), on: b, token: 2)
        try animator.start(Animation(.basic(.x, to: .s(1)), duration: 1), on: a, token: 3)
        try animator.start(Animation(.basic(.y, to: .s(1)), duration: 1), on: a, token: 4)
        #expect(animator.cancelAll(on: a) == 3)
        #expect(animator.drain().map(\.token) == [1, 3, 4])
        #expect(animator.runningCount == 1)
        #expect(animator.cancelAll(on: a) == 0)
        try animator.start(fade(), on: a, token: 5)
        #expect(animator.cancelAll() == 2)
        #expect(animator.drain().map(\.token) == [2, 5])
    }

    @Test func aTargetNobodyElseHoldsEndsItsAnimationsAndIsReleased() throws {
        let animator = Animator()
        weak var gone: Sprite?
        var ids: [AnimationID] = []
        do {
            let sprite = Sprite()
            gone = sprite
            ids.append(try animator.start(fade(), on: sprite, token: 7))
            ids.append(try animator.start(Animation(.basic(.x, to: .s(1)), duration: 1), on: sprite, token: 8))
            animator.run(steps: 3)
        }
        #expect(gone != nil) // the engine holds it until the next step looks
        animator.run(steps: 1)
        #expect(gone == nil)
        let ends = animator.drain()
        #expect(ends.map(\.token) == [7, 8])
        #expect(ends.allSatisfy { $0.end == .targetGone && !$0.finished })
        #expect(ids.allSatisfy { !animator.isRunning($0) })
        #expect(animator.runningCount == 0)
    }

    @Test func completionsOfOneStepComeByEndTimeThenStartOrder() throws {
        let animator = Animator()
        let sprites = (0..<4).map { _ in Sprite() }
        // All end within the 31st step; end times 0.51, 0.505, 0.505 (started later), 0.502.
        try animator.start(fade(duration: 0.51), on: sprites[0], token: 0)
        try animator.start(fade(duration: 0.505), on: sprites[1], token: 1)
        try animator.start(fade(duration: 0.502), on: sprites[3], token: 3)
        try animator.start(fade(duration: 0.505), on: sprites[2], token: 2)
        animator.run(steps: 30)
        #expect(animator.drain().isEmpty)
        animator.run(steps: 1)
        #expect(animator.drain().map(\.token) == [3, 1, 2, 0])
    }

    @Test func completionOrderIsTheSameOnEveryRun() throws {
        func script() throws -> ([UInt64], [Double]) {
            let animator = Animator()
            var random = SeededRandom(seed: 99)
            let sprites = (0..<50).map { _ in Sprite() }
            var order: [UInt64] = []
            var token: UInt64 = 0
            for stepIndex in 0..<240 {
                if stepIndex % 3 == 0 {
                    let s = sprites[Int(random.nextInt(in: 0, 49))]
                    let d = Double(random.nextInt(in: 1, 30)) / 60
                    token += 1
                    try animator.start(Animation(.basic(random.nextUnit() < 0.5 ? .alpha : .rotation, to: .s(1)),
                                                 duration: d, repeatCount: 1 + Double(random.nextInt(in: 0, 2)) / 2,
                                                 curve: .easeInEaseOut), on: s, token: token)
                }
                animator.advance(by: step)
                while let c = animator.nextCompletion() {
                    order.append(c.token * 4 + UInt64(c.end == .finished ? 0 : 1))
                }
            }
            return (order, sprites.map(\.alpha) + sprites.map(\.rotation))
        }
        let a = try script(), b = try script()
        #expect(a.0.count > 50)
        #expect(a.0 == b.0)
        #expect(a.1 == b.1) // bit-identical values
    }

    @Test func startingAndCancellingWhileDrainingWorks() throws {
        let animator = Animator()
        let sprite = Sprite(), other = Sprite()
        try animator.start(fade(duration: 0.5), on: sprite, token: 1)
        let long = try animator.start(Animation(.basic(.x, to: .s(1)), duration: 9), on: other, token: 2)
        animator.run(steps: 30)
        var seen: [(UInt64, AnimationEnd)] = []
        var chained: AnimationID?
        while let c = animator.nextCompletion() {
            seen.append((c.token, c.end))
            if c.token == 1 {
                // Like a Lua completion callback: chain the next animation, cancel another.
                chained = try animator.start(Animation(.basic(.alpha, to: .s(0)), duration: 0.5), on: sprite, token: 3)
                animator.cancel(long)
            }
        }
        #expect(seen.map(\.0) == [1, 2])
        #expect(seen.map(\.1) == [.finished, .cancelled])
        #expect(animator.isRunning(chained!))
        animator.run(steps: 15)
        #expect(near(sprite.alpha, 0.5))
    }

    @Test func idsAreNotReusedForNewAnimations() throws {
        let animator = Animator()
        let sprite = Sprite()
        let a = try animator.start(fade(duration: 0), on: sprite)
        animator.run(steps: 1)
        let b = try animator.start(fade(duration: 1), on: sprite)
        #expect(a != b)
        #expect(!animator.isRunning(a))
        #expect(!animator.cancel(a))
        #expect(animator.isRunning(b))
        #expect(AnimationID(raw: b.raw) == b)
        #expect(b.raw != 0)
    }

    @Test func startingAndFinishingAMillionAnimationsKeepsStorageFlat() throws {
        let animator = Animator()
        let sprites = (0..<64).map { _ in Sprite() }
        let shapes: [Animation] = [
            Animation(.basic(.alpha, to: .s(1)), duration: 2 * step),
            Animation(.keyframes(.rotation, values: [.s(0), .s(1), .s(0)], curves: [.easeIn, .easeOut]),
                      duration: 3 * step),
            Animation(.group([Animation(.path(.quadratic(from: .zero, control: Vec2(1, 1), to: Vec2(2, 0)))),
                              Animation(.spring(.scaleX, to: .s(2), damping: 0.5, initialVelocity: 3))]),
                      duration: 4 * step),
            Animation(.basic(.scaleY, to: .s(2)), duration: step, curve: .cubicBezier(0.3, 0.1, 0.2, 1)),
        ]
        var started = 0, finished = 0
        var footprint = 0, lastFootprint = 0
        var round = 0
        while started < 1_000_000 {
            for (i, s) in sprites.enumerated() {
                try animator.start(shapes[(i + round) % shapes.count], on: s)
            }
            started += sprites.count
            animator.advance(by: step)
            while animator.nextCompletion() != nil {
                finished += 1
            }
            round += 1
            if round == 100 { footprint = animator.storageFootprint }
            lastFootprint = animator.storageFootprint
        }
        animator.run(steps: 5)
        while animator.nextCompletion() != nil {
            finished += 1
        }
        #expect(finished == started)
        #expect(animator.runningCount == 0)
        #expect(footprint > 0)
        #expect(lastFootprint == footprint)
        #expect(animator.curves.liveCustomCount == 0) // custom curves and springs released
    }

    @Test func distinctCurvesOneAfterAnotherKeepTheCurveTableBounded() throws {
        let animator = Animator()
        let sprite = Sprite()
        for k in 0..<300 {
            let bezier = TimingCurve.cubicBezier(0.1 + Double(k) / 1000, 0.2, 0.3, 1)
            try animator.start(Animation(.basic(.alpha, to: .s(1)), duration: step, curve: bezier), on: sprite)
            try animator.start(Animation(.spring(.scaleX, to: .s(2), damping: 0.3 + Double(k) / 1000,
                                                 initialVelocity: 1), duration: step), on: sprite)
            animator.run(steps: 1)
            _ = animator.drain()
        }
        #expect(animator.curves.liveCustomCount == 0)
        // 35 pinned curves (4 of them Beziers with tables), at most the idle limit cached, plus
        // the two in use at a time.
        let cached = CurveTable.idleLimit + 2
        #expect(animator.curves.curves.count <= 35 + cached)
        #expect(animator.curves.bezierTables.footprint <= (4 + cached) * 4 * CurveTable.intervals)
    }
}
