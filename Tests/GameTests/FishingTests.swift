import Foundation
import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// The article's six kinds, restated here so the game is checked against the article and not
/// against itself: size in points, crossing time, bite chance in %, coins.
private struct FishingKind {
    let width: Double, height: Double, crossingTime: Double, biteChance: Double, coins: Int64
}
private let fishingKinds: [String: FishingKind] = [
    "croaker": .init(width: 35, height: 40, crossingTime: 6.0, biteChance: 80, coins: 2),
    "grouper": .init(width: 50, height: 50, crossingTime: 7.0, biteChance: 50, coins: 5),
    "snapper": .init(width: 50, height: 40, crossingTime: 8.0, biteChance: 30, coins: 10),
    "striped": .init(width: 65, height: 53, crossingTime: 8.5, biteChance: 15, coins: 20),
    "coral": .init(width: 55, height: 55, crossingTime: 9.0, biteChance: 5, coins: 50),
    "shark": .init(width: 145, height: 90, crossingTime: 11.0, biteChance: 1, coins: 100),
]
private let fishingKindNames = ["croaker", "grouper", "snapper", "striped", "coral", "shark"]

/// Colours of the still scenery (sky, water, banks) and the cards' fill: golden frames show what
/// moves and the text.
private let fishingScenery: [Color] = ["#1b2838", "#1d4e7a", "#163c60", "#4f8a3a", "#7a5a36", "#10202c"]
    .compactMap { Color(hex: $0) }

private let fishingSpace = GameDriver.key("space")

private extension GameDriver {
    func fishingIDs(_ key: String) throws -> [Int] {
        guard case .array(let a)? = try state()[key] else { return [] }
        return a.compactMap { $0.intValue.map(Int.init) }
    }

    func fishingStrings(_ key: String) throws -> [String] {
        guard case .array(let a)? = try state()[key] else { return [] }
        return a.compactMap(\.stringValue)
    }

    /// The box of every swimming fish (`swimming`, in the order of `pond_ids`), canvas pixels.
    func fishingBoxes() throws -> [(kind: String, x: Double, y: Double, w: Double, h: Double)] {
        guard case .array(let a)? = try state()["swimming"] else { return [] }
        return a.map { box in
            (box["kind"]?.stringValue ?? "", box["x"]?.doubleValue ?? .nan, box["y"]?.doubleValue ?? .nan,
             box["w"]?.doubleValue ?? .nan, box["h"]?.doubleValue ?? .nan)
        }
    }

    /// A count per kind (`rolls`, `bites`, `caught`).
    func fishingCounts(_ key: String) throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        for name in fishingKindNames { out[name] = try state()[key]?[name]?.intValue ?? -1 }
        return out
    }

    /// The frame with the scenery blanked, so fish, hook, line, rod, coins and text stand out.
    func fishingText() -> String {
        let frame = session.renderFrame()
        var rows: [String] = []
        for row in 0..<frame.rows {
            var line = ""
            for column in 0..<frame.columns {
                switch frame[column, row].appearance {
                case .pixels(let top, let bottom):
                    switch (fishingScenery.contains(top), fishingScenery.contains(bottom)) {
                    case (true, true): line += " "
                    case (false, false): line += "\u{2588}"
                    case (false, true): line += "\u{2580}"
                    case (true, false): line += "\u{2584}"
                    }
                case .glyph(let ch, _, _):
                    line.unicodeScalars.append(ch)
                }
            }
            rows.append(line)
        }
        return rows.joined(separator: "\n")
    }

    /// Steps until the hook is `hook` (swinging, casting, waiting, reeling), returning the steps
    /// taken (nil when it never came).
    func fishingSteps(untilPhase hook: String, limit: Int = 2000) throws -> Int? {
        for n in 0...limit {
            if try string("hook") == hook { return n }
            step()
        }
        return nil
    }

    /// The input that keeps a day going: space while the hook swings over the water (the first
    /// also starts the day), r on the end card (a new day); nothing otherwise.
    func fishingCastOrNewDay() throws -> [InputEvent] {
        let state = try state()
        if state["phase"]?.stringValue == "over" { return [GameDriver.key("r")] }
        guard state["hook"]?.stringValue == "swinging", state["landing"]?["bank"] == .bool(false) else { return [] }
        return [fishingSpace]
    }

    /// Casts with the keyboard, every time the hook swings over the water, day after day, for
    /// `steps` steps.
    func fishingKeepCasting(_ steps: Int) throws {
        var left = steps
        while left > 0 {
            let input = try fishingCastOrNewDay()
            if try string("hook") == "swinging" {
                step(events: input)
                left -= 1
            } else {
                step(min(left, 5), events: input)
                left -= min(left, 5)
            }
        }
    }
}

