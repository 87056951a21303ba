import Testing
@testable import ArcadeCore

/// The flight store (the flat step over structure of arrays) gives exactly what the general
/// walk gives: every field bit for bit at every step, and the same completions in the same
/// order, through cancels, replacements, dropped targets and starts from completions.
@Suite struct AnimationFlightTests {
    /// A flight of a random shape: mostly the flat shape (a group of plain leaves on fields,
    /// some with delays, fills, repeats, reversal and speed; keyframe leaves that may or may
    /// not share their steps), some that are not (a group curve, a leaf with timing of its
    /// own, too many leaves).
    static func flight(_ r: inout SeededRandom) -> Animation {
        let halves: [TimingCurve] = [.easeOut, .easeIn]
        let from = Vec2(r.nextDouble(in: 0, 200), r.nextDouble(in: 0, 100))
        let to = Vec2(r.nextDouble(in: 0, 200), r.nextDouble(in: 0, 100))
        let s = 1 + Double(r.nextInt(in: 0, 9)) * 0.1
        var leaves: [Animation]
        switch r.nextInt(in: 0, 9) {
        case 0:
            leaves = [
                Animation(.path(.quadratic(from: from, control: Vec2(from.x, to.y - 40), to: to))),
                Animation(.keyframes(.scaleX, values: [.s(s), .s(s * 0.75), .s(s / 2)], curves: halves)),
                Animation(.keyframes(.scaleY, values: [.s(s / 2), .s(s / 2), .s(s / 2)], curves: halves)),
            ]
        case 1:
            // Not flat: a path of two segments.
            var path = BezierPath(start: from)
            path.addLine(to: to)
            path.addCurve(to: from, control1: Vec2(0, 0), control2: Vec2(50, 90))
            leaves = [
                Animation(.path(path, property: .position)),
                Animation(.basic(.alpha, from: .s(1), to: .s(0.2))),
                Animation(.basic(.rotation, from: .s(0), to: .s(s))),
            ]
        case 2:
            leaves = [
                Animation(.basic(.scale, from: .s(1), to: .s(s))),
                Animation(.basic(.position, from: .v(from.x, from.y), to: .v(to.x, to.y)), curve: .easeInEaseOut),
            ]
        case 3:
            leaves = [
                Animation(.keyframes(.position, values: [.v(from.x, from.y), .v(to.x, to.y)], curves: [.easeIn])),
                Animation(.basic(.rotation, from: nil, to: .s(to.x)), curve: .easeOut),
            ]
        case 4:
            // Not flat: a leaf with timing of its own.
            leaves = [
                Animation(.basic(.alpha, from: .s(0), to: .s(1)), duration: 0.2, delay: 0.1, fill: .both),
                Animation(.basic(.scaleY, from: .s(1), to: .s(s))),
            ]
        case 5:
            // Not flat: two leaves write x, so their order decides it.
            leaves = [
                Animation(.basic(.position, from: .v(from.x, from.y), to: .v(to.x, to.y))),
                Animation(.basic(.x, from: .s(0), to: .s(to.x)), curve: .easeIn),
            ]
        case 6:
            // Keyframes on scale x and rotation take the same steps (a pair); scale y's
            // segments ease the other way round, and alpha's values are fewer.
            leaves = [
                Animation(.keyframes(.scaleY, values: [.s(s), .s(s / 2), .s(1)], curves: [.easeIn, .easeOut])),
                Animation(.keyframes(.scaleX, values: [.s(s), .s(s * 0.75), .s(s / 2)], curves: halves)),
                Animation(.keyframes(.alpha, values: [.s(1), .s(0.5)], curves: [.easeOut])),
                Animation(.keyframes(.rotation, values: [.s(0), .s(to.x), .s(-1)], curves: halves)),
            ]
        case 7:
            // Pairs without curves per segment: x and y on one leaf curve, four values each;
            // scale x and alpha on another; rotation on a curve of its own stays single.
            let c = TimingCurve.cubicBezier(0.3, 0.1, 0.2, 1.4)
            leaves = [
                Animation(.keyframes(.x, values: [.s(from.x), .s(to.x), .s(0), .s(from.y)]), curve: .easeInEaseOut),
                Animation(.keyframes(.scaleX, values: [.s(1), .s(s)]), curve: c),
                Animation(.keyframes(.y, values: [.s(from.y), .s(to.y), .s(9), .s(to.x)]), curve: .easeInEaseOut),
                Animation(.keyframes(.alpha, values: [.s(0.2), .s(1)]), curve: c),
            ]
        case 8:
            // No pairs: curves differing in the last segment only, vectors, a uniform scale.
            leaves = [
                Animation(.keyframes(.rotation, values: [.s(0), .s(1), .s(s)], curves: halves)),
                Animation(.keyframes(.alpha, values: [.s(1), .s(0), .s(1)], curves: [.easeOut, .easeOut])),
                Animation(.keyframes(.position, values: [.v(from.x, from.y), .v(to.x, to.y)], curves: [.easeOut])),
                Animation(.keyframes(.scale, values: [.s(1), .s(s)], curves: [.easeOut])),
            ]
        default:
            // Not flat: more leaves than a flight holds.
            leaves = [
                Animation(.basic(.x, from: .s(0), to: .s(to.x))),
                Animation(.basic(.y, from: .s(0), to: .s(to.y))),
                Animation(.basic(.scaleX, from: .s(1), to: .s(s))),
                Animation(.basic(.scaleY, from: .s(1), to: .s(s))),
                Animation(.basic(.rotation, from: .s(0), to: .s(1))),
            ]
        }
        var a = Animation(.group(leaves), duration: r.nextDouble(in: 0.2, 1.2))
        a.timing.fill = AnimationFill.allCases[Int(r.nextInt(in: 0, 3))]
        a.timing.delay = r.nextInt(in: 0, 2) == 0 ? 0 : r.nextDouble(in: -0.5, 0.5)
        if r.nextInt(in: 0, 3) == 0 { a.timing.autoreverses = true }
        if r.nextInt(in: 0, 3) == 0 { a.timing.repeatCount = r.nextDouble(in: 0.5, 3) }
        if r.nextInt(in: 0, 4) == 0 { a.timing.speed = r.nextDouble(in: 0.5, 2) }
        if r.nextInt(in: 0, 7) == 0 { a.timing.curve = .easeIn }
        return a
    }

