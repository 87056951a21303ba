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
            game.balls = {}
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
        #expect(game.text().contains("gate opens in 50"))

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

    // MARK: Restart, best score, resize

    @Test func rStartsAFreshFieldAndTheBestScoreIsKept() throws {
        let store = SaveStore(location: .memory)
        let game = try GameDriver("ballcatch", seed: 8, store: store)
        game.step()
        let fixedNodes = try game.luaNumber("arcade.scene.count() - #game.balls")
        #expect(try game.step(until: { try #require(try game.int("score")) >= 3 }, limit: 60 * 120))
        game.step(120)
        let score = try #require(try game.int("score"))
        #expect(try store.bestScore(game: "ballcatch") == score)
        #expect(game.text().contains("best \(score)"))

        game.step(events: [GameDriver.key("r")])
        #expect(try game.int("score") == 0)
        #expect(try game.int("count") == 1)
        #expect(try game.int("balls") == 1)
        #expect(try game.bool("gate_open") == false)
        #expect(try game.paddle.x == 40)
        #expect(try game.paddle.y == 36)
        #expect(try game.luaNumber("arcade.scene.count()") == fixedNodes + 1, "the old balls' nodes are gone")
        #expect(game.text().hasPrefix(" score 0  best \(score)"))
        game.session.close()

        let again = try GameDriver("ballcatch", seed: 1, store: store)
        again.step()
        #expect(again.text().hasPrefix(" score 0  best \(score)"))
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
        game.step(events: [.resize(cols: 120, rows: 40)])
        #expect(try game.int("balls") == balls)
        #expect(try game.luaNumber("#game.walls") == walls)
        #expect(abs(try game.luaNumber("game.score_nodes.score1.x") - 145 * 120 / 375.0) < 1e-9)
        #expect(abs(try game.luaNumber("game.score_nodes.score1.y") - 250 * 80 / 667.0) < 1e-9)
        #expect(abs(try game.luaNumber("game.world.gravity[2]") - 80 / 667.0) < 1e-12)
        let p = try game.paddle
        #expect(p.y >= 40 && p.y <= 80)
        game.step(120)
        // smaller than before: balls past the new edges are pulled in, not lost
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
        #expect(rows[0].distance(from: rows[0].startIndex, to: end) == 79, "the label ends by the new right edge")
    }

    // MARK: Determinism and golden frames (80 x 24) in Golden/ballcatch; checked by eye

    @Test func theSameSeedAndInputGiveTheSameFrames() throws {
        let script = "30 key left\n31 key left\n90 mouse press 30 18\n92 mouse drag 40 16\n95 mouse release 40 16\n200 key r\n"
        func frames(seed: UInt64) throws -> [Frame] {
            let game = try GameDriver("ballcatch", seed: seed)
            var out: [Frame] = []
            for _ in 0..<4 {
                try game.run(script: out.isEmpty ? script : "", frames: 150)
                out.append(game.session.renderFrame())
            }
            return out
        }
        let a = try frames(seed: 21), b = try frames(seed: 21), c = try frames(seed: 22)
        #expect(a == b)
        #expect(a[0] != c[0])
        #expect(a[3] != c[3])
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
