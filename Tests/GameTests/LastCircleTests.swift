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
/// GAMES.md (revised): the first two circles stay 1.5 s; (decided) they shrink away in 0.3 s.
private let memoriseTime = 1.5, shrinkTime = 0.3
/// The bar leaves the last four columns free for the host's pause mark.
private let corner = 4.0
/// The play area runs from below the bar (y = 3) to above the HUD: one text row (2 pixels)
/// below 40 rows, a row of large labels and a text row (10 pixels) from 40 rows.
private let areaTop = 3.0, hudHeight = 2.0, bigHudHeight = 10.0
private func lcHud(rows: Int) -> Double { rows >= 40 ? bigHudHeight : hudHeight }

private struct LCCircle {
    let x: Double, y: Double, r: Double, delay: Double, key: String?
    /// The terminal cell holding the centre, as (column, row).
    var cell: (Int, Int) { (Int(x.rounded(.down)), Int((y / 2).rounded(.down))) }
}

private func lcCircles(_ game: GameDriver) throws -> [LCCircle] {
    guard case .array(let list)? = try game.state()["circles"] else { return [] }
    return try list.map { c in
        var key: String?
        if case .string(let k)? = c["key"] { key = k }
        return LCCircle(x: try #require(c["x"]?.doubleValue), y: try #require(c["y"]?.doubleValue),
                        r: try #require(c["r"]?.doubleValue), delay: try #require(c["delay"]?.doubleValue), key: key)
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

/// Steps through the two circles to remember until round 1 (or any next round) begins
/// (`stage` holds the steps within a run; `phase` is "play" throughout).
private func lcToRound(_ game: GameDriver) throws {
    #expect(try lcSteps(game) { try game.string("stage") == "round" } != nil)
}

/// Starts a game with Enter and steps to round 1.
private func lcRoundOne(seed: UInt64, cols: Int = 80, rows: Int = 24, store: SaveStore? = nil) throws -> GameDriver {
    let game = try GameDriver("lastcircle", seed: seed, cols: cols, rows: rows, store: store)
    game.step(events: [enter])
    try lcToRound(game)
    return game
}

@Suite struct LastCircleTests {
    // Changed by the revised rule: the two circles to remember come before round 1, so the
    // script waits for each round to begin; the answer is still the last entry of `circles`
    // (now the last circle to join rather than the last to pop in).
    @Test func aScriptedPlayerWhoClicksTheNewCircleClearsRoundsOneToThree() throws {
        // First run: play by reading `circles`, and write each click down as a script line.
        let first = try GameDriver("lastcircle", seed: 3)
        var script = "0 key enter\n"
        first.step(events: [enter])
        var frame = 1
        frame += try #require(try lcSteps(first) { try first.string("stage") == "round" })
        var score: Int64 = 0
        for round in 1...3 {
            #expect(try first.string("stage") == "round")
            #expect(try first.string("phase") == "play")
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
            #expect(try first.string("stage") == "won_round")
            // 10 points and the speed bonus: 0.2 s of the bar used leaves 96 % of it, 10 more
            score += 20
            #expect(try first.int("last_points") == 20)
            #expect(try first.int("score") == score)
            let waited = try #require(try lcSteps(first) { try first.string("stage") == "round" })
            frame += waited
        }
        #expect(try first.int("round") == 4)
        #expect(try lcCircles(first).count == 6)

        // Second run: the same seed and nothing but the script.
        let second = try GameDriver("lastcircle", seed: 3)
        try second.run(script: script, frames: frame)
        #expect(try second.int("score") == score)
        #expect(try second.int("round") == 4)
        #expect(try second.string("stage") == "round")
        #expect(second.session.failure == nil)
    }

    // Changed by the revised rule: `circles` is in the order of joining, so the check that it
    // is sorted by pop delay is gone; every circle must now also keep its place.
    @Test func eightRoundsOfCirclesNeverOverlapStayInThePlayAreaAndKeepTheirPlaces() throws {
        let game = try lcRoundOne(seed: 14)
        let (w, h) = (Double(game.session.canvas.width), Double(game.session.canvas.height))
        var before: [LCCircle] = []
        for round in 1...8 {
            let circles = try lcCircles(game)
            #expect(circles.count == round + 2)
            for (a, b) in zip(before, circles) {
                #expect(a.x == b.x && a.y == b.y && a.r == b.r, "round \(round): a circle moved")
            }
            for (i, a) in circles.enumerated() {
                #expect(a.r >= 2, "round \(round): a circle of radius \(a.r) is too small to click or label")
                #expect(a.x - a.r >= 0 && a.x + a.r <= w && a.y - a.r >= areaTop && a.y + a.r <= h - hudHeight,
                        "round \(round): (\(a.x), \(a.y)) r \(a.r) leaves the play area")
                for b in circles[(i + 1)...] {
                    let d = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
                    #expect(d >= a.r + b.r, "round \(round): circles overlap")
                }
                #expect(a.delay >= 0 && a.delay <= 0.3)
            }
            before = circles
            game.step(48)
            let (col, row) = try #require(circles.last).cell
            game.step(events: GameDriver.click(col, row))
            try lcToRound(game)
        }
        #expect(try game.int("round") == 9)
    }

    @Test func circlesComeBackInTheirColoursAndTheNewOneHasANewColour() throws {
        let game = try lcRoundOne(seed: 16)
        var colours: [Color] = []
        for round in 1...5 {
            game.step(48)
            let circles = try lcCircles(game)
            let fills = try circles.map { try lcNode(game, $0).fill }
            #expect(Array(fills.prefix(colours.count)) == colours, "round \(round): a circle changed colour")
            #expect(Set(fills).count == fills.count, "round \(round): two circles share a colour")
            colours = fills
            let (col, row) = try #require(circles.last).cell
            game.step(events: GameDriver.click(col, row))
            try lcToRound(game)
        }
    }

    // Wave 4: in 256 colours no two circles on screen share a palette entry. Every colour a
    // circle can take (the game's `palette`) maps to an xterm entry of its own, and that entry
    // is the colour itself (a cube colour), so the circles drawn keep their colours apart.
    @Test func everyCircleColourHasAnXtermEntryOfItsOwn() throws {
        let game = try lcRoundOne(seed: 19)
        guard case .array(let list)? = try game.state()["palette"] else {
            Issue.record("no palette in game.state")
            return
        }
        let palette = try list.map { v -> Color in
            let hex = try #require(v.stringValue)
            return try #require(Color(hex: hex))
        }
        #expect(palette.count >= 36, "enough for a full round and the circle that just left")
        let entries = palette.map { XtermPalette.index(nearestTo: $0) }
        #expect(Set(entries).count == palette.count, "two palette colours share an xterm entry")
        for (c, i) in zip(palette, entries) {
            #expect(XtermPalette.color(at: i) == c, "\(c) shows as entry \(i), another colour")
        }
        // and the circles drawn take their fills from it, one entry each
        for _ in 1...4 {
            game.step(48)
            let circles = try lcCircles(game)
            let fills = try circles.map { try lcNode(game, $0).fill }
            #expect(fills.allSatisfy { palette.contains($0) })
            #expect(Set(fills.map { XtermPalette.index(nearestTo: $0) }).count == fills.count)
            let (col, row) = try #require(circles.last).cell
            game.step(events: GameDriver.click(col, row))
            try lcToRound(game)
        }
    }

    // Wave 4: pause hides the board (the host covers the whole game when the manifest asks).
    @Test func theManifestAsksThePauseCardToCoverTheBoard() throws {
        let entry = try #require(GameCatalog(searchDirs: [repoGames]).game("lastcircle"))
        #expect(try #require(entry.manifest).hideOnPause)
    }

    @Test func theFirstTwoCirclesStayOneAndAHalfSecondsThenShrinkAwayBeforeRoundOne() throws {
        let game = try GameDriver("lastcircle", seed: 17)
        game.step(events: [enter])
        #expect(try game.string("stage") == "memorise")
        #expect(try game.string("phase") == "play")
        #expect(try game.int("round") == 1)
        let circles = try lcCircles(game)
        #expect(circles.count == 2)
        #expect(circles.allSatisfy { $0.key == nil }, "no keys: nothing to pick yet")
        let nodes = try circles.map { try lcNode(game, $0) }
        // the pops count from the start of the step that began the game
        let started = game.session.frame - 1
        let popSteps = Int(((try #require(circles.map(\.delay).max()) + popTime) * 60).rounded(.up))
        var firstWhole: Int?, lastWhole: Int?
        var shrinking = 0
        while try game.string("stage") == "memorise" {
            game.step()
            let whole = nodes.allSatisfy { $0.scaleX == 1 && $0.alpha == 1 }
            if whole {
                if firstWhole == nil { firstWhole = game.session.frame }
                lastWhole = game.session.frame
            } else if lastWhole != nil {
                #expect(nodes.allSatisfy { $0.scaleX < 1 && $0.scaleX >= popFrom - 1e-9 }, "shrinking")
                shrinking += 1
            }
            // nothing to pick meanwhile
            if firstWhole != nil && game.session.frame == firstWhole! + 30 {
                let (col, row) = circles[0].cell
                game.step(events: GameDriver.click(col, row) + [GameDriver.key("1"), enter])
                #expect(try game.string("stage") == "memorise")
            }
            if game.session.frame > started + 600 { break }
        }
        let first = try #require(firstWhole), last = try #require(lastWhole)
        #expect(abs(first - started - popSteps) <= 1, "both whole once the later pop is over")
        #expect(last - first + 1 >= Int(memoriseTime * 60) && last - first + 1 <= Int(memoriseTime * 60) + 1,
                "whole for 1.5 s: \(last - first + 1) steps")
        #expect(abs(game.session.frame - last - Int(shrinkTime * 60)) <= 1, "a 0.3 s shrink, then round 1")
        #expect(shrinking >= Int(shrinkTime * 60) - 2)
        #expect(try game.string("stage") == "round", "round 1 begins as the shrink ends")
        let round = try lcCircles(game)
        #expect(round.count == 3)
        #expect(round[0].x == circles[0].x && round[1].y == circles[1].y)
    }

    @Test func theNewCirclesKeyIsDealtAtRandomNotByAge() throws {
        // each round the keys are the first n in a random order: over 30 games the new circle
        // gets every one of them, in round 1 and in round 2
        var round1: [String: Int] = [:], round2: [String: Int] = [:]
        var changed = 0
        for seed in 1...30 {
            let game = try lcRoundOne(seed: UInt64(seed))
            let a = try lcCircles(game)
            #expect(Set(a.compactMap(\.key)) == ["1", "2", "3"])
            round1[try #require(a.last?.key), default: 0] += 1
            game.step(48)
            let (col, row) = try #require(a.last).cell
            game.step(events: GameDriver.click(col, row))
            try lcToRound(game)
            let b = try lcCircles(game)
            #expect(Set(b.compactMap(\.key)) == ["1", "2", "3", "4"])
            round2[try #require(b.last?.key), default: 0] += 1
            changed += zip(a, b).filter { $0.key != $1.key }.count
        }
        #expect(round1.keys.sorted() == ["1", "2", "3"], "\(round1)")
        #expect(round2.keys.sorted() == ["1", "2", "3", "4"], "\(round2)")
        #expect(round1.values.allSatisfy { $0 >= 3 } && round2.values.allSatisfy { $0 >= 3 })
        #expect(changed >= 30, "the old circles' keys are dealt again too")
    }

    @Test func gameOverSaysWhyAndHidesTheBar() throws {
        // time's up
        let slow = try lcRoundOne(seed: 18)
        #expect(try slow.state()["reason"] == nil)
        let bar = try lcBar(slow)
        #expect(try lcSteps(slow) { try slow.bool("card") == true } != nil)
        #expect(try slow.string("reason") == "time's up")
        #expect(!bar.isVisible)
        #expect(slow.text().contains("time's up"))
        #expect(!slow.text().contains("wrong circle"))

        // a wrong pick: marked, the bar hidden at once
        let wrong = try lcRoundOne(seed: 18)
        wrong.step(48)
        let circles = try lcCircles(wrong)
        let (col, row) = circles[1].cell
        wrong.step(events: GameDriver.click(col, row))
        #expect(try wrong.string("reason") == "wrong circle")
        #expect(try wrong.int("picked") == 2)
        let wrongBar = try lcBar(wrong)
        #expect(!wrongBar.isVisible)
        #expect(lcRows(wrong)[row][col] == "X", "the wrong pick is marked")
        #expect(try lcSteps(wrong) { try wrong.bool("card") == true } != nil)
        #expect(wrong.text().contains("wrong circle"))
        #expect(!wrong.text().contains("time's up"))
        // playing again clears the reason
        wrong.step(events: [enter])
        #expect(try wrong.state()["reason"] == nil)
    }

    @Test func aWrongClickBlinksTheRightCircleThreeTimesThenEndsTheGameAndKeepsTheBest() throws {
        let store = SaveStore(location: .memory)
        let game = try lcRoundOne(seed: 4, store: store)
        game.step(48)
        // clear round 1, then miss in round 2
        let (c1, r1) = try #require(try lcCircles(game).last).cell
        game.step(events: GameDriver.click(c1, r1))
        let points = try #require(try game.int("score"))
        #expect(points == 10 + (try #require(try game.int("last_bonus"))))
        try lcToRound(game)
        game.step(48)
        let circles = try lcCircles(game)
        let right = try lcNode(game, try #require(circles.last))
        let (col, row) = circles[0].cell
        game.step(events: GameDriver.click(col, row))
        #expect(try game.string("phase") == "over")
        #expect(try game.string("ending") == "wrong")
        #expect(try game.bool("card") == false)
        #expect(try game.int("score") == points)
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
        #expect(game.text().contains("score \(points)     best \(points)"))
        #expect(try store.bestScore(game: "lastcircle") == points)
        game.session.close()

        let again = try GameDriver("lastcircle", seed: 5, store: store)
        again.step()
        #expect(try again.int("best") == points)
    }

    // Changed by the revised rule: counted from the start of round 1, which follows the two
    // circles to remember.
    @Test func theFullBarEndsTheGameFiveSecondsAfterItStarts() throws {
        let game = try lcRoundOne(seed: 6)
        let begun = game.session.frame
        // the round began in the last of those steps; 0.3 s later (18 steps) the bar starts
        game.step(17)
        #expect(try game.double("elapsed") == 0)
        game.step()
        #expect(abs(try #require(try game.double("elapsed"))) < 1e-9)
        game.step(Int(countdown * 60) - 1)
        #expect(try game.string("stage") == "round")
        #expect(abs(try #require(try game.double("elapsed")) - (countdown - 1.0 / 60)) < 1e-9)
        game.step()
        #expect(try game.string("phase") == "over")
        #expect(try game.string("ending") == "time")
        #expect(try game.double("elapsed") == countdown)
        // over 0.3 s + T after the round began
        #expect(abs(Double(game.session.frame - begun) * game.session.dt - (barDelay + countdown)) < 1e-9)
        #expect(try game.bool("card") == true)
        #expect(game.text().contains("score 0"))
    }

    // Changed: the bar is four columns shorter than the canvas, leaving the top-right corner
    // to the host's pause mark; its length is still its width * t / T.
    @Test func theBarsLengthAndColourFollowTheArticlesFormula() throws {
        let game = try lcRoundOne(seed: 6)
        let bar = try lcBar(game)
        game.step(18)
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
        #expect(bar.width == Double(game.session.canvas.width) - corner)
    }

    @Test func aPoppingCircleFollowsTheSpring() throws {
        let game = try GameDriver("lastcircle", seed: 8)
        game.step(events: [enter])
        // the pops count from the start of the step that began the game
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

    // Changed by the revised rule: a key is drawn from the moment its circle starts to pop
    // (it was hidden until the pop ended), and it is the one in `circles`, dealt at random.
    @Test func theKeyboardAloneClearsARound() throws {
        let game = try GameDriver("lastcircle", seed: 11)
        game.step(events: [GameDriver.key("space")])
        #expect(try game.string("stage") == "memorise")
        try lcToRound(game)
        let begun = game.session.frame
        let circles = try lcCircles(game)
        let new = try #require(circles.last)
        let (col, row) = new.cell
        // as soon as the new circle starts to pop, its key is on it
        game.step(Int((new.delay * 60).rounded(.up)) + 1 - (game.session.frame - begun))
        #expect(try lcNode(game, new).scaleX < 1, "still springing")
        #expect(lcRows(game)[row][col] == Character(try #require(new.key)))
        game.step(48)
        // every circle shows its own key
        let keys = circles.map { c -> Character in let (x, y) = c.cell; return lcRows(game)[y][x] }
        #expect(keys.map(String.init) == circles.map { $0.key ?? "" })
        #expect(Set(keys).count == circles.count)
        game.step(events: [GameDriver.key(try #require(new.key))])
        #expect(try game.string("stage") == "won_round")
        try lcToRound(game)
        #expect(try game.int("round") == 2)
        let score = try #require(try game.int("score"))
        #expect(score > 10)
        #expect(lcRows(game)[23].starts(with: " round 2   score \(score)"), "the HUD")
    }

    @Test func theMouseAloneClearsARound() throws {
        let game = try GameDriver("lastcircle", seed: 12)
        game.step()
        let rows = lcRows(game)
        let row = try #require(rows.firstIndex { String($0).contains("Start") })
        let col = try #require(String(rows[row]).range(of: "Start")).lowerBound.utf16Offset(in: String(rows[row]))
        game.step(events: GameDriver.click(2, row))
        #expect(try game.string("phase") == "ready", "a click beside the button does nothing")
        game.step(events: GameDriver.click(col + 2, row))
        #expect(try game.string("stage") == "memorise")
        try lcToRound(game)
        game.step(40)
        let (c, r) = try #require(try lcCircles(game).last).cell
        game.step(events: GameDriver.click(c, r))
        #expect(try game.string("stage") == "won_round")
        try lcToRound(game)
        #expect(try #require(try game.int("score")) > 10)
    }

    // Changed: the play area now ends above the HUD row, and a resize that squeezes the field
    // more one way than the other shrinks every radius alike so that circles never overlap.
    @Test func circlesKeepTheirRelativePlacesOnResize() throws {
        let game = try lcRoundOne(seed: 13)
        game.step(48)
        let before = try lcCircles(game)
        game.step(events: [.resize(cols: 120, rows: 40)])
        let after = try lcCircles(game)
        #expect(after.count == before.count)
        let (side0, side1) = (min(80, 48 - lcHud(rows: 24) - areaTop), min(120, 80 - lcHud(rows: 40) - areaTop))
        let ratio = try #require(zip(before, after).map { ($1.r / side1) / ($0.r / side0) }.first)
        #expect(ratio <= 1 + 1e-9)
        for (i, (a, b)) in zip(before, after).enumerated() {
            #expect(abs(a.x / 80 - b.x / 120) < 1e-9)
            #expect(abs((a.y - areaTop) / (48 - lcHud(rows: 24) - areaTop) - (b.y - areaTop) / (80 - lcHud(rows: 40) - areaTop)) < 1e-9)
            #expect(abs((b.r / side1) / (a.r / side0) - ratio) < 1e-9, "every radius scales alike")
            #expect(b.x - b.r >= 0 && b.x + b.r <= 120 && b.y - b.r >= areaTop && b.y + b.r <= 80 - lcHud(rows: 40))
            for c in after[(i + 1)...] {
                #expect(((b.x - c.x) * (b.x - c.x) + (b.y - c.y) * (b.y - c.y)).squareRoot() >= b.r + c.r)
            }
        }
        #expect(try lcBar(game).width == 120 - corner)
        let (c, r) = try #require(after.last).cell
        game.step(events: GameDriver.click(c, r))
        #expect(try game.string("stage") == "won_round")
    }

    @Test func theSameSeedGivesTheSameFramesAndAnotherSeedOthers() throws {
        try expectFramesFollowTheSeed(21, other: 22, differing: [0, 3]) { seed in
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
    }

    // MARK: Golden frames (80 x 24, and 160 x 50) in Golden/lastcircle; checked by eye

    @Test func startScreenFrame() throws {
        let game = try GameDriver("lastcircle", seed: 1)
        game.step(120)
        expectGolden(game.text(), game: "lastcircle", name: "start")
    }

    @Test func memoriseFrame() throws {
        let game = try GameDriver("lastcircle", seed: 1)
        game.step(events: [enter])
        game.step(60)
        expectGolden(game.text(), game: "lastcircle", name: "memorise")
    }

    @Test func roundMidPopFrame() throws {
        let game = try lcRoundOne(seed: 1)
        // a third of a second in: every circle has started, the early ones overshooting
        game.step(20)
        expectGolden(game.text(), game: "lastcircle", name: "midPop")
    }

    @Test func blinkFrame() throws {
        let game = try lcRoundOne(seed: 1)
        game.step(48)
        let (col, row) = try lcCircles(game)[0].cell
        game.step(events: GameDriver.click(col, row))
        game.step(11)
        expectGolden(game.text(), game: "lastcircle", name: "blink")
    }

    // Wave 4: from 40 rows the round and the score are drawn in the pixel font, in play and on
    // the end card.
    @Test func roundFrameAt160x50() throws {
        let game = try lcRoundOne(seed: 1, cols: 160, rows: 50)
        game.step(48)
        expectGolden(game.text(), game: "lastcircle", name: "round160x50")
    }

    @Test func gameOverFrameAt160x50() throws {
        let game = try lcRoundOne(seed: 1, cols: 160, rows: 50)
        #expect(try lcSteps(game) { try game.bool("card") == true } != nil)
        game.step(60)
        expectGolden(game.text(), game: "lastcircle", name: "gameOver160x50")
    }

    @Test func gameOverFrame() throws {
        let game = try lcRoundOne(seed: 1)
        #expect(try lcSteps(game) { try game.bool("card") == true } != nil)
        game.step(60)
        expectGolden(game.text(), game: "lastcircle", name: "gameOver")
    }
}
