import Testing
@testable import ArcadeHost

@Suite struct GoldenFrameFileTests {
    @Test func rowsAreStoredWithoutTrailingBlanksAndEndWithANewline() {
        #expect(GoldenFrame.normalized("ab  \n  \ncd") == "ab\n\ncd\n")
        // a file's final newline is not an extra row
        #expect(GoldenFrame.normalized("ab\n\ncd\n") == "ab\n\ncd\n")
        #expect(GoldenFrame.normalized("ab\n\n") == "ab\n\n")
    }

    @Test func theDifferenceMarksEachCell() throws {
        #expect(GoldenFrame.difference(want: "abc\nxyz\n", got: "abc  \nxyz") == nil)
        let d = try #require(GoldenFrame.difference(want: "abc\nxyz\n", got: "abd\nxyz\nnew"))
        #expect(d.summary == "4 cells differ in 2 rows (2 rows in the golden frame, 3 in the frame)")
        #expect(d.diff.split(separator: "\n", omittingEmptySubsequences: false) == [
            "row 0:",
            "  want |abc|",
            "  got  |abd|",
            "          ^",      // under the third cell
            "row 2 (not in the golden frame):",
            "  want ||",
            "  got  |new|",
            "        ^^^",
        ])
    }

    @Test func namesAreFileNamesOnly() {
        #expect(GoldenFrame.isValidName("mid-burst_2.wide"))
        #expect(!GoldenFrame.isValidName("../x"))
        #expect(!GoldenFrame.isValidName(".hidden"))
        #expect(!GoldenFrame.isValidName("a/b"))
        #expect(!GoldenFrame.isValidName(""))
    }
}
