import ArcadeCore
import Testing
@testable import ArcadeRender

/// Text and shapes compose in one depth order: per cell, whatever was drawn last decides
/// whether a glyph or pixels show.
@Suite struct TextDepthTests {
    /// "TIME" at the top-left, under or over a blue box covering its first two cells.
    func timeCard(textZ: Double, boxZ: Double) -> Canvas {
        let text = TextNode(text: "TIME", x: 0, y: 0)
        text.anchor = .zero
        text.z = textZ
        let box = RectNode(width: 2, height: 2, fill: Palette.blue)
        box.anchor = .zero
        box.z = boxZ
        return drawn(scene(text, box), columns: 4, rows: 1)
    }

    @Test func textUnderAHigherShapeIsHidden() {
        // The rect was added after the text but would be drawn first without its z: z decides.
        let canvas = timeCard(textZ: 0, boxZ: 10)
        let frame = canvas.makeFrame()
        #expect(frame.plainText(background: Palette.background) == "██ME")
        #expect(frame[0, 0].appearance == .pixels(top: Palette.blue, bottom: Palette.blue))
        #expect(canvas.text(column: 0, row: 0) == nil)
        #expect(canvas.text(column: 2, row: 0)?.character == "M")
    }

    @Test func textAboveALowerShapeShowsOnIt() {
        let frame = timeCard(textZ: 10, boxZ: 0).makeFrame()
        #expect(frame.plainText(background: Palette.background) == "TIME")
        #expect(frame[0, 0] == Cell(character: "T", foreground: Palette.white, background: Palette.blue))
    }

    @Test func aShapeOverHalfACellHidesTheGlyph() {
        // A one-pixel-high strip over the top halves: the cell shows the strip over the black.
        let canvas = Canvas(columns: 3, rows: 1, background: Palette.background)
        canvas.drawText("abc", transform: .identity, color: Palette.white)
        canvas.drawRect(width: 2, height: 1, transform: .identity, anchor: .zero, fill: Palette.red)
        let frame = canvas.makeFrame()
        #expect(frame.plainText(background: Palette.background) == "▀▀c")
        #expect(frame[0, 0].appearance == .pixels(top: Palette.red, bottom: Palette.background))
    }

    @Test func aFaintOverlayTintsTextAndAnOpaqueEnoughOneHidesIt() {
        func overlaid(_ alpha: Double) -> Canvas {
            let canvas = Canvas(columns: 1, rows: 1, background: Palette.background)
            canvas.drawText("A", transform: .identity, color: Palette.white)
            canvas.drawRect(width: 1, height: 2, transform: .identity, anchor: .zero, fill: Palette.blue, alpha: alpha)
            return canvas
        }
        // A quarter (weight 64) of blue over the white glyph and over the black beneath it.
        let faint = overlaid(0.25).makeFrame()[0, 0]
        #expect(faint.character == "A")
        #expect(faint.foreground == Color(r: 191, g: 191, b: 255))
        #expect(faint.background == Color(r: 0, g: 0, b: 64))
        // From half opaque on the shape is the top-most thing in the cell.
        #expect(overlaid(0.49).makeFrame()[0, 0].character == "A")
        #expect(overlaid(0.5).makeFrame()[0, 0].appearance == .pixels(top: Color(r: 0, g: 0, b: 128), bottom: Color(r: 0, g: 0, b: 128)))
    }

    @Test func faintOverlaysOneAfterAnotherEachTintTheText() {
        // Two quarter-blue draws over white: the second tints what the first left, as it
        // does the pixels beneath.
        let canvas = Canvas(columns: 1, rows: 1, background: Palette.background)
        canvas.drawText("A", transform: .identity, color: Palette.white)
        for _ in 0..<2 {
            canvas.drawRect(width: 1, height: 2, transform: .identity, anchor: .zero, fill: Palette.blue, alpha: 0.25)
        }
        let cell = canvas.makeFrame()[0, 0]
        #expect(cell.character == "A")
        #expect(cell.foreground == Color(r: 143, g: 143, b: 255))
    }

