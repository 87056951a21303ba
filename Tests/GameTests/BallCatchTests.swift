import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

private let gateThreshold = 50  // GAMES.md §2: the 50th drop opens the gate

private extension GameDriver {
    /// Runs `body` as a Lua function of the game table (`game`) and returns its first result:
    /// how these tests read the world (balls, walls) the contract does not expose.
    func lua(_ body: String) throws -> LuaValue {
        let vm = session.vm
        let fn = try vm.load("local game = ...\n" + body, chunkName: "=ballcatch test")
        return try vm.protectedCall(label: "ballcatch test", nresults: 1, push: { _ in
            vm.push(fn)
            vm.push(session.game)
            return 1
        }, results: { s throws(LuaError) in
            do { return try s.value(at: -1) } catch { throw LuaError(kind: .runtime, message: "\(error)") }
        })
    }

    func luaNumber(_ expression: String) throws -> Double {
        try #require(try lua("return " + expression).doubleValue, "\(expression)")
    }

    /// Stops the drops and takes every ball away, so a test can put its own balls in.
    func quietField() throws {
        _ = try lua("""
            game.dropper:cancel()
            for _, b in ipairs(game.balls) do b.ball:remove(); b.node:remove() end
            game.balls, game.entries = {}, {}
            """)
    }

    /// Drops one ball through the game at canvas x; returns nothing, the ball is `game.balls[#game.balls]`.
    func drop(at x: Double) throws {
        _ = try lua("game.drop(\(x))")
    }

