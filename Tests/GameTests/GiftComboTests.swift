import Foundation
import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// One channel of `game.state.channels`.
private struct GiftChannel: Equatable, CustomStringConvertible {
    var state: String
    var sender: String?
    var gift: String?
    var count: Int64

    var description: String { "\(state) \(sender ?? "-")/\(gift ?? "-") x\(count)" }
    /// Counting a gift: showing it and not leaving.
    var isCounting: Bool { state == "animating" || state == "will_end" }
}

private func giftString(_ v: LuaValue?) -> String? {
    if case .string(let s)? = v { return s }
    return nil
}

private func giftArray(_ v: LuaValue?) -> [LuaValue] {
    switch v {
    case .array(let a)?: a
    case .table(let t)? where t.isEmpty: []
    default: []
    }
}

private extension GameDriver {
    func giftChannels() throws -> [GiftChannel] {
        try giftArray(state()["channels"]).map {
            GiftChannel(state: giftString($0["state"]) ?? "?", sender: giftString($0["sender"]),
                        gift: giftString($0["gift"]), count: $0["count"]?.intValue ?? -1)
        }
    }

    /// The queue as "sender/gift", oldest first.
    func giftQueue() throws -> [String] {
        try giftArray(state()["queue"]).map { "\(giftString($0["sender"]) ?? "?")/\(giftString($0["gift"]) ?? "?")" }
    }

    func channel(_ i: Int) throws -> GiftChannel { try giftChannels()[i] }

    /// Steps until `condition` holds on a channel; returns the frame it first held at.
    func frameWhen(_ i: Int, limit: Int = 2000, _ condition: (GiftChannel) -> Bool) throws -> Int? {
        try step(until: { condition(try channel(i)) }, limit: limit) ? session.frame : nil
    }

    /// The channels' counters (the large-font labels), channel 1 first.
    func giftCounters() -> [LabelNode] {
        var found: [LabelNode] = []
        func walk(_ n: Node) {
            if let l = n as? LabelNode, l.text.hasPrefix("x") { found.append(l) }
            n.children.forEach(walk)
        }
        walk(session.scene.root)
        return found
    }
}

/// Keys 1-4: Mia/Rose, Leo/Heart, Ava/Rocket, Kai/Cake.
private func giftKey(_ k: Int) -> InputEvent { GameDriver.key("\(k)") }

/// Steps in 0.25 s, and in 3 s, at 60 steps a second; and between two pending ticks (0.08 s).
private let quarter = 15, willEnd = 180, tickGap = 5

/// The counter's scale `t` seconds into a tick, as ANIMATION.md defines it: keyframes 1 -> 3
/// -> 0.7 at key times 0, 0.5, 1 over 0.25 s (linear), then a spring from 0.7 to 1 over 0.25 s
/// with damping ratio 0.7 and initial velocity 10 (whole distances per second), its natural
/// frequency chosen so that the envelope is 0.001 at 0.25 s.
private func popScale(at t: Double) -> Double {
    if t <= 0.125 { return 1 + 2 * t / 0.125 }
    if t <= 0.25 { return 3 - 2.3 * (t - 0.125) / 0.125 }
    let u = t - 0.25, T = 0.25, zeta = 0.7, v0 = 10.0
    if u >= T { return 1 }
    func parts(_ w0: Double) -> (wd: Double, b: Double) {
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        return (wd, (zeta * w0 - v0) / wd)
    }
    func logEnvelope(_ w0: Double) -> Double {
        let b = parts(w0).b
        return -zeta * w0 * T + 0.5 * log(1 + b * b)
    }
    var lo = 0.01, hi = 1000.0
    for _ in 0..<200 {
        let mid = (lo + hi) / 2
        if logEnvelope(mid) > log(0.001) { lo = mid } else { hi = mid }
    }
    let w0 = (lo + hi) / 2
    let (wd, b) = parts(w0)
    let displacement = exp(-zeta * w0 * u) * (cos(wd * u) + b * sin(wd * u))
    return 1 - 0.3 * displacement
}

