import Testing
@testable import ArcadeCore

/// Basic, keyframe and path animations, value kinds and invalid descriptions.
@Suite struct AnimationKindTests {
    @Test func keyframesWithoutKeyTimesSplitTimeEqually() throws {
        let animator = Animator()
        let sprite = Sprite()
        try animator.start(Animation(.keyframes(.rotation, values: [.s(0), .s(1), .s(3)]), duration: 1), on: sprite)
        animator.run(steps: 15)
        #expect(near(sprite.rotation, 0.5)) // half of the first segment
        animator.run(steps: 15)
        #expect(near(sprite.rotation, 1))
        animator.run(steps: 15)
        #expect(near(sprite.rotation, 2)) // half of the second segment
    }

    @Test func keyframesWithKeyTimes() throws {
        let animator = Animator()
        let sprite = Sprite()
        sprite.strokeEnd = 0
        try animator.start(Animation(.keyframes(.strokeEnd, values: [.s(0), .s(0.8), .s(1)], keyTimes: [0, 0.6, 1]),
                                     duration: 1, fill: .forwards), on: sprite)
        animator.run(steps: 18)
        #expect(near(sprite.strokeEnd, 0.4)) // t = 0.3: half of the first 0.6
        animator.run(steps: 18)
        #expect(near(sprite.strokeEnd, 0.8))
        animator.run(steps: 12)
        #expect(near(sprite.strokeEnd, 0.9)) // t = 0.8: half of the last 0.4
        animator.run(steps: 12)
        #expect(sprite.strokeEnd == 1)
    }

    @Test func keyTimesMayRepeatForAJump() throws {
        let animator = Animator()
        let sprite = Sprite()
        try animator.start(Animation(.keyframes(.alpha, values: [.s(0), .s(0), .s(1), .s(1)],
                                                keyTimes: [0, 0.5, 0.5, 1]), duration: 1), on: sprite)
        animator.run(steps: 29)
        #expect(sprite.alpha == 0)
        animator.run(steps: 2)
        #expect(sprite.alpha == 1)
    }

    @Test func perSegmentCurvesReshapeEachSegment() throws {
        let animator = Animator()
        let sprite = Sprite()
        try animator.start(Animation(.keyframes(.scaleX, values: [.s(0), .s(1), .s(2)],
                                                curves: [.easeOut, .easeIn]), duration: 1), on: sprite)
        animator.run(steps: 15)
        #expect(near(sprite.scaleX, TimingCurve.easeOut.value(at: 0.5), 1e-6))
        animator.run(steps: 30)
        #expect(near(sprite.scaleX, 1 + TimingCurve.easeIn.value(at: 0.5), 1e-6))
        // The animation's own curve applies to the whole first, then each segment's.
        let outer = Animator()
        let other = Sprite()
        try outer.start(Animation(.keyframes(.scaleX, values: [.s(0), .s(1), .s(2)], curves: [.easeOut, .easeIn]),
                                  duration: 1, curve: .easing(.quad, .in)), on: other)
        outer.run(steps: 36)
        let p = 0.6 * 0.6 // quad in at 0.6: still in the first segment
        #expect(near(other.scaleX, TimingCurve.easeOut.value(at: p * 2), 1e-6))
    }

    @Test func extraSegmentCurvesAreIgnoredLikeCoreAnimation() throws {
        let animator = Animator()
        let sprite = Sprite()
        // The coin article passes two curves for two values; only the first is used.
        try animator.start(Animation(.keyframes(.scaleX, values: [.s(2), .s(1)], curves: [.easeOut, .easeIn]),
                                     duration: 1), on: sprite)
        animator.run(steps: 30)
        #expect(near(sprite.scaleX, 2 - TimingCurve.easeOut.value(at: 0.5), 1e-6))
    }

    @Test func pathPositionsAtStartMiddleAndEnd() throws {
        let from = Vec2(10, 200), control = Vec2(150, -40), to = Vec2(180, 60)
        let animator = Animator()
        let sprite = Sprite()
        try animator.start(Animation(.path(.quadratic(from: from, control: control, to: to)), duration: 1,
                                     fill: .forwards), on: sprite)
        #expect(near(sprite.position, from))
        animator.run(steps: 30)
        // Quadratic Bezier at t = 0.5: (from + 2 control + to) / 4.
        #expect(near(sprite.position, (from + control * 2 + to) / 4, 1e-9))
        animator.run(steps: 30)
        #expect(sprite.position == to)
        #expect(animator.drain().map(\.finished) == [true])
    }

    @Test func pathProgressFollowsTheTimingCurveAndEachSegmentGetsEqualTime() throws {
        var path = BezierPath(start: Vec2(0, 0))
        path.addLine(to: Vec2(100, 0))
        path.addCurve(to: Vec2(100, 100), control1: Vec2(150, 0), control2: Vec2(150, 100))
        #expect(path.end == Vec2(100, 100))
        #expect(near(path.point(at: 0.25), Vec2(50, 0)))
        #expect(near(path.point(at: 0.5), Vec2(100, 0)))
        // cubic at t = 0.5: (p0 + 3 c1 + 3 c2 + p1) / 8
        #expect(near(path.point(at: 0.75), Vec2(137.5, 50)))
        let animator = Animator()
        let sprite = Sprite()
        try animator.start(Animation(.path(path), duration: 1, curve: .easeIn), on: sprite)
        animator.run(steps: 30)
        #expect(near(sprite.position, path.point(at: TimingCurve.easeIn.value(at: 0.5)), 1e-6))
    }

