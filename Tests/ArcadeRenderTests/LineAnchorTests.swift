import ArcadeCore
import Testing
@testable import ArcadeRender

/// A line's points are relative to its position unless an axis is anchored; then the anchor
/// places the points' bounding box along it.
@Suite struct LineAnchorTests {
    let legend: [Color: Character] = [Palette.white: "#"]

    /// A 1-wide line from (0, 0) to (4, 0) at (4, 1.5): pixel row 1.
    func line() -> LineNode {
        let l = LineNode(points: [Vec2(0, 0), Vec2(4, 0)], color: Palette.white)
        (l.x, l.y) = (4, 1.5)
        return l
    }

    func row1(_ l: LineNode) -> String {
        String(pixelMap(drawn(scene(l), columns: 10, rows: 2), legend).split(separator: "\n")[1])
    }

    @Test func withoutAnAnchorThePointsAreRelativeToThePosition() {
        let l = line()
        #expect(row1(l) == "....####..")
        l.anchor = Vec2(0.5, 0.5)  // an anchor alone moves nothing
        #expect(row1(l) == "....####..")
    }

    @Test func anAnchoredAxisPlacesThePointsBox() {
        let l = line()
        l.anchor = Vec2(0.5, 0)
        l.anchorsX = true
        #expect(row1(l) == "..####....")  // centred on x = 4
        l.anchor.x = 1
        #expect(row1(l) == "####......")  // ending at x = 4
        // Points that do not start at the origin: the box, not the origin, is placed.
        l.points = [Vec2(10, 0), Vec2(12, 0)]
        l.anchor.x = 0
        #expect(row1(l) == "....##....")
    }

    @Test func eachAxisIsAnchoredOnItsOwn() {
        // A vertical line 4 long; anchored at its bottom on y = 4 it covers rows 0...3,
        // while x stays relative: the line at local x 0.5 sits on pixel column 2 (x = 2.5).
        let l = LineNode(points: [Vec2(0.5, 10), Vec2(0.5, 14)], color: Palette.white)
        (l.x, l.y) = (2, 4)
        l.anchor = Vec2(0.5, 1)
        l.anchorsY = true
        #expect(pixelMap(drawn(scene(l), columns: 5, rows: 3), legend) == """
            ..#..
            ..#..
            ..#..
            ..#..
            .....
            .....
            """)
    }
}