/// A node's content box in canvas pixels: the corners of its `width` x `height` content,
/// placed by its anchor, through its transform and its parents'.
private struct CanvasBox: CustomStringConvertible {
    var x0, y0, x1, y1: Double
    init(_ node: Node, width: Double, height: Double) {
        let t = node.transformToCanvas()
        let a = t.apply(Vec2(-node.anchor.x * width, -node.anchor.y * height))
        let b = t.apply(Vec2((1 - node.anchor.x) * width, (1 - node.anchor.y) * height))
        (x0, y0, x1, y1) = (min(a.x, b.x), min(a.y, b.y), max(a.x, b.x), max(a.y, b.y))
    }
    init?(_ node: Node) {
        switch node {
        case let r as RectNode: self.init(r, width: r.width, height: r.height)
        case let c as CircleNode: self.init(c, width: 2 * c.radius, height: 2 * c.radius)
        case let s as SpriteNode: self.init(s, width: Double(s.flipbook.frames[0].width),
                                            height: Double(s.flipbook.frames[0].height))
        case let t as TextNode: self.init(t, width: t.size.width, height: t.size.height)
        case let l as LabelNode: self.init(l, width: Double(l.sprite.width), height: Double(l.sprite.height))
        default: return nil
        }
    }
    func union(_ o: CanvasBox) -> CanvasBox {
        var u = self
        (u.x0, u.y0, u.x1, u.y1) = (min(x0, o.x0), min(y0, o.y0), max(x1, o.x1), max(y1, o.y1))
        return u
    }
    /// Inside `outer`, give or take `slack` pixels (a text's block snaps to whole cells).
    func isInside(_ outer: CanvasBox, slack: Double = 0) -> Bool {
        x0 >= outer.x0 - slack && y0 >= outer.y0 - slack && x1 <= outer.x1 + slack && y1 <= outer.y1 + slack
    }
    var description: String { "(\(x0), \(y0))-(\(x1), \(y1))" }
}

/// Drawn only when the node and every parent are visible.
private func isShown(_ node: Node) -> Bool {
    var n: Node? = node
    while let m = n {
        if !m.isVisible { return false }
        n = m.parent
    }
    return true
}

@Suite struct GiftComboTests {
    // MARK: Routing, each rule with its timing

    @Test func theSameGiftTwiceQuicklyIsOneChannelAtX2() throws {
        let game = try GameDriver("giftcombo")
        game.step(events: [giftKey(1)])
        #expect(try game.channel(0) == GiftChannel(state: "animating", sender: "Mia", gift: "Rose", count: 0))
        game.step(5, events: [giftKey(1)])
        #expect(try game.channel(1).state == "idle", "the second Rose is one more on the first channel")
        #expect(try game.giftQueue().isEmpty)

        // slide in (0.25 s), tick to x1, tick to x2 0.08 s later (the counter is honest: pending
        // ticks run every 0.08 s, each with its pop), pop and spring (0.5 s), will-end
        let one = try #require(try game.frameWhen(0) { $0.count == 1 })
        #expect(abs(one - quarter) <= 1, "x1 after the 0.25 s slide, at step \(one)")
        let two = try #require(try game.frameWhen(0) { $0.count == 2 })
        #expect(abs(two - one - tickGap) <= 1, "x2 0.08 s after x1, at step \(two)")
        let ending = try #require(try game.frameWhen(0) { $0.state == "will_end" })
        #expect(abs(ending - two - 2 * quarter) <= 1)
        #expect(try game.channel(0).count == 2)
        let leaving = try #require(try game.frameWhen(0) { $0.state == "end_animating" })
        #expect(abs(leaving - ending - willEnd) <= 1, "leaves 3 s after will-end, at step \(leaving)")
        let idle = try #require(try game.frameWhen(0) { $0.state == "idle" })
        #expect(abs(idle - leaving - quarter) <= 1)
        #expect(try game.channel(0) == GiftChannel(state: "idle", sender: nil, gift: nil, count: 0))
        #expect(try game.channel(1).state == "idle")
        #expect(try game.int("sent") == 2)
        #expect(try game.int("shown") == 2)
        #expect(try game.int("best_combo") == 2)
    }