@Suite struct FishingTests {
    @Test func theSwingFollowsTheArticlesRecurrenceForThreeHundredSteps() throws {
        let game = try GameDriver("fishing")
        var angle = 0.0, back = false
        var low = 0.0, high = 0.0
        for step in 1...300 {
            if back {
                angle -= 1.8 * cos(1.5 * angle) * 0.01
                if angle < -Double.pi / 180 * 45 { back = false }
            } else {
                angle += 1.8 * cos(1.5 * angle) * 0.01
                if angle > Double.pi / 180 * 45 { back = true }
            }
            game.step()
            let got = try #require(try game.double("hook_angle"))
            #expect(abs(got - angle) < 1e-9, "step \(step): \(got) vs \(angle)")
            low = min(low, got)
            high = max(high, got)
        }
        // the 300 steps include turns at both ends
        #expect(high > Double.pi / 4 && low < -Double.pi / 4)
        #expect(try game.string("hook") == "swinging")
        #expect(try game.string("phase") == "ready")
    }

    @Test func aCastTakesTenCoinsDropsWaitsAndReelsIn() throws {
        let game = try GameDriver("fishing")
        game.step(20)
        #expect(try game.int("wallet") == 100)
        #expect(try game.string("phase") == "ready")
        game.step(events: [fishingSpace])
        #expect(try game.string("phase") == "play", "the first cast starts the day")
        #expect(try game.string("hook") == "casting")
        #expect(try game.int("wallet") == 90, "the 10 coins go when the cast starts")
        #expect(try game.int("casts") == 1)
        #expect(try game.int("casts_left") == 19)
        #expect(try game.bool("on_bank") == false)
        // the step that took the key is the cast's first: 60 steps of casting in all
        let casting = try #require(try game.fishingSteps(untilPhase: "waiting"))
        #expect(casting + 1 == 60)
        let wait = try #require(try game.int("wait"))
        #expect((3...5).contains(wait))
        #expect(try game.bool("biting") == true)
        let waiting = try #require(try game.fishingSteps(untilPhase: "reeling"))
        #expect(waiting == Int(wait) * 60)
        #expect(try game.bool("biting") == false)
        // the step that started the reel-in is its first: 60 in all
        let reeling = try #require(try game.fishingSteps(untilPhase: "swinging"))
        #expect(reeling + 1 == 60)
        // pressing during a cast did nothing; the swing carries on from where it stopped
        let angle = try #require(try game.double("hook_angle"))
        game.step()
        #expect(try game.double("hook_angle") != angle)
        #expect(try game.int("casts") == 1)
    }

    @Test func theLandingPointFollowsTheSwing() throws {
        let game = try GameDriver("fishing", cols: 160, rows: 50)
        for _ in 0..<200 {
            game.step()
            let state = try game.state()
            let angle = try #require(state["hook_angle"]?.doubleValue)
            let x = try #require(state["landing"]?["x"]?.doubleValue)
            let right = try #require(state["water"]?["reach_right"]?.doubleValue)
            // the article's hook bottom: centre - (lineLength + hookHeight) * tan(angle), in pixels
            let scale = (right - 80) * 145 / 110
            #expect(abs(x - (80 - scale * tan(angle))) < 1e-6)
            #expect(state["landing"]?["bank"] == .bool(abs(x - 80) > right - 80))
        }
    }

