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
        #expect(output == [key("d")] + Array(repeating: key("d", repeat: true), count: 4))
        #expect(tracker.nextDeadline == 0.54 + 0.1)
        #expect(tracker.expire(at: 0.6).isEmpty)
        #expect(tracker.process([], at: 0.7) == [keyUp("d")])
    }

    @Test("the release carries the last press's modifiers and is no repeat")
    func releaseModifiers() {
        var tracker = KeyHoldTracker()
        _ = tracker.process([key("a", .shift)], at: 0)
        #expect(tracker.process([key("a")], at: 0.3) == [key("a", repeat: true)])
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