    @Test func aDrawCountsOnceForBothPixelsOfACell() {
        // Two pixels of one 40 % draw over the glyph: the glyph is tinted once, like each pixel.
        let canvas = Canvas(columns: 1, rows: 1, background: Palette.background)
        canvas.drawText("A", transform: .identity, color: Palette.white)
        canvas.drawRect(width: 1, height: 2, transform: .identity, anchor: .zero, fill: Palette.background, alpha: 0.4)
        let cell = canvas.makeFrame()[0, 0]
        #expect(cell.foreground == Color(r: 153, g: 153, b: 153))
    }

    @Test(arguments: ["sprite", "tinted sprite", "turned sprite", "rect", "turned rect", "ellipse", "line", "pixel", "text background"])
    func everyKindOfDrawingCoversText(kind: String) {
        let canvas = Canvas(columns: 4, rows: 2, background: Palette.background)
        canvas.drawText("abcd\nefgh", transform: .identity, color: Palette.white)
        let solid = Sprite(width: 4, height: 4, fill: Palette.red)
        switch kind {
        case "sprite": canvas.drawSprite(solid, transform: .translation(2, 2))
        case "tinted sprite": canvas.drawSprite(solid, transform: .translation(2, 2), tint: Palette.gold)
        case "turned sprite": canvas.drawSprite(solid, transform: AffineTransform.translation(2, 2).rotatedBy(0.01))
        case "rect": canvas.drawRect(width: 4, height: 4, transform: .translation(2, 2), fill: Palette.red)
        case "turned rect": canvas.drawRect(width: 4, height: 4, transform: AffineTransform.translation(2, 2).rotatedBy(0.01), fill: Palette.red)
        case "ellipse": canvas.drawEllipse(width: 6, height: 6, transform: .translation(2, 2), fill: Palette.red)
        case "line": canvas.strokePolyline([Vec2(0, 2), Vec2(4, 2)], transform: .identity, lineWidth: 4, color: Palette.red)
        case "pixel": for y in 0..<4 { for x in 0..<4 { canvas.blendPixel(x: x, y: y, color: Palette.red) } }
        default: canvas.drawText("    \n    ", transform: .identity, color: Palette.white, background: Palette.red)
        }
        for row in 0..<2 {
            for column in 1..<3 {
                #expect(canvas.text(column: column, row: row) == nil, "\(kind) at \(column), \(row)")
            }
        }
        #expect(!canvas.makeFrame().plainText(background: Palette.background).contains { "bcfg".contains($0) }, "\(kind)")
    }

    @Test func immediateDrawingComposesInCallOrder() {
        let canvas = Canvas(columns: 4, rows: 1, background: Palette.background)
        let gfx = Graphics(canvas: canvas)
        gfx.text("ab", x: 0, y: 0, color: Palette.white)
        gfx.fillRect(x: 0, y: 0, width: 1, height: 2, color: Palette.blue)  // over "a"
        gfx.fillRect(x: 2, y: 0, width: 2, height: 2, color: Palette.blue)
        gfx.text("cd", x: 2, y: 0, color: Palette.white)  // over the second rect
        #expect(canvas.makeFrame().plainText(background: Palette.background) == "█bcd")
    }

    @Test func clearingForgetsTheGlyphs() {
        // Glyph rows are tracked for speed; after a clear a shape there has nothing to hide.
        let canvas = Canvas(columns: 2, rows: 1, background: Palette.background)
        canvas.drawText("x", transform: .identity, color: Palette.white)
        canvas.clear()
        canvas.drawRect(width: 2, height: 2, transform: .identity, anchor: .zero, fill: Palette.red)
        canvas.drawText("y", transform: .translation(1, 0), color: Palette.white)
        #expect(canvas.makeFrame().plainText(background: Palette.background) == "█y")
    }
}

