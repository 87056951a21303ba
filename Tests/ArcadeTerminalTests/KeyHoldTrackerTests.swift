import ArcadeCore
import Testing

@testable import ArcadeTerminal

@Suite("Key hold tracker")
struct KeyHoldTrackerTests {
    @Test("a tap is released once the initial hold runs out")
    func tap() {
        var tracker = KeyHoldTracker(initialHold: 0.5, repeatHold: 0.1)
        #expect(tracker.process([key("a")], at: 10) == [key("a")])
        #expect(tracker.heldKeys == ["a"])
        #expect(tracker.nextDeadline == 10.5)
        #expect(tracker.expire(at: 10.4).isEmpty)
        #expect(tracker.expire(at: 10.5) == [keyUp("a")])
        #expect(tracker.heldKeys.isEmpty)
        #expect(tracker.nextDeadline == nil)
    }

    @Test("repeats keep a key held and are marked; it is released a repeat-hold after the last")
    func heldWithRepeats() {
        var tracker = KeyHoldTracker(initialHold: 0.5, repeatHold: 0.1)
        var output: [InputEvent] = []
        for time in [0.0, 0.45, 0.48, 0.51, 0.54] {
            output += tracker.process([key("d")], at: time)
        }
        // the first auto-repeat, a repeat delay after the press, reads as a press
        #expect(output == [key("d"), key("d")] + Array(repeating: key("d", repeat: true), count: 3))
        #expect(tracker.nextDeadline == 0.54 + 0.1)
        #expect(tracker.expire(at: 0.6).isEmpty)
        #expect(tracker.process([], at: 0.7) == [keyUp("d")])
    }

    @Test("the release carries the last press's modifiers and is no repeat")
    func releaseModifiers() {
        var tracker = KeyHoldTracker()
        _ = tracker.process([key("a", .shift)], at: 0)
        #expect(tracker.process([key("a")], at: 0.05) == [key("a", repeat: true)])
        #expect(tracker.expire(at: 1) == [keyUp("a")])
    }

    @Test("simultaneous releases come earliest deadline first, then in press order")
    func releaseOrder() {
        var tracker = KeyHoldTracker(initialHold: 0.5, repeatHold: 0.1)
        _ = tracker.process([key("b")], at: 0.2)
        _ = tracker.process([key("a")], at: 0)
        _ = tracker.process([key("x"), key("y")], at: 0.3)
        #expect(
            tracker.expire(at: 5) == [keyUp("a"), keyUp("b"), keyUp("x"), keyUp("y")])
    }

    @Test("a press after the hold ran out is a new press, after the missed release")
    func pressAfterExpiry() {
        var tracker = KeyHoldTracker(initialHold: 0.5, repeatHold: 0.1)
        _ = tracker.process([key("space")], at: 0)
        #expect(tracker.process([key("space")], at: 0.8) == [keyUp("space"), key("space")])
        #expect(tracker.nextDeadline == 0.8 + 0.5)
    }

    @Test("a release the terminal reports ends the hold: no second release")
    func reportedRelease() {
        var tracker = KeyHoldTracker()
        _ = tracker.process([key("w")], at: 0)
        #expect(tracker.process([keyUp("w")], at: 0.1) == [keyUp("w")])
        #expect(tracker.heldKeys.isEmpty)
        #expect(tracker.expire(at: 10).isEmpty)
    }

    @Test("a press the terminal marks as a repeat starts with the short hold")
    func reportedRepeat() {
        var tracker = KeyHoldTracker(initialHold: 0.5, repeatHold: 0.1)
        #expect(tracker.process([key("s", repeat: true)], at: 1) == [key("s", repeat: true)])
        #expect(tracker.nextDeadline == 1.1)
    }

    /// Feeds `times` (seconds) as presses of `name` and returns what came out, expiring at the end.
    private func play(_ times: [Double], _ tracker: inout KeyHoldTracker, _ name: String = "left") -> [InputEvent] {
        var output: [InputEvent] = []
        for time in times { output += tracker.process([key(name)], at: time) }
        output += tracker.expire(at: (times.last ?? 0) + 10)
        return output
    }

    /// An xterm-like keyboard: a repeat delay of 500 ms, then a repeat every 33 ms.
    private func xtermHold(from start: Double, repeats: Int) -> [Double] {
        [start] + (0..<repeats).map { start + 0.5 + Double($0) * 0.033 }
    }

    @Test("a double tap is two presses, however soon the second tap comes", arguments: [0.15, 0.2, 0.3, 0.45])
    func doubleTap(gap: Double) {
        var tracker = KeyHoldTracker()
        #expect(play([1, 1 + gap], &tracker) == [key("left"), key("left"), keyUp("left")])
    }

    @Test("a held key at xterm's timing (and tmux's, which passes it on): its repeats are repeats")
    func xtermTimings() {
        var tracker = KeyHoldTracker()
        let output = play(xtermHold(from: 2, repeats: 20), &tracker)
        // the press, the first auto-repeat (a repeat delay later, so it reads as a press), 19 repeats
        #expect(output == [key("left"), key("left")] + Array(repeating: key("left", repeat: true), count: 19)
                + [keyUp("left")])
    }

    @Test("tap, tap, then hold: two presses, then the hold's press and its repeats")
    func tapsThenHold() {
        var tracker = KeyHoldTracker()
        let output = play([0, 0.25] + xtermHold(from: 0.6, repeats: 5), &tracker)
        #expect(output == [key("left"), key("left"), key("left"), key("left")]
                + Array(repeating: key("left", repeat: true), count: 4) + [keyUp("left")])
    }

    @Test("two keys held together: the keyboard repeats only the newer one, the older is released")
    func twoKeysHeld() {
        var tracker = KeyHoldTracker()
        var output = tracker.process([key("left")], at: 0)
        for t in [0.5, 0.533, 0.566] { output += tracker.process([key("left")], at: t) }
        output += tracker.process([key("up")], at: 0.6)  // up pressed too: left stops repeating
        for t in [1.1, 1.133] { output += tracker.process([key("up")], at: t) }
        #expect(output == [
            key("left"), key("left"), key("left", repeat: true), key("left", repeat: true),
            key("up"), keyUp("left"), key("up"), key("up", repeat: true),
        ])
    }

    @Test("mouse and resize events pass through untouched")
    func otherEvents() {
        var tracker = KeyHoldTracker()
        let events: [InputEvent] = [mouse(.press, 1, 2), .resize(cols: 100, rows: 40)]
        #expect(tracker.process(events, at: 0) == events)
        #expect(tracker.heldKeys.isEmpty)
    }

    @Test("releaseAll lets go of everything in press order")
    func releaseAll() {
        var tracker = KeyHoldTracker()
        _ = tracker.process([key("left"), key("space", .ctrl)], at: 0)
        #expect(tracker.releaseAll() == [keyUp("left"), keyUp("space", .ctrl)])
        #expect(tracker.heldKeys.isEmpty)
    }
}
