import Testing
@testable import ArcadeCore

@Suite struct InputScriptTests {
    @Test func resizesCollapseToTheLastAtItsPlaceAndOtherEventsKeepTheirOrder() {
        let a = InputEvent.key(KeyEvent("a")), b = InputEvent.keyUp(KeyEvent("a"))
        let m = InputEvent.mouse(MouseEvent(.press, col: 1, row: 2))
        let events: [InputEvent] = [.resize(cols: 30, rows: 12), a, .resize(cols: 40, rows: 14), m,
                                    .resize(cols: 50, rows: 16), b]
        #expect(InputEvent.coalescingResizes(events) == [a, m, .resize(cols: 50, rows: 16), b])
        // one resize or none: unchanged
        #expect(InputEvent.coalescingResizes([a, .resize(cols: 30, rows: 12), b]) == [a, .resize(cols: 30, rows: 12), b])
        #expect(InputEvent.coalescingResizes([a, m, b]) == [a, m, b])
        #expect(InputEvent.coalescingResizes([]) == [])
    }

    @Test func parsesEveryEventKind() throws {
        let s = try InputScript.parse("""
            # a comment
            arcade-recording game=tiny seed=42 size=100x30
            0 key space
            3 keyup a   # trailing comment
            5 key ctrl+c
            5 key Q
            7 mouse press 10 4
            8 mouse drag 11 4 right
            9 resize 120 40
            """)
        #expect(s.header == .init(game: "tiny", seed: 42, cols: 100, rows: 30))
        #expect(s.entries.map(\.frame) == [0, 3, 5, 5, 7, 8, 9])
        #expect(s.entries[0].event == .key(KeyEvent("space")))
        #expect(s.entries[1].event == .keyUp(KeyEvent("a")))
        #expect(s.entries[2].event == .key(KeyEvent("c", modifiers: .ctrl)))
        #expect(s.entries[3].event == .key(KeyEvent("q", modifiers: .shift)))
        #expect(s.entries[4].event == .mouse(MouseEvent(.press, col: 10, row: 4)))
        #expect(s.entries[5].event == .mouse(MouseEvent(.drag, col: 11, row: 4, button: .right)))
        #expect(s.entries[6].event == .resize(cols: 120, rows: 40))
        #expect(try InputScript.parse(s.text()) == s)
    }

    @Test func reportsErrorsWithLineNumbers() {
        func error(_ text: String) -> String? {
            do { _ = try InputScript.parse(text); return nil } catch { return error.description }
        }
        #expect(error("0 key nope") == "line 1: unknown key 'nope'")
        #expect(error("\n\nx key a") == "line 3: expected a frame number, got 'x'")
        #expect(error("5 key a\n2 key b") == "line 2: frame 2 comes after frame 5: frames must not go back")
        #expect(error("1 jump") == "line 1: unknown event 'jump' (expected key, keyup, mouse, resize or end)")
        #expect(error("1 mouse poke 1 1") == "line 1: unknown mouse action 'poke'")
        #expect(error("1 resize 0 10") == "line 1: resize to 0x10: a size must be between 20x10 and 1000x500")
    }

    /// Recordings are shared: a size or position no terminal has is refused, never allocated.
    @Test func sizesAndPositionsAreHeldToWhatTheArcadeRuns() {
        func error(_ text: String) -> String? {
            do { _ = try InputScript.parse(text); return nil } catch { return error.description }
        }
        #expect(error("0 resize 1000000 1000000") == "line 1: resize to 1000000x1000000: a size must be between 20x10 and 1000x500")
        #expect(error("0 resize 19 24") != nil)
        #expect(error("0 resize 1000 500") == nil)
        #expect(error("arcade-recording game=x seed=1 size=1000000x1000000")
                == "line 1: header size 1000000x1000000 is not between 20x10 and 1000x500")
        #expect(error("arcade-recording game=x seed=1 size=80x24") == nil)
        #expect(error("0 mouse press 9223372036854775807 3") != nil)
        #expect(error("0 mouse press 999 499") == nil)
    }
}
