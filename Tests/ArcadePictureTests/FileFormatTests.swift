import ArcadeCore
import ArcadeRender
import Testing
@testable import ArcadePicture
import ArcadeTestSupport

/// A frame with a bit of everything: pixels of many colours, text, a wide glyph, a box.
func sampleFrame(columns: Int = 12, rows: Int = 4, shift: Int = 0) -> Frame {
    var frame = Frame(columns: columns, rows: rows, background: Color(rgb: 0x102030))
    for c in 0..<columns {
        frame[c, rows - 1] = Cell(top: Color(r: UInt8((c * 20 + shift) & 0xFF), g: 80, b: 200), bottom: Color(rgb: 0x00FF00))
    }
    frame[1, 0] = Cell(character: "A", foreground: white, background: blue)
    frame[3, 0] = Cell(character: "中", foreground: red, background: black)
    frame[6, 1] = Cell(character: "\u{E123}", foreground: white, background: red)
    return frame
}

@Suite struct FileFormatTests {
    let painter = CellPainter(font: testFont)

    @Test func aPNGDecodesBackToThePicture() throws {
        let picture = Picture(frame: sampleFrame(), painter: painter)
        let bytes = picture.png()
        let back = try decodePNG(bytes)
        #expect(back.width == picture.width && back.height == picture.height)
        #expect(back.pixels == picture.pixels)
    }

    @Test func aScaledPNGDecodesBackToo() throws {
        let picture = Picture(frame: sampleFrame(), scale: 2, painter: painter)
        #expect(try decodePNG(picture.png()) == picture)
    }

    @Test func aPNGIsWrittenToAFile() throws {
        let folder = pictureTestFolder()
        let picture = Picture(frame: sampleFrame(), painter: painter)
        try picture.writePNG(to: folder + "/a.png")
        #expect(try decodePNG(fileBytes(folder + "/a.png")) == picture)
        #expect(throws: PictureError.self) { try picture.writePNG(to: folder + "/missing/a.png") }
    }

    @Test func aGIFDecodesBackToEachFrameWithItsTime() throws {
        let path = pictureTestFolder() + "/a.gif"
        let gif = try GIFAnimation(path: path, columns: 12, rows: 4, painter: painter)
        var frames: [Frame] = []
        for i in 0..<4 { frames.append(sampleFrame(shift: i * 3)) }
        var b = frames[3]
        b[0, 1] = Cell(character: "A", foreground: red, background: white)
        frames.append(b)
        for (i, f) in frames.enumerated() { try gif.add(f, centiseconds: 3 + i) }
        try gif.finish()
        let decoded = try decodeGIF(path)
        #expect(decoded.width == 96 && decoded.height == 64)
        #expect(decoded.loops)
        #expect(decoded.frames.count == 5)
        for (i, f) in frames.enumerated() where i < decoded.frames.count {
            #expect(decoded.frames[i].picture == Picture(frame: f, painter: painter), "frame \(i)")
            #expect(decoded.frames[i].centiseconds == 3 + i)
        }
        // the first frame whole; the next ones only the bottom row that changed; the last
        // only the cell at 0, 1 (and the cell after it, for a wide glyph's sake)
        #expect(decoded.frames[0].rect == (0, 0, 96, 64))
        #expect(decoded.frames[1].rect.y == 48 && decoded.frames[1].rect.h == 16)
        #expect(decoded.frames[4].rect == (0, 16, 16, 16))
    }

    @Test func aFrameThatChangesNothingLengthensTheOneBefore() throws {
        let path = pictureTestFolder() + "/a.gif"
        let gif = try GIFAnimation(path: path, columns: 12, rows: 4, painter: painter)
        try gif.add(sampleFrame(), centiseconds: 3)
        try gif.add(sampleFrame(), centiseconds: 4)
        try gif.add(sampleFrame(), centiseconds: 3)
        try gif.add(sampleFrame(shift: 5), centiseconds: 4)
        try gif.finish()
        #expect(gif.framesWritten == 2 && gif.framesMerged == 2)
        let decoded = try decodeGIF(path)
        #expect(decoded.frames.map(\.centiseconds) == [10, 4])
    }

    @Test func aFrameOfManyColoursGoesToTheNearestOfAFixedTable() throws {
        var frame = Frame(columns: 40, rows: 10)
        for r in 0..<10 {
            for c in 0..<40 {
                frame[c, r] = Cell(top: Color(r: UInt8(c * 6), g: UInt8(r * 25), b: 10), bottom: Color(r: 5, g: UInt8(c * 6), b: UInt8(r * 25)))
            }
        }
        let path = pictureTestFolder() + "/a.gif"
        let gif = try GIFAnimation(path: path, columns: 40, rows: 10, painter: painter)
        try gif.add(frame, centiseconds: 5)
        try gif.finish()
        let decoded = try decodeGIF(path)
        let exact = Picture(frame: frame, painter: painter)
        let got = decoded.frames[0].picture
        var worst = 0
        for i in 0..<exact.pixels.count {
            let a = exact.pixels[i], b = got.pixels[i]
            for shift in [16, 8, 0] as [UInt32] {
                worst = max(worst, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)))
            }
        }
        #expect(worst <= 26)
    }

    @Test func aGIFRefusesABadScaleOrPath() {
        #expect(throws: PictureError.self) { try GIFAnimation(path: pictureTestFolder() + "/a.gif", columns: 4, rows: 4, scale: 0) }
        #expect(throws: PictureError.self) { try GIFAnimation(path: "/nonexistent-folder/a.gif", columns: 4, rows: 4) }
    }
}
