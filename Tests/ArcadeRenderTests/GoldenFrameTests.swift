import ArcadeCore
import Testing
@testable import ArcadeRender

/// Plain-text frames for each primitive and transform. Every golden was worked out by hand
/// from the pixel-centre rule (a pixel is drawn when its centre lies inside the shape) before
/// it was compared with the renderer; the comments give the reasoning.
@Suite struct GoldenFrameTests {
    @Test func spriteAtTopLeftAnchor() {
        // F's rows: ### / #.. / ##. / #.. at x 1...3. Row 0 pairs rows 0+1, row 1 pairs 2+3.
        let f = SpriteNode(sprite: letterF, x: 1, y: 0)
        f.anchor = .zero
        #expect(plain(drawn(scene(f), columns: 6, rows: 3)) == """
             █▀▀  |
             █▀   |
                  |
            """)
    }

    @Test func spriteCentredOnItsPosition() {
        // 3 x 4 centred on (4, 2): x from 2.5 to 5.5. Centres nudged a hair left put 2.5
        // just outside and 5.5 just inside, so the sprite takes pixels 3...5, centred on
        // pixel 4; y from 0 to 4.
        let f = SpriteNode(sprite: letterF, x: 4, y: 2)
        #expect(plain(drawn(scene(f), columns: 8, rows: 2)) == """
               █▀▀  |
               █▀   |
            """)
    }

    @Test func mirroredSpriteCoversTheSamePixels() {
        // scaleX = -1 flips F about its centre column: the spine moves to x = 5, and the
        // sprite stays on pixels 3...5 rather than shifting by one.
        let f = SpriteNode(sprite: letterF, x: 4, y: 2)
        f.scaleX = -1
        #expect(plain(drawn(scene(f), columns: 8, rows: 2)) == """
               ▀▀█  |
                ▀█  |
            """)
    }

    @Test func rotationByNinetyDegreesIsClockwise() {
        // Turned clockwise about (4, 4) the box spans x 2...6, y 2.5...5.5, so rows 3...5.
        // The spine (left column) becomes the top row, y = 3, x 2...5; the top bar becomes
        // the right column x = 5, y 3...5; the middle bar hangs from x = 3 for two pixels.
        let f = SpriteNode(sprite: letterF, x: 4, y: 4)
        f.rotation = .pi / 2
        let canvas = drawn(scene(f), columns: 8, rows: 4)
        #expect(pixelMap(canvas, [Palette.white: "#"]) == """
            ........
            ........
            ........
            ..####..
            ...#.#..
            .....#..
            ........
            ........
            """)
        #expect(plain(canvas) == """
                    |
              ▄▄▄▄  |
               ▀ █  |
                    |
            """)
    }

    @Test func rotationByASmallAngleTiltsDownToTheRight() {
        // An 8 x 2 bar centred on (6, 6) turned 0.2 rad clockwise: its right end drops
        // about 0.8 px, its left end rises as much. Checked against an independent
        // evaluation of |x'| < 4, -1 <= y' < 1 with x' = cos*dx + sin*dy, y' = cos*dy - sin*dx.
        let bar = RectNode(width: 8, height: 2, x: 6, y: 6, fill: Palette.white)
        bar.rotation = 0.2
        let canvas = drawn(scene(bar), columns: 12, rows: 6)
        #expect(pixelMap(canvas, [Palette.white: "#"]) == """
            ............
            ............
            ............
            ............
            ..##........
            ..#######...
            ...#######..
            ........##..
            ............
            ............
            ............
            ............
            """)
        #expect(plain(canvas) == """
                        |
                        |
              ██▄▄▄▄▄   |
               ▀▀▀▀▀██  |
                        |
                        |
            """)
    }

    @Test func halfScaleSamplesEveryOtherPixel() {
        // A 6 x 8 F with 2-pixel strokes at half scale: each pixel centre maps to a boundary
        // between two source pixels, and the nudge picks the first, so the samples are
        // columns 0, 2, 4 and rows 0, 2, 4, 6, which is exactly the small F.
        let bigF = try! Sprite(palette: ["#": Palette.white], rows: [
            "######",
            "######",
            "##....",
            "##....",
            "####..",
            "####..",
            "##....",
            "##....",
        ])
        let f = SpriteNode(sprite: bigF, x: 1, y: 0)
        f.anchor = .zero
        f.scale = 0.5
        #expect(plain(drawn(scene(f), columns: 6, rows: 3)) == """
             █▀▀  |
             █▀   |
                  |
            """)
    }

    @Test func alphaBlendsNumerically() {
        // 0.4 of red over blue: 0.4 * 255 = 102 for red, 0.6 * 255 = 153 for blue.
        let under = RectNode(width: 4, height: 4, x: 2, y: 2, fill: Palette.blue)
        let over = RectNode(width: 2, height: 2, x: 2, y: 2, fill: Palette.red)
        over.alpha = 0.4
        let canvas = drawn(scene(under, over), columns: 4, rows: 2)
        #expect(canvas.pixel(x: 1, y: 1) == Color(r: 102, g: 0, b: 153))
        #expect(canvas.pixel(x: 0, y: 0) == Palette.blue)
        // A disc at 0.4 over black, as Last Circle's background circles.
        let disc = CircleNode(radius: 2, x: 2, y: 2, fill: Palette.white)
        disc.alpha = 0.4
        #expect(drawn(scene(disc), columns: 4, rows: 2).pixel(x: 2, y: 2) == Color(r: 102, g: 102, b: 102))
    }

    @Test func discAndRing() {
        // Radius 3 about (4, 4): centres with dx^2 + dy^2 <= 9. Rows 1 and 6 reach |dx| = 1.5,
        // rows 2...5 reach |dx| = 2.5. The ring keeps what is not inside radius 2.
        let disc = CircleNode(radius: 3, x: 4, y: 4, fill: Palette.white)
        #expect(plain(drawn(scene(disc), columns: 8, rows: 4)) == """
              ▄▄▄▄  |
             ██████ |
             ██████ |
              ▀▀▀▀  |
            """)
        let ring = CircleNode(radius: 3, x: 4, y: 4, fill: .clear, stroke: Palette.white)
        #expect(plain(drawn(scene(ring), columns: 8, rows: 4)) == """
              ▄▄▄▄  |
             █▀  ▀█ |
             █▄  ▄█ |
              ▀▀▀▀  |
            """)
    }

    @Test func outlinedRect() {
        // 6 x 4 at (1, 2) with a 1-pixel border: the inside (x 2...5, y 3...4) stays empty.
        let box = RectNode(width: 6, height: 4, x: 1, y: 2, fill: .clear, stroke: Palette.white)
        box.anchor = .zero
        #expect(plain(drawn(scene(box), columns: 8, rows: 4)) == """
                    |
             █▀▀▀▀█ |
             █▄▄▄▄█ |
                    |
            """)
    }

    @Test func outlinedBigDigits() {
        // "12" in the small font, white with an orange outline: glyphs at x 1...3 and 5...7,
        // y 1...5, and every blank pixel touching one (diagonals too) is outline. The top-left
        // corner touches nothing.
        let label = LabelNode(text: "12", font: .small, color: Palette.white, outline: Palette.orange)
        label.anchor = .zero
        let canvas = drawn(scene(label), columns: 9, rows: 4)
        #expect(pixelMap(canvas, [Palette.white: "W", Palette.orange: "o"]) == """
            .oooooooo
            ooWooWWWo
            oWWooooWo
            ooWooWWWo
            ooWooWooo
            oWWWoWWWo
            ooooooooo
            .........
            """)
        #expect(plain(canvas) == """
            ▄████████|
            █████████|
            █████████|
            ▀▀▀▀▀▀▀▀▀|
            """)
    }

    @Test func textLandsInTheCellHoldingItsPosition() {
        // A gold band over pixel rows 0...2; "HI" anchored top-left at pixel (1, 2) is in
        // cell (1, 1), whose top pixel is gold and bottom one black. "ABC" anchored at its top
        // centre on x = 4: the character at the anchor point (1.5 columns in: "B") lands in
        // column 4, so the text covers columns 3...5, the pixels a 3-wide sprite centred there
        // covers.
        let band = RectNode(width: 8, height: 3, fill: Palette.gold)
        band.anchor = .zero
        let hi = TextNode(text: "HI", x: 1, y: 2)
        hi.anchor = .zero
        let abc = TextNode(text: "ABC", x: 4, y: 4)
        abc.anchor = Vec2(0.5, 0)
        let canvas = drawn(scene(band, hi, abc), columns: 8, rows: 3)
        #expect(plain(canvas) == """
            ████████|
            ▀HI▀▀▀▀▀|
               ABC  |
            """)
        // The glyph's background is the mean of gold and black beneath it.
        let cell = canvas.makeFrame()[1, 1]
        #expect(cell.foreground == Palette.white)
        #expect(cell.background == Color(r: 128, g: 102, b: 0))
    }

    @Test func lineWithStrokeEndHalf() {
        // A 2-wide line along y = 2 from x 0 to 10 covers rows 1 and 2; half of it, x 0...4.
        let flat = LineNode(from: Vec2(0, 2), to: Vec2(10, 2), color: Palette.brown, lineWidth: 2)
        flat.strokeEnd = 0.5
        #expect(plain(drawn(scene(flat), columns: 10, rows: 2)) == """
            ▄▄▄▄▄     |
            ▀▀▀▀▀     |
            """)
        // A 1-wide diagonal: only pixels on the diagonal have centres within 0.5 of it; the
        // first half is (0,0)...(3,3), the second (strokeStart 0.5) is (4,4)...(7,7).
        let first = LineNode(from: Vec2(0, 0), to: Vec2(8, 8), color: Palette.brown)
        first.strokeEnd = 0.5
        #expect(plain(drawn(scene(first), columns: 8, rows: 4)) == """
            ▀▄      |
              ▀▄    |
                    |
                    |
            """)
        let second = LineNode(from: Vec2(0, 0), to: Vec2(8, 8), color: Palette.brown)
        second.strokeStart = 0.5
        #expect(plain(drawn(scene(second), columns: 8, rows: 4)) == """
                    |
                    |
                ▀▄  |
                  ▀▄|
            """)
    }

    @Test func childrenFollowTheirParentsTransform() throws {
        // Parent: a 2 x 2 square at (4, 4). Child: a 2 x 2 square 3 pixels to the parent's
        // right. Turned 90 degrees clockwise the parent's right points down, so the child
        // sits below at (4, 7); mirrored, it sits to the left at (1, 4).
        func layout(_ configure: (Node) -> Void) throws -> String {
            let s = Scene(background: Palette.background)
            let parent = try s.add(RectNode(width: 2, height: 2, x: 4, y: 4, fill: Palette.white))
            try s.add(RectNode(width: 2, height: 2, x: 3, y: 0, fill: Palette.white), to: parent)
            configure(parent)
            return plain(drawn(s, columns: 8, rows: 4))
        }
        #expect(try layout { _ in } == """
                    |
               ▄▄ ▄▄|
               ▀▀ ▀▀|
                    |
            """)
        #expect(try layout { $0.rotation = .pi / 2 } == """
                    |
               ▄▄   |
               ▀▀   |
               ██   |
            """)
        #expect(try layout { $0.scaleX = -1 } == """
                    |
            ▄▄ ▄▄   |
            ▀▀ ▀▀   |
                    |
            """)
        #expect(try layout { $0.x = 2 } == """
                    |
             ▄▄ ▄▄  |
             ▀▀ ▀▀  |
                    |
            """)
    }

    @Test func childrenMultiplyTheirParentsAlpha() throws {
        // 0.5 of 0.5 is 0.25: 64 of 255 over black (0.25 * 255 = 63.75 rounds to 64).
        let s = Scene(background: Palette.background)
        let parent = try s.add(RectNode(width: 2, height: 2, x: 1, y: 1, fill: Palette.white))
        parent.alpha = 0.5
        let child = try s.add(RectNode(width: 2, height: 2, x: 4, y: 0, fill: Palette.white), to: parent)
        child.alpha = 0.5
        let canvas = drawn(s, columns: 8, rows: 1)
        #expect(canvas.pixel(x: 0, y: 0) == Color(r: 128, g: 128, b: 128))
        #expect(canvas.pixel(x: 4, y: 0) == Color(r: 64, g: 64, b: 64))
        #expect(child.composedAlpha == 0.25)
    }

    @Test func flipbookFrameFollowsTheSceneTime() {
        // Three frames of a quarter second: a block, a falling diagonal, a rising one.
        let block = try! Sprite(palette: ["#": Palette.white], rows: ["##", "##"])
        let fall = try! Sprite(palette: ["#": Palette.white], rows: ["#.", ".#"])
        let rise = try! Sprite(palette: ["#": Palette.white], rows: [".#", "#."])
        let fish = SpriteNode(flipbook: Flipbook(frames: [block, fall, rise], frameDuration: 0.25))
        fish.anchor = .zero
        let s = scene(fish)
        func at(_ t: Double) -> String { plain(drawn(s, columns: 2, rows: 1, time: t)) }
        #expect(at(0.1) == "██|")  // frame 0
        #expect(at(0.3) == "▀▄|")  // 0.3 / 0.25 = 1.2: frame 1
        #expect(at(0.6) == "▄▀|")  // 2.4: frame 2
        #expect(at(0.8) == "██|")  // 3.2 wraps to frame 0
        fish.animationStart = 0.25
        #expect(at(0.3) == "██|")  // 0.05 into its own loop
        fish.loopDuration = 1.5  // half a second a frame
        #expect(at(0.3 + 0.25 + 0.5) == "▀▄|")
        fish.isPlaying = false
        fish.frameIndex = 2
        #expect(at(0.1) == "▄▀|")
    }

    @Test func aRectDrawnAfterTextHidesIt() {
        // Text drawn first, then a rect over the same cell: the rect is on top, so the cell
        // shows the rect's pixels, not the glyph.
        let s = Scene(background: Palette.background)
        let label = try! s.add(TextNode(text: "A", x: 0, y: 0))
        label.anchor = .zero
        let box = try! s.add(RectNode(width: 2, height: 2, x: 1, y: 1, fill: Palette.blue))
        #expect(label.z == box.z)
        let frame = drawn(s, columns: 2, rows: 1).makeFrame()
        #expect(frame.plainText(background: Palette.background) == "██")
        #expect(frame[0, 0].appearance == .pixels(top: Palette.blue, bottom: Palette.blue))
    }

    @Test func immediateModeDrawsOverTheScene() {
        let canvas = Canvas(columns: 8, rows: 3, background: Palette.background)
        let gfx = Graphics(canvas: canvas)
        gfx.fillRect(x: 0, y: 0, width: 2, height: 2, color: Palette.white)  // top-left block
        gfx.push()
        gfx.translate(4, 2)
        gfx.strokeRect(x: 0, y: 0, width: 4, height: 4, color: Palette.white)
        gfx.pop()
        // A 1-wide line along y = 5 covers 4.5...5.5: pixel row 5, the bottom halves of row 2.
        gfx.line(x1: 0, y1: 5, x2: 3, y2: 5, color: Palette.white)
        gfx.text("ok", x: 2, y: 0, color: Palette.white)
        // The outline spans x 4...7, y 2...5 after the translation.
        #expect(plain(canvas) == """
            ██ok    |
                █▀▀█|
            ▄▄▄ █▄▄█|
            """)
        #expect(!gfx.pop())  // nothing left to restore
    }
}
