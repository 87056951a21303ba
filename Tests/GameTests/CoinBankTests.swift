import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// Enter: presses the button.
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

/// Cells drawn between the bank and the button, where only flying coins can be.
func coinCells(_ text: String) -> Int {
    let rows = text.split(separator: "\n", omittingEmptySubsequences: false)
    return rows[6..<13].reduce(0) { $0 + $1.filter { $0 != " " }.count }
}

@Suite struct CoinBankTests {
    @Test func oneBurstBanksEveryCoinShakesOnceAndBringsTheButtonBack() throws {
        let game = try GameDriver("coinbank")
        game.step()
        #expect(try game.bool("button_visible") == true)
        #expect(coinCells(game.text()) == 0)
        let idle = game.session.stats

        game.step(events: [enter])
        #expect(try game.bool("button_visible") == false)
        game.step(60)
        let launched = try #require(try game.int("launched"))
        let arrived = try #require(try game.int("arrived"))
        #expect(launched > arrived && launched < 300, "mid-burst: \(launched) launched, \(arrived) arrived")
        #expect(coinCells(game.text()) > 20, "coins in the air mid-flight")

        #expect(try game.step(until: { try game.bool("button_visible") == true }))
        #expect(try game.int("launched") == 300)
        #expect(try game.int("arrived") == 300)
        #expect(try game.int("banked") == 300)
        #expect(try game.int("shakes") == 1)
        #expect(game.session.failure == nil)
        // arrived coins are gone and the shake snapped back
        #expect(coinCells(game.text()) == 0)
        let bank = try #require(game.session.scene.root.children.first { $0 is SpriteNode })
        #expect(bank.rotation == 0)
        game.step(120)
        #expect(try game.int("shakes") == 1)
        // every coin node, animation and timer of the burst is gone
        let after = game.session.stats
        #expect(after.nodes == idle.nodes)
        #expect(after.animations == idle.animations)
        #expect(after.timers == 0)
    }

    /// A second burst ends holding what the first left: nothing accumulates from round to round.
    @Test func burstsLeakNothing() throws {
        let game = try GameDriver("coinbank")
        func burst() throws -> GameStats {
            game.step(events: [enter])
            #expect(try game.step(until: { try game.bool("button_visible") == true }))
            game.step(60)
            game.session.vm.collectGarbage()
            return game.session.stats
        }
        let first = try burst()
        let second = try burst()
        #expect(second.nodes == first.nodes)
        #expect(second.animations == first.animations)
        #expect(second.timers == first.timers)
        #expect(second.bodies == first.bodies)
        #expect(second.luaKiB <= first.luaKiB + 16, "Lua heap \(first.luaKiB) KiB -> \(second.luaKiB) KiB")
        #expect(try game.int("banked") == 600)
    }

    @Test func pressesDuringABurstChangeNothing() throws {
        let plain = try GameDriver("coinbank"), pressed = try GameDriver("coinbank")
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
        #expect(try pressed.int("shakes") == 1)
        #expect(pressed.text() == plain.text())
    }

    @Test func aClickOnTheButtonStartsABurstAndAClickBesideItDoesNot() throws {
        let game = try GameDriver("coinbank")
        game.step(events: [.mouse(MouseEvent(.press, col: 5, row: 15))])
        #expect(try game.bool("bursting") == false)
        game.step(events: [.mouse(MouseEvent(.press, col: 40, row: 15))])
        #expect(try game.bool("bursting") == true)
        #expect(try game.bool("button_visible") == false)
    }

    @Test func theFirstCoinFollowsItsCurveAndKeyframes() throws {
        let game = try GameDriver("coinbank", seed: 5)
        game.step(events: [enter])
        #expect(try game.step(until: { try game.state()["first"] != nil }))
        let first = try #require(try game.state()["first"])
        let p0 = try #require(point(first["from"])), c = try #require(point(first["control"]))
        let p1 = try #require(point(first["to"]))
        let s = try #require(first["scale"]?.doubleValue)
        let launchFrame = try #require(first["frame"]?.intValue)
        let id = try #require(first["node"]?.intValue)

        // the control point is the article's, from the target and the start
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
            #expect(try game.step(until: { Int64(game.session.frame) >= launchFrame + Int64(k) }))
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

        // t = 1: the arrival callback saw it at the target, then removed it
        #expect(try game.step(until: { try game.state()["first"]?["arrival"] != nil }))
        #expect(Int64(game.session.frame) == launchFrame + 59)
        #expect(game.session.scene.node(withID: Int(id)) == nil)
        let arrival = try #require(try game.state()["first"]?["arrival"])
        #expect(abs(try #require(arrival["x"]?.doubleValue) - p1.x) < 1e-9)
        #expect(abs(try #require(arrival["y"]?.doubleValue) - p1.y) < 1e-9)
        #expect(abs(try #require(arrival["scale_x"]?.doubleValue) - s / 2) < 1e-9)
        #expect(abs(try #require(arrival["scale_y"]?.doubleValue) - s / 2) < 1e-9)
    }