    var paddle: (x: Double, y: Double) {
        get throws {
            let p = try #require(try state()["paddle"])
            return (try #require(p["x"]?.doubleValue), try #require(p["y"]?.doubleValue))
        }
    }

    func hits(_ id: String) throws -> Int64 { try #require(try state()["hits"]?[id]?.intValue) }

    /// Marks the newest ball as batted, as the paddle does when the player moved it since the drop.
    func batNewest() throws {
        _ = try lua("game.balls[#game.balls].batted = true")
    }

    /// Puts the newest ball just above the top of scoring box `id`, at rest.
    func perchNewest(on id: String) throws {
        _ = try lua("""
            local n, b = game.score_nodes.\(id), game.balls[#game.balls].ball
            b.x, b.y, b.vx, b.vy = n.x, n.y - n.height / 2 - b.radius - 0.5, 0, 0
            """)
    }
}

/// The items of a Lua sequence (none when it is not one).
private func items(_ value: LuaValue) -> [LuaValue] {
    if case .array(let a) = value { return a }
    return []
}

/// A held key as a terminal reports it after the first press (the kitty protocol's repeat,
/// or a legacy terminal's repeated press, which the host's hold tracker marks).
private func repeated(_ key: String) -> InputEvent { .key(KeyEvent(key, isRepeat: true)) }

@Suite struct BallCatchTests {
    // MARK: The gate

    @Test func theFiftiethDropOpensTheGateAndTheNextShutsIt() throws {
        let game = try GameDriver("ballcatch", seed: 3)
        game.step()
        #expect(try game.int("dropped") == 1)
        #expect(try game.int("count") == 1)
        #expect(try game.bool("gate_open") == false)
        #expect(game.text().contains("gate opens in 49"))

        #expect(try game.step(until: { try game.int("dropped") == 49 }, limit: 60 * 50))
        #expect(try game.bool("gate_open") == false)
        #expect(game.text().contains("gate opens in 1"))
        let pile = try #require(try game.int("balls"))
        #expect(pile == 49, "nothing leaves while the gate is shut")

        #expect(try game.step(until: { try game.int("dropped") == 50 }, limit: 61))
        #expect(try game.bool("gate_open") == true)
        #expect(try game.int("count") == 0)
        #expect(try game.lua("return game.world.bounds_enabled") == .bool(false))
        // revised after the play test: the count shows only while the gate is shut
        #expect(game.text().split(separator: "\n")[0].contains("gate open"))
        #expect(!game.text().contains("gate opens in"))

        // the pile falls out before the next drop
        game.step(59)
        #expect(try game.int("dropped") == 50)
        let left = try #require(try game.int("balls"))
        #expect(left <= 8, "only balls held up by an obstacle or the paddle stay; \(left) did")

        game.step()
        #expect(try game.int("dropped") == 51)
        #expect(try game.bool("gate_open") == false)
        #expect(try game.int("count") == 1)
        #expect(try game.lua("return game.world.bounds_enabled") == .bool(true))
    }

    @Test func overThreeCyclesThePileStaysBoundedAndBallsOutsideAreRemoved() throws {
        let game = try GameDriver("ballcatch", seed: 11)
        game.step()
        let fixedNodes = try game.luaNumber("arcade.scene.count() - #game.balls")
        var most: Int64 = 0
        var leftovers: Int64 = 0
        var openings = 0
        var wasOpen = false
        // every ball in the world is in game.balls with its node, and none is wholly outside
        let check = """
            local w, h, bad = arcade.screen()
            bad = 0
            for _, b in ipairs(game.balls) do
              local x, y, r = b.ball.x, b.ball.y, b.ball.radius
              if x + r < 0 or x - r > w or y - r > h or not b.node:alive() then bad = bad + 1 end
            end
            return { count = game.world:count(), listed = #game.balls, nodes = arcade.scene.count(), outside = bad }
            """
        while try #require(try game.int("dropped")) < 3 * Int64(gateThreshold) + 1 {
            game.step()
            let open = try #require(try game.bool("gate_open"))
            let balls = try #require(try game.int("balls"))
            if open && !wasOpen { openings += 1 }
            if !open && wasOpen { leftovers = max(leftovers, balls - 1) }
            wasOpen = open
            most = max(most, balls)
            // the world's view every few steps: a ball left outside would stay there
            if game.session.frame % 10 != 0 { continue }
            let w = try game.lua(check)
            #expect(w["count"]?.intValue == balls)
            #expect(w["listed"]?.intValue == balls)
            #expect(w["outside"]?.intValue == 0)
            #expect(w["nodes"]?.doubleValue == fixedNodes + Double(balls))
            if w["outside"]?.intValue != 0 || w["count"]?.intValue != balls { break }
        }
        #expect(openings == 3)
        #expect(leftovers <= 8, "balls held up by obstacles and the paddle when the gate shut: \(leftovers)")
        #expect(most <= Int64(gateThreshold) + leftovers, "at most a cycle's 50 drops and what stayed: \(most)")
        #expect(most >= Int64(gateThreshold), "the whole cycle's pile was there before the gate opened")
    }

    // MARK: Scoring

    /// Drops a ball from `height` px above the top of the scoring box `id`, on a tall canvas
    /// where a ball fits between score1 and the plain box above it, and follows it for
    /// `steps` steps: the touches (a fall turning into a rise, or the final landing) against
    /// the score and hits the game counted.
    private func dropOnto(_ id: String, height: Double, steps: Int)
        throws -> (game: GameDriver, bounces: Int, top: Double, radius: Double) {
        let game = try GameDriver("ballcatch", seed: 4, cols: 80, rows: 100)
        game.step()
        try game.quietField()
        let box = try game.lua("local n = game.score_nodes.\(id); return { x = n.x, y = n.y, side = n.height }")
        let x = try #require(box["x"]?.doubleValue), y = try #require(box["y"]?.doubleValue)
        let top = y - (try #require(box["side"]?.doubleValue)) / 2
        try game.drop(at: x)
        let radius = try game.luaNumber("game.balls[1].ball.radius")
        _ = try game.lua("game.balls[1].ball.y = \(top - radius - height)")
        var bounces = 0
        var lastVY = 0.0
        for _ in 0..<steps {
            game.step()
            let vy = try game.luaNumber("game.balls[1].ball.vy")
            if lastVY > 0 && vy < 0 { bounces += 1 }
            lastVY = vy
        }
        return (game, bounces, top, radius)
    }

    @Test func scoreOneAddsFivePerTouchThatBeginsAndNothingWhileTheBallRests() throws {
        let (game, bounces, top, radius) = try dropOnto("score1", height: 5, steps: 240)
        #expect(bounces >= 2, "the drop is high enough to bounce")
        let hits = try game.hits("score1")
        // every bounce is a new touch, and so is the landing when the bounces die out
        #expect(hits == Int64(bounces) || hits == Int64(bounces) + 1, "\(hits) hits for \(bounces) bounces")
        #expect(try game.int("score") == 5 * hits)
        #expect(try game.hits("score2") == 0)
        // at rest on the box: more time scores nothing
        #expect(abs(try game.luaNumber("game.balls[1].ball.y") - (top - radius)) < 0.5)
        game.step(300)
        #expect(try game.hits("score1") == hits)
        #expect(try game.int("score") == 5 * hits)
        #expect(abs(try game.luaNumber("game.balls[1].ball.y") - (top - radius)) < 0.5)
    }

    @Test func scoreTwoAddsOnePerTouch() throws {
        let (game, bounces, _, _) = try dropOnto("score2", height: 8, steps: 300)
        let hits = try game.hits("score2")
        #expect(bounces >= 2)
        #expect(hits == Int64(bounces) || hits == Int64(bounces) + 1, "\(hits) hits for \(bounces) bounces")
        #expect(try game.int("score") == hits)
        #expect(try game.hits("score1") == 0)
    }

    @Test func aHitFlashesTheScoringBoxNatively() throws {
        let game = try GameDriver("ballcatch", seed: 4, cols: 80, rows: 100)
        game.step()
        try game.quietField()
        let base = try game.lua("return game.score_nodes.score2.color")
        let x = try game.luaNumber("game.score_nodes.score2.x")
        try game.drop(at: x)
        #expect(try game.step(until: { try game.hits("score2") == 1 }, limit: 600))
        #expect(try game.lua("return game.score_nodes.score2.color") != base)
        game.step(10)
        #expect(try game.lua("return game.score_nodes.score2.color") != base, "still glowing")
        game.step(10)
        #expect(try game.hits("score2") == 1)
        #expect(try game.lua("return game.score_nodes.score2.color") == base, "back after 0.3 s")
    }

    // MARK: The paddle

    @Test func upKeysAndADragToTheTopStopAtTheHalfWayLine() throws {
        let game = try GameDriver("ballcatch", seed: 2)
        game.step()
        let half = 48.0 / 2
        let start = try game.paddle
        #expect(start.x == 40)
        #expect(start.y == 48 * 0.75)

        var script = ""
        for i in 0..<60 { script += "\(i * 2) key up\n" }
        try game.run(script: script, frames: 130)
        #expect(try game.paddle.y == half, "as high as it goes")
        #expect(try game.paddle.x == start.x)

        // sideways along the line
        try game.run(script: "0 key left\n2 key left\n4 key left\n6 key up\n", frames: 20)
        let moved = try game.paddle
        #expect(moved.x < start.x - 5)
        #expect(moved.y == half)

        // a drag from the paddle up to the top row and to the right
        let col = Int(moved.x), row = Int(moved.y) / 2
        var drag = "0 mouse press \(col) \(row)\n"
        for r in stride(from: row, through: 0, by: -1) { drag += "\(row - r + 1) mouse drag \(col + (row - r)) \(r)\n" }
        drag += "\(row + 2) mouse release \(col + row) 0\n"
        var highest = Double.infinity
        let parsed = try InputScript.parse(drag)
        for f in 0..<90 {
            game.step(events: parsed.entries.filter { $0.frame == f }.map(\.event))
            highest = min(highest, try game.paddle.y)
        }
        #expect(highest >= half)
        let dragged = try game.paddle
        #expect(dragged.y == half)
        #expect(abs(dragged.x - (moved.x + Double(row))) < 1e-9, "it followed the drag sideways")
        #expect(try game.lua("return game.paddle.y") == .number(half), "the wall moved with it")
    }

    @Test func aHeldArrowKeepsMovingUntilItIsReleased() throws {
        let game = try GameDriver("ballcatch", seed: 2)
        game.step()
        let x0 = try game.paddle.x
        game.step(events: [GameDriver.key("right")])
        game.step(20)
        let nudged = try game.paddle.x
        #expect(nudged == x0 + 4, "a press alone nudges by a ball's width")
        // held: the terminal's repeats (or the kitty protocol's) say so
        game.step(events: [repeated("right")])
        game.step(14)
        let held = try game.paddle.x
        #expect(abs(held - (nudged + 80 * 15.0 / 60)) < 1e-6, "a canvas width a second")
        game.step(events: [GameDriver.keyUp("right")])
        let released = try game.paddle.x
        game.step(30)
        #expect(try game.paddle.x == released)
    }

    @Test func aBallLandingOnThePaddleReboundsToPoint64OfItsDrop() throws {
        let game = try GameDriver("ballcatch", seed: 6)
        game.step()
        try game.quietField()
        let paddle = try game.paddle
        let top = paddle.y - (try game.luaNumber("game.nodes.paddle.height")) / 2
        try game.drop(at: paddle.x)
        let r = try game.luaNumber("game.balls[1].ball.radius")
        let drop = top - r - (try game.luaNumber("game.balls[1].ball.y"))
        var landed = false
        var highest = Double.infinity
        for _ in 0..<240 {
            game.step()
            let y = try game.luaNumber("game.balls[1].ball.y"), vy = try game.luaNumber("game.balls[1].ball.vy")
            if !landed {
                if vy < 0 { landed = true }
            } else {
                highest = min(highest, y)
                if vy > 0 { break }
            }
        }
        #expect(landed)
        let rebound = top - r - highest
        #expect(abs(rebound - 0.64 * drop) <= 0.1 * 0.64 * drop, "rebound \(rebound) for a \(drop) px drop")
    }

    @Test func thePaddleRisingAtFullSpeedBatsABallWithoutTunnelling() throws {
        let game = try GameDriver("ballcatch", seed: 6)
        game.step()
        try game.quietField()
        // down to the bottom, then a drag far above: it rises at its fastest
        try game.run(script: "0 mouse press 40 18\n1 mouse drag 40 23\n2 mouse release 40 23\n", frames: 30)
        let low = try game.paddle
        #expect(low.y >= 46)
        let half = try game.luaNumber("game.nodes.paddle.height") / 2
        try game.drop(at: low.x)
        game.step(50)
        try game.run(script: "0 mouse press 40 23\n1 mouse drag 40 0\n", frames: 2)
        var fastest = 0.0, batted = 0.0
        var above = true
        var previous = try game.paddle.y
        for _ in 0..<40 {
            game.step()
            let p = try game.paddle.y
            fastest = max(fastest, previous - p)
            previous = p
            let ball = try game.luaNumber("game.balls[1].ball.y"), r = try game.luaNumber("game.balls[1].ball.radius")
            if ball > p - half - r + 0.5 { above = false }
            batted = min(batted, try game.luaNumber("game.balls[1].ball.vy"))
        }
        #expect(abs(fastest - 3 * 48.0 / 60) < 1e-9, "full speed: three canvas heights a second")
        #expect(above, "the ball never got into or past the paddle")
        // met at 2.4 px a step: it leaves upwards faster than the paddle rises
        #expect(batted < -3 * 48.0, "batted upwards at \(batted) px/s")
    }

    @Test func drivingThePaddleIntoThePileAndTheWallsSqueezesNoBallOut() throws {
        let game = try GameDriver("ballcatch", seed: 12)
        // dragged all over the lower half, down into the pile and against both walls
        let targets = [(0, 23), (79, 23), (40, 23), (0, 20), (79, 16), (5, 23), (75, 23), (40, 12)]
        var script = "0 mouse press 40 18\n"
        for (i, f) in stride(from: 5, to: 60 * 49, by: 15).enumerated() {
            let t = targets[i % targets.count]
            script += "\(f) mouse drag \(t.0) \(t.1)\n"
        }
        try game.run(script: script, frames: 60 * 48 + 30)
        #expect(try game.int("dropped") == 49)
        #expect(try game.bool("gate_open") == false)
        #expect(try game.int("balls") == 49, "every ball dropped is still in the box")
    }

    // MARK: Rounds (revised after a play test): one gate cycle each, the best round kept

    @Test func aRoundEndsAtTheFiftiethDropAndTheNextDropStartsTheNextAtZero() throws {
        let store = SaveStore(location: .memory)
        let game = try GameDriver("ballcatch", seed: 3, store: store)
        game.step()
        #expect(try game.int("round") == 1)
        #expect(try game.int("round_score") == 0)
        #expect(try game.int("best_round") == 0)
        // a batted ball dropped onto the +5 box
        #expect(try game.step(until: { try game.int("dropped") == 5 }, limit: 60 * 6))
        try game.batNewest()
        try game.perchNewest(on: "score1")
        #expect(try game.step(until: { try game.hits("score1") >= 1 }, limit: 60))
        #expect(try #require(try game.int("round_score")) >= 5)

        #expect(try game.step(until: { try game.int("dropped") == 49 }, limit: 60 * 46))
        #expect(try game.int("round") == 1)
        #expect(try game.lua("return game.nodes.banner.visible") == .bool(false))
        #expect(try game.step(until: { try game.int("dropped") == 50 }, limit: 61))
        let first = try #require(try game.int("round_score"))
        #expect(try game.int("round") == 1, "the 50th drop ends the round it belongs to")
        #expect(try game.int("best_round") == first)
        #expect(try store.bestScore(game: "ballcatch") == first)
        #expect(try game.lua("return game.nodes.banner_title.text") == .string("round 1: \(first) points"))
        #expect(try game.lua("return game.nodes.banner_title.visible") == .bool(true))
        #expect(game.text().contains("new best!"))
        #expect(game.text().contains("the gate is open: round 2 starts with the next ball"))
        let total = try #require(try game.int("score"))
        #expect(total >= first, "the field's total counts every hit")

        // while the pile falls out nothing counts for the round that ended
        game.step(59)
        #expect(try game.int("round_score") == first)
        game.step()
        #expect(try game.int("dropped") == 51)
        #expect(try game.int("round") == 2)
        #expect(try game.int("round_score") == 0)
        #expect(try game.int("best_round") == first)
        #expect(try #require(try game.int("score")) >= total, "score stays the field's total")
        #expect(game.text().hasPrefix(" round 2: 0 points  best round \(first)"))
        #expect(game.text().contains("round 2 has begun"))
        game.step(60 * 2)
        #expect(try game.lua("return game.nodes.banner.visible") == .bool(false), "2.5 s after the gate opened")

        // a worse second round leaves the best as it was
        #expect(try game.step(until: { try game.int("dropped") == 100 }, limit: 60 * 50))
        #expect(try game.int("round") == 2)
        #expect(try #require(try game.int("round_score")) < first)
        #expect(try game.int("best_round") == first)
        #expect(try store.bestScore(game: "ballcatch") == first)
        #expect(!game.text().contains("new best!"))
        game.step(60)
        #expect(try game.int("round") == 3)
    }

    @Test func onlyBattedBallsScoreForTheRoundThoughEveryHitCountsForTheField() throws {
        let game = try GameDriver("ballcatch", seed: 4, cols: 80, rows: 100)
        game.step()
        try game.quietField()
        let x = try game.luaNumber("game.score_nodes.score1.x")
        try game.drop(at: x)
        try game.perchNewest(on: "score1")
        #expect(try game.step(until: { try game.hits("score1") == 1 }, limit: 60))
        #expect(try game.int("score") == 5)
        #expect(try game.int("round_score") == 0, "a ball left alone earns the player nothing")
        #expect(try game.luaNumber("game.popups.score1.alpha") == 0, "and shows no +5")

        try game.quietField()
        try game.drop(at: x)
        try game.batNewest()
        try game.perchNewest(on: "score1")
        #expect(try game.step(until: { try game.int("round_score") == 5 }, limit: 60))
        #expect(try #require(try game.int("score")) >= 10)
        #expect(game.text().hasPrefix(" round 1: 5 points"))
    }

    @Test func thePaddleBatsABallOnlyOnceThePlayerHasMovedItSinceTheDrop() throws {
        let game = try GameDriver("ballcatch", seed: 6)
        game.step()
        try game.quietField()
        let batted = "return game.balls[#game.balls].batted"
        // the paddle as the game left it: a ball landing on it is not the player's
        try game.drop(at: try game.paddle.x)
        #expect(try game.step(until: { try game.luaNumber("game.balls[1].ball.vy") < 0 }, limit: 120))
        // its bounces die out (gravity is scaled down with a short canvas: they are slow)
        game.step(60 * 8)
        #expect(abs(try game.luaNumber("game.balls[1].ball.vy")) < 0.5, "at rest on the paddle")
        #expect(try game.lua(batted) == .bool(false))
        // moved: the ball lying on it is batted as it lifts it
        try game.run(script: "0 key up\n", frames: 20)
        #expect(try game.lua(batted) == .bool(true))
        // and a ball dropped after the move lands on a paddle that has not moved since
        try game.quietField()
        try game.drop(at: try game.paddle.x)
        game.step(90)
        #expect(try game.lua(batted) == .bool(false))
        // one moved under it after its drop bats it
        try game.quietField()
        try game.drop(at: try game.paddle.x + 6)
        try game.run(script: "0 key right\n1 key right\n", frames: 90)
        #expect(try game.lua(batted) == .bool(true))
    }

    @Test func aBallRestingOnABoxAcrossAResizeIsNoNewTouch() throws {
        let game = try GameDriver("ballcatch", seed: 4, cols: 80, rows: 100)
        game.step()
        try game.quietField()
        try game.drop(at: try game.luaNumber("game.score_nodes.score1.x"))
        try game.batNewest()
        try game.perchNewest(on: "score1")
        game.step(120)
        #expect(try game.hits("score1") == 1)
        let round = try game.int("round_score")
        for (cols, rows) in [(120, 40), (80, 24), (160, 50), (90, 60)] {
            game.step(events: [.resize(cols: cols, rows: rows)])
            game.step(60)
            #expect(try game.hits("score1") == 1, "\(cols)x\(rows): the new walls are no new touch")
            #expect(try game.int("round_score") == round)
        }
        #expect(try game.int("balls") == 1)
    }

    @Test func ballColoursNeverComeCloseToTheScoringBoxes() throws {
        let game = try GameDriver("ballcatch", seed: 13)
        game.step()
        try game.quietField()
        let nearest = try game.lua("""
            local function rgb(hex) return tonumber(hex:sub(2, 3), 16), tonumber(hex:sub(4, 5), 16), tonumber(hex:sub(6, 7), 16) end
            local boxes = { game.score_nodes.score1.fill, game.score_nodes.score2.fill }
            local nearest = math.huge
            for _ = 1, 2000 do
              game.drop(40)
              local b = table.remove(game.balls)
              local r, g, bl = rgb(b.node.fill)
              for _, box in ipairs(boxes) do
                local br, bg, bb = rgb(box)
                nearest = math.min(nearest, math.sqrt((r - br)^2 + (g - bg)^2 + (bl - bb)^2))
              end
              b.ball:remove(); b.node:remove()
            end
            return nearest
            """)
        #expect(try #require(nearest.doubleValue) >= 96)
    }

    @Test(arguments: zip([80, 100, 160, 200], [24, 30, 50, 60]))
    func thePaddleKeepsTheArticlesShareOfTheWidthAndTwoPixelsAtLeast(cols: Int, rows: Int) throws {
        let game = try GameDriver("ballcatch", seed: 2, cols: cols, rows: rows)
        game.step()
        let w = try game.luaNumber("game.nodes.paddle.width"), h = try game.luaNumber("game.nodes.paddle.height")
        #expect(abs(w - Double(cols) * 100 / 375) < 1e-9)
        #expect(h >= 2 && h == h.rounded())
        #expect(try game.luaNumber("game.paddle.width") == w, "the wall is the paddle")
        #expect(try game.luaNumber("game.paddle.height") == h)
    }

    // MARK: Restart, best round, resize

    @Test func rStartsAFreshFieldAndTheBestRoundIsKept() throws {
        let store = SaveStore(location: .memory)
        let game = try GameDriver("ballcatch", seed: 8, store: store)
        game.step()
        let fixedNodes = try game.luaNumber("arcade.scene.count() - #game.balls")
        // a round with a batted ball on the +1 box: 1 point or more by the gate
        #expect(try game.step(until: { try game.int("dropped") == 10 }, limit: 60 * 12))
        try game.batNewest()
        try game.perchNewest(on: "score2")
        #expect(try game.step(until: { try game.int("round_score")! > 0 }, limit: 120))
        #expect(try game.step(until: { try game.bool("gate_open") == true }, limit: 60 * 45))
        let round = try #require(try game.int("round_score"))
        #expect(try game.int("best_round") == round)
        #expect(try store.bestScore(game: "ballcatch") == round, "the round is the best result")
        #expect(game.text().hasPrefix(" round 1: \(round) points  best round \(round)"))

        game.step(events: [GameDriver.key("r")])
        #expect(try game.int("score") == 0)
        #expect(try game.int("round") == 1)
        #expect(try game.int("round_score") == 0)
        #expect(try game.int("best_round") == round)
        #expect(try game.int("count") == 1)
        #expect(try game.int("balls") == 1)
        #expect(try game.bool("gate_open") == false)
        #expect(try game.paddle.x == 40)
        #expect(try game.paddle.y == 36)
        #expect(try game.luaNumber("arcade.scene.count()") == fixedNodes + 1, "the old balls' nodes are gone")
        #expect(game.text().hasPrefix(" round 1: 0 points  best round \(round)"))
        game.session.close()

        let again = try GameDriver("ballcatch", seed: 1, store: store)
        again.step()
        #expect(try again.int("best_round") == round)
        #expect(again.text().hasPrefix(" round 1: 0 points  best round \(round)"))
    }

    @Test func aClickOnNewFieldRestartsWithTheMouseAlone() throws {
        let game = try GameDriver("ballcatch", seed: 8)
        game.step(300)
        #expect(try #require(try game.int("balls")) > 1)
        let row = game.text().split(separator: "\n")[0]
        let col = try #require(Array(row).firstIndex(of: "["))
        game.step(events: GameDriver.click(col - 2, 0))
        #expect(try #require(try game.int("balls")) > 1, "beside the button nothing happens")
        game.step(events: GameDriver.click(col + 5, 0))
        #expect(try game.int("balls") == 1)
        #expect(try game.int("score") == 0)
    }

    @Test func aResizeRebuildsTheWallsAndKeepsTheBallsInPlay() throws {
        let game = try GameDriver("ballcatch", seed: 9)
        game.step(60 * 12)
        let balls = try #require(try game.int("balls"))
        let walls = try game.luaNumber("#game.walls")
        let places = """
            local out = {}
            for _, b in ipairs(game.balls) do
              out[#out + 1] = { x = b.ball.x, y = b.ball.y, r = b.ball.radius, vx = b.ball.vx, vy = b.ball.vy,
                                node = b.node.radius }
            end
            return out
            """
        let before = items(try game.lua(places))
        game.step(events: [.resize(cols: 120, rows: 40)])
        // moved and scaled with the field: a 120 x 80 canvas from 80 x 48
        let after = items(try game.lua(places))
        #expect(before.count == Int(balls) && after.count == Int(balls))
        for (i, (a, b)) in zip(before, after).enumerated() {
            let r = try #require(b["r"]?.doubleValue)
            #expect(r == 120.0 / 40, "ball \(i): a twentieth of the width across")
            #expect(b["node"]?.doubleValue == r, "its node too")
            // a step of motion on top of the move: within a step's travel of the scaled place
            let x = try #require(a["x"]?.doubleValue) * 1.5, y = try #require(a["y"]?.doubleValue) * 80 / 48
            let vx = try #require(a["vx"]?.doubleValue) * 1.5, vy = try #require(a["vy"]?.doubleValue) * 80 / 48
            #expect(abs(try #require(b["x"]?.doubleValue) - x) <= abs(vx) / 60 + 1.5, "ball \(i) x")
            #expect(abs(try #require(b["y"]?.doubleValue) - y) <= abs(vy) / 60 + 1.5, "ball \(i) y")
        }
        #expect(try game.int("balls") == balls)
        #expect(try game.luaNumber("#game.walls") == walls)
        #expect(abs(try game.luaNumber("game.score_nodes.score1.x") - 145 * 120 / 375.0) < 1e-9)
        #expect(abs(try game.luaNumber("game.score_nodes.score1.y") - 250 * 80 / 667.0) < 1e-9)
        #expect(abs(try game.luaNumber("game.world.gravity[2]") - 80 / 667.0) < 1e-12)
        let p = try game.paddle
        #expect(p.y >= 40 && p.y <= 80)
        game.step(120)
        // smaller than before: the balls shrink with the field, none is lost
        game.step(events: [.resize(cols: 80, rows: 24)])
        game.step()
        let kept = try #require(try game.int("balls"))
        #expect(kept >= balls + 2, "the balls of the last two seconds' drops came on top")
        #expect(try game.luaNumber("#game.walls") == walls)
        let rows = game.text().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == 24)
        let count = try #require(try game.int("count"))
        let label = "gate opens in \(Int64(gateThreshold) - count)"
        let end = try #require(rows[0].range(of: label)?.upperBound)
        // the host's pause mark takes the last 3 columns of the top row: the count ends short of them
        #expect(rows[0].distance(from: rows[0].startIndex, to: end) == 76, "the label ends by the new right edge")
    }

    // MARK: Determinism and golden frames (80 x 24) in Golden/ballcatch; checked by eye

    @Test func theSameSeedAndInputGiveTheSameFrames() throws {
        let script = "30 key left\n31 key left\n90 mouse press 30 18\n92 mouse drag 40 16\n95 mouse release 40 16\n200 key r\n"
        try expectFramesFollowTheSeed(21, other: 22, differing: [0, 3]) { seed in
            let game = try GameDriver("ballcatch", seed: seed)
            var out: [Frame] = []
            for _ in 0..<4 {
                try game.run(script: out.isEmpty ? script : "", frames: 150)
                out.append(game.session.renderFrame())
            }
            return out
        }
    }

    @Test func startFrame() throws {
        let game = try GameDriver("ballcatch")
        game.step()
        expectGolden(game.text(), game: "ballcatch", name: "start")
    }

    @Test func pileAgainstTheShutGateFrame() throws {
        let game = try GameDriver("ballcatch")
        #expect(try game.step(until: { try game.int("dropped") == 49 }, limit: 60 * 50))
        game.step(50)
        #expect(try game.bool("gate_open") == false)
        expectGolden(game.text(), game: "ballcatch", name: "pile")
    }

    @Test func gateOpenFrame() throws {
        let game = try GameDriver("ballcatch")
        #expect(try game.step(until: { try game.int("dropped") == 50 }, limit: 60 * 51))
        // 0.4 s on: the bottom of the pile is out, the rest on its way
        game.step(24)
        #expect(try game.bool("gate_open") == true)
        expectGolden(game.text(), game: "ballcatch", name: "gateOpen")
    }
}
