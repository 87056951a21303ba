import ArcadeCore
import Testing

@testable import ArcadeTerminal

private func decode(_ text: String) -> [InputEvent] {
    var decoder = InputDecoder()
    var events = decoder.decode(Array(text.utf8))
    decoder.flush(into: &events)
    return events
}

/// Printable keys beyond ASCII arrive as their own character, typed as UTF-8 or reported by
/// the kitty keyboard protocol, upper-case letters as lower case with Shift as for `a`-`z`.
@Suite struct PrintableKeyTests {
    @Test func typedAsUTF8() {
        #expect(decode("é中한ж😀") == [key("é"), key("中"), key("한"), key("ж"), key("😀")])
        #expect(decode("ÉЖ") == [key("é", .shift), key("ж", .shift)])
        #expect(decode("A") == [key("a", .shift)])  // as before
        // a lone combining mark or format character names no key: it is dropped, its neighbours kept
        #expect(decode("a\u{301}b\u{200F}c") == [key("a"), key("b"), key("c")])
    }

    @Test func reportedByTheKittyProtocol() {
        #expect(decode("\u{1B}[233u") == [key("é")])
        #expect(decode("\u{1B}[233;2u") == [key("é", .shift)])
        #expect(decode("\u{1B}[201u") == [key("é", .shift)])  // an upper-case code, which kitty should not send
        #expect(decode("\u{1B}[20013u") == [key("中")])
        #expect(decode("\u{1B}[1078;1:3u") == [keyUp("ж")])
        #expect(decode("\u{1B}[769u").isEmpty)  // U+0301 alone
    }

    @Test func theSameNamesAsScriptsAndGamesUseThem() throws {
        #expect(InputScript.parseKey("é") == KeyEvent("é"))
        #expect(InputScript.parseKey("É") == KeyEvent("é", modifiers: .shift))
        #expect(InputScript.parseKey("ctrl+中") == KeyEvent("中", modifiers: .ctrl))
        #expect(InputScript.parseKey("\u{301}") == nil)
        #expect(InputScript.parseKey("éé") == nil)
        let script = try InputScript.parse("3 key é\n4 keyup shift+ж\n")
        #expect(script.entries.map(\.event) == [.key(KeyEvent("é")), .keyUp(KeyEvent("ж", modifiers: .shift))])
        #expect(try InputScript.parse(script.text()).entries == script.entries)
    }
}