/// One anchor rule for every node, text included, and line alignment for multi-line text.
@Suite struct TextAnchorTests {
    @Test func textNodesAreCentredOnTheirPositionLikeEveryNode() {
        let text = TextNode(text: "ABC", x: 4, y: 2)
        #expect(text.anchor == Vec2(0.5, 0.5))
        #expect(LabelNode(text: "1").anchor == Vec2(0.5, 0.5))
        // The middle character lands in the cell holding (4, 2): column 4, row 1.
        #expect(plain(drawn(scene(text), columns: 8, rows: 3)) == """
                    |
               ABC  |
                    |
            """)
    }

    @Test func anchorOneEndsTheTextBeforeItsPosition() {
        // A score against the bottom-right corner of a 6 x 2 canvas (12 x 4 pixels).
        let score = TextNode(text: "99", x: 6, y: 4)
        score.anchor = Vec2(1, 1)
        #expect(plain(drawn(scene(score), columns: 6, rows: 2)) == """
                  |
                99|
            """)
    }

    @Test func linesFollowTheAnchorUnlessAligned() {
        func lines(_ anchorX: Double, _ align: TextAlign?) -> String {
            let text = TextNode(text: "A\nBBBB", x: 4, y: 0)
            text.anchor = Vec2(anchorX, 0)
            text.align = align
            return plain(drawn(scene(text), columns: 8, rows: 2))
        }
        // Centred on x = 4: the block is columns 2...5; its one-letter line sits in the middle.
        #expect(lines(0.5, nil) == """
               A    |
              BBBB  |
            """)
        #expect(lines(0.5, .left) == """
              A     |
              BBBB  |
            """)
        #expect(lines(0.5, .right) == """
                 A  |
              BBBB  |
            """)
        // Anchored at its left: the lines start together, as before.
        #expect(lines(0, nil) == """
                A   |
                BBBB|
            """)
        #expect(lines(1, nil) == """
               A    |
            BBBB    |
            """)
    }

    @Test func textIsHitWhereItsCellsAre() throws {
        let s = Scene()
        let text = try s.add(TextNode(text: "ABC", x: 4, y: 2))
        s.updateLayout()
        // Columns 3...5, row 1 (pixels 2 and 3).
        #expect(s.nodes(at: Vec2(3.5, 2.5)).first === text)
        #expect(s.nodes(at: Vec2(5.5, 3.5)).first === text)
        #expect(s.nodes(at: Vec2(2.5, 2.5)).isEmpty)
        #expect(s.nodes(at: Vec2(6.5, 2.5)).isEmpty)
        #expect(s.nodes(at: Vec2(4.5, 1.5)).isEmpty)
    }

    @Test func labelLinesFollowTheAnchorUnlessAligned() {
        let label = LabelNode(text: "1\n111", font: .small)
        #expect(label.sprite == BlockFont.small.render("1\n111", color: .white, align: 0.5))
        label.anchor = Vec2(0, 0.5)
        #expect(label.sprite == BlockFont.small.render("1\n111", color: .white, align: 0))
        label.align = .right
        #expect(label.sprite == BlockFont.small.render("1\n111", color: .white, align: 1))
        #expect(label.sprite != BlockFont.small.render("1\n111", color: .white, align: 0))
    }
}

/// Groups that draw their children only inside their own box.
@Suite struct ClipTests {
    /// A 10 x 10 pixel canvas with a 4 x 4 clipping group at (2, 2), top-left anchored, and a
    /// "mole" rect 4 x 4 inside it at local `(0, dy)`.
    func hole(moleAt dy: Double, configure: (GroupNode) -> Void = { _ in }) -> (Scene, GroupNode, RectNode) {
        let group = GroupNode(x: 2, y: 2)
        group.anchor = .zero
        group.width = 4
        group.height = 4
        group.clipsChildren = true
        configure(group)
        let mole = RectNode(width: 4, height: 4, x: 0, y: dy, fill: Palette.gold)
        mole.anchor = .zero
        let s = scene(group)
        try! s.add(mole, to: group)
        return (s, group, mole)
    }

    @Test func aClippingGroupDrawsItsChildrenOnlyInsideItsBox() {
        let (s, group, _) = hole(moleAt: 2)
        let gold: [Color: Character] = [Palette.gold: "#"]
        // The mole covers rows 4...7; the hole shows rows 2...5 of it.
        #expect(pixelMap(drawn(s, columns: 10, rows: 5), gold) == """
            ..........
            ..........
            ..........
            ..........
            ..####....
            ..####....
            ..........
            ..........
            ..........
            ..........
            """)
        group.clipsChildren = false
        #expect(pixelMap(drawn(s, columns: 10, rows: 5), gold).filter { $0 == "#" }.count == 16)
    }

    @Test func theClipFollowsTheGroupsAnchorScaleAndParents() {
        // Centred on (5, 5) and scaled by 2, the 4 x 4 box spans 1...9 both ways. The mole,
        // scaled too, spans x 5...13 and y -1...7 on the canvas.
        let (s, _, _) = hole(moleAt: -3) { g in
            g.anchor = Vec2(0.5, 0.5)
            g.x = 5
            g.y = 5
            g.scale = 2
        }
        #expect(pixelMap(drawn(s, columns: 10, rows: 5), [Palette.gold: "#"]) == """
            ..........
            .....####.
            .....####.
            .....####.
            .....####.
            .....####.
            .....####.
            ..........
            ..........
            ..........
            """)

        // Nested: an inner clip 2 x 2 at the outer box's corner, holding a big rect.
        let outer = GroupNode(x: 2, y: 2)
        outer.anchor = .zero
        outer.width = 4
        outer.height = 4
        outer.clipsChildren = true
        let inner = GroupNode(x: 3, y: 3)
        inner.anchor = .zero
        inner.width = 4
        inner.height = 4
        inner.clipsChildren = true
        let big = RectNode(width: 20, height: 20, fill: Palette.gold)
        let nested = scene(outer)
        try! nested.add(inner, to: outer)
        try! nested.add(big, to: inner)
        // inner spans pixels 5...8, outer 2...5: only pixel (5, 5) is in both.
        #expect(pixelMap(drawn(nested, columns: 10, rows: 5), [Palette.gold: "#"]) == """
            ..........
            ..........
            ..........
            ..........
            ..........
            .....#....
            ..........
            ..........
            ..........
            ..........
            """)
    }

    @Test func aTurnedGroupClipsToTheUprightBoundsOfItsBox() {
        // A 4 x 4 box centred on (5, 5) turned 45 degrees: its corners reach 2.83 from the
        // centre, so the clip is the pixels with centres in 2.17...7.83 both ways (2...7), a
        // square rather than a diamond.
        let group = GroupNode(x: 5, y: 5)
        group.width = 4
        group.height = 4
        group.rotation = Double.pi / 4
        group.clipsChildren = true
        let s = scene(group)
        try! s.add(RectNode(width: 40, height: 40, fill: Palette.gold), to: group)
        #expect(pixelMap(drawn(s, columns: 10, rows: 5), [Palette.gold: "#"]) == """
            ..........
            ..........
            ..######..
            ..######..
            ..######..
            ..######..
            ..######..
            ..######..
            ..........
            ..........
            """)
    }

    @Test func childrenAreHitOnlyInsideTheClip() throws {
        let (s, _, mole) = hole(moleAt: 2)
        s.updateLayout()
        #expect(s.nodes(at: Vec2(3.5, 4.5)).first === mole)  // showing
        #expect(s.nodes(at: Vec2(3.5, 6.5)).isEmpty)          // still in the ground
    }

    @Test func textInAClipShowsOnlyInCellsWhollyInside() {
        // The box covers pixel rows 2...4: cell row 1 (pixels 2, 3) is inside, row 2 is not.
        let group = GroupNode(x: 0, y: 2)
        group.anchor = .zero
        group.width = 3
        group.height = 3
        group.clipsChildren = true
        let text = TextNode(text: "abcd\nefgh", x: 0, y: 0)
        text.anchor = .zero
        let s = scene(group)
        try! s.add(text, to: group)
        #expect(plain(drawn(s, columns: 5, rows: 3)) == """
                 |
            abc  |
                 |
            """)
    }

    @Test func aClipIsRestoredForTheNodesAfterTheGroup() {
        let (s, _, _) = hole(moleAt: 2)
        let after = RectNode(width: 1, height: 1, x: 9, y: 9, fill: Palette.red)
        after.anchor = .zero
        try! s.add(after)
        let canvas = drawn(s, columns: 10, rows: 5)
        #expect(canvas.pixel(x: 9, y: 9) == Palette.red)
        #expect(!canvas.popClip())
    }
}
