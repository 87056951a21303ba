import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

private let enter = GameDriver.key("enter")
/// GAMES.md: the countdown, and the bar's wait after a round begins.
private let countdown = 5.0
private let barDelay = 0.3
/// The last-circle article's pop: 0.1x -> 1x over 0.5 s on a spring (damping 0.5, velocity 6).
private let popFrom = 0.1, popTime = 0.5

private struct LCCircle {
    let x: Double, y: Double, r: Double, delay: Double
    /// The terminal cell holding the centre, as (column, row).
    var cell: (Int, Int) { (Int(x.rounded(.down)), Int((y / 2).rounded(.down))) }
}

private func lcCircles(_ game: GameDriver) throws -> [LCCircle] {
    guard case .array(let list)? = try game.state()["circles"] else { return [] }
    return try list.map { c in
        LCCircle(x: try #require(c["x"]?.doubleValue), y: try #require(c["y"]?.doubleValue),
                 r: try #require(c["r"]?.doubleValue), delay: try #require(c["delay"]?.doubleValue))
    }
}

/// The scene's circle drawn for a round circle (found by its centre).
private func lcNode(_ game: GameDriver, _ c: LCCircle) throws -> CircleNode {
    try #require(game.session.scene.root.children.lazy.compactMap { $0 as? CircleNode }
        .first { $0.x == c.x && $0.y == c.y })
}

/// The countdown bar: the one rectangle as high as a terminal row.
private func lcBar(_ game: GameDriver) throws -> RectNode {
    try #require(game.session.scene.root.children.lazy.compactMap { $0 as? RectNode }.first { $0.height == 2 })
}

private func lcRows(_ game: GameDriver) -> [[Character]] {
    game.text().split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
}

/// Steps until `condition` holds and returns how many steps that took, or nil.
private func lcSteps(_ game: GameDriver, limit: Int = 2000, until condition: () throws -> Bool) rethrows -> Int? {
    for n in 0...limit {
        if try condition() { return n }
        game.step()
    }
    return nil
}

@Suite struct LastCircleTests {
    @Test func aScriptedPlayerWhoClicksTheLastCircleClearsRoundsOneToThree() throws {
        // First run: play by reading `circles`, and write each click down as a script line.
        let first = try GameDriver("lastcircle", seed: 3)
        var script = "0 key enter\n"
        first.step(events: [enter])
        var frame = 1
        for round in 1...3 {
            #expect(try first.string("phase") == "round")
            #expect(try first.int("round") == Int64(round))
            // half a second in: the circles are still springing, and picks are allowed
            first.step(30)
            frame += 30
            let circles = try lcCircles(first)
            #expect(circles.count == round + 2)
            let (col, row) = try #require(circles.last).cell
            script += "\(frame) mouse press \(col) \(row)\n\(frame) mouse release \(col) \(row)\n"
            first.step(events: GameDriver.click(col, row))
            frame += 1
            #expect(try first.string("phase") == "won_round")
            #expect(try first.int("score") == Int64(round))
            let waited = try #require(try lcSteps(first) { try first.string("phase") == "round" })
            frame += waited
        }
        #expect(try first.int("round") == 4)
        #expect(try lcCircles(first).count == 6)

        // Second run: the same seed and nothing but the script.
        let second = try GameDriver("lastcircle", seed: 3)
        try second.run(script: script, frames: frame)
        #expect(try second.int("score") == 3)
        #expect(try second.int("round") == 4)
        #expect(try second.string("phase") == "round")
        #expect(second.session.failure == nil)
    }

