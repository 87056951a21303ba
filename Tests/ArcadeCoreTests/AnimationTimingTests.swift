import Testing
@testable import ArcadeCore

/// Duration, delay, speed, repeat, autoreverse, fill, curves and groups, step by step.
@Suite struct AnimationTimingTests {
    /// Starts a basic 0 -> 1 animation on `alpha` and returns the alpha after each step.
    func trace(_ timing: AnimationTiming, steps: Int, model: Double = 0.5) throws -> (values: [Double], ends: [AnimationCompletion]) {
        let animator = Animator()
        let sprite = Sprite()
        sprite.alpha = model
        try animator.start(Animation(.basic(.alpha, from: .s(0), to: .s(1)), timing: timing), on: sprite)
        var values: [Double] = []
        for _ in 0..<steps {
            animator.advance(by: step)
            values.append(sprite.alpha)
        }
        return (values, animator.drain())
    }

    @Test func linearProgressAndRemovedFill() throws {
        let (v, ends) = try trace(AnimationTiming(duration: 0.5), steps: 31)
        #expect(near(v[5], 6.0 / 30)) // after 6 steps of a 30-step animation
        #expect(near(v[14], 0.5))
        #expect(near(v[28], 29.0 / 30))
        #expect(v[29] == 0.5) // ended: back to the model value
        #expect(v[30] == 0.5)
        #expect(ends.count == 1 && ends[0].finished)
    }

    @Test func forwardsFillKeepsTheEnd() throws {
        let (v, ends) = try trace(AnimationTiming(duration: 0.5, fill: .forwards), steps: 40)
        #expect(v[29] == 1)
        #expect(v[39] == 1)
        #expect(ends.map(\.end) == [.finished])
    }

    @Test func startWritesTheFirstStateAtOnce() throws {
        let animator = Animator()
        let sprite = Sprite()
        try animator.start(Animation(.basic(.alpha, from: .s(0.25), to: .s(1)), duration: 1), on: sprite)
        #expect(sprite.alpha == 0.25)
    }

    @Test func delayLeavesThePropertyAloneUnlessFilledBackwards() throws {
        let plain = try trace(AnimationTiming(duration: 0.5, delay: 0.25), steps: 60)
        #expect(plain.values[13] == 0.5) // 14 steps < 15-step delay: the model value
        #expect(near(plain.values[14 + 15], 0.5)) // half-way, 15 steps after the delay
        #expect(plain.values[46] == 0.5) // ended at step 45
        let backwards = try trace(AnimationTiming(duration: 0.5, delay: 0.25, fill: .backwards), steps: 10)
        #expect(backwards.values[0] == 0)
        #expect(backwards.values[9] == 0)
    }

    @Test func speedScalesLocalTime() throws {
        let (v, ends) = try trace(AnimationTiming(duration: 1, speed: 2, fill: .forwards), steps: 40)
        #expect(near(v[14], 0.5)) // 15 steps = 0.25 s at speed 2 = half of 1 s
        #expect(v[29] == 1)
        #expect(ends.count == 1)
        // A delay is in the parent's time, not scaled by speed.
        let delayed = try trace(AnimationTiming(duration: 1, delay: 0.5, speed: 2), steps: 46)
        #expect(delayed.values[28] == 0.5)
        #expect(delayed.values[29] == 0)
        #expect(near(delayed.values[44], 0.5))
    }

    @Test func autoreverseRepeatsEndWhereCoreAnimationWould() throws {
        // 3 round trips of 0.1 s each way: 36 steps.
        let timing = AnimationTiming(duration: 0.1, repeatCount: 3, autoreverses: true, fill: .forwards)
        let (v, ends) = try trace(timing, steps: 40)
        #expect(near(v[2], 0.5)) // 3 steps forward
        #expect(near(v[5], 1))
        #expect(near(v[8], 0.5)) // coming back
        #expect(near(v[11], 0, 1e-9))
        #expect(near(v[14], 0.5)) // second trip
        #expect(near(v[34], 1.0 / 6))
        #expect(v[35] == 0) // three whole round trips end at the start value
        #expect(v[39] == 0)
        #expect(ends.count == 1)
        let removed = try trace(AnimationTiming(duration: 0.1, repeatCount: 3, autoreverses: true), steps: 40)
        #expect(removed.values[35] == 0.5)
    }

    @Test func fractionalRepeatsEndPartWay() throws {
        let once = try trace(AnimationTiming(duration: 0.5, repeatCount: 1.5, fill: .forwards), steps: 50)
        #expect(near(once.values[35], 0.2)) // second pass, 6 steps in
        #expect(near(once.values[44], 0.5))
        #expect(near(once.values[49], 0.5))
        // 2.5 round trips: the half trip is the forward leg, ending at the far end.
        let trips = try trace(AnimationTiming(duration: 0.1, repeatCount: 2.5, autoreverses: true, fill: .forwards),
                              steps: 40)
        #expect(trips.values[39] == 1)
        #expect(trips.ends.count == 1)
        // 1.25 round trips end a quarter through the forward leg... of the second trip: 0.5.
        let quarter = try trace(AnimationTiming(duration: 0.2, repeatCount: 1.25, autoreverses: true,
                                                fill: .forwards), steps: 40)
        #expect(near(quarter.values[39], 0.5))
    }

