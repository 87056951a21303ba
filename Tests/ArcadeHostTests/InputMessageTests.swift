import Foundation
import Testing
import ArcadeCore
@testable import ArcadeHost

/// Messages about bad input are short and say what is wrong: a script or recording that does
/// not parse, is too big, belongs to another game or ends absurdly far away, and numbers on
/// the command line that make no sense.
@Suite struct InputMessageTests {
    static func parseError(_ text: String) -> String? {
        do {
            _ = try InputScript.parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func anUnknownKeyNameIsQuotedShort() throws {
        let name = String(repeating: "x", count: 1_000_000)
        let message = try #require(Self.parseError("0 key \(name)\n"))
        #expect(message == "line 1: unknown key '\(String(repeating: "x", count: 40))... (1000000 bytes)'")
        // every word a message quotes is held to the same
        for line in ["\(name) key a", "0 \(name)", "0 mouse \(name) 1 1", "0 mouse press 1 1 \(name)"] {
            let m = try #require(Self.parseError(line))
            #expect(m.utf8.count < 200, "\(m.prefix(80))")
        }
    }

    @Test func aByteOrderMarkAtTheStartIsSkippedAndOneElsewhereIsNamed() throws {
        let script = try InputScript.parse("\u{FEFF}0 key space\n3 key a\n")
        #expect(script.entries.count == 2)
        #expect(script.entries[0].event == .key(KeyEvent("space")))
        let recording = try InputScript.parse("\u{FEFF}arcade-recording game=tiny seed=1 size=80x24\n4 end\n")
        #expect(recording.header?.game == "tiny" && recording.end == 4)
        #expect(Self.parseError("0 key space\n\u{FEFF}1 key a\n") == "line 2: expected a frame number, got '\\u{FEFF}1'")
        #expect(Self.parseError("0 key \u{1B}[2J\n") == "line 1: unknown key '\\u{1B}[2J'")
    }

    @Test func aResizeToNothingSaysWhatSizesThereAre() {
        #expect(Self.parseError("0 resize 0 0") == "line 1: resize to 0x0: a size must be between 20x10 and 1000x500")
        #expect(Self.parseError("0 resize -3 40") == "line 1: resize to -3x40: a size must be between 20x10 and 1000x500")
        #expect(Self.parseError("0 resize big 40") == "line 1: 'resize' takes a column count and a row count")
    }

    @Test func aStepAbsurdlyFarAwayIsRefused() {
        let far = "line 2: step 999999999999 is too far away: a script or recording goes up to step 5184000 (24 hours of game time)"
        #expect(Self.parseError("arcade-recording game=tiny seed=1 size=80x24\n999999999999 end\n") == far)
        #expect(Self.parseError("0 key a\n999999999999 key b\n") == far)
        #expect(Self.parseError("\(InputScript.maxFrame) end") == nil)
        #expect(Self.parseError("\(InputScript.maxFrame + 1) end")?.contains("too far away") == true)
    }

    @Test func aRecordingOfAnotherGameIsRefusedUnlessAllowed() throws {
        let script = try InputScript.parse("arcade-recording game=fishing seed=1 size=80x24\n0 key space\n60 end\n")
        #expect(throws: InputScript.FileProblem.self) { try script.check(madeFor: "tiny", path: "f.rec", allowOtherGame: false) }
        try script.check(madeFor: "tiny", path: "f.rec", allowOtherGame: true)
        try script.check(madeFor: "fishing", path: "f.rec", allowOtherGame: false)
        try InputScript.parse("0 key a\n").check(madeFor: "tiny", path: "s.txt", allowOtherGame: false)
    }

    // MARK: The command line

    @Test func theCommandLineSaysWhyAScriptCannotBeUsed() throws {
        let dir = try temporaryFolder("input-messages")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let play = ["play", "tiny", "--games", fixtureGames, "--headless"]

        let bigKey = dir + "/bigkey.txt"
        try ("0 key " + String(repeating: "k", count: 1_000_000) + "\n").write(toFile: bigKey, atomically: false, encoding: .utf8)
        let key = try runArcade(play + ["--input", bigKey])
        #expect(key.status == 2)
        #expect(key.err.contains("unknown key 'kkkk") && key.err.contains("... (1000000 bytes)'"))
        #expect(key.err.utf8.count < 300, "\(key.err.prefix(300))")

        let huge = dir + "/huge.txt"
        _ = FileManager.default.createFile(atPath: huge, contents: Data(count: 17 << 20))
        let size = try runArcade(play + ["--input", huge])
        #expect(size.status == 2)
        #expect(size.err == "arcade: cannot read input script '\(huge)': it is 17 MiB, "
                + "and an input script or recording may be at most 16 MiB\n")
        let missing = try runArcade(play + ["--input", dir + "/none.txt"])
        #expect(missing.err == "arcade: cannot read input script '\(dir)/none.txt': No such file or directory\n")
        let folder = try runArcade(play + ["--input", dir])
        #expect(folder.err == "arcade: cannot read input script '\(dir)': it is a folder, not a regular file\n")

        let bom = dir + "/bom.txt"
        try "\u{FEFF}0 key space\n".write(toFile: bom, atomically: false, encoding: .utf8)
        let bomRun = try runArcade(play + ["--input", bom, "--state"])
        #expect(bomRun.status == 0, "\(bomRun.err)")
        #expect(bomRun.out.contains("\"space\""))
    }

    @Test func theCommandLineSaysWhatIsWrongWithANumber() throws {
        let play = ["play", "tiny", "--games", fixtureGames, "--headless"]
        let frames = try runArcade(play + ["--frames", "-5"])
        #expect(frames.status != 0)
        #expect(frames.err.contains("'-5' is invalid for '--frames <frames>': a number of steps must be 0 or more"), "\(frames.err)")
        let word = try runArcade(play + ["--frames", "ten"])
        #expect(word.err.contains("a number of steps is a whole number"), "\(word.err)")
        let seed = try runArcade(play + ["--seed", "-5"])
        #expect(seed.err.contains("'-5' is invalid for '--seed <seed>': a seed is a whole number from 0 to 18446744073709551615"),
                "\(seed.err)")
        let steps = try runArcade(["check", fixtureGames, "--steps", "-1"])
        #expect(steps.err.contains("'-1' is invalid for '--steps <steps>': a number of steps must be 0 or more"), "\(steps.err)")
    }

