import ArcadeCore
import Foundation
import Testing
@testable import ArcadeRender

/// Polygons: the scanline fill (nonzero winding, pixel centres), the border inside the edges,
/// the anchor over the points' box, transforms, and hit tests by the filled shape.
@Suite struct PolygonTests {
    let legend: [Color: Character] = [Palette.white: "#", Palette.gold: "g", Palette.red: "o"]

    @Test func rightTriangleFillsThePixelsWhoseCentresAreInside() {
        // Hypotenuse from (8, 0) to (0, 6): x < 8 - 4y/3. At the row centres y = 0.5, 1.5, ...
        // the limit is 7.33, 6, 4.67, 3.33, 2, 0.67: 7, 6, 5, 3, 2 and 1 pixels (6 is not
        // below 6: row 1 stops at centre 5.5).
        let tri = PolygonNode(points: [Vec2(0, 0), Vec2(8, 0), Vec2(0, 6)], fill: Palette.white)
        tri.anchor = .zero
        let canvas = drawn(scene(tri), columns: 10, rows: 4)
        #expect(pixelMap(canvas, legend) == """
            #######...
            ######....
            #####.....
            ###.......
            ##........
            #.........
            ..........
            ..........
            """)
        #expect(plain(canvas) == """
            ██████▀   |
            ███▀▀     |
            █▀        |
                      |
            """)
    }

    @Test func aRectangleAsAPolygonCoversWhatTheRectCovers() {
        // Same corners, same border: the half-open pixel-centre rule of both gives the same
        // pixels, placed at whole or half pixels, filled or outlined.
        for (x, y) in [(1.0, 2.0), (4.5, 3.5), (3.25, 2.75)] {
            for stroke in [Color.clear, Palette.white] {
                let rect = RectNode(width: 6, height: 4, x: x, y: y, fill: Palette.gold, stroke: stroke)
                let poly = PolygonNode(points: [Vec2(0, 0), Vec2(6, 0), Vec2(6, 4), Vec2(0, 4)], x: x, y: y,
                                       fill: Palette.gold, stroke: stroke)
                #expect(pixelMap(drawn(scene(poly), columns: 10, rows: 5), legend)
                        == pixelMap(drawn(scene(rect), columns: 10, rows: 5), legend), "at \(x), \(y)")
            }
        }
    }

    @Test func outlinedSquareHasItsBorderInside() {
        // 6 x 4 with its top-left at (1, 2): the border is the pixels whose centres are within
        // 1 of an edge, the outermost ring; the fill is what is left.
        let box = PolygonNode(points: [Vec2(0, 0), Vec2(6, 0), Vec2(6, 4), Vec2(0, 4)], x: 1, y: 2,
                              fill: Palette.gold, stroke: Palette.white)
        box.anchor = .zero
        #expect(pixelMap(drawn(scene(box), columns: 8, rows: 4), legend) == """
            ........
            ........
            .######.
            .#gggg#.
            .#gggg#.
            .######.
            ........
            ........
            """)
    }

    @Test func concaveArrowLeavesItsNotchEmpty() {
        // Points (0,0) (10,5) (0,10) (4,5): the box is 10 x 10, centred on (6, 6), so the
        // points move by (1, 1). The notch edge from (5, 6) to (1, 1) is at x 4.6 on row 5's
        // centre line, so that row starts at pixel 5; the tip edge is at x 10 there.
        let arrow = PolygonNode(points: [Vec2(0, 0), Vec2(10, 5), Vec2(0, 10), Vec2(4, 5)], x: 6, y: 6,
                                fill: Palette.white)
        let canvas = drawn(scene(arrow), columns: 12, rows: 6)
        #expect(pixelMap(canvas, legend) == """
            ............
            .#..........
            ..##........
            ...###......
            ....####....
            .....#####..
            .....#####..
            ....####....
            ...###......
            ..##........
            .#..........
            ............
            """)
        #expect(plain(canvas) == """
             ▄          |
              ▀█▄▄      |
                ▀███▄▄  |
                ▄███▀▀  |
              ▄█▀▀      |
             ▀          |
            """)
    }

    @Test func turnedArrowTurnsAboutItsAnchor() {
        // A quarter turn clockwise about the box's centre (6, 6): (x, y) -> (-y, x) about it,
        // so the tip (11, 6) goes to (6, 11), the tails to (1, 1) and (11, 1), the notch to (6, 5).
        let arrow = PolygonNode(points: [Vec2(0, 0), Vec2(10, 5), Vec2(0, 10), Vec2(4, 5)], x: 6, y: 6,
                                fill: Palette.white)
        arrow.rotation = .pi / 2
        #expect(pixelMap(drawn(scene(arrow), columns: 12, rows: 6), legend) == """
            ............
            .#........#.
            ..#......#..
            ..##....##..
            ...##..##...
            ...######...
            ....####....
            ....####....
            .....##.....
            .....##.....
            ............
            ............
            """)
    }

    @Test func selfCrossingStarIsFilledByTheNonzeroRule() {
        // A five-pointed star in one stroke winds twice round its middle: nonzero fills it.
        let star = PolygonNode(points: (0..<5).map { i in
            let a = -Double.pi / 2 + Double(i) * 4 * .pi / 5
            return Vec2(7 * cos(a), 7 * sin(a))
        }, x: 8, y: 8, fill: Palette.white)
        let canvas = drawn(scene(star), columns: 16, rows: 8)
        #expect(pixelMap(canvas, legend) == """
            ................
            ................
            ................
            .......##.......
            .......##.......
            .......##.......
            ......####......
            ...##########...
            ....########....
            .....######.....
            .....######.....
            .....######.....
            ....##....##....
            ....#......#....
            ................
            ................
            """)
        // Drawn at half opacity, the doubly wound middle is blended once, like a tip.
        star.alpha = 0.5
        let faded = drawn(scene(star), columns: 16, rows: 8)
        #expect(faded.pixel(x: 7, y: 9) == faded.pixel(x: 7, y: 4))
        #expect(faded.pixel(x: 7, y: 9) == Color(r: 128, g: 128, b: 128))
    }

    @Test func smallPolygonsAtScale() {
        // The triangle above at half scale: x < 4 - 4y/3 at y = 0.5, 1.5, 2.5: 3, 2 and 1
        // pixels (3.33, 2, 0.67).
        let tri = PolygonNode(points: [Vec2(0, 0), Vec2(8, 0), Vec2(0, 6)], fill: Palette.white)
        tri.anchor = .zero
        tri.scale = 0.5
        #expect(pixelMap(drawn(scene(tri), columns: 5, rows: 2), legend) == """
            ###..
            ##...
            #....
            .....
            """)
        // A diamond of half-width 1.5 about a pixel centre: the plus of rows 1, 3, 1.
        let diamond = PolygonNode(points: [Vec2(0, -1.5), Vec2(1.5, 0), Vec2(0, 1.5), Vec2(-1.5, 0)], x: 2.5, y: 2.5,
                                  fill: Palette.gold)
        #expect(pixelMap(drawn(scene(diamond), columns: 5, rows: 3), legend) == """
            .....
            ..g..
            .ggg.
            ..g..
            .....
            .....
            """)
        // Mirrored, the triangle flips about its anchor (its top-left), to the left of x = 4.
        tri.x = 4
        tri.scaleX = -0.5
        #expect(pixelMap(drawn(scene(tri), columns: 5, rows: 2), legend) == """
            .###.
            ..##.
            ...#.
            .....
            """)
    }

    @Test func borderFollowsAScaledTurnedRock() {
        // A rock turned 0.4 rad and scaled 1.3: the border (1 local pixel, 1.3 on the canvas)
        // rings the fill everywhere, and nothing lies outside the filled shape.
        let points = [Vec2(-5, -3), Vec2(-1, -6), Vec2(5, -4), Vec2(6, 1), Vec2(2, 5), Vec2(-4, 4)]
        let rock = PolygonNode(points: points, x: 10, y: 8, fill: Palette.gold, stroke: Palette.white)
        rock.rotation = 0.4
        rock.scale = 1.3
        let canvas = drawn(scene(rock), columns: 20, rows: 8)
        #expect(pixelMap(canvas, legend) == """
            ....................
            ........####........
            .....####gg##.......
            ....##gggggg##......
            ....#gggggggg##.....
            ....#gggggggggg#....
            ....#ggggggggggg#...
            ...##ggggggggggg#...
            ...#ggggggggggg##...
            ...#ggggggggggg#....
            ..##ggggggggggg#....
            ...##gggggggggg#....
            .....##gggggg###....
            ......###g####......
            ........###.........
            ....................
            """)
        // Filled alone, it covers the same pixels.
        let solid = PolygonNode(points: points, x: 10, y: 8, fill: Palette.white)
        solid.rotation = 0.4
        solid.scale = 1.3
        let outline = pixelMap(canvas, legend).replacingOccurrences(of: "g", with: "#")
        #expect(pixelMap(drawn(scene(solid), columns: 20, rows: 8), legend) == outline)
    }

    @Test func anOutlineOnlyPolygonShowsWhatIsBeneath() {
        let under = RectNode(width: 12, height: 12, fill: Palette.red)
        under.anchor = .zero
        let ring = PolygonNode(points: [Vec2(0, 0), Vec2(8, 0), Vec2(8, 8), Vec2(0, 8)], x: 6, y: 6,
                               fill: .clear, stroke: Palette.white, lineWidth: 2)
        #expect(pixelMap(drawn(scene(under, ring), columns: 12, rows: 6), legend) == """
            oooooooooooo
            oooooooooooo
            oo########oo
            oo########oo
            oo##oooo##oo
            oo##oooo##oo
            oo##oooo##oo
            oo##oooo##oo
            oo########oo
            oo########oo
            oooooooooooo
            oooooooooooo
            """)
    }

    @Test func hitTestsFollowTheFilledShape() {
        let s = Scene(background: Palette.background)
        let arrow = try! s.add(PolygonNode(points: [Vec2(0, 0), Vec2(10, 5), Vec2(0, 10), Vec2(4, 5)], x: 6, y: 6,
                                           fill: .clear, stroke: Palette.white))
        s.updateLayout()
        #expect(s.nodes(at: Vec2(8, 6)).first === arrow)  // the body, though only the border is drawn
        #expect(s.nodes(at: Vec2(3, 6)).isEmpty)  // the notch
        #expect(s.nodes(at: Vec2(11.5, 6)).isEmpty)  // past the tip
        arrow.rotation = .pi / 2  // tip down: the notch is now above the middle
        s.updateLayout()
        #expect(s.nodes(at: Vec2(6, 3)).isEmpty)
        #expect(s.nodes(at: Vec2(6, 8)).first === arrow)
        // The star's doubly wound middle is inside.
        let star = try! s.add(PolygonNode(points: (0..<5).map { i in
            let a = -Double.pi / 2 + Double(i) * 4 * .pi / 5
            return Vec2(7 * cos(a), 7 * sin(a))
        }, x: 40, y: 8))
        s.updateLayout()
        #expect(s.nodes(at: Vec2(40, 8.5)).first === star)
        #expect(s.nodes(at: Vec2(40, 14)).isEmpty)  // between the lower points
    }

    @Test func aPolygonOverTextHidesTheGlyphsItCovers() {
        let s = Scene(background: Palette.background)
        let hi = try! s.add(TextNode(text: "HELLO", x: 0, y: 0))
        hi.anchor = .zero
        // Corners (1, 0), (5, 0), (3, 2): row 0 covers pixels 1...4, row 1 pixels 2 and 3, so
        // every glyph from the E to the O has a pixel drawn over it and is hidden.
        try! s.add(PolygonNode(points: [Vec2(0, 0), Vec2(4, 0), Vec2(2, 2)], x: 1, y: 0, fill: Palette.white)).anchor = .zero
        #expect(plain(drawn(s, columns: 6, rows: 1)) == "H▀██▀ |")
    }

    @Test func fewerThanThreePointsOrAFlatTransformDrawNothing() {
        let line = PolygonNode(points: [Vec2(0, 0), Vec2(5, 5)], x: 3, y: 3)
        let flat = PolygonNode(points: [Vec2(0, 0), Vec2(5, 0), Vec2(0, 5)], x: 3, y: 3)
        flat.scaleY = 0
        let empty = String(repeating: "......\n", count: 6).dropLast()
        #expect(pixelMap(drawn(scene(line, flat), columns: 6, rows: 3), legend) == empty)
    }
}