    /// The six numbers and the moved flag, as bits.
    static func bits(_ s: FieldSprite?) -> [UInt64] {
        guard let f = s?.fields.pointee else { return [] }
        return [f.x, f.y, f.scaleX, f.scaleY, f.rotation, f.alpha].map(\.bitPattern) + [f.moved ? 1 : 0]
    }

    /// Runs one scripted session on `animator`; returns every step's fields and every
    /// completion (with the start it triggered) in order.
    static func session(usesFlights: Bool, flightsSeen: inout Int, pairsSeen: inout Int) throws
        -> (fields: [[UInt64]], ends: [AnimationCompletion]) {
        let animator = Animator()
        animator.usesFlights = usesFlights
        var r = SeededRandom(seed: 41)
        var sprites: [FieldSprite?] = (0..<120).map { _ in FieldSprite() }
        var ids: [AnimationID] = []
        var token: UInt64 = 1
        for (k, s) in sprites.enumerated() {
            let a = flight(&r)
            ids.append(try animator.start(a, on: s!, token: token))
            token += 1
            if k % 4 == 0 {
                // A second, separate run on the same target: alpha alone.
                try animator.start(Animation(.basic(.alpha, from: .s(1), to: .s(0)), duration: 0.5), on: s!, token: token)
                token += 1
            }
        }
        flightsSeen = max(flightsSeen, animator.flights.count)
        pairsSeen = max(pairsSeen, animator.flights.keyframePairs.count)
        var fields: [[UInt64]] = []
        var ends: [AnimationCompletion] = []
        for stepIndex in 0..<150 {
            animator.advance(by: stepIndex % 11 == 5 ? 0 : step)
            flightsSeen = max(flightsSeen, animator.flights.count)
            pairsSeen = max(pairsSeen, animator.flights.keyframePairs.count)
            switch stepIndex {
            case 10:
                for k in stride(from: 0, to: ids.count, by: 9) { animator.cancel(ids[k]) }
            case 20:
                for k in stride(from: 1, to: sprites.count, by: 13) { animator.cancelAll(on: sprites[k]!) }
            case 30:
                // Targets only the engine holds: their animations end as `targetGone`.
                for k in stride(from: 2, to: sprites.count, by: 7) { sprites[k] = nil }
            case 40:
                // Replacements: a new flight on targets that are flying.
                for k in stride(from: 3, to: sprites.count, by: 5) where sprites[k] != nil {
                    ids.append(try animator.start(flight(&r), on: sprites[k]!, token: token))
                    token += 1
                }
            default:
                break
            }
            // Completions call back: some start a new flight on a target still held.
            while let c = animator.nextCompletion() {
                ends.append(c)
                if c.token % 3 == 0 {
                    let k = Int(c.token) % sprites.count
                    if let s = sprites[k] {
                        ids.append(try animator.start(flight(&r), on: s, token: token))
                        token += 1
                    }
                }
            }
            fields.append(sprites.flatMap(bits))
        }
        animator.cancelAll()
        ends.append(contentsOf: animator.drain())
        return (fields, ends)
    }

