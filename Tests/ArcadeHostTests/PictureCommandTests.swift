import Foundation
import Testing
import ArcadeCore
import ArcadePicture
import ArcadeRender
import ArcadeTestSupport
@testable import ArcadeHost

/// `--png` and `--gif`: pictures of headless runs and replays.
@Suite struct PictureCommandTests {
    /// A recording of tiny: keys at steps 10, 50 and 90 change its label; 120 steps.
    func recording(in folder: String) throws -> String {
        let script = folder + "/keys.txt", rec = folder + "/tiny.rec"
        try "10 key a\n50 key b\n90 key c\n".write(toFile: script, atomically: true, encoding: .utf8)
        let r = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--input", script, "--frames", "120",
                               "--record", rec])
        #expect(r.status == 0, "\(r.err)")
        return rec
    }

    /// The frames of tiny after each step of `script`, run in-process.
    func frames(_ script: InputScript, steps: Int) throws -> [Frame] {
        let entry = try #require(fixtureCatalog().game("tiny"))
        var runner = HeadlessRunner(entry: entry, options: .init(seed: script.header?.seed ?? 1), frames: steps, script: script)
        var out: [Frame] = [Frame(columns: 0, rows: 0)]
        runner.afterStep = { out.append($0.renderFrame()) }
        _ = try runner.run()
        return out
    }

    @Test func pngWritesThePictureOfTheFinalFrame() throws {
        let folder = try temporaryFolder("png")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rec = try recording(in: folder)
        let r = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--replay", rec, "--png", folder + "/a.png",
                               "--scale", "2"])
        #expect(r.status == 0, "\(r.err)")
        let got = try decodePNG(fileBytes(folder + "/a.png"))
        let all = try frames(try InputScript.read(rec), steps: 120)
        #expect(got == Picture(frame: all[120], scale: 2))
        #expect(got.width == 80 * 8 * 2 && got.height == 24 * 16 * 2)
    }

    @Test func aReplaysGIFHasAPictureEverySecondStepAndTheRunsLength() throws {
        let folder = try temporaryFolder("gif")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rec = try recording(in: folder)
        let r = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--replay", rec, "--gif", folder + "/a.gif"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("60 pictures, 4 stored"))
        let gif = try decodeGIF(folder + "/a.gif")
        #expect(gif.loops)
        #expect(gif.width == 640 && gif.height == 384)
        // pictures after steps 1, 3, 5... 119; the label changes at 11, 51 and 91: four stored
        // frames, 5, 20, 20 and 15 pictures long at 30 a second; 2 s in all
        #expect(gif.frames.count == 4)
        #expect(gif.frames.map(\.centiseconds) == [17, 66, 67, 50])
        #expect(gif.frames.map(\.centiseconds).reduce(0, +) == 200)
        let all = try frames(try InputScript.read(rec), steps: 120)
        for (i, step) in [1, 11, 51, 91].enumerated() where i < gif.frames.count {
            #expect(gif.frames[i].picture == Picture(frame: all[step]), "stored frame \(i), after step \(step)")
        }
        // only the label's row changes after the first
        #expect(gif.frames[1].rect.h == 16)
    }

    @Test func gifStartEndAndFPSPickTheSteps() throws {
        let folder = try temporaryFolder("gif-range")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rec = try recording(in: folder)
        let r = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--replay", rec, "--gif", folder + "/a.gif",
                               "--gif-fps", "10", "--gif-start", "40", "--gif-end", "99"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("10 pictures, 3 stored"))
        let gif = try decodeGIF(folder + "/a.gif")
        #expect(gif.frames.map(\.centiseconds) == [20, 70, 10])
        let all = try frames(try InputScript.read(rec), steps: 120)
        #expect(gif.frames.last?.picture == Picture(frame: all[94]))
    }

    @Test func badPictureOptionsAreRefused() throws {
        let bad: [([String], String)] = [
            (["--headless", "--gif", "/tmp/x.gif", "--gif-fps", "0"], "--gif-fps takes 1 to 50"),
            (["--headless", "--png", "/tmp/x.png", "--scale", "9"], "--scale takes a whole number from 1 to 8"),
            (["--png", "/tmp/x.png"], "--png writes the final frame of a --headless run"),
            (["--gif", "/tmp/x.gif"], "--gif in the terminal needs --replay"),
            (["--headless", "--gif", "/tmp/x.gif", "--gif-start", "50", "--gif-end", "10"], "--gif-end 10 comes before --gif-start 50"),
        ]
        for (args, message) in bad {
            let r = try runArcade(["play", "tiny", "--games", fixtureGames] + args)
            #expect(r.status != 0)
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
    }

    @Test func aPicturePathThatCannotBeWrittenIsRefusedBeforeTheRun() throws {
        let folder = try temporaryFolder("unwritable")
        for (option, kind) in [("--gif", "GIF"), ("--png", "picture")] {
            for path in ["/nonexistent-folder/x", folder] {
                let r = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--frames", "10", "--state", option, path])
                #expect(r.status == 2)
                #expect(r.err.hasPrefix("arcade: cannot write the \(kind) to '\(path)': "), "\(r.err)")
                // refused before the game ran: no state printed
                #expect(r.out.isEmpty, "\(r.out)")
            }
        }
    }
}