    @Test func eightRoundsOfCirclesNeverOverlapAndStayInThePlayArea() throws {
        let game = try GameDriver("lastcircle", seed: 14)
        game.step(events: [enter])
        let (w, h) = (Double(game.session.canvas.width), Double(game.session.canvas.height))
        for round in 1...8 {
            let circles = try lcCircles(game)
            #expect(circles.count == round + 2)
            for (i, a) in circles.enumerated() {
                #expect(a.r >= 2, "round \(round): a circle of radius \(a.r) is too small to click or label")
                #expect(a.x - a.r >= 0 && a.x + a.r <= w && a.y - a.r >= 3 && a.y + a.r <= h,
                        "round \(round): (\(a.x), \(a.y)) r \(a.r) leaves the play area")
                for b in circles[(i + 1)...] {
                    let d = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
                    #expect(d >= a.r + b.r, "round \(round): circles overlap")
                }
                #expect(a.delay >= 0 && a.delay <= 0.3)
                if i > 0 { #expect(a.delay >= circles[i - 1].delay, "listed in the order they appear") }
            }
            game.step(48)
            let (col, row) = try #require(circles.last).cell
            game.step(events: GameDriver.click(col, row))
            #expect(try lcSteps(game) { try game.string("phase") == "round" } != nil)
        }
        #expect(try game.int("score") == 8)
    }

    @Test func aWrongClickBlinksTheRightCircleThreeTimesThenEndsTheGameAndKeepsTheBest() throws {
        let store = SaveStore(location: .memory)
        let game = try GameDriver("lastcircle", seed: 4, store: store)
        game.step(events: [enter])
        game.step(48)
        // clear round 1, then miss in round 2
        let (c1, r1) = try #require(try lcCircles(game).last).cell
        game.step(events: GameDriver.click(c1, r1))
        #expect(try lcSteps(game) { try game.string("phase") == "round" } != nil)
        game.step(48)
        let circles = try lcCircles(game)
        let right = try lcNode(game, try #require(circles.last))
        let (col, row) = circles[0].cell
        game.step(events: GameDriver.click(col, row))
        #expect(try game.string("phase") == "over")
        #expect(try game.string("ending") == "wrong")
        #expect(try game.bool("card") == false)
        #expect(try game.int("score") == 1)
        // 1 -> 1.5 in 0.2 s and back in 0.2 s, three times: 1.2 s, then the card
        game.step(11)
        #expect(abs(right.scaleX - 1.5) < 1e-6, "\(right.scaleX)")
        game.step(6)
        #expect(abs(right.scaleX - 1.25) < 1e-6, "\(right.scaleX)")
        game.step(6)
        #expect(abs(right.scaleX - 1) < 1e-6, "\(right.scaleX)")
        game.step(12 * 4 - 1)
        #expect(right.scaleX > 1, "the third blink is still under way")
        #expect(try game.bool("card") == false)
        game.step()
        #expect(try game.bool("card") == true)
        #expect(right.scaleX == 1)
        #expect(game.text().contains("score 1     best 1"))
        #expect(try store.bestScore(game: "lastcircle") == 1)
        game.session.close()

        let again = try GameDriver("lastcircle", seed: 5, store: store)
        again.step()
        #expect(try again.int("best") == 1)
    }

    @Test func theFullBarEndsTheGameFiveSecondsAfterItStarts() throws {
        let game = try GameDriver("lastcircle", seed: 6)
        game.step(events: [enter])
        // the round began at the start of that step; 0.3 s later (18 steps) the bar starts
        game.step(16)
        #expect(try game.double("elapsed") == 0)
        game.step()
        #expect(abs(try #require(try game.double("elapsed"))) < 1e-9)
        game.step(Int(countdown * 60) - 1)
        #expect(try game.string("phase") == "round")
        #expect(abs(try #require(try game.double("elapsed")) - (countdown - 1.0 / 60)) < 1e-9)
        game.step()
        #expect(try game.string("phase") == "over")
        #expect(try game.string("ending") == "time")
        #expect(try game.double("elapsed") == countdown)
        // the round began at time 0 (the start of the first step): over at 0.3 s + T
        #expect(abs(Double(game.session.frame) * game.session.dt - (barDelay + countdown)) < 1e-9)
        #expect(try game.bool("card") == true)
        #expect(game.text().contains("score 0"))
    }

    @Test func theBarsLengthAndColourFollowTheArticlesFormula() throws {
        let game = try GameDriver("lastcircle", seed: 6)
        game.step(events: [enter])
        let bar = try lcBar(game)
        game.step(17)
        var done = 0
        for quarter in 0..<4 {
            let t = countdown * Double(quarter) / 4
            game.step(Int(t * 60) - done)
            done = Int(t * 60)
            let elapsed = try #require(try game.double("elapsed"))
            #expect(abs(elapsed - t) < 1e-9, "state agrees with the bar at t = \(t)")
            #expect(abs(bar.scaleX - t / countdown) < 1e-9, "length width * t / T at t = \(t)")
            let r = t < countdown / 2 ? 2 * t / countdown : 1
            let g = t < countdown / 2 ? 1 : 2 - 2 * t / countdown
            let want = Color(red: r, green: g, blue: 0)
            #expect(abs(Int(bar.fill.r) - Int(want.r)) <= 1 && abs(Int(bar.fill.g) - Int(want.g)) <= 1
                    && bar.fill.b == 0, "at t = \(t): \(bar.fill) vs \(want)")
        }
        #expect(bar.width == Double(game.session.canvas.width))
    }