    @Test func flightsMatchTheGeneralWalkBitForBit() throws {
        var seenFlat = 0, seenGeneral = 0, pairsFlat = 0, pairsGeneral = 0
        let flat = try Self.session(usesFlights: true, flightsSeen: &seenFlat, pairsSeen: &pairsFlat)
        let general = try Self.session(usesFlights: false, flightsSeen: &seenGeneral, pairsSeen: &pairsGeneral)
        // The store was used, keyframe pairs too, and the comparison is with a run that did
        // not use it.
        #expect(seenFlat > 30)
        #expect(pairsFlat > 10)
        #expect(seenGeneral == 0)
        #expect(flat.fields.count == general.fields.count)
        for (k, (a, b)) in zip(flat.fields, general.fields).enumerated() where a != b {
            let i = a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? a.count
            Issue.record("after step \(k), number \(i % 7) of sprite \(i / 7) differs (or the sprites do)")
            break
        }
        #expect(flat.ends == general.ends)
        #expect(flat.ends.count > 200)
        #expect(Set(flat.ends.map(\.end)).count == 4)
    }

    @Test func theCoinFlightOfTheFieldsTestsIsAFlight() throws {
        let animator = Animator()
        let sprite = FieldSprite()
        try animator.start(AnimationFieldsTests.animations[0], on: sprite)
        #expect(animator.flights.count == 1)
        animator.run(steps: 61)
        #expect(animator.flights.count == 0)
        #expect(animator.drain().map(\.end) == [.finished])
    }
}

