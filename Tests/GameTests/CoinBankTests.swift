import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// Enter: starts the run on the start screen, then presses the button.
private let enter = GameDriver.key("enter")

/// `(x, y)` of a Lua array `{ x, y }`.
func point(_ v: LuaValue?) -> Vec2? {
    guard case .array(let a)? = v, a.count == 2, let x = a[0].doubleValue, let y = a[1].doubleValue else { return nil }
    return Vec2(x, y)
}

/// The quadratic Bezier curve at `t`.
func quadratic(_ p0: Vec2, _ c: Vec2, _ p1: Vec2, _ t: Double) -> Vec2 {
    let u = 1 - t
    return Vec2(u * u * p0.x + 2 * u * t * c.x + t * t * p1.x, u * u * p0.y + 2 * u * t * c.y + t * t * p1.y)
}

/// Cells drawn between the pig's band and the button, where only flying coins can be.
func coinCells(_ text: String) -> Int {
    let rows = text.split(separator: "\n", omittingEmptySubsequences: false)
    return rows[8..<13].reduce(0) { $0 + $1.filter { $0 != " " }.count }
}

/// Coin bank: feed the walking pig (GAMES.md, wave 4). The article's burst, flights and shake
/// still play; a coin counts only when the pig is under the ring as it lands.
@Suite struct CoinBankTests {
    /// A game with its run started (the start screen's enter), one step in.
    func started(seed: UInt64 = 1, cols: Int = 80, rows: Int = 24, store: SaveStore? = nil) throws -> GameDriver {
        let game = try GameDriver("coinbank", seed: seed, cols: cols, rows: rows, store: store)
        game.step()
        #expect(try game.string("phase") == "ready")
        game.step(events: [enter])
        #expect(try game.string("phase") == "play")
        return game
    }

    /// The pig's sprite: the child of the group named "pig" (the shake turns it).
    func pigSprite(_ game: GameDriver) throws -> Node {
        let pig = try #require(game.session.scene.root.children.first { $0.name == "pig" })
        return try #require(pig.children.first { $0 is SpriteNode })
    }

    /// The pig starts under the ring and walks to an edge and back in 7 s at level 1: a press
    /// 4.5 s in lands the burst's middle as it passes under the ring again.
    func pressWell(_ game: GameDriver) {
        game.step(268)
        game.step(events: [enter])
    }

    @Test func oneBurstLaunches300CoinsAndBringsTheButtonBack() throws {
        let game = try started()
        #expect(try game.bool("button_visible") == true)
        #expect(coinCells(game.text()) == 0)
        let idle = game.session.stats

        game.step(events: [enter])
        #expect(try game.bool("button_visible") == false)
        #expect(try game.int("bursts_left") == 4)
        game.step(60)
        let launched = try #require(try game.int("launched"))
        let arrived = try #require(try game.int("arrived"))
        #expect(launched > arrived && launched < 300, "mid-burst: \(launched) launched, \(arrived) arrived")
        #expect(coinCells(game.text()) > 20, "coins in the air mid-flight")

        #expect(try game.step(until: { try game.bool("button_visible") == true }))
        #expect(try game.int("launched") == 300)
        #expect(try game.int("arrived") == 300)
        let banked = try #require(try game.int("burst_banked")), lost = try #require(try game.int("lost"))
        #expect(banked + lost == 300)
        #expect(try game.int("score") == banked)
        #expect(game.session.failure == nil)
        // the lost coins tumble out of the bottom; then every node, animation and timer of the burst is gone
        game.step(120)
        #expect(coinCells(game.text()) == 0)
        let after = game.session.stats
        #expect(after.nodes == idle.nodes)
        #expect(after.animations == idle.animations)
        #expect(after.timers == 0)
    }

    /// Pressed at once, the burst lands while the pig is away: every coin is lost, no shake.
    @Test func coinsThatLandOffThePigAreLost() throws {
        let game = try started(seed: 3)
        game.step(events: [enter])
        #expect(try game.step(until: { try game.bool("button_visible") == true }))
        #expect(try game.int("lost") == 300)
        #expect(try game.int("score") == 0)
        #expect(try game.int("banked") == 0)
        #expect(try game.int("shakes") == 0)
    }