    @Test func basicFromCurrentValueAndVectors() throws {
        let animator = Animator()
        let sprite = Sprite(position: Vec2(10, 20))
        try animator.start(Animation(.basic(.position, to: .v(30, 60)), duration: 0.5), on: sprite)
        animator.run(steps: 15)
        #expect(near(sprite.position, Vec2(20, 40)))
    }

    @Test func coloursInterpolateChannelWise() throws {
        let animator = Animator()
        let sprite = Sprite()
        sprite.color = Color(r: 0, g: 255, b: 0) // the countdown bar: green, to yellow, to red
        try animator.start(Animation(.keyframes(.color(0), values: [.color(Color(r: 0, g: 255, b: 0)),
                                                                    .color(Color(r: 255, g: 255, b: 0)),
                                                                    .color(Color(r: 255, g: 0, b: 0))]),
                                     duration: 1, fill: .forwards), on: sprite)
        animator.run(steps: 12)
        #expect(sprite.color == Color(r: 102, g: 255, b: 0)) // 0.4 of the way to yellow
        animator.run(steps: 36)
        #expect(sprite.color == Color(r: 255, g: 102, b: 0)) // 0.6 of the way to red
        animator.run(steps: 12)
        #expect(sprite.color == Color(r: 255, g: 0, b: 0))
        // Overshooting curves clamp at the channel limits.
        try animator.start(Animation(.basic(.color(1), from: .color(.black), to: .color(.white)), duration: 1,
                                     curve: .easing(.back, .out)), on: sprite)
        animator.run(steps: 48)
        #expect(sprite.outline == .white)
    }

    @Test func invalidDescriptionsAreRefusedWithoutSideEffects() {
        let animator = Animator()
        let sprite = Sprite()
        #expect(throws: AnimationError.valueKindMismatch(.alpha, expected: "scalar", got: "vector")) {
            try animator.start(Animation(.basic(.alpha, to: .v(1, 2))), on: sprite)
        }
        #expect(throws: AnimationError.noSuchProperty(.color(7))) {
            try animator.start(Animation(.basic(.color(7), to: .color(.white))), on: sprite)
        }
        #expect(throws: AnimationError.empty("keyframe values")) {
            try animator.start(Animation(.keyframes(.alpha, values: [])), on: sprite)
        }
        #expect(throws: AnimationError.self) {
            try animator.start(Animation(.keyframes(.alpha, values: [.s(0), .s(1)], keyTimes: [0, 0.5])), on: sprite)
        }
        #expect(throws: AnimationError.self) {
            try animator.start(Animation(.keyframes(.alpha, values: [.s(0), .s(1), .s(0)], keyTimes: [0, 0.7, 0.5])),
                               on: sprite)
        }
        #expect(throws: AnimationError.tooFewCurves(needed: 2, got: 1)) {
            try animator.start(Animation(.keyframes(.alpha, values: [.s(0), .s(1), .s(0)], curves: [.easeIn])),
                               on: sprite)
        }
        #expect(throws: AnimationError.emptyGroup) {
            try animator.start(Animation(.group([])), on: sprite)
        }
        #expect(throws: AnimationError.self) {
            try animator.start(Animation(.basic(.alpha, to: .s(1)), duration: -1), on: sprite)
        }
        #expect(throws: AnimationError.self) {
            try animator.start(Animation(.basic(.alpha, to: .s(1)), speed: .nan), on: sprite)
        }
        #expect(throws: AnimationError.empty("path")) {
            try animator.start(Animation(.path(BezierPath(start: .zero))), on: sprite)
        }
        // A bad child fails the whole group, and nothing was started or written.
        #expect(throws: AnimationError.self) {
            try animator.start(Animation(.group([Animation(.basic(.x, to: .s(5))),
                                                 Animation(.basic(.alpha, to: .color(.white)))])), on: sprite)
        }
        #expect(animator.runningCount == 0)
        #expect(sprite.writes == 0)
        #expect(animator.drain().isEmpty)
    }

    @Test func propertyNamesRoundTrip() {
        let all: [AnimatableProperty] = [.x, .y, .position, .scale, .scaleX, .scaleY, .rotation, .alpha,
                                         .color(0), .color(1), .color(5), .strokeStart, .strokeEnd]
        for p in all {
            #expect(AnimatableProperty(name: p.description) == p)
            #expect(AnimatableProperty(engineCode: p.engineCode!) == p)
        }
        #expect(AnimatableProperty(name: "scaleX") == .scaleX)
        #expect(AnimatableProperty(name: "strokeEnd") == .strokeEnd)
        #expect(AnimatableProperty(name: "size") == nil)
        #expect(AnimatableProperty.position.overlaps(.x))
        #expect(AnimatableProperty.scaleY.overlaps(.scale))
        #expect(!AnimatableProperty.scaleY.overlaps(.scaleX))
    }
}
