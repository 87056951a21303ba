import ArcadeHost
import Foundation
import Testing

/// Issue 15, 12a: control bytes a game puts in its text (print, arcade.log, errors, its
/// manifest and its folder name) never reach the user's terminal raw, on any path outside
/// the frame: they are shown escaped, `\27`.
@Suite struct ControlBytesTests {
    /// OSC 0 (window title), OSC 52 (clipboard write), erase display, cursor home, a C1 CSI.
    static let hostile = #"\27]0;owned\7\27]52;c;cm0gLXJmIH4=\7\27[2J\27[H\u{9B}31m"#

    static func noRawControls(_ text: String, _ label: String) {
        let raw = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0.value != 0x0A && $0.value != 0x09) || $0.value == 0x7F
                || (0x80...0x9F).contains($0.value)
        }
        #expect(raw.isEmpty, "\(label) carries raw control characters: \(raw.map(\.value))")
    }

    @Test func escapesEveryControlCharacter() {
        #expect(ControlEscaping.escapingControls("a\u{1B}[2Jb") == #"a\27[2Jb"#)
        #expect(ControlEscaping.escapingControls("bell\u{07} del\u{7F} cr\r") == #"bell\7 del\127 cr\13"#)
        #expect(ControlEscaping.escapingControls("c1 \u{9B}31m") == #"c1 \u{9B}31m"#)
        #expect(ControlEscaping.escapingControls("two\nlines\tand tab") == "two\nlines\tand tab")
        #expect(ControlEscaping.escapingControls("one\nline", keepLayout: false) == #"one\10line"#)
        #expect(ControlEscaping.escapingControls("plain é ✓ text") == "plain é ✓ text")
    }

    @Test func printLogAndErrorsOnHeadlessStderr() throws {
        let game = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              print("p \(Self.hostile)")
              arcade.log("l \(Self.hostile)")
            end
            function game.update(dt)
              if arcade.time() > 0.05 then error("e \(Self.hostile)") end
            end
            return game
            """])
        let r = try runArcade(["play", "scratch", "--games", game.root, "--headless", "--frames", "30"])
        #expect(r.status == 1)
        Self.noRawControls(r.err, "stderr")
        Self.noRawControls(r.out, "stdout")
        #expect(r.err.contains(#"p \27]0;owned\7\27]52;c;"#))
        #expect(r.err.contains(#"l \27]0;owned"#))
        #expect(r.err.contains(#"e \27]0;owned"#))
    }

    @Test func manifestTextsAndFolderNamesInListAndCheck() throws {
        let root = try temporaryFolder("controls")
        defer { try? FileManager.default.removeItem(atPath: root) }
        // A game whose title and description carry escapes, and a folder named with an ESC
        // whose manifest fails (so its name and problem are printed).
        let good = root + "/shouty"
        try FileManager.default.createDirectory(atPath: good, withIntermediateDirectories: true)
        try """
            return { id = "shouty", title = "T \(Self.hostile)", description = "D \(Self.hostile)",
                     author = "tests", version = "0", api = 1 }
            """.write(toFile: good + "/manifest.lua", atomically: false, encoding: .utf8)
        try "local g = {} function g.update() end return g".write(
            toFile: good + "/main.lua", atomically: false, encoding: .utf8)
        let bad = root + "/bad\u{1B}]0;x\u{07}"
        try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
        try "return { id = 'bad\\27]0;x\\7', title = 'x' }".write(
            toFile: bad + "/manifest.lua", atomically: false, encoding: .utf8)

        let list = try runArcade(["list", "--games", root])
        Self.noRawControls(list.out, "list stdout")
        Self.noRawControls(list.err, "list stderr")
        #expect(list.out.contains(#"T \27]0;owned"#))
        #expect(list.out.contains(#"D \27]0;owned"#))
        #expect(list.out.contains(#"bad\27]0;x\7"#))

        let check = try runArcade(["check", root])
        Self.noRawControls(check.out, "check stdout")
        Self.noRawControls(check.err, "check stderr")
        #expect(check.out.contains(#"bad\27]0;x\7"#))
    }
}
