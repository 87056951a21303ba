import Foundation
import Testing
import ArcadeCore
import ArcadeLua
import ArcadeTerminal
@testable import ArcadeHost

/// `arcade.is_down(name)`: true from a key's press to its release, the release the
/// terminal reports or the one the host infers for terminals that report none.
@Suite struct IsDownTests {
    /// Notes, each step, whether left is down in `update` and what `input` saw as it came.
    static let game = """
        local game = {}
        function game.load() game.state.down, game.state.seen = {}, {} end
        function game.input(e)
          if e.type == "key" or e.type == "keyup" then
            game.state.seen[#game.state.seen + 1] = e.type .. " " .. e.key .. " " .. tostring(arcade.is_down(e.key))
          end
        end
        function game.update()
          game.state.down[#game.state.down + 1] = arcade.is_down("left") and 1 or 0
        end
        return game
        """

    func session() throws -> (GameSession, ScratchGame) {
        let g = try ScratchGame(files: ["main.lua": Self.game])
        return (try GameSession(entry: try #require(g.entry)), g)
    }

    func down(_ session: GameSession) throws -> [Int64] {
        guard case .array(let items)? = try session.state()["down"] else { return [] }
        return items.compactMap(\.intValue)
    }

    /// An input script's presses and releases: down from the press's step to the release's.
    @Test func aScriptedPressAndRelease() throws {
        let (session, _) = try session()
        let driver = SessionDriver(session: session, script: try InputScript.parse("""
            2 key left
            3 key shift+left
            5 keyup left
            6 key a
            """))
        driver.run(steps: 8)
        #expect(try down(session) == [0, 0, 1, 1, 1, 0, 0, 0])
        #expect(try session.state()["seen"] == .array([
            .string("key left true"), .string("key left true"), .string("keyup left false"), .string("key a true"),
        ]))
    }

    /// A terminal with no release events: the host's tracker releases a tap 0.7 s after it,
    /// and a held key 0.1 s after its last repeat. `is_down` follows those releases.
    @Test func anInferredHold() throws {
        let (session, _) = try session()
        var tracker = KeyHoldTracker()
        // a tap at 0 s; then a hold from 1 s, repeating every 30 ms from 1.5 s to 2 s
        var presses: [Int: [InputEvent]] = [0: [.key(KeyEvent("left"))], 60: [.key(KeyEvent("left"))]]
        for step in stride(from: 90, through: 120, by: 2) { presses[step] = [.key(KeyEvent("left"))] }
        for step in 0..<180 {
            let time = Double(step) / 60
            session.step(events: tracker.process(presses[step] ?? [], at: time))
        }
        let d = try down(session)
        #expect(d.count == 180)
        // the tap reads as held for the tracker's first 0.7 s
        #expect(d[0..<42].allSatisfy { $0 == 1 } && d[42..<60].allSatisfy { $0 == 0 }, "\(d)")
        // the hold: from its press to 0.1 s after its last repeat (step 120 + 6)
        #expect(d[60..<126].allSatisfy { $0 == 1 } && d[126...].allSatisfy { $0 == 0 }, "\(d)")
    }

    /// A key name is checked: a typo is an error rather than a key that is never down.
    @Test func aKeyNameIsChecked() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              local ok, err = pcall(arcade.is_down, "lfet")
              game.state.typo = err
              ok, err = pcall(arcade.is_down, "ctrl+a")
              game.state.modified = err
              game.state.space = arcade.is_down("space")
            end
            return game
            """])
        let st = try GameSession(entry: try #require(g.entry)).state()
        #expect(st["typo"] == .string("bad argument #1 to 'arcade.is_down' (unknown key name \"lfet\" "
                                      + "(names as events give them: \"left\", \"space\", \"a\", \"f1\"...))"))
        #expect(st["modified"]?.stringValue?.contains("unknown key name \"ctrl+a\"") == true)
        #expect(st["space"] == .bool(false))
    }
}