extension AnimationFlightTests {
    /// Keyframe leaves of one flight share an entry when they take the same steps (scalars,
    /// as many values, the same curves), and only then.
    @Test func keyframeLeavesThatTakeTheSameStepsShareAnEntry() throws {
        let halves: [TimingCurve] = [.easeOut, .easeIn]
        func keys(_ p: AnimatableProperty, _ n: Int, _ curves: [TimingCurve]) -> Animation {
            Animation(.keyframes(p, values: (0..<n).map { .s(Double($0 + 1)) }, curves: curves))
        }
        let cases: [(leaves: [Animation], pairs: Int, singles: Int)] = [
            ([keys(.scaleX, 3, halves), keys(.scaleY, 3, halves)], 1, 0),
            ([keys(.x, 3, halves), keys(.y, 3, halves), keys(.scaleX, 3, halves), keys(.scaleY, 3, halves)], 2, 0),
            ([keys(.x, 3, halves), keys(.y, 3, halves), keys(.scaleX, 3, halves)], 1, 1),
            ([keys(.scaleX, 3, halves), keys(.scaleY, 3, [.easeOut, .easeOut])], 0, 2),
            ([keys(.scaleX, 3, halves), keys(.scaleY, 2, [.easeOut])], 0, 2),
            ([keys(.scale, 2, [.easeIn]), keys(.alpha, 2, [.easeIn])], 0, 2),
            ([Animation(.keyframes(.position, values: [.v(0, 0), .v(1, 1)], curves: [.easeIn])),
              keys(.alpha, 2, [.easeIn])], 0, 2),
            ([Animation(.keyframes(.x, values: [.s(0), .s(1)]), curve: .easeIn),
              Animation(.keyframes(.y, values: [.s(0), .s(1)]), curve: .easeIn)], 1, 0),
            ([Animation(.keyframes(.x, values: [.s(0), .s(1)]), curve: .easeIn),
              Animation(.keyframes(.y, values: [.s(0), .s(1)]), curve: .easeOut)], 0, 2),
        ]
        for (k, c) in cases.enumerated() {
            let animator = Animator()
            let sprite = FieldSprite()
            let id = try animator.start(Animation(.group(c.leaves), duration: 1), on: sprite)
            #expect(animator.flights.count == 1, "case \(k)")
            #expect(animator.flights.keyframePairs.count == c.pairs, "case \(k)")
            #expect(animator.flights.keyframes.count == c.singles, "case \(k)")
            animator.cancel(id)
            #expect(animator.flights.keyframePairs.count == 0 && animator.flights.keyframes.count == 0, "case \(k)")
        }
    }
}

extension AnimationFlightTests {
    /// The flights' segment search by comparisons gives what the general one gives, bit for
    /// bit, for two to four keyframes at any progress (ends, in between, past them, NaN).
    @Test func theSegmentOfAFewKeyframesIsTheGeneralOne() {
        var progress: [Double] = [0, -0.0, 1, 0.5, 1.0 / 3, 2.0 / 3, -1, 2, .infinity, -.infinity, .nan,
                                  .ulpOfOne, 1 - .ulpOfOne, 0.5.nextDown, 0.5.nextUp]
        var r = SeededRandom(seed: 7)
        for _ in 0..<2000 { progress.append(r.nextDouble(in: -0.2, 1.2)) }
        for count in 2...4 {
            for k in 1..<count { progress += [Double(k) / Double(count - 1), (Double(k) / Double(count - 1)).nextDown] }
            for p in progress {
                let general = StepEvaluator.evenSegment(p, count: count)
                let few = StepEvaluator.evenSegmentOfFew(p, count: count)
                #expect(few.segment == general.segment && few.local.bitPattern == general.local.bitPattern,
                        "\(count) keyframes at \(p)")
            }
        }
    }
}

extension AnimationFlightTests {
    /// A dropped target's runs all end (`targetGone`) at the next step, in start order: its
    /// flights (two here, so taking one out of the store moves the other) and its run on the
    /// general walk. The flights of other targets, before and after its own in the store,
    /// fly on and finish.
    @Test func everyRunOfADroppedTargetEndsAtTheNextStep() throws {
        func group(_ leaf: AnimationKind) -> Animation { Animation(.group([Animation(leaf)]), duration: 1, fill: .forwards) }
        let animator = Animator()
        let before = FieldSprite(), after = FieldSprite()
        weak var gone: FieldSprite?
        try animator.start(group(.basic(.x, from: .s(0), to: .s(6))), on: before, token: 1)
        do {
            let sprite = FieldSprite()
            gone = sprite
            try animator.start(group(.basic(.position, from: .v(0, 0), to: .v(1, 1))), on: sprite, token: 2)
            try animator.start(Animation(.basic(.rotation, from: .s(0), to: .s(1)), duration: 1), on: sprite, token: 3)
            try animator.start(group(.basic(.alpha, from: .s(1), to: .s(0))), on: sprite, token: 4)
            try animator.start(group(.basic(.scale, from: .s(1), to: .s(7))), on: after, token: 5)
            #expect(animator.flights.count == 4)
            animator.run(steps: 2)
        }
        #expect(gone != nil)
        animator.run(steps: 1)
        #expect(gone == nil)
        let ends = animator.drain()
        #expect(ends.map(\.token) == [2, 3, 4])
        #expect(ends.allSatisfy { $0.end == .targetGone })
        #expect(animator.flights.count == 2 && animator.runningCount == 2)
        animator.run(steps: 1)
        #expect(abs(before.fields.pointee.x - 0.4) < 1e-12)
        #expect(abs(after.fields.pointee.scaleY - 1.4) < 1e-12)
        animator.run(steps: 56)
        #expect(animator.drain().map(\.token) == [1, 5])
        #expect(before.fields.pointee.x == 6 && after.fields.pointee.scaleX == 7)
    }
}