    @Test func aCastOnTheBankIsFreeShortAndCatchesNothing() throws {
        let game = try GameDriver("fishing")
        #expect(try game.step(until: { abs(try game.double("hook_angle") ?? 0) > 0.75 }))
        game.step(events: [GameDriver.key("down")])
        #expect(try game.bool("on_bank") == true)
        #expect(try game.int("wallet") == 100, "not charged")
        #expect(try game.int("casts_left") == 20, "not counted")
        let rolls = try game.fishingCounts("rolls")
        let casting = try #require(try game.fishingSteps(untilPhase: "waiting"))
        #expect(casting + 1 == 30)
        #expect(try game.int("wait") == 1)
        #expect(try game.bool("biting") == false)
        #expect(try game.fishingSteps(untilPhase: "reeling") == 60)
        #expect(try game.fishingSteps(untilPhase: "swinging").map { $0 + 1 } == 30)
        #expect(try game.fishingCounts("rolls") == rolls)
        #expect(try game.int("wallet") == 100)
    }

    @Test func theWalletAfterOneCatchIsTwoHundredLessTenPlusTheKindsCoins() throws {
        // the first cast with a single catch, over a few seeds
        var checked = false
        for seed in UInt64(1)...40 where !checked {
            let game = try GameDriver("fishing", seed: seed)
            game.step(30)
            game.step(events: [GameDriver.key("enter")])
            #expect(try game.fishingSteps(untilPhase: "reeling") != nil)
            let bites = try game.fishingCounts("bites")
            guard bites.values.reduce(0, +) == 1, let kind = bites.first(where: { $0.value == 1 })?.key else { continue }
            let coins = try #require(fishingKinds[kind]).coins
            #expect(try game.int("win") == coins)
            #expect(try game.int("wallet") == 100 - 10 + coins, "the winnings are paid when the reel-in starts")
            #expect(try game.fishingIDs("hooked_ids").count == 1)
            #expect(try game.fishingSteps(untilPhase: "swinging") != nil)
            #expect(try game.int("wallet") == 100 - 10 + coins)
            #expect(try game.fishingCounts("caught")[kind] == 1)
            #expect(try game.fishingIDs("hooked_ids").isEmpty, "landed fish leave the hook")
            checked = true
        }
        #expect(checked, "no seed in 1...40 gave a single catch on the first cast")
    }

    /// At 80 x 24 and at 160 x 50 (the small and the large art, fewer fish and the decided 24):
    /// at least `minimumRolls` rolls in 90 s of casting.
    @Test(arguments: [(80, 24, 10), (160, 50, 20)])
    func everyRollIsTheArticlesLeadingEdgeRuleAndNoPassingFishIsMissed(cols: Int, rows: Int, minimumRolls: Int) throws {
        let game = try GameDriver("fishing", seed: 11, cols: cols, rows: rows)
        var checkedTicks = 0, rolls = 0
        var wasBiting: Bool
        var pond: [Int], kinds: [String], widths: [Double]
        for _ in 0..<(60 * 90) {
            pond = try game.fishingIDs("pond_ids")
            kinds = try game.fishingStrings("pond_kinds")
            // fish are sized from the water's depth (issue 24): each one's width, in pixels
            widths = try game.fishingBoxes().map(\.w)
            wasBiting = try game.bool("biting") == true
            game.step(events: try game.fishingCastOrNewDay())
            guard wasBiting, try game.bool("biting") == true else { continue }
            let hookX = try #require(try game.double("hook_x"))
            let frame = Int64(game.session.frame)
            let rolled = try game.int("rolled_tick") == frame ? Set(try game.fishingIDs("rolled")) : []
            let stillSwimming = Set(try game.fishingIDs("pond_ids"))
            for ((id, name), width) in zip(zip(pond, kinds), widths) where stillSwimming.contains(id) {
                let kind = try #require(fishingKinds[name])
                let node = try #require(game.session.scene.node(withID: id))
                // the pond's unit (the article's point) in pixels: the screen and the fish in it
                let pixels = try #require(node.parent).scaleX
                let worldWidth = Double(cols) / pixels, fishWidth = width / pixels
                let speedPerTick = (worldWidth + fishWidth) / kind.crossingTime / 60
                let goingRight = node.scaleX < 0
                let edge = goingRight ? node.x + fishWidth / 2 : node.x - fishWidth / 2
                let distance = abs(edge - hookX)
                if distance < speedPerTick / 2 - 1e-6 {
                    #expect(rolled.contains(id), "fish \(id) passed the hook at step \(frame) without a roll")
                }
                if rolled.contains(id) {
                    #expect(distance <= speedPerTick / 2 + 1e-6, "fish \(id) rolled \(distance) from the hook")
                    rolls += 1
                }
            }
            checkedTicks += 1
        }
        #expect(checkedTicks > 1000)
        #expect(rolls > minimumRolls)
    }