    @Test func twoDifferentGiftsTakeBothChannels() throws {
        let game = try GameDriver("giftcombo")
        game.step(events: [giftKey(1)])
        game.step(3, events: [giftKey(2)])
        #expect(try game.giftChannels() == [
            GiftChannel(state: "animating", sender: "Mia", gift: "Rose", count: 0),
            GiftChannel(state: "animating", sender: "Leo", gift: "Heart", count: 0),
        ])
        #expect(try game.giftQueue().isEmpty)
        game.step(quarter + 3)
        #expect(try game.giftChannels().map(\.count) == [1, 1])
    }

    @Test func aThirdGiftWaitsAndIsTakenWithItsQueuedDuplicatesMerged() throws {
        let game = try GameDriver("giftcombo")
        // Rose, Heart, then Rocket, Cake, Rocket, Rocket: both channels are busy
        for k in [1, 2, 3, 4, 3, 3] { game.step(events: [giftKey(k)]) }
        #expect(try game.giftQueue() == ["Ava/Rocket", "Kai/Cake", "Ava/Rocket", "Ava/Rocket"])
        #expect(game.text().contains("queue 4"))

        // Rose leaves first (sent first); the moment its channel is idle it takes the Rocket
        // and the two queued Rockets move onto its count, leaving the Cake queued
        let leaving = try #require(try game.frameWhen(0) { $0.state == "end_animating" })
        #expect(try game.giftQueue().count == 4, "nothing taken while the channel leaves")
        let taken = try #require(try game.frameWhen(0) { $0.sender == "Ava" })
        #expect(abs(taken - leaving - quarter) <= 1)
        #expect(try game.channel(0) == GiftChannel(state: "animating", sender: "Ava", gift: "Rocket", count: 0))
        #expect(try game.giftQueue() == ["Kai/Cake"])
        #expect(game.text().contains("queue 1"))

        // the merged Rockets tick on that channel: x1, x2, x3, then will-end
        #expect(try game.frameWhen(0) { $0.state == "will_end" } != nil)
        #expect(try game.channel(0).count == 3)
        // and the Cake goes to the Heart's channel when that one is idle
        #expect(try game.frameWhen(1) { $0.sender == "Kai" } != nil)
        #expect(try game.giftQueue().isEmpty)
        #expect(game.text().contains("queue empty"))
        #expect(try game.step(until: { try game.giftChannels().allSatisfy { $0.state == "idle" } }, limit: 1000))
        #expect(try game.int("sent") == 6)
        #expect(try game.int("shown") == 6)
        #expect(try game.int("best_combo") == 3)
    }

    @Test func oneMoreOfTheSameDuringWillEndCancelsTheLeaving() throws {
        let game = try GameDriver("giftcombo")
        game.step(events: [giftKey(2)])
        let ending = try #require(try game.frameWhen(0) { $0.state == "will_end" })
        game.step(2 * 60)  // 2 of the 3 s
        #expect(try game.channel(0).state == "will_end")
        let press = game.session.frame
        game.step(events: [giftKey(2)])
        #expect(try game.channel(0) == GiftChannel(state: "animating", sender: "Leo", gift: "Heart", count: 2))
        // the old leaving time passes with the channel still showing the Heart
        game.step(ending + willEnd + 20 - game.session.frame)
        #expect(try game.channel(0) == GiftChannel(state: "will_end", sender: "Leo", gift: "Heart", count: 2))
        // it leaves 3 s after its new will-end, which follows the new tick's pop and spring
        let leaving = try #require(try game.frameWhen(0) { $0.state == "end_animating" })
        #expect(abs(leaving - (press + 2 * quarter + willEnd)) <= 2, "left at \(leaving), pressed at \(press)")
        #expect(try game.int("shown") == 2)
        #expect(try game.channel(1).state == "idle")
    }

    @Test func theSameGiftWhileItsChannelLeavesTakesTheOtherChannel() throws {
        // rule (1) skips an end-animating channel, so the next Rose starts a new combo
        let game = try GameDriver("giftcombo")
        game.step(events: [giftKey(1)])
        #expect(try game.frameWhen(0) { $0.state == "end_animating" } != nil)
        game.step(events: [giftKey(1)])
        #expect(try game.channel(0).state == "end_animating")
        #expect(try game.channel(1) == GiftChannel(state: "animating", sender: "Mia", gift: "Rose", count: 0))
    }

    // MARK: Under load

    @Test func twoMinutesOfCrowdLoseNoGiftAndSplitNoCombo() throws {
        let game = try GameDriver("giftcombo", seed: 3)
        game.step(events: [GameDriver.key("c")])
        #expect(try game.bool("crowd") == true)
        var longestQueue = 0, combos = 0, bothBusy = 0
        var split: [String] = []
        func check() throws {
            let chans = try game.giftChannels()
            let a = chans[0], b = chans[1]
            if a.isCounting && b.isCounting {
                bothBusy += 1
                if a.sender == b.sender && a.gift == b.gift { split.append("step \(game.session.frame): \(chans)") }
            }
            if chans.contains(where: { $0.count > 1 }) { combos += 1 }
            longestQueue = max(longestQueue, try game.giftQueue().count)
        }
        for _ in 0..<(120 * 60) {
            game.step()
            try check()
        }
        #expect(try game.int("sent")! > 150)
        game.step(events: [GameDriver.key("c")])
        #expect(try game.bool("crowd") == false)
        let sent = try #require(try game.int("sent"))
        #expect(try game.step(until: {
            try check()
            return try game.giftChannels().allSatisfy { $0.state == "idle" }
        }, limit: 60 * 600))
        #expect(try game.int("sent") == sent, "silence: no gift sent after the crowd stopped")
        #expect(try game.int("shown") == sent)
        #expect(try game.giftQueue().isEmpty)
        #expect(split.isEmpty, "one gift counted on both channels at \(split.count) steps, first \(split.first ?? "")")
        #expect(longestQueue >= 3, "the queue was used")
        #expect(combos > 0 && bothBusy > 0)
        #expect(try game.int("best_combo")! > 1)
        #expect(game.session.failure == nil)
    }

    // MARK: The pop

    @Test func theCounterPopsByTheKeyframesThenTheSpring() throws {
        let game = try GameDriver("giftcombo")
        game.step(events: [giftKey(3)])
        let tick = try #require(try game.frameWhen(0) { $0.count == 1 })
        let counter = try #require(game.giftCounters().first)
        #expect(counter.text == "x1")
        var worst = 0.0, overshoot = 0.0, samples: [String] = []
        for k in 0...(2 * quarter + 2) {
            if k > 0 { game.step() }
            let t = Double(game.session.frame - tick) / 60
            let want = popScale(at: t)
            worst = max(worst, abs(counter.scale - want))
            if t > 0.25 { overshoot = max(overshoot, counter.scale) }
            samples.append(String(format: "%.3f: %.3f/%.3f", t, counter.scale, want))
        }
        #expect(worst <= 0.05, "scale vs model: \(samples.joined(separator: ", "))")
        // the spring overshoots 1 (damping 0.7 with velocity 10), and the run ends exactly at 1x
        #expect(samples.count == 2 * quarter + 3)
        #expect(overshoot > 1.005, "the spring passes 1x: \(overshoot)")
        #expect(counter.scale == 1)
        #expect(try game.channel(0).state == "will_end")
    }

    // MARK: Input

    @Test func theMousePaletteSendsGiftsAndTogglesTheCrowd() throws {
        let game = try GameDriver("giftcombo")
        // the palette is the bottom four rows, five entries of 16 columns: Mia/Rose ... crowd
        game.step(events: [GameDriver.mouse(.press, 20, 21)])
        #expect(try game.channel(0).sender == "Leo")
        game.step(events: [GameDriver.mouse(.press, 40, 23)])
        #expect(try game.channel(1).gift == "Rocket")
        game.step(events: [GameDriver.mouse(.press, 50, 12)])
        #expect(try game.int("sent") == 2, "a click above the palette sends nothing")
        game.step(events: [GameDriver.mouse(.press, 70, 22)])
        #expect(try game.bool("crowd") == true)
        game.step(60)
        #expect(try game.int("sent")! > 2, "the crowd sends gifts")
        game.step(events: [GameDriver.mouse(.press, 66, 20)])
        #expect(try game.bool("crowd") == false)
        #expect(game.text().contains("c crowd"))
    }

    @Test func aResizeLaysOutAgainWithoutDisturbingTheChannels() throws {
        let plain = try GameDriver("giftcombo"), resized = try GameDriver("giftcombo")
        for game in [plain, resized] {
            game.step(events: [giftKey(1)])
            game.step(8, events: [giftKey(2)])
        }
        // mid slide-in for one channel, mid pop for the other
        resized.step(events: [.resize(cols: 120, rows: 40)])
        plain.step()
        for _ in 0..<(6 * 60) {
            #expect(try resized.giftChannels() == plain.giftChannels())
            plain.step()
            resized.step()
        }
        #expect(try resized.giftChannels().allSatisfy { $0.state == "idle" })
        let rows = resized.text().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == 40)
        #expect(rows[36...].contains { $0.contains("Mia") }, "the palette moved to the new bottom")
        resized.step(events: [GameDriver.mouse(.press, 30, 38)])
        #expect(try resized.channel(0).sender == "Leo", "the palette's second entry is 24 columns wide now")
    }

    @Test func aHotReloadMidComboKeepsEveryChannelGoing() throws {
        let plain = try GameDriver("giftcombo"), reloaded = try GameDriver("giftcombo")
        for game in [plain, reloaded] {
            for k in [1, 1, 2, 3] { game.step(events: [giftKey(k)]) }
            game.step(20)
        }
        #expect(reloaded.session.reload() == nil)
        for k in 0..<(6 * 60) {
            let events = k == 30 ? [giftKey(2)] : []
            plain.step(events: events)
            reloaded.step(events: events)
            #expect(try reloaded.state() == plain.state())
        }
        #expect(try reloaded.int("shown") == 5)
        #expect(reloaded.text() == plain.text())
    }

    // MARK: Layout at every size (revised after the play test), measured on the scene

    @Test(arguments: [(80, 24), (100, 30), (160, 50)])
    func cardsHoldTheirTextsAndPicturesAndThePopsMissTheHUDRows(cols: Int, rows: Int) throws {
        let game = try GameDriver("giftcombo", cols: cols, rows: rows)
        game.step(events: [giftKey(1), giftKey(3)])
        // while the rows slide in, no counter is drawn
        while try game.giftChannels().allSatisfy({ $0.count == 0 }) {
            #expect(game.giftCounters().allSatisfy { !isShown($0) }, "a counter shown before its row, step \(game.session.frame)")
            game.step()
        }
        #expect(try game.step(until: { try game.giftChannels().allSatisfy { $0.count == 1 } }, limit: 5))
        #expect(game.giftCounters().allSatisfy(isShown))
        #expect(try game.step(until: { try game.giftChannels().allSatisfy { $0.state == "will_end" } }, limit: 600))

        for counter in game.giftCounters() {
            let row = try #require(counter.parent?.parent)
            let shapes = row.children.filter { $0 is RectNode || $0 is CircleNode }
            let card = try #require(shapes.compactMap(CanvasBox.init).reduce(nil as CanvasBox?) { $0?.union($1) ?? $1 })
            #expect(card.x0 >= 0 && card.x1 <= Double(cols) && card.y0 >= 2, "card \(card)")
            for part in row.children {
                if let sprite = part as? SpriteNode {
                    let box = try #require(CanvasBox(sprite))
                    #expect(box.isInside(card), "picture \(box) inside card \(card)")
                    #expect(sprite.scale == sprite.scale.rounded() && sprite.scale >= 1, "picture at \(sprite.scale)x")
                } else if let text = part as? TextNode {
                    let box = try #require(CanvasBox(text))
                    #expect(box.isInside(card, slack: 1), "'\(text.text)' \(box) inside card \(card)")
                }
            }
            let holder = try #require(counter.parent)
            #expect(holder.scale == holder.scale.rounded(), "the counter at a whole scale")
        }

        // the lines of text above and below the channels: the top row, and the status row
        let lines = game.text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let status = try #require(lines.firstIndex { $0.contains("queue") })
        // ten more Roses: the counter pops, one tick after another (0.08 s apart), the last one whole
        for _ in 0..<10 { game.step(events: [giftKey(1)]) }
        var biggest = 0.0
        for _ in 0..<(12 * tickGap + 2 * quarter + 20) {
            game.step()
            for counter in game.giftCounters() where isShown(counter) {
                let box = try #require(CanvasBox(counter))
                biggest = max(biggest, counter.scale)
                #expect(box.y0 >= 2 && box.y1 <= Double(2 * status),
                        "step \(game.session.frame): the pop \(box) meets row 0 or row \(status)")
            }
            let rowsNow = game.text().split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
            for (r, from) in [(0, 8), (status, 0)] {
                let hit = rowsNow[r].dropFirst(from).contains { "▀▄█".contains($0) }
                #expect(!hit, "step \(game.session.frame): pixels on row \(r)")
            }
        }
        #expect(biggest > 2.5, "the counter popped")
        #expect(try game.channel(0).count == 11)
    }

    // MARK: Score, determinism and golden frames

    // MARK: The run (GAMES.md, wave 4: fill the requests)

    /// The requests of the run now: (key of the gift, count asked, viewer).
    private func requests(_ game: GameDriver) throws -> [(key: Int, count: Int, viewer: String)] {
        try giftArray(game.state()["requests"]).map {
            (Int($0["gift"]?.intValue ?? 0), Int($0["count"]?.intValue ?? 0), giftString($0["viewer"]) ?? "")
        }
    }

    @Test func practiceNeverCountsAndARunsFilledRequestIsTheBest() throws {
        let store = SaveStore(location: .memory)
        let game = try GameDriver("giftcombo", store: store)
        for _ in 0..<4 { game.step(2, events: [giftKey(4)]) }
        #expect(try game.frameWhen(0) { $0.state == "will_end" } != nil)
        #expect(try game.string("phase") == "ready")
        #expect(try store.bestScore(game: "giftcombo") == nil)

        game.step(events: [GameDriver.key("space")])
        #expect(try game.string("phase") == "play")
        #expect(try game.giftChannels().allSatisfy { $0.state == "idle" }, "a run starts on a clear overlay")
        #expect(try game.step(until: { try !requests(game).isEmpty }, limit: 120))
        let first = try #require(try requests(game).first)
        #expect(!["Mia", "Leo", "Ava", "Kai"].contains(first.viewer), "a viewer, never one of the four senders")
        // N presses, then stop: the combo leaves 3 s after its last tick and fills the request
        for _ in 0..<first.count { game.step(2, events: [giftKey(first.key)]) }
        #expect(try game.int("score") == 0, "nothing filled before the combo leaves")
        #expect(try game.step(until: { try game.int("score") == Int64(first.count) }, limit: 6 * 60))
        #expect(try game.int("streak") == 1)
        #expect(try !requests(game).contains { $0.viewer == first.viewer })

        // then idle: every request runs out of patience, three hearts, and the run is over
        #expect(try game.step(until: { try game.string("phase") == "over" }, limit: 120 * 60))
        #expect(try game.int("hearts") == 0)
        #expect(try game.string("reason") == "the chat gave up")
        #expect(try store.bestScore(game: "giftcombo") == Int64(first.count))
        #expect(game.text().contains("best \(first.count)"))
        game.step(events: [GameDriver.key("space")])
        #expect(try game.string("phase") == "play")
        #expect(try game.int("hearts") == 3 && game.int("score") == 0)
    }

    @Test func thePlayersGiftGoesBeforeTheCrowdsInTheQueue() throws {
        let game = try GameDriver("giftcombo", seed: 9)
        game.step(events: [GameDriver.key("c")])
        #expect(try game.step(until: { try game.giftQueue().count >= 3 }, limit: 60 * 60))
        game.step(events: [GameDriver.key("c")])
        let crowd = try game.giftQueue()
        #expect(crowd.count >= 3)
        game.step(events: [giftKey(2)])
        let queue = try game.giftQueue()
        let taken = try game.giftChannels().contains { $0.sender == "Leo" }
        #expect(taken || queue.first == "Leo/Heart", "Leo's Heart waits before the crowd's \(queue)")
        // and the next channel to go idle takes it, ahead of every crowd gift that waited before it
        #expect(try game.step(until: { try game.giftChannels().contains { $0.sender == "Leo" } }, limit: 60 * 20))
        #expect(try game.giftQueue().count >= crowd.count - 1, "the crowd's gifts still wait")
    }

    @Test func theSameSeedGivesTheSameFramesAndAnotherSeedAnotherCrowd() throws {
        try expectFramesFollowTheSeed(11, other: 12) { seed in
            let game = try GameDriver("giftcombo", seed: seed)
            game.step(events: [GameDriver.key("c")])
            return (0..<6).map { _ in
                game.step(90)
                return game.session.renderFrame()
            }
        }
    }

    @Test func goldenComboAtX5MidPop() throws {
        let game = try GameDriver("giftcombo")
        for _ in 0..<5 { game.step(2, events: [giftKey(1)]) }
        #expect(try game.frameWhen(0) { $0.count == 5 } != nil)
        game.step(5)  // 1/12 s into the pop: the counter is at about 2.3x
        expectGolden(game.text(), game: "giftcombo", name: "comboX5MidPop")
    }

    @Test func goldenBothChannelsBusyWithAQueue() throws {
        let game = try GameDriver("giftcombo")
        for k in [1, 2, 1, 3, 4, 3] { game.step(2, events: [giftKey(k)]) }
        game.step(90)
        #expect(try game.giftQueue() == ["Ava/Rocket", "Kai/Cake", "Ava/Rocket"])
        #expect(try game.giftChannels().map(\.count) == [2, 1])
        expectGolden(game.text(), game: "giftcombo", name: "bothBusyWithQueue")
    }

    @Test func goldenLeaving() throws {
        let game = try GameDriver("giftcombo")
        game.step(events: [giftKey(2)])
        #expect(try game.frameWhen(0) { $0.state == "end_animating" } != nil)
        game.step(8)  // half way up and out
        expectGolden(game.text(), game: "giftcombo", name: "leaving")
    }
}
