import Foundation
import ArcadeCore
import Testing
@testable import ArcadeRender

@Suite struct SpriteTests {
    @Test func paletteRowsBecomePixels() throws {
        let s = try Sprite(palette: ["Y": Palette.gold, "k": Palette.background], rows: ["kY.", "Y", " Yk"])
        #expect(s.width == 3 && s.height == 3)
        #expect(s[0, 0] == Palette.background)
        #expect(s[1, 0] == Palette.gold)
        #expect(s[2, 0] == .clear)
        #expect(s[1, 1] == .clear)  // padded
        #expect(s[0, 2] == .clear)  // space is transparent
        #expect(s[9, 9] == .clear)
    }

    @Test func unknownAndReservedKeysAreReported() {
        #expect(throws: SpriteError.unknownKey("z", row: 2, column: 3)) {
            try Sprite(palette: ["a": Palette.red], rows: ["aaa", "aaz"])
        }
        #expect(throws: SpriteError.reservedKey(".")) {
            try Sprite(palette: [".": Palette.red], rows: ["."])
        }
        #expect(throws: SpriteError.empty) { try Sprite(palette: [:], rows: []) }
    }

    @Test func aSpriteFileParsesIntoAFlipbook() throws {
        let text = """
            # two frames of a tiny fish
            frame_time 0.5
            color Y #ffcc00
            color k #00000080

            frame
            .YY
            kYY
            frame
            # the tail flicks
            YYY
            .kY
            """
        let book = try SpriteFile.parse(text)
        #expect(book.frameDuration == 0.5)
        #expect(book.frames.count == 2)
        #expect(book.frames[0][0, 0] == .clear)
        #expect(book.frames[0][0, 1] == Color(r: 0, g: 0, b: 0, a: 0x80))
        #expect(book.frames[1][0, 0] == Palette.gold)
        #expect(book.frames[1].height == 2)
        #expect(book.frameIndex(at: 1.2) == 0)  // 2.4 frames in: frame 2 wraps to 0
        #expect(book.frameIndex(at: -0.2) == 1)  // before the start, counting back
    }

    @Test func spriteFileErrorsNameTheLine() {
        func error(_ text: String) -> SpriteFileError? {
            do {
                _ = try SpriteFile.parse(text)
                return nil
            } catch {
                return error
            }
        }
        #expect(error("color Y ffcc0\nframe\nY")?.line == 1)
        #expect(error("color Y #fff\ncolor Y #000\nframe\nY")?.line == 2)
        #expect(error("frame_time -1\nframe\n.")?.line == 1)
        #expect(error("colour Y #fff\nframe\nY")?.line == 1)
        #expect(error("color Y #fff\n")?.message == "no `frame` in the file")
        // The bad row is line 5: the comment and the blank line still count.
        #expect(error("color Y #fff\nframe\nYY\n# tail\n\nYq")?.line == 6)
    }

    @Test func tintMultipliesTheArt() {
        let node = SpriteNode(sprite: Sprite(width: 2, height: 2, fill: Color(rgb: 0x80FF40)))
        node.anchor = .zero
        node.tint = Color(rgb: 0xFF8000)
        let canvas = drawn(scene(node), columns: 2, rows: 1)
        // 0x80 * 1, 0xFF * 0x80 / 255, 0x40 * 0.
        #expect(canvas.pixel(x: 0, y: 0) == Color(r: 0x80, g: 0x80, b: 0))
    }

    /// A sprite sharing another's list of frames shows, at every time, exactly what one
    /// made from the same flipbook shows, whatever the other's tint: still art (drawn by
    /// the kernel) and a flipbook.
    @Test func aSpriteSharingAnothersFramesDrawsAsOneMadeFromTheFlipbook() {
        let red = Sprite(width: 3, height: 2, fill: Color(rgb: 0xFF2010))
        let blue = Sprite(width: 2, height: 3, fill: Color(rgb: 0x1040FF))
        for book in [Flipbook(red), Flipbook(frames: [red, blue], frameDuration: 0.5)] {
            let model = SpriteNode(flipbook: book)
            model.tint = Color(rgb: 0x808080)
            let plain = SpriteNode(flipbook: book, x: 3, y: 2)
            let shared = SpriteNode(framesOf: model, x: 3, y: 2)
            plain.scaleX = 1.5
            shared.scaleX = 1.5
            for time in [0.0, 0.6, 1.2] {
                let a = drawn(scene(plain), columns: 6, rows: 3, time: time)
                let b = drawn(scene(shared), columns: 6, rows: 3, time: time)
                #expect(a.makeFrame() == b.makeFrame(), "time \(time)")
                #expect(a.pixel(x: 3, y: 2) != a.background)
            }
            #expect(shared.contentBounds() == plain.contentBounds())
        }
    }

    @Test func semiTransparentPixelsBlendWithTheNodeAlpha() {
        // A pixel at half alpha on a node at half alpha: a quarter of white over black.
        let node = SpriteNode(sprite: Sprite(width: 1, height: 1, fill: Color(r: 255, g: 255, b: 255, a: 128)))
        node.anchor = .zero
        node.alpha = 0.5
        // 128 * 128 / 255 = 64.25 -> 64; then 255 * 64 / 255 = 64.
        #expect(drawn(scene(node), columns: 1, rows: 1).pixel(x: 0, y: 0) == Color(r: 64, g: 64, b: 64))
    }
}

/// The `.sprite` format as `docs/writing-games.md` documents it.
@Suite struct SpriteFileDocsTests {
    static let guide: String = {
        let file = String(#filePath)  // Tests/ArcadeRenderTests/SpriteTests.swift
        var root = file[..<file.lastIndex(of: "/")!]
        for _ in 0..<2 { root = root[..<root.lastIndex(of: "/")!] }
        return (try? String(contentsOfFile: root + "/docs/writing-games.md", encoding: .utf8)) ?? ""
    }()

    /// The fenced blocks marked `sprite` in the guide.
    static var examples: [String] {
        var blocks: [String] = []
        var current: [Substring]? = nil
        for line in guide.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```sprite" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func theGuidesExampleIsAValidSpriteFileAndLooksAsDescribed() throws {
        let examples = Self.examples
        #expect(examples.count == 1)
        let fish = try SpriteFile.parse(try #require(examples.first))
        // "a two-frame fish, 8 x 3 pixels, each frame shown a quarter of a second"
        #expect(fish.frames.count == 2)
        #expect(fish.frameDuration == 0.25)
        #expect(fish.frames.allSatisfy { $0.width == 8 && $0.height == 3 })
        // `f` is half-transparent orange; dots are transparent.
        #expect(fish.frames[0][7, 1] == Color(r: 0xFF, g: 0x88, b: 0x00, a: 0x80))
        #expect(fish.frames[0][0, 0] == .clear)
    }
}