    @Test func theCommonKindsBiteAtTheirChancesOverThreeHundredCasts() throws {
        // at 160 x 50; the pond holds the same 10 fish at every size (wave 4)
        let game = try GameDriver("fishing", seed: 3, cols: 160, rows: 50)
        var casts: Int64 = 0, checks = 0
        while casts < 300 {
            let state = try game.state()
            casts = state["casts"]?.intValue ?? 0
            let swinging = state["hook"]?.stringValue == "swinging"
            do {
                // a caught fish is never still swimming, and the pond stays full counting newcomers
                let pond = Set(try game.fishingIDs("pond_ids")), hooked = Set(try game.fishingIDs("hooked_ids"))
                #expect(pond.isDisjoint(with: hooked))
                #expect(state["fish"]?.intValue == Int64(pond.count))
                #expect((state["fish"]?.intValue ?? 0) + (state["incoming"]?.intValue ?? 0) == 10)
                let pondGroup = try pond.first.map { try #require(game.session.scene.node(withID: $0)).parent }
                for id in pond {
                    #expect(try #require(game.session.scene.node(withID: id)).parent === pondGroup ?? nil)
                }
                for id in hooked {
                    #expect(try #require(game.session.scene.node(withID: id)).parent !== pondGroup ?? nil,
                            "a hooked fish hangs from the hook, out of the pond")
                }
                checks += 1
            }
            if swinging {
                game.step(events: try game.fishingCastOrNewDay())
            } else {
                game.step(5)
            }
        }
        #expect(checks > 5000)
        let rolls = try game.fishingCounts("rolls"), bites = try game.fishingCounts("bites")
        for name in ["croaker", "grouper", "snapper"] {
            let n = Double(try #require(rolls[name])), won = Double(try #require(bites[name]))
            let p = try #require(fishingKinds[name]).biteChance / 100
            #expect(n >= 80, "\(name): only \(n) rolls")
            let sd = (p * (1 - p) / n).squareRoot()
            #expect(abs(won / n - p) < 4 * sd, "\(name): won \(won) of \(n), chance \(p)")
        }
        #expect(game.session.failure == nil)
    }

    /// Casts as soon as the hook swings over the water until the day is over; the steps taken.
    private func playADay(_ game: GameDriver, limit: Int = 60 * 60 * 6) throws -> Int {
        for n in 0..<limit {
            if try game.string("phase") == "over" { return n }
            game.step(events: try game.string("phase") == "over" ? [] : try game.fishingCastOrNewDay())
        }
        return limit
    }

    @Test func aDayIsTwentyCastsFromAHundredCoinsAndTheBestDayIsKept() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fishing-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = SaveStore(dataDirectory: dir)
        let game = try GameDriver("fishing", seed: 8, store: store)
        #expect(try game.string("phase") == "ready")
        #expect(try game.int("casts_left") == 20)
        #expect(try game.int("wallet") == 100)
        #expect(try game.int("day_start") == 100)
        _ = try playADay(game)
        let score = try #require(try game.int("score"))
        #expect(try game.string("reason") == "out of casts")
        #expect(try game.int("casts_left") == 0)
        #expect(try game.int("wallet") == score)
        #expect(try game.int("best") == score)
        #expect(try store.bestScore(game: "fishing") == score)
        game.step()
        #expect(game.text().contains("CASTS"), "the end card says why")
        #expect(game.text().contains("NEW"))
        // the card takes a press after a second; r starts a new day
        game.step(events: [GameDriver.key("r")])
        #expect(try game.string("phase") == "over")
        game.step(60)
        game.step(events: [GameDriver.key("r")])
        #expect(try game.string("phase") == "play")
        #expect(try game.int("wallet") == 100)
        #expect(try game.int("casts_left") == 20)
        #expect(try game.int("level") == 1)
        game.session.close()
        store.close()

        // a restart keeps the best day
        let again = SaveStore(dataDirectory: dir)
        let restarted = try GameDriver("fishing", seed: 2, store: again)
        #expect(try restarted.int("best") == score)
        #expect(try restarted.int("wallet") == 100)
        restarted.session.close()
        again.close()
    }

