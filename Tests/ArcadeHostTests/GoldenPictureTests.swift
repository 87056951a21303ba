import Foundation
import Testing
import ArcadeCore
import ArcadePicture
import ArcadeRender
import ArcadeTestSupport
@testable import ArcadeHost

/// A failing golden comparison writes expected.png, actual.png and diff.png and names them.
@Suite struct GoldenPictureTests {
    @Test func aFailingGoldenWritesItsThreePicturesAndNamesThem() throws {
        let g = try GameTestRunnerTests.game(tests: [
            "a.lua": """
                test("one press", function(t)
                  t:start():key("space"):step():expect_golden("pictured")
                end)
                """,
            "tests/golden/pictured.txt": "presses 9\n" + String(repeating: "\n", count: 23),
        ])
        let folder = GoldenPictures.folder(game: "scratch", name: "pictured")
        try? FileManager.default.removeItem(atPath: folder)
        let r = try #require(try GameTestRunnerTests.run(g).first)
        #expect(!r.passed)
        let paths = ["expected", "actual", "diff"].map { folder + "/" + $0 + ".png" }
        #expect(r.details.last == "pictures: " + paths.joined(separator: " "))

        let expected = try decodePNG(fileBytes(paths[0]))
        let actual = try decodePNG(fileBytes(paths[1]))
        let diff = try decodePNG(fileBytes(paths[2]))
        #expect(expected.width == 640 && expected.height == 384)
        #expect(actual.width == 640 && actual.height == 384 && diff.width == 640)

        /// The colours in cell `column`, row 0 of `picture`.
        func colours(_ picture: Picture, _ column: Int) -> Set<UInt32> {
            Set((0..<16).flatMap { y in (0..<8).map { x in picture[column * 8 + x, y] } })
        }
        let red = Picture.rgb(GoldenPictures.changedPaper), ink = Picture.rgb(GoldenPictures.ink)
        // "presses 9" against "presses 1": only the ninth cell is marked, and its glyph shows
        #expect(colours(diff, 8) == [red, Picture.rgb(GoldenPictures.changedInk)])
        #expect(colours(diff, 0) == [Picture.rgb(GoldenPictures.paper), ink])
        #expect(!diff.pixels.enumerated().contains { i, p in p == red && (i % 640 < 64 || i % 640 >= 72 || i / 640 >= 16) })
        // the expected picture shows the golden's 9, the diff the frame's 1: different glyphs
        #expect(colours(expected, 8) == [Picture.rgb(GoldenPictures.paper), ink])
        #expect((0..<16).map { y in (0..<8).map { expected[64 + $0, y] == ink } }
                != (0..<16).map { y in (0..<8).map { diff[64 + $0, y] != red } })
        // the actual picture is the frame in its own colours
        #expect(actual.pixels.contains { $0 != Picture.rgb(GoldenPictures.paper) && $0 != ink })
    }
}
