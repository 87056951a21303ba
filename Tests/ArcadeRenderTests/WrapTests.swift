import ArcadeCore
import Testing
@testable import ArcadeRender

/// Nodes that wrap round a region are drawn on both sides of an edge they reach past (in
/// four places across a corner), as a whole with their children, and hit there too.
@Suite struct WrapTests {
    let legend: [Color: Character] = [Palette.white: "#", Palette.gold: "g"]

    /// A 10 x 6 pixel canvas with `node` wrapping round it.
    func wrapped(_ node: Node, _ wrap: NodeWrap = .canvas) -> String {
        node.wrap = wrap
        return pixelMap(drawn(scene(node), columns: 10, rows: 3), legend)
    }

    @Test func aNodeAcrossTheRightEdgeShowsItsPartOnTheLeft() {
        // 4 x 2 centred on (9, 3): x 7...11, the pixels 7...9; shifted by -10, x -3...1: pixel 0.
        let box = RectNode(width: 4, height: 2, x: 9, y: 3, fill: Palette.white)
        #expect(wrapped(box) == """
            ..........
            ..........
            #......###
            #......###
            ..........
            ..........
            """)
        #expect(box.composedCopies == 1 << 3)  // kx = -1, ky = 0
    }

    @Test func aNodeAcrossTheLeftEdgeShowsItsPartOnTheRight() {
        // x -1...3: the pixels 0...2; shifted by +10, x 9...13: pixel 9.
        let box = RectNode(width: 4, height: 2, x: 1, y: 3, fill: Palette.white)
        #expect(wrapped(box) == """
            ..........
            ..........
            ###......#
            ###......#
            ..........
            ..........
            """)
    }

    @Test func aNodeAcrossTheTopOrBottomShowsOnTheOtherSide() {
        // 2 x 2 centred on (5, 0): y -1...1, row 0; shifted by +6, row 5.
        let top = RectNode(width: 2, height: 2, x: 5, y: 0, fill: Palette.white)
        #expect(wrapped(top) == """
            ....##....
            ..........
            ..........
            ..........
            ..........
            ....##....
            """)
        let bottom = RectNode(width: 2, height: 4, x: 2, y: 6, fill: Palette.gold)
        #expect(wrapped(bottom) == """
            .gg.......
            .gg.......
            ..........
            ..........
            .gg.......
            .gg.......
            """)
    }

    @Test func aNodeAcrossACornerShowsInAllFour() {
        let box = RectNode(width: 4, height: 4, x: 0, y: 0, fill: Palette.white)
        #expect(wrapped(box) == """
            ##......##
            ##......##
            ..........
            ..........
            ##......##
            ##......##
            """)
        #expect(box.composedCopies.nonzeroBitCount == 3)
    }

    @Test func aNodeInsideIsDrawnOnce() {
        let box = RectNode(width: 4, height: 2, x: 5, y: 3, fill: Palette.white)
        #expect(wrapped(box) == """
            ..........
            ..........
            ...####...
            ...####...
            ..........
            ..........
            """)
        #expect(box.composedCopies == 0)
        // Touching an edge is not reaching past it.
        box.x = 8
        #expect(wrapped(box) == """
            ..........
            ..........
            ......####
            ......####
            ..........
            ..........
            """)
        #expect(box.composedCopies == 0)
    }

    @Test func aGroupWrapsAsAWhole() {
        // A ship of two parts at (8, 3): a nose 4 wide centred 1 right of it (x 7...11) and a
        // tail 2 wide centred 3 left of it (x 4...6). The nose reaches past the edge, so the
        // whole ship is drawn again 10 to the left, where only the nose's part shows (pixel 0).
        let ship = GroupNode(x: 8, y: 3)
        let s = Scene(background: Palette.background)
        try! s.add(ship)
        try! s.add(RectNode(width: 4, height: 2, x: 1, y: 0, fill: Palette.white), to: ship)
        try! s.add(RectNode(width: 2, height: 2, x: -3, y: 0, fill: Palette.gold), to: ship)
        ship.wrap = .canvas
        #expect(pixelMap(drawn(s, columns: 10, rows: 3), legend) == """
            ..........
            ..........
            #...gg.###
            #...gg.###
            ..........
            ..........
            """)
        // Turned half round, the nose points left and shows past the left edge, at the right.
        ship.x = 2
        ship.rotation = .pi
        #expect(pixelMap(drawn(s, columns: 10, rows: 3), legend) == """
            ..........
            ..........
            ###.gg...#
            ###.gg...#
            ..........
            ..........
            """)
    }

    @Test func theRegionIsInTheParentsSpaceAndNeedNotBeTheCanvas() {
        // A play field 6 x 5 from x = 2, wrapping left and right only. The box (x 6.5...8.5,
        // y 4...6) reaches past its right edge (8), so it shows again 6 to the left
        // (0.5...2.5), unclipped; reaching past the bottom (5) does nothing.
        let box = RectNode(width: 2, height: 2, x: 7.5, y: 5, fill: Palette.white)
        #expect(wrapped(box, .region(WrapRegion(x: 2, y: 0, width: 6, height: 5, wrapsY: false))) == """
            ..........
            ..........
            ..........
            ..........
            .##....##.
            .##....##.
            """)
        // Under a parent scaled by 2, a region 5 x 3 of the parent's space is the canvas.
        let s = Scene(background: Palette.background)
        let field = try! s.add(GroupNode())
        field.scale = 2
        let rock = try! s.add(RectNode(width: 2, height: 2, x: 4.5, y: 1.5, fill: Palette.white), to: field)
        rock.wrap = .region(WrapRegion(x: 0, y: 0, width: 5, height: 3))
        #expect(pixelMap(drawn(s, columns: 10, rows: 3), legend) == """
            ..........
            #......###
            #......###
            #......###
            #......###
            ..........
            """)
    }

    @Test func copiesAreHitLikeTheNode() {
        let s = Scene(background: Palette.background)
        let box = try! s.add(RectNode(width: 4, height: 2, x: 9, y: 3, fill: Palette.white))
        box.wrap = .canvas
        _ = drawn(s, columns: 10, rows: 3)
        #expect(s.nodes(at: Vec2(0.5, 3)).first === box)  // the copy on the left
        #expect(s.nodes(at: Vec2(8.5, 3)).first === box)
        #expect(s.nodes(at: Vec2(4.5, 3)).isEmpty)
        // Between frames, the layout works the copies out again.
        box.x = 1
        s.updateLayout()
        #expect(s.nodes(at: Vec2(9.5, 3)).first === box)
        #expect(s.nodes(at: Vec2(0.5, 0.5)).isEmpty)
        // A node wider than its region can be hit twice over, and is listed once.
        box.width = 14
        s.updateLayout()
        #expect(s.nodes(at: Vec2(5.5, 3)).count == 1)
        // The children of a wrapping group are hit at its copies.
        let ship = try! s.add(GroupNode(x: 8, y: 1))
        let nose = try! s.add(RectNode(width: 4, height: 2, x: 1, y: 0, fill: Palette.gold), to: ship)
        ship.wrap = .canvas
        s.updateLayout()
        #expect(s.nodes(at: Vec2(0.5, 1)).first === nose)
        // Stopping wrapping stops the copies.
        ship.wrap = .none
        s.updateLayout()
        #expect(s.nodes(at: Vec2(0.5, 1)).isEmpty)
    }

    @Test func theCanvasRegionFollowsAResize() {
        let box = RectNode(width: 4, height: 2, x: 9, y: 3, fill: Palette.white)
        box.wrap = .canvas
        let s = scene(box)
        _ = drawn(s, columns: 10, rows: 3)
        #expect(box.composedCopies != 0)
        _ = drawn(s, columns: 20, rows: 3)
        #expect(box.composedCopies == 0)
    }

    @Test func aPhysicsWorldTellsANodeItsRegionThroughAnimatable() {
        // The physics world sees bound nodes only as Animatable: the call must reach the
        // node's own implementation, not the protocol's default.
        let box = RectNode(width: 4, height: 2, x: 9, y: 3, fill: Palette.white)
        let target: any Animatable = box
        let region = WrapRegion(x: 0, y: 0, width: 10, height: 6)
        target.setWrapRegion(region)
        #expect(box.wrap == .region(region))
        #expect(wrapped(box, box.wrap).hasPrefix("..........\n..........\n#......###"))
        target.setWrapRegion(nil)
        #expect(box.wrap == .none)
    }
}