    @Test func theMouseAloneCastsAndStartsANewDay() throws {
        let game = try GameDriver("fishing")
        game.step(events: GameDriver.click(40, 3))
        #expect(try game.string("phase") == "ready", "a click on the sky does not cast")
        game.step(events: GameDriver.click(40, 18))
        #expect(try game.string("phase") == "play")
        #expect(try game.string("hook") == "casting")
        #expect(try game.fishingSteps(untilPhase: "swinging") != nil)
        #expect(try game.int("casts") == 1)
        // the rest of the day by clicks on the pond
        for _ in 0..<(60 * 60 * 6) {
            if try game.string("phase") == "over" { break }
            let cast = try game.fishingCastOrNewDay() == [fishingSpace]
            game.step(events: cast ? GameDriver.click(20, 20) : [])
        }
        #expect(try game.string("phase") == "over")
        game.step(61)
        // the card's button: "new day" on a row of its own, without the keys' line
        let rows = game.text().split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        let row = try #require(rows.firstIndex { String($0).contains("new") && String($0).contains("day")
                                                     && !String($0).contains("click") })
        let column = try #require(rows[row].firstIndex(of: "n"))
        game.step(events: GameDriver.click(column + 2, row))
        #expect(try game.string("phase") == "play")
        #expect(try game.int("wallet") == 100)
    }

    @Test func theKeyboardAloneCastsWithEachCastKey() throws {
        for key in ["space", "enter", "down"] {
            let game = try GameDriver("fishing")
            game.step(events: [GameDriver.key("x")])
            #expect(try game.string("phase") == "ready")
            game.step(events: [GameDriver.key(key)])
            #expect(try game.string("phase") == "play")
            #expect(try game.string("hook") == "casting", "\(key) casts")
            #expect(try game.fishingSteps(untilPhase: "swinging") != nil)
            #expect(try game.int("casts") == 1)
        }
    }

    @Test func theSameSeedGivesTheSameFramesAndAnotherDoesNot() throws {
        try expectFramesFollowTheSeed(21, other: 22) { seed in
            let game = try GameDriver("fishing", seed: seed)
            var out: [Frame] = []
            for i in 0..<8 {
                game.step(i % 2 == 0 ? 1 : 90, events: i % 2 == 0 ? [fishingSpace] : [])
                game.step(60)
                out.append(game.session.renderFrame())
            }
            return out
        }
    }

    @Test func aResizeMidCastKeepsTheHookAndTheFishInThePond() throws {
        let game = try GameDriver("fishing", seed: 4)
        game.step(30)
        game.step(events: [fishingSpace])
        game.step(80)
        #expect(try game.string("hook") == "waiting")
        game.step(events: [.resize(cols: 120, rows: 40)])
        #expect(try game.fishingSteps(untilPhase: "swinging") != nil)
        #expect(try game.step(until: { try game.fishingCastOrNewDay() == [fishingSpace] }))
        game.step(events: [fishingSpace])
        #expect(try game.fishingSteps(untilPhase: "swinging") != nil)
        #expect(try game.int("casts") == 2)
        #expect(game.session.failure == nil)
        // every swimming fish is in the new pond's water, on its crossing: at most its start
        // offset (its depth) off the screen
        let water = try #require(try game.state()["water"])
        let top = try #require(water["top"]?.doubleValue), bottom = try #require(water["bottom"]?.doubleValue)
        #expect(bottom == 78)
        let boxes = try game.fishingBoxes()
        #expect(boxes.count == (try game.fishingIDs("pond_ids")).count)
        for box in boxes {
            #expect(box.y >= top && box.y + box.h <= bottom, "\(box)")
            #expect(box.x > -box.w - bottom && box.x < 120 + bottom, "\(box)")
        }
        let rows = game.text().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == 40)
    }

    @Test func tenMinutesOfCastingLeakNoNodesAnimationsOrTimers() throws {
        // at 160 x 50, day after day
        let game = try GameDriver("fishing", seed: 5, cols: 160, rows: 50)
        /// Counts at the end of the first reel-in after `minute`: then nothing of the cast is left
        /// (no line, no coins, no "+N", no caught fish), only the pond and its newcomers.
        func countsAfter(minute: Int) throws -> (nodes: Int, animations: Int, timers: Int, fish: Int, incoming: Int) {
            try game.fishingKeepCasting(minute * 3600 - game.session.frame)
            #expect(try game.fishingSteps(untilPhase: "reeling") != nil)
            #expect(try game.fishingSteps(untilPhase: "swinging") != nil)
            if try game.string("phase") == "over" {
                // the day ended with that cast: count on the next day, the card gone
                game.step(61)
                game.step(events: [GameDriver.key("r")])
            }
            #expect(try game.string("phase") == "play")
            return (game.session.scene.nodeCount, game.session.animationModule.animator.runningCount,
                    game.session.pendingTimers, Int(try game.int("fish") ?? -1), Int(try game.int("incoming") ?? -1))
        }
        let first = try countsAfter(minute: 1)
        let last = try countsAfter(minute: 10)
        #expect(try game.int("casts") ?? 0 > 60)
        // the pond's natural variation: fish waiting to come back are not on the scene
        #expect(first.fish + first.incoming == 10 && last.fish + last.incoming == 10)
        #expect(first.nodes - first.fish == last.nodes - last.fish)
        #expect(first.animations - first.fish == last.animations - last.fish, "one crossing per swimming fish")
        #expect(first.timers - first.incoming == last.timers - last.incoming, "one timer per newcomer")
        #expect(abs(first.nodes - last.nodes) <= 10 - min(first.fish, last.fish))
    }

    // MARK: Golden frames (80 x 24, scenery blanked) in Golden/fishing; checked by eye

    @Test func swingingFrame() throws {
        let game = try GameDriver("fishing")
        game.step(40)
        expectGolden(game.fishingText(), game: "fishing", name: "swinging")
    }

    @Test func fishOnTheHookFrame() throws {
        let game = try GameDriver("fishing", seed: 3)
        game.step(30)
        game.step(events: [fishingSpace])
        #expect(try game.step(until: { try !game.fishingIDs("hooked_ids").isEmpty }))
        #expect(try game.fishingSteps(untilPhase: "reeling") != nil)
        // two thirds of the way up: the catch hangs from the hook above the water
        game.step(40)
        expectGolden(game.fishingText(), game: "fishing", name: "fishOnHook")
    }

    @Test func endOfTheDayFrame() throws {
        let game = try GameDriver("fishing", seed: 9)
        _ = try playADay(game)
        game.step(20)
        expectGolden(game.fishingText(), game: "fishing", name: "dayOver")
    }
}