    /// Pressed so that the pig comes back under the ring as the coins land: most go in and
    /// the pig shakes (the article's -0.2 to 0.2 rad in 0.1 s, three times).
    @Test func aWellTimedBurstIsBankedAndThePigShakes() throws {
        let game = try started(seed: 2)
        pressWell(game)
        #expect(try game.step(until: { try game.bool("shaking") == true }))
        let banked = try #require(try game.int("burst_banked"))
        #expect(banked > 120, "a well-timed burst banked \(banked)")
        #expect(try game.int("level_banked") == banked)
        let sprite = try pigSprite(game)
        game.step(1)
        #expect(abs(sprite.rotation) > 0.05 && abs(sprite.rotation) <= 0.2 + 1e-9, "turned \(sprite.rotation)")
        #expect(try game.step(until: { try game.bool("button_visible") == true }))
        #expect(try game.int("shakes") == 1)
        #expect(sprite.rotation == 0)
    }

    /// A second burst ends holding what the first left: nothing accumulates from burst to burst.
    @Test func burstsLeakNothing() throws {
        let game = try started()
        func burst() throws -> GameStats {
            game.step(events: [enter])
            #expect(try game.step(until: { try game.bool("button_visible") == true }))
            game.step(90)
            game.session.vm.collectGarbage()
            return game.session.stats
        }
        let first = try burst()
        let second = try burst()
        #expect(second.nodes == first.nodes)
        #expect(second.animations == first.animations)
        #expect(second.timers == first.timers)
        #expect(second.luaKiB <= first.luaKiB + 16, "Lua heap \(first.luaKiB) KiB -> \(second.luaKiB) KiB")
        #expect(try game.int("bursts_left") == 3)
    }

    @Test func pressesDuringABurstChangeNothing() throws {
        let plain = try started(), pressed = try started()
        plain.step(events: [enter])
        pressed.step(events: [enter])
        plain.step(30)
        // Enter, space, k and a click where the button was, all while the burst runs
        pressed.step(events: [enter, .key(KeyEvent("space")), .key(KeyEvent("k")),
                              .mouse(MouseEvent(.press, col: 40, row: 15))])
        pressed.step(29)
        #expect(try pressed.state() == plain.state())
        plain.step(300)
        pressed.step(300)
        #expect(try pressed.state() == plain.state())
        #expect(try pressed.int("launched") == 300)
        #expect(try pressed.int("bursts_left") == 4)
        #expect(pressed.text() == plain.text())
    }

    @Test func clicksOnTheButtonStartTheRunAndSendTheCoins() throws {
        let game = try GameDriver("coinbank")
        game.step()
        game.step(events: [.mouse(MouseEvent(.press, col: 5, row: 15))])
        #expect(try game.string("phase") == "ready")
        game.step(events: [.mouse(MouseEvent(.press, col: 40, row: 15))])
        #expect(try game.string("phase") == "play")
        game.step(events: [.mouse(MouseEvent(.press, col: 5, row: 15))])
        #expect(try game.bool("bursting") == false)
        game.step(events: [.mouse(MouseEvent(.press, col: 40, row: 15))])
        #expect(try game.bool("bursting") == true)
        #expect(try game.bool("button_visible") == false)
    }