extension AnimationFlightTests {
    /// The flight loops read curves from their tables alone and write the leaves whose curve
    /// value falls in an interval the table leaves to the exact solve a second time, through
    /// the exact curve: paths, keyframe pairs (the leaves' curve and the segments') and
    /// single keyframes give what the general walk gives, bit for bit, at progress spread
    /// over every interval of every table, the marked ones included.
    @Test func curveValuesInIntervalsLeftToTheExactSolveMatchTheGeneralWalk() throws {
        // The curves used have intervals marked for the exact solve (their flat ends).
        var table = CurveTable()
        for curve in [TimingCurve.easeIn, .easeOut] {
            let e = Int(table.retain(curve))
            let start = Int(table.tableStarts[e])
            let marked = (0..<CurveTable.intervals).filter { table.bezierTables[start + 4 * $0].isNaN }
            #expect(!marked.isEmpty, "\(curve)")
            table.release(Int32(e))
        }
        table.destroy()

        func leaves(_ k: Int) -> [Animation] {
            let halves: [TimingCurve] = [.easeOut, .easeIn]
            switch k % 3 {
            case 0:
                return [
                    Animation(.path(.quadratic(from: Vec2(0, 200), control: Vec2(50, -60), to: Vec2(100, 60))),
                              curve: .easeIn),
                    Animation(.keyframes(.scaleX, values: [.s(2), .s(1.5), .s(1)], curves: halves)),
                    Animation(.keyframes(.scaleY, values: [.s(1), .s(3), .s(1)], curves: halves)),
                ]
            case 1:
                return [
                    Animation(.path(.quadratic(from: Vec2(9, 0), control: Vec2(0, 9), to: Vec2(3, 3))), curve: .easeOut),
                    Animation(.keyframes(.scaleX, values: [.s(1), .s(2)]), curve: .easeOut),
                    Animation(.keyframes(.scaleY, values: [.s(4), .s(2)]), curve: .easeOut),
                ]
            default:
                return [
                    Animation(.keyframes(.rotation, values: [.s(0), .s(1), .s(-1)], curves: halves), curve: .easeIn),
                    Animation(.keyframes(.alpha, values: [.s(1), .s(0.5), .s(0)], curves: [.easeIn, .easeOut])),
                ]
            }
        }
        func session(usesFlights: Bool) throws -> (fields: [[UInt64]], flights: Int) {
            let animator = Animator()
            animator.usesFlights = usesFlights
            // Every flight at its own point: 1,800 of them spread over one pass, so each
            // step puts some in every interval of every table.
            let count = 1_800
            let sprites = (0..<count).map { _ in FieldSprite() }
            for (k, s) in sprites.enumerated() {
                try animator.start(Animation(.group(leaves(k)), duration: 1, delay: -Double(k) / Double(count),
                                             fill: .forwards), on: s)
            }
            let flights = animator.flights.count
            var fields: [[UInt64]] = []
            for _ in 0..<4 {
                animator.advance(by: step)
                fields.append(sprites.flatMap(Self.bits))
            }
            return (fields, flights)
        }
        let flat = try session(usesFlights: true)
        let general = try session(usesFlights: false)
        #expect(flat.flights == 1_800 && general.flights == 0)
        for (k, (a, b)) in zip(flat.fields, general.fields).enumerated() where a != b {
            let i = a.indices.first { a[$0] != b[$0] } ?? a.count
            Issue.record("after step \(k), number \(i % 7) of sprite \(i / 7) differs")
            break
        }
    }
}