    @Test func aPoppingCircleFollowsTheSpring() throws {
        let game = try GameDriver("lastcircle", seed: 8)
        game.step(events: [enter])
        // the pops count from the start of the step that began the round
        let origin = Double(game.session.frame - 1) * game.session.dt
        let last = try #require(try lcCircles(game).last)
        let node = try lcNode(game, last)
        let spring = TimingCurve.spring(damping: 0.5, initialVelocity: 6, duration: popTime)
        var highest = 0.0
        for _ in 0..<48 {
            let t = Double(game.session.frame) * game.session.dt - origin - last.delay
            let want = t <= 0 ? popFrom : popFrom + (1 - popFrom) * spring.value(at: t / popTime)
            #expect(abs(node.scaleX - want) < 1e-6, "t = \(t): \(node.scaleX) vs \(want)")
            highest = max(highest, node.scaleX)
            game.step()
        }
        #expect(highest > 1.05, "damping 0.5 overshoots")
        #expect(node.scaleX == 1)
        #expect(node.alpha == 1)
    }

    @Test func theStartScreenKeepsSevenBackgroundCirclesForTenMinutesAndNothingGrows() throws {
        let game = try GameDriver("lastcircle", seed: 2)
        game.step(60)
        let nodes = game.session.scene.nodeCount
        let animations = game.session.animationModule.animator.runningCount
        var seen = Set<Int>()
        var most = 0
        for i in 0..<(10 * 60 * 60) {
            game.step()
            if i % 20 == 0 {
                let circles = game.session.scene.root.children.filter { $0 is CircleNode }
                #expect(circles.count <= 7)
                for c in circles { seen.insert(c.id) }
                most = max(most, Int(try #require(try game.int("background"))))
            }
        }
        #expect(most == 7)
        #expect(try game.int("background") == 7)
        #expect(game.session.scene.nodeCount == nodes)
        #expect(game.session.animationModule.animator.runningCount == animations)
        #expect(game.session.pendingTimers == 0)
        // every loop keeps going: at most 10 s a circle, so each of the 7 made at least 60
        #expect(seen.count > 7 * 60, "\(seen.count) circles")
    }

    @Test func theKeyboardAloneClearsARound() throws {
        let game = try GameDriver("lastcircle", seed: 11)
        game.step(events: [GameDriver.key("space")])
        #expect(try game.string("phase") == "round")
        let circles = try lcCircles(game)
        let (col, row) = try #require(circles.last).cell
        let early = lcRows(game)[row][col]
        #expect(!(early.isNumber || early.isLetter), "no key before the pop ends: \(early)")
        game.step(48)
        let key = lcRows(game)[row][col]
        #expect(key.isNumber || key.isLetter, "the key drawn on the last circle: \(key)")
        // every circle shows a different key
        let keys = circles.map { c -> Character in let (x, y) = c.cell; return lcRows(game)[y][x] }
        #expect(Set(keys).count == circles.count)
        game.step(events: [GameDriver.key(String(key))])
        #expect(try game.string("phase") == "won_round")
        #expect(try lcSteps(game) { try game.string("phase") == "round" } != nil)
        #expect(try game.int("round") == 2)
        #expect(try game.int("score") == 1)
    }

    @Test func theMouseAloneClearsARound() throws {
        let game = try GameDriver("lastcircle", seed: 12)
        game.step()
        let rows = lcRows(game)
        let row = try #require(rows.firstIndex { String($0).contains("Start") })
        let col = try #require(String(rows[row]).range(of: "Start")).lowerBound.utf16Offset(in: String(rows[row]))
        game.step(events: GameDriver.click(2, row))
        #expect(try game.string("phase") == "start", "a click beside the button does nothing")
        game.step(events: GameDriver.click(col + 2, row))
        #expect(try game.string("phase") == "round")
        game.step(40)
        let (c, r) = try #require(try lcCircles(game).last).cell
        game.step(events: GameDriver.click(c, r))
        #expect(try game.string("phase") == "won_round")
        #expect(try lcSteps(game) { try game.string("phase") == "round" } != nil)
        #expect(try game.int("score") == 1)
    }

    @Test func circlesKeepTheirRelativePlacesOnResize() throws {
        let game = try GameDriver("lastcircle", seed: 13)
        game.step(events: [enter])
        game.step(48)
        let before = try lcCircles(game)
        game.step(events: [.resize(cols: 120, rows: 40)])
        let after = try lcCircles(game)
        #expect(after.count == before.count)
        let top = 3.0
        for (a, b) in zip(before, after) {
            #expect(abs(a.x / 80 - b.x / 120) < 1e-9)
            #expect(abs((a.y - top) / (48 - top) - (b.y - top) / (80 - top)) < 1e-9)
            #expect(abs(a.r / min(80, 48 - top) - b.r / min(120, 80 - top)) < 1e-9)
        }
        #expect(try lcBar(game).width == 120)
        let (c, r) = try #require(after.last).cell
        game.step(events: GameDriver.click(c, r))
        #expect(try game.string("phase") == "won_round")
    }

    @Test func theSameSeedGivesTheSameFramesAndAnotherSeedOthers() throws {
        func frames(seed: UInt64) throws -> [Frame] {
            let game = try GameDriver("lastcircle", seed: seed)
            var out: [Frame] = []
            game.step(45)
            out.append(game.session.renderFrame())
            game.step(events: [enter])
            for _ in 0..<3 {
                game.step(10)
                out.append(game.session.renderFrame())
            }
            game.step(events: GameDriver.click(40, 12))
            game.step(30)
            out.append(game.session.renderFrame())
            return out
        }
        let a = try frames(seed: 21), b = try frames(seed: 21), c = try frames(seed: 22)
        #expect(a == b)
        #expect(a[0] != c[0])
        #expect(a[3] != c[3])
    }

    // MARK: Golden frames (80 x 24) in Golden/lastcircle; checked by eye

    @Test func startScreenFrame() throws {
        let game = try GameDriver("lastcircle", seed: 1)
        game.step(120)
        expectGolden(game.text(), game: "lastcircle", name: "start")
    }

    @Test func roundMidPopFrame() throws {
        let game = try GameDriver("lastcircle", seed: 1)
        game.step(events: [enter])
        // a third of a second in: every circle has started, the early ones overshooting
        game.step(20)
        expectGolden(game.text(), game: "lastcircle", name: "midPop")
    }

    @Test func blinkFrame() throws {
        let game = try GameDriver("lastcircle", seed: 1)
        game.step(events: [enter])
        game.step(48)
        let (col, row) = try lcCircles(game)[0].cell
        game.step(events: GameDriver.click(col, row))
        game.step(11)
        expectGolden(game.text(), game: "lastcircle", name: "blink")
    }

    @Test func gameOverFrame() throws {
        let game = try GameDriver("lastcircle", seed: 1)
        game.step(events: [enter])
        #expect(try lcSteps(game) { try game.bool("card") == true } != nil)
        game.step(60)
        expectGolden(game.text(), game: "lastcircle", name: "gameOver")
    }
}