    @Test func theFirstCoinFollowsItsCurveAndKeyframes() throws {
        let game = try started(seed: 5)
        game.step(events: [enter])
        #expect(try game.step(until: { try game.state()["first"] != nil }))
        let first = try #require(try game.state()["first"])
        let p0 = try #require(point(first["from"])), c = try #require(point(first["control"]))
        let p1 = try #require(point(first["to"]))
        let s = try #require(first["scale"]?.doubleValue)
        let launchFrame = try #require(first["frame"]?.intValue)
        let id = try #require(first["node"]?.intValue)

        // the target is the fixed drop point; the control point is the article's
        let drop = try #require(try game.state()["drop"])
        #expect(p1.x == drop["x"]?.doubleValue && p1.y == drop["y"]?.doubleValue)
        #expect(abs(c.x - (p1.x + (p0.x - p1.x) / 2)) < 1e-9)
        #expect(c.y <= -p1.y / 2 + 1e-9 && c.y > -p1.y - 1e-9, "fromY / 2 - ty with fromY in [0, ty)")
        #expect(p0.y > Double(game.session.canvas.height), "starts below the bottom edge")

        // t = 0, as written by the start
        let start = try #require(first["start"])
        #expect(try #require(start["x"]?.doubleValue) == p0.x)
        #expect(try #require(start["y"]?.doubleValue) == p0.y)
        #expect(try #require(start["scale_x"]?.doubleValue) == s)
        #expect(try #require(start["scale_y"]?.doubleValue) == s / 2)

        // the launch step already advanced it by one step: after k more, t = (k + 1) / 60
        func sample(at t: Double) throws -> Node {
            let k = Int((t * 60).rounded()) - 1
            #expect(game.step(until: { Int64(game.session.frame) >= launchFrame + Int64(k) }))
            #expect(Int64(game.session.frame) == launchFrame + Int64(k))
            return try #require(game.session.scene.node(withID: Int(id)))
        }
        let quarter = try sample(at: 0.25)
        let q = quadratic(p0, c, p1, 0.25)
        #expect(abs(quarter.x - q.x) < 1 && abs(quarter.y - q.y) < 1)
        #expect(quarter.scaleX < 0.875 * s - 1e-6, "eases out: past the straight line's 0.875 s")
        #expect(quarter.scaleX > 0.75 * s)

        let half = try sample(at: 0.5)
        let h = quadratic(p0, c, p1, 0.5)
        #expect(abs(half.x - h.x) < 1 && abs(half.y - h.y) < 1, "(\(half.x), \(half.y)) vs (\(h.x), \(h.y))")
        #expect(abs(half.scaleX - 0.75 * s) < 1e-9)
        #expect(abs(half.scaleY - s / 2) < 1e-9)

        // t = 1: the arrival callback saw it at the drop point; the pig had walked away, so
        // the coin tumbles on from there instead of vanishing
        #expect(try game.step(until: { try game.state()["first"]?["arrival"] != nil }))
        #expect(Int64(game.session.frame) == launchFrame + 59)
        let arrival = try #require(try game.state()["first"]?["arrival"])
        #expect(abs(try #require(arrival["x"]?.doubleValue) - p1.x) < 1e-9)
        #expect(abs(try #require(arrival["y"]?.doubleValue) - p1.y) < 1e-9)
        #expect(abs(try #require(arrival["scale_x"]?.doubleValue) - s / 2) < 1e-9)
        #expect(abs(try #require(arrival["scale_y"]?.doubleValue) - s / 2) < 1e-9)
        #expect(try game.int("lost") ?? 0 >= 1)
        game.step(45)
        let tumbling = try #require(game.session.scene.node(withID: Int(id)))
        #expect(tumbling.y > p1.y, "falling")
        game.step(30)
        #expect(game.session.scene.node(withID: Int(id)) == nil)
    }

    @Test func theSameSeedGivesTheSameFramesAndAnotherMovesTheCoins() throws {
        try expectFramesFollowTheSeed(21, other: 22, differing: [0, 1]) { seed in
            let game = try started(seed: seed)
            game.step(events: [enter])
            return (0..<4).map { _ in
                game.step(40)
                return game.session.renderFrame()
            }
        }
    }