    /// The check that a recording can be written empties nothing: the script read may be the
    /// file the recording goes to.
    @Test func recordingOverTheInputScriptReadsTheScriptFirst() throws {
        let dir = try temporaryFolder("record-over-input")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let moves = dir + "/moves.txt"
        try "0 key a\n1 key b\n".write(toFile: moves, atomically: false, encoding: .utf8)
        #expect(InputRecorder.problem(writingTo: moves) == nil)
        #expect(try String(contentsOfFile: moves, encoding: .utf8) == "0 key a\n1 key b\n")
        let r = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--frames", "5",
                               "--input", moves, "--record", moves, "--state"])
        #expect(r.status == 0, "\(r.err)")
        let recorded = try InputScript.parse(try String(contentsOfFile: moves, encoding: .utf8))
        #expect(recorded.entries.count == 2 && recorded.end == 5)
    }

    @Test func aRecordingMadeInAnotherGameNeedsTheFlagThatSaysSo() throws {
        let dir = try temporaryFolder("other-game")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rec = dir + "/fish.rec"
        try "arcade-recording game=fishing seed=3 size=80x24\n0 key r\n30 end\n".write(toFile: rec, atomically: false, encoding: .utf8)
        let refused = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--replay", rec, "--state"])
        #expect(refused.status == 2)
        #expect(refused.err == "arcade: \(rec) was recorded in the game 'fishing', not 'tiny': its inputs would mean "
                + "something else here (--allow-other-game plays it anyway)\n")
        #expect(refused.out.isEmpty)
        let allowed = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--replay", rec,
                                     "--allow-other-game", "--state"])
        #expect(allowed.status == 0, "\(allowed.err)")
        #expect(allowed.out.contains("\"ticks\": 30"))

        let far = dir + "/far.rec"
        try "arcade-recording game=tiny seed=1 size=80x24\n0 key a\n999999999999 end\n".write(toFile: far, atomically: false, encoding: .utf8)
        let farRun = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--replay", far])
        #expect(farRun.status == 2)
        #expect(farRun.err.contains("line 3: step 999999999999 is too far away"))
    }
}
