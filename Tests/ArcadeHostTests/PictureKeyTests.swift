import Foundation
import Testing
import ArcadeCore
import ArcadePicture
import ArcadeRender
import ArcadeTestSupport
@testable import ArcadeHost

/// F12 in play: a PNG of the game's frame in the pictures folder, and a notice saying where.
@Suite(.serialized) struct PictureKeyTests {
    @Test func f12WritesAPictureOfTheGameAndSaysWhere() throws {
        let arcade = try arcadeExecutable()
        let pictures = try temporaryFolder("pictures")
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let pty = try PseudoTerminal(cols: 80, rows: 24)
        let pid = try SuspendTests.spawn(pty, [arcade, "play", "tiny", "--games", fixtureGames, "--seed", "1"],
                                         environment: ["XDG_PICTURES_DIR": pictures])
        defer { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
        var out: [UInt8] = []
        #expect(pty.read(into: &out) { $0.contains("tiny: no keys yet") }, "the game never drew")
        pty.type("\u{1B}[?62c")  // answer the start-up query as a terminal would
        _ = pty.read(into: &out, seconds: 0.3) { _ in false }

        let mark = out.count
        pty.type("\u{1B}[24~")  // F12
        #expect(pty.read(into: &out) { $0.contains("saved: tiny-", from: mark) }, "no notice")
        let names = try FileManager.default.contentsOfDirectory(atPath: pictures + "/arcade")
        #expect(names.count == 1)
        let name = try #require(names.first)
        #expect(name.hasPrefix("tiny-") && name.hasSuffix(".png"))
        // the name first, then the folder (cut at the screen's edge)
        #expect(out.contains("saved: " + name + " in " + String(pictures.prefix(20)), from: mark), "the notice does not name the file")

        // the game's own frame: no pause mark, no notice, and the key never reached the game
        let picture = try decodePNG(fileBytes(pictures + "/arcade/" + name))
        let session = try startFixture("tiny")
        #expect(picture == Picture(frame: session.renderFrame()))
        #expect(!out.contains("keys, last", from: mark))

        // a second picture in the same second gets a name of its own
        pty.type("\u{1B}[24~")
        _ = pty.read(into: &out, seconds: 1.5) { _ in (try? FileManager.default.contentsOfDirectory(atPath: pictures + "/arcade").count) == 2 }
        #expect(try FileManager.default.contentsOfDirectory(atPath: pictures + "/arcade").count == 2)
        pty.type("\u{03}")
    }

    @Test func aFolderThatCannotBeMadeIsSaidInTheNotice() throws {
        let arcade = try arcadeExecutable()
        let pty = try PseudoTerminal(cols: 80, rows: 24)
        let pid = try SuspendTests.spawn(pty, [arcade, "play", "tiny", "--games", fixtureGames, "--seed", "1"],
                                         environment: ["XDG_PICTURES_DIR": "/proc/no-such-folder"])
        defer { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
        var out: [UInt8] = []
        #expect(pty.read(into: &out) { $0.contains("tiny: no keys yet") }, "the game never drew")
        pty.type("\u{1B}[?62c")
        let mark = out.count
        pty.type("\u{1B}[24~")
        #expect(pty.read(into: &out) { $0.contains("cannot make the folder /proc/no-such-folder", from: mark) })
        pty.type("\u{03}")
    }
}