    @Test func theCanvasIsLaidOutAgainOnResize() throws {
        let game = try GameDriver("coinbank")
        game.step(events: [.resize(cols: 120, rows: 40)])
        let rows = game.text().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == 40)
        let buttonRow = try #require(rows.firstIndex { $0.contains("Start") })
        #expect(buttonRow == 24 + 1, "the button's text sits in the middle of its three rows at 0.6 of the height")
        let drop = try #require(try game.state()["drop"])
        #expect(drop["x"]?.doubleValue == 60)
        // a click on the moved button works
        game.step(events: [.mouse(MouseEvent(.press, col: 60, row: buttonRow))])
        #expect(try game.string("phase") == "play")
    }

    @Test func theTotalIsKeptAcrossRunsAndTheBestIsTheBestRun() throws {
        let store = SaveStore(location: .memory)
        let game = try started(seed: 2, store: store)
        pressWell(game)
        #expect(try game.step(until: { try game.bool("button_visible") == true }))
        let banked = try #require(try game.int("banked"))
        #expect(banked > 0)
        #expect(try store.value(game: "coinbank", key: "total")?.intValue == banked)
        for _ in 0..<4 {
            game.step(events: [enter])
            #expect(try game.step(until: { try game.bool("button_visible") == true }))
        }
        #expect(try game.string("phase") == "over")
        #expect(try game.string("reason") == "out of bursts")
        let score = try #require(try game.int("score"))
        #expect(try store.bestScore(game: "coinbank") == score)
        game.session.close()

        let again = try GameDriver("coinbank", seed: 9, store: store)
        again.step()
        #expect(try again.int("banked") == (try store.value(game: "coinbank", key: "total")?.intValue))
        #expect(try again.int("best") == score)
    }

    /// The bank's box from `game.state.bank`: size in canvas pixels.
    func bankSize(_ game: GameDriver) throws -> (w: Int64, h: Int64) {
        let bank = try #require(try game.state()["bank"])
        return (try #require(bank["w"]?.intValue), try #require(bank["h"]?.intValue))
    }

    @Test func thePigIsInWholePixelStepsAndGrowsWithTheCanvas() throws {
        var widths: [Int64] = []
        for (i, (cols, rows)) in [(80, 24), (100, 30), (160, 50)].enumerated() {
            let game = try started(seed: UInt64(40 + i), cols: cols, rows: rows)
            game.step(60)
            let b = try bankSize(game)
            #expect(b.w % 17 == 0 && b.h == b.w / 17 * 9, "\(cols)x\(rows): \(b)")
            let sprite = try pigSprite(game)
            #expect(abs(sprite.scaleX) == Double(b.w / 17) && sprite.scaleY == Double(b.w / 17))
            widths.append(b.w)
        }
        #expect(widths[0] == 17, "one pixel per sprite pixel at 80x24")
        #expect(widths[2] > widths[0], "larger at 160x50: \(widths)")
    }

    @Test func theStressBurstLeavesTheBestAlone() throws {
        let store = SaveStore(location: .memory)
        let game = try GameDriver("coinbank", seed: 7, store: store)
        game.step()
        #expect(try game.int("best") == 0)
        game.step(events: [.key(KeyEvent("k"))])
        #expect(try game.step(until: { try game.int("shakes") == 1 }, limit: 600))
        #expect(try game.int("arrived") == 10_000)
        #expect(try game.int("lost") == 0)
        #expect(try game.int("best") == 0)
        #expect(try game.int("banked") == 0)
        #expect(try store.bestScore(game: "coinbank") == nil)
        #expect(try game.step(until: { try game.bool("button_visible") == true }))
        #expect(try game.string("phase") == "ready")
    }

    // MARK: Golden frames (80 x 24) in Golden/coinbank; checked by eye

    @Test func readyFrame() throws {
        let game = try GameDriver("coinbank")
        game.step()
        expectGolden(game.text(), game: "coinbank", name: "ready")
    }

    @Test func midBurstFrame() throws {
        let game = try started()
        game.step(events: [enter])
        game.step(60)
        expectGolden(game.text(), game: "coinbank", name: "midBurst")
    }

    @Test func shakeFrame() throws {
        let game = try started(seed: 2)
        pressWell(game)
        #expect(try game.step(until: { try game.bool("shaking") == true }))
        // 0.1 s into the shake: the pig has swung from -0.2 to +0.2 rad
        game.step(6)
        expectGolden(game.text(), game: "coinbank", name: "shake")
    }
}