    @Test func foreverNeverEnds() throws {
        let (v, ends) = try trace(AnimationTiming(duration: 0.5, repeatCount: AnimationTiming.forever,
                                                   autoreverses: true), steps: 6000)
        #expect(ends.isEmpty)
        #expect(near(v[5999], 0, 1e-6)) // 100 s = 100 round trips: at the start again
        #expect(near(v[5969], 1, 1e-6))
    }

    @Test func timingCurveReshapesProgress() throws {
        let (v, _) = try trace(AnimationTiming(duration: 1, curve: .easeIn), steps: 60)
        #expect(near(v[29], TimingCurve.easeIn.value(at: 0.5), 1e-6))
        #expect(near(v[14], TimingCurve.easeIn.value(at: 0.25), 1e-6))
        let (back, _) = try trace(AnimationTiming(duration: 1, curve: .easing(.back, .in)), steps: 60)
        #expect(back[11] < 0) // overshoots below the start value
    }

    @Test func zeroDurationEndsAtTheFirstStep() throws {
        let (v, ends) = try trace(AnimationTiming(duration: 0, fill: .forwards), steps: 2)
        #expect(v[0] == 1)
        #expect(ends.map(\.finished) == [true])
    }

    // MARK: Groups

    @Test func groupClipsAChildLongerThanItself() throws {
        let animator = Animator()
        let sprite = Sprite()
        try animator.start(Animation(.group([
            Animation(.basic(.alpha, from: .s(0), to: .s(1)), duration: 1),
        ]), duration: 0.5, fill: .forwards), on: sprite)
        animator.run(steps: 15)
        #expect(near(sprite.alpha, 0.25)) // the child runs in its own 1 s, not squeezed into 0.5 s
        animator.run(steps: 15)
        #expect(near(sprite.alpha, 0.5)) // held where the group stopped it
        animator.run(steps: 30)
        #expect(near(sprite.alpha, 0.5))
        #expect(animator.drain().count == 1)
    }

    @Test func shortChildFollowsItsOwnFillInsideTheGroup() throws {
        let animator = Animator()
        let sprite = Sprite()
        sprite.alpha = 0.9
        sprite.rotation = 0.9
        try animator.start(Animation(.group([
            Animation(.basic(.alpha, from: .s(0), to: .s(1)), duration: 0.25),
            Animation(.basic(.rotation, from: .s(0), to: .s(1)), duration: 0.25, fill: .forwards),
            Animation(.basic(.scaleX, from: .s(2), to: .s(3)), duration: 0.5, delay: 0.5),
        ]), fill: .forwards), on: sprite)
        animator.run(steps: 20)
        #expect(sprite.alpha == 0.9) // ended inside the group: back to its model value
        #expect(sprite.rotation == 1) // holds
        #expect(sprite.scaleX == 1) // not started yet
        animator.run(steps: 25)
        #expect(near(sprite.scaleX, 2.5)) // 0.75 s
        animator.run(steps: 14)
        #expect(animator.drain().isEmpty) // the group lasts as long as its longest child: 1 s
        animator.run(steps: 1)
        #expect(sprite.scaleX == 3)
        #expect(sprite.rotation == 1)
        #expect(animator.drain().count == 1)
    }

    @Test func childrenEndingWithAHeldGroupKeepTheirEnd() throws {
        let animator = Animator()
        let sprite = Sprite()
        // Children without a fill of their own, ending exactly with the group that holds.
        try animator.start(Animation(.group([
            Animation(.basic(.alpha, from: .s(0), to: .s(0.25))),
            Animation(.basic(.scaleY, from: .s(1), to: .s(4))),
        ]), duration: 0.5, fill: .forwards), on: sprite)
        animator.run(steps: 40)
        #expect(sprite.alpha == 0.25)
        #expect(sprite.scaleY == 4)
    }

    @Test func groupRepeatsAndReversesItsChildrenTogether() throws {
        let animator = Animator()
        let sprite = Sprite()
        try animator.start(Animation(.group([
            Animation(.basic(.alpha, from: .s(0), to: .s(1))),
            Animation(.basic(.rotation, from: .s(0), to: .s(2)), duration: 0.25),
        ]), duration: 0.5, repeatCount: 2, autoreverses: true, curve: .easeInEaseOut), on: sprite)
        animator.run(steps: 12)
        // The group's curve maps its time before the children see it.
        let eased = TimingCurve.easeInEaseOut.value(at: 0.4)
        #expect(near(sprite.alpha, eased, 1e-6))
        #expect(near(sprite.rotation, 2 * (0.5 * eased / 0.25), 1e-6))
        animator.run(steps: 33) // 0.75 s: a quarter second into the way back of the first trip
        #expect(near(sprite.alpha, 0.5, 1e-6))
        animator.run(steps: 74)
        #expect(animator.drain().isEmpty)
        animator.run(steps: 1) // two round trips of 1 s
        #expect(animator.drain().count == 1)
    }
}