    @Test func theSameSeedGivesTheSameFramesAndAnotherMovesTheCoins() throws {
        try expectFramesFollowTheSeed(21, other: 22, differing: [0, 1]) { seed in
            let game = try GameDriver("coinbank", seed: seed)
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
        let buttonRow = try #require(rows.firstIndex { $0.contains("Show") })
        #expect(buttonRow == 24 + 1, "the button's text sits in the middle of its three rows at 0.6 of the height")
        let column = try #require(Array(rows[buttonRow]).firstIndex(of: "S"))
        #expect(column == (120 - 21) / 2 + 2)
        // a click on the moved button works
        game.step(events: [.mouse(MouseEvent(.press, col: 60, row: buttonRow))])
        #expect(try game.bool("bursting") == true)
    }

    @Test func theTotalIsKeptAcrossRunsAndSubmittedAsTheScore() throws {
        let store = SaveStore(location: .memory)
        let game = try GameDriver("coinbank", store: store)
        game.step(events: [enter])
        #expect(try game.step(until: { try game.int("shakes") == 1 }))
        game.step(events: [enter])
        #expect(try game.step(until: { try game.int("shakes") == 2 }))
        #expect(try game.int("banked") == 600)
        #expect(try store.value(game: "coinbank", key: "total")?.intValue == 600)
        #expect(try store.bestScore(game: "coinbank") == 600)
        game.session.close()

        let again = try GameDriver("coinbank", seed: 9, store: store)
        again.step()
        #expect(try again.int("banked") == 600)
        #expect(again.text().hasPrefix(" banked 600"))
    }

    // MARK: Laid out for the terminal (issue 24)

    /// The bank's box from `game.state.bank`: top-left and size in canvas pixels.
    func bankBox(_ game: GameDriver) throws -> (x: Int64, y: Int64, w: Int64, h: Int64) {
        let bank = try #require(try game.state()["bank"])
        return (try #require(bank["x"]?.intValue), try #require(bank["y"]?.intValue),
                try #require(bank["w"]?.intValue), try #require(bank["h"]?.intValue))
    }

    @Test func theBankIsOnScreenInWholePixelStepsAndGrowsWithTheCanvas() throws {
        var widths: [Int64] = []
        for (i, (cols, rows)) in [(80, 24), (100, 30), (160, 50)].enumerated() {
            let game = try GameDriver("coinbank", seed: UInt64(40 + i), cols: cols, rows: rows)
            game.step()
            let b = try bankBox(game)
            let canvas = game.session.canvas
            #expect(b.x >= 0 && b.y >= 0, "\(cols)x\(rows): \(b)")
            #expect(b.x + b.w <= Int64(canvas.width) && b.y + b.h <= Int64(canvas.height), "\(cols)x\(rows): \(b)")
            // the sprite is 17 x 9: a whole-number scale of it
            #expect(b.w % 17 == 0 && b.h == b.w / 17 * 9, "\(cols)x\(rows): \(b)")
            let bank = try #require(game.session.scene.root.children.first { $0 is SpriteNode })
            #expect(bank.scaleX == Double(b.w / 17) && bank.scaleY == Double(b.w / 17))
            widths.append(b.w)
        }
        #expect(widths[0] == 17, "one pixel per sprite pixel at 80x24")
        #expect(widths[2] > widths[0], "larger at 160x50: \(widths)")
    }

    @Test func theStressBurstLeavesTheBestAloneAndAButtonBurstMakesIt300() throws {
        let store = SaveStore(location: .memory)
        let game = try GameDriver("coinbank", seed: 7, store: store)
        game.step()
        #expect(try game.int("best") == 0)
        game.step(events: [.key(KeyEvent("k"))])
        #expect(try game.step(until: { try game.int("shakes") == 1 }, limit: 600))
        #expect(try game.int("arrived") == 10_000)
        #expect(try game.int("best") == 0)
        #expect(try game.int("banked") == 0)
        #expect(try store.bestScore(game: "coinbank") == nil)
        #expect(try game.step(until: { try game.bool("button_visible") == true }))

        game.step(events: [enter])
        #expect(try game.step(until: { try game.int("shakes") == 2 }))
        #expect(try game.int("best") == 300)
        #expect(try store.bestScore(game: "coinbank") == 300)
    }

    // MARK: Golden frames (seed 1, 80 x 24) in Golden/coinbank; checked by eye

    @Test func idleFrame() throws {
        let game = try GameDriver("coinbank")
        game.step()
        expectGolden(game.text(), game: "coinbank", name: "idle")
    }

    @Test func midBurstFrame() throws {
        let game = try GameDriver("coinbank")
        game.step(events: [enter])
        game.step(60)
        expectGolden(game.text(), game: "coinbank", name: "midBurst")
    }

    @Test func shakeFrame() throws {
        let game = try GameDriver("coinbank")
        game.step(events: [enter])
        #expect(try game.step(until: { try game.bool("shaking") == true }))
        // 0.1 s into the shake: the bank has swung from -0.2 to +0.2 rad
        game.step(6)
        expectGolden(game.text(), game: "coinbank", name: "shake")
    }
}
