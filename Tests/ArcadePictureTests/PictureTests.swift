import ArcadeCore
import ArcadeRender
import Testing
@testable import ArcadePicture

/// A font of three glyphs whose pixels the tests know: `A` (8 wide), `中` (16 wide) and
/// `W` drawn 16 wide (squeezed into one cell).
let testFont = GlyphFont(hex: """
    0041:0000000018242442427E424242420000
    4E2D:01000100010001003FF8210821082108210821083FF821080100010001000100
    0057:FFFF00000000000000000000000000000000000000000000000000000000C003

    """)

/// The 16 rows of 8 pixels of the `A` above.
let glyphA: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x18, 0x24, 0x24, 0x42, 0x42, 0x7E, 0x42, 0x42, 0x42, 0x42, 0x00, 0x00]

let red = Color(rgb: 0xFF0000), blue = Color(rgb: 0x0000FF), green = Color(rgb: 0x00FF00), white = Color(rgb: 0xFFFFFF)
let black = Color(rgb: 0x000000)

/// The 8x16 pixels of cell `column`, `row` of `picture`, row by row.
func cellPixels(_ picture: Picture, column: Int, row: Int) -> [[UInt32]] {
    (0..<16).map { y in (0..<8).map { x in picture[column * 8 + x, row * 16 + y] } }
}

@Suite struct PictureTests {
    let painter = CellPainter(font: testFont)

    @Test func eachCellIsEightBySixteenPixels() {
        let picture = Picture(frame: Frame(columns: 3, rows: 2), painter: painter)
        #expect(picture.width == 24 && picture.height == 32)
        let scaled = Picture(frame: Frame(columns: 3, rows: 2), scale: 3, painter: painter)
        #expect(scaled.width == 72 && scaled.height == 96)
    }

    @Test func halfBlocksAreTwoSquaresInTheirExactColours() {
        var frame = Frame(columns: 4, rows: 1)
        frame[0, 0] = Cell(top: red, bottom: blue)                                          // ▀
        frame[1, 0] = Cell(character: Cell.lowerHalf, foreground: green, background: red)   // ▄: red over green
        frame[2, 0] = Cell(character: Cell.fullBlock, foreground: blue, background: white)  // █: blue
        frame[3, 0] = Cell(character: " ", foreground: white, background: green)            // space: green
        let picture = Picture(frame: frame, painter: painter)
        let square = { (top: Color, bottom: Color) -> [[UInt32]] in
            (0..<16).map { y in Array(repeating: Picture.rgb(y < 8 ? top : bottom), count: 8) }
        }
        #expect(cellPixels(picture, column: 0, row: 0) == square(red, blue))
        #expect(cellPixels(picture, column: 1, row: 0) == square(red, green))
        #expect(cellPixels(picture, column: 2, row: 0) == square(blue, blue))
        #expect(cellPixels(picture, column: 3, row: 0) == square(green, green))
    }

    @Test func textIsItsGlyphInTheForegroundOnTheBackground() {
        var frame = Frame(columns: 2, rows: 1)
        frame[1, 0] = Cell(character: "A", foreground: white, background: blue)
        let picture = Picture(frame: frame, painter: painter)
        let want = glyphA.map { bits in (0..<8).map { x in Picture.rgb(bits & (0x80 >> UInt8(x)) != 0 ? white : blue) } }
        #expect(cellPixels(picture, column: 1, row: 0) == want)
        #expect(cellPixels(picture, column: 0, row: 0) == Array(repeating: Array(repeating: 0, count: 8), count: 16))
    }

    @Test func aWideGlyphTakesSixteenPixelsOverItsTwoCells() {
        var frame = Frame(columns: 3, rows: 1, background: green)
        frame[0, 0] = Cell(character: "中", foreground: red, background: black)
        #expect(frame[1, 0].isContinuation)
        let picture = Picture(frame: frame, painter: painter)
        let glyph = testFont.glyph(0x4E2D)!
        #expect(glyph.width == 16)
        for y in 0..<16 {
            for x in 0..<16 {
                #expect(picture[x, y] == Picture.rgb(glyph.isSet(x: x, y: y) ? red : black), "pixel \(x), \(y)")
            }
        }
        #expect(picture[16, 0] == Picture.rgb(green))
    }

    @Test func aGlyphTheFontLacksIsABox() {
        var frame = Frame(columns: 4, rows: 1)
        frame[0, 0] = Cell(character: "\u{E123}", foreground: white, background: blue)
        frame[1, 0] = Cell(character: "\u{AC00}", foreground: white, background: blue)  // 가, wide, not in the test font
        let picture = Picture(frame: frame, painter: painter)
        let narrow: [UInt16] = [0, 0, 0x7E00] + Array(repeating: 0x4200, count: 10) + [0x7E00, 0, 0]
        let wide: [UInt16] = [0, 0, 0x7FFE] + Array(repeating: 0x4002, count: 10) + [0x7FFE, 0, 0]
        for y in 0..<16 {
            for x in 0..<8 {
                #expect(picture[x, y] == Picture.rgb(narrow[y] & (0x8000 >> UInt16(x)) != 0 ? white : blue), "narrow \(x), \(y)")
            }
            for x in 0..<16 {
                #expect(picture[8 + x, y] == Picture.rgb(wide[y] & (0x8000 >> UInt16(x)) != 0 ? white : blue), "wide \(x), \(y)")
            }
        }
    }

    @Test func aSixteenPixelGlyphInOneCellIsSqueezed() {
        var frame = Frame(columns: 1, rows: 1)
        frame[0, 0] = Cell(character: "W", foreground: white, background: black)
        let picture = Picture(frame: frame, painter: painter)
        // row 0 is all set; row 15 has the two leftmost and two rightmost of 16: one of 8 each side
        #expect((0..<8).allSatisfy { picture[$0, 0] == 0xFFFFFF })
        #expect((0..<8).map { picture[$0, 15] } == [0xFFFFFF, 0, 0, 0, 0, 0, 0, 0xFFFFFF])
        #expect((1..<15).allSatisfy { y in (0..<8).allSatisfy { picture[$0, y] == 0 } })
    }

    @Test func scaleRepeatsEachPixel() {
        var frame = Frame(columns: 1, rows: 1)
        frame[0, 0] = Cell(character: "A", foreground: white, background: blue)
        let one = Picture(frame: frame, painter: painter), two = Picture(frame: frame, scale: 2, painter: painter)
        for y in 0..<32 {
            for x in 0..<16 { #expect(two[x, y] == one[x / 2, y / 2]) }
        }
    }

    @Test func unifontIsReadFromTheSystem() {
        let font = GlyphFont.shared
        #expect(!font.sources.isEmpty, "no Unifont found: scripts/setup.sh installs Debian's unifont package")
        #expect(font.count > 50_000)
        #expect(font.glyph(0x41)?.width == 8)
        #expect(font.glyph(0x4E2D)?.width == 16)
        #expect(font.glyph(0x2588) != nil)
    }

    @Test func linesTheFontCannotReadAreSkipped() {
        let font = GlyphFont(hex: "0041:00\nzz:0000000018242442427E424242420000\n0042:0000000018242442427E424242420000\n")
        #expect(font.count == 1)
        #expect(font.glyph(0x41) == nil)
        #expect(font.glyph(0x42)?.rows[4] == 0x1800)
    }
}
