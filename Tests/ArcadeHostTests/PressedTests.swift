import Foundation
import Testing
import ArcadeCore
import ArcadeTerminal
@testable import ArcadeHost

/// `arcade.pressed(key [, hold, period])`: true in the step of a key's press, and with hold
/// and period, then again `hold` after the press and every `period` after that while the key
/// is held (down and repeating).
@Suite struct PressedTests {
    /// Notes, each step, `arcade.pressed("left")` as `tap` and `arcade.pressed("left", 0.1, 0.05)`
    /// (6 and 3 steps at 60 steps a second) as `held`: the steps, counted from 0, they were true.
    static let game = """
        local game = {}
        function game.load() game.state.tap, game.state.held = {}, {} end
        function game.update()
          local step = arcade.frame() - 1
          if arcade.pressed("left") then game.state.tap[#game.state.tap + 1] = step end
          if arcade.pressed("left", 0.1, 0.05) then game.state.held[#game.state.held + 1] = step end
        end
        return game
        """

    /// Runs `steps` steps with `events[step]` and returns the steps `tap` and `held` were true in.
    func run(_ events: [Int: [InputEvent]], steps: Int) throws -> (tap: [Int64], held: [Int64]) {
        let g = try ScratchGame(files: ["main.lua": Self.game])
        let session = try GameSession(entry: try #require(g.entry))
        for step in 0..<steps { session.step(events: events[step] ?? []) }
        #expect(session.failure == nil)
        func list(_ name: String) throws -> [Int64] {
            guard case .array(let items)? = try session.state()[name] else { return [] }
            return items.compactMap(\.intValue)
        }
        return (try list("tap"), try list("held"))
    }

    static let press = InputEvent.key(KeyEvent("left"))
    static let repeated = InputEvent.key(KeyEvent("left", isRepeat: true))
    static let release = InputEvent.keyUp(KeyEvent("left"))

    /// A key down but never repeated (a tap whose release is late, or a script that never
    /// releases it) is no hold: only its press counts.
    @Test func aPressWithoutRepeatsIsOnlyThePress() throws {
        let r = try run([3: [Self.press]], steps: 40)
        #expect(r.tap == [3])
        #expect(r.held == [3])
    }

    /// Held: the press, then 6 steps after it, then every 3 steps, until the release.
    @Test func aHeldKeyRepeatsOnTheGameClock() throws {
        var events: [Int: [InputEvent]] = [0: [Self.press], 20: [Self.release]]
        for step in stride(from: 2, to: 20, by: 2) { events[step] = [Self.repeated] }
        let r = try run(events, steps: 30)
        #expect(r.tap == [0])
        #expect(r.held == [0, 6, 9, 12, 15, 18])
    }

    /// Two presses are two presses, each with its own hold count.
    @Test func aDoubleTapIsTwoPresses() throws {
        let r = try run([0: [Self.press], 3: [Self.release], 10: [Self.press], 12: [Self.release]], steps: 30)
        #expect(r.tap == [0, 10])
        #expect(r.held == [0, 10])
    }

    /// Through the legacy terminal's tracker at 60 steps a second: a double tap 0.25 s apart
    /// is two presses; then a key held at xterm's timing (500 ms delay, 33 ms repeats) is its
    /// press, its first auto-repeat (read as a press), and the hold's steps after that.
    @Test func aLegacyTerminalsDoubleTapAndHold() throws {
        var tracker = KeyHoldTracker()
        var times: [Double] = [0, 0.25, 2]
        times += (0..<10).map { 2.5 + Double($0) * 0.033 }
        var events: [Int: [InputEvent]] = [:]
        for step in 0..<240 {
            let now = Double(step) / 60
            let due = times.filter { $0 <= now && $0 > now - 1.0 / 60 }.map { _ in Self.press }
            let out = tracker.process(due, at: now)
            if !out.isEmpty { events[step] = out }
        }
        let r = try run(events, steps: 240)
        #expect(r.tap == [0, 15, 120, 150])
        // after the first auto-repeat at 2.5 s (step 150) the key repeats: 6 steps on, then every 3
        #expect(r.held == [0, 15, 120, 150, 156, 159, 162, 165, 168, 171])
    }

    /// Hold and period go together, above 0; the key name is checked as `is_down` checks it.
    @Test func badArgumentsAreNamed() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              game.state.one = select(2, pcall(arcade.pressed, "left", 0.5))
              game.state.zero = select(2, pcall(arcade.pressed, "left", 0, 0.1))
              game.state.typo = select(2, pcall(arcade.pressed, "lfet"))
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        let st = try session.state()
        #expect(st["one"] == .string(
            "bad argument #3 to 'arcade.pressed' (period missing: give both hold and period (seconds), or neither)"))
        #expect(st["zero"] == .string("bad argument #2 to 'arcade.pressed' (hold must be above 0 seconds, got 0.0)"))
        #expect(st["typo"]?.stringValue?.hasPrefix("bad argument #1 to 'arcade.pressed' (unknown key name \"lfet\"") == true)
    }
}
