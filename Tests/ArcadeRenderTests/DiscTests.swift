import ArcadeCore
import Testing
@testable import ArcadeRender

/// Discs and rings cover exactly the pixels whose centres lie inside the true circle, its
/// edge included (a ring: the band between its outer and inner edge, both included), so they
/// are mirror-symmetric about their centres at every radius and position.
@Suite struct DiscTests {
    /// What a pixel of a drawn circle shows.
    enum Coverage: Equatable {
        case outside, fill, stroke
    }

    /// One circle: centre and sizes in pixels, and which parts are drawn.
    struct Circle: CustomStringConvertible {
        var x: Double
        var y: Double
        var radius: Double
        var lineWidth: Double
        var filled: Bool
        var ringed: Bool

        var description: String {
            "circle at (\(x), \(y)) r \(radius)" + (ringed ? " ring \(lineWidth)" : "") + (filled ? " filled" : "")
        }
    }

    static let fill = Color(rgb: 0xFFCC00)
    static let stroke = Color(rgb: 0x3366FF)
    /// 64 x 64 pixels: a circle of radius 20 centred within 30...35 fits with its mirror.
    static let columns = 64
    static let rows = 32

    /// Draws `circle` on a fresh canvas one of three ways (canvas, immediate mode, scene
    /// node) and reads back what each pixel shows.
    static func draw(_ circle: Circle, way: Int) -> [[Coverage]] {
        let canvas = Canvas(columns: columns, rows: rows, background: .black)
        let fill = circle.filled ? DiscTests.fill : .clear
        let stroke = circle.ringed ? DiscTests.stroke : .clear
        switch way % 3 {
        case 0:
            canvas.drawEllipse(width: 2 * circle.radius, height: 2 * circle.radius,
                               transform: .translation(circle.x, circle.y), fill: fill, stroke: stroke,
                               lineWidth: circle.lineWidth)
        case 1:
            let g = Graphics(canvas: canvas)
            if circle.filled { g.fillCircle(x: circle.x, y: circle.y, radius: circle.radius, color: fill) }
            if circle.ringed {
                g.strokeCircle(x: circle.x, y: circle.y, radius: circle.radius, color: stroke, lineWidth: circle.lineWidth)
            }
        default:
            let s = Scene(background: .black)
            try! s.add(CircleNode(radius: circle.radius, x: circle.x, y: circle.y, fill: fill, stroke: stroke,
                                  lineWidth: circle.lineWidth))
            s.draw(into: canvas, time: 0)
        }
        return (0..<canvas.height).map { y in
            (0..<canvas.width).map { x in
                let c = canvas.pixel(x: x, y: y)!
                if c == DiscTests.fill { return .fill }
                if c == DiscTests.stroke { return .stroke }
                if c != .black { Issue.record("pixel (\(x), \(y)) of \(circle) has a colour of its own") }
                return .outside
            }
        }
    }

    /// What the true circle covers at the point `(px, py)` (pixels), in exact arithmetic:
    /// every input is a multiple of 1/512, so scaled by 512 they are whole numbers and the
    /// squared distances are computed without rounding. A point on an edge belongs to the
    /// disc, and to the ring on either of its edges.
    static func exact(_ circle: Circle, _ px: Double, _ py: Double) -> Coverage {
        func whole(_ v: Double) -> Int64 {
            let scaled = v * 512
            precondition(scaled == scaled.rounded(), "\(v) is not on the 1/512 grid")
            return Int64(scaled)
        }
        let dx = whole(px) - whole(circle.x)
        let dy = whole(py) - whole(circle.y)
        let d2 = dx * dx + dy * dy
        let r = whole(circle.radius)
        guard d2 <= r * r else { return .outside }
        guard circle.ringed else { return .fill }
        let inner = whole(circle.radius - circle.lineWidth)
        if inner > 0, d2 < inner * inner { return circle.filled ? .fill : .outside }
        return .stroke
    }

    /// Checks a drawn circle against the true one at the mirror images of the pixel centres
    /// (left-right and up-down about the circle's centre), and, where the centre lies on a
    /// pixel centre or corner line, that the pixels map onto themselves.
    /// The circle as the canvas places it: its centre on the pixel grid.
    static func placed(_ circle: Circle) -> Circle {
        var c = circle
        c.x = Canvas.gridCentre(circle.x, radius: circle.radius)
        c.y = Canvas.gridCentre(circle.y, radius: circle.radius)
        #expect(abs(c.x - circle.x) <= 0.5 && abs(c.y - circle.y) <= 0.5)
        return c
    }

    static func checkSymmetric(_ original: Circle, _ drawn: [[Coverage]]) -> Bool {
        let circle = placed(original)
        #expect(circle.x * 2 == (circle.x * 2).rounded() && circle.y * 2 == (circle.y * 2).rounded(),
                "\(original) is not placed on a pixel centre or corner")
        var ok = true
        let mirrorX = 2 * circle.x
        let mirrorY = 2 * circle.y
        for y in 0..<drawn.count {
            for x in 0..<drawn[y].count {
                let cx = Double(x) + 0.5, cy = Double(y) + 0.5
                let leftRight = exact(circle, mirrorX - cx, cy)
                let upDown = exact(circle, cx, mirrorY - cy)
                if drawn[y][x] != leftRight || drawn[y][x] != upDown {
                    Issue.record("\(circle): pixel (\(x), \(y)) shows \(drawn[y][x]), its mirror images \(leftRight) / \(upDown)")
                    ok = false
                }
                // On a symmetry line of the grid the mirror image is itself a pixel.
                let mx = Int(mirrorX.rounded(.down)) - 1 - x, my = Int(mirrorY.rounded(.down)) - 1 - y
                if mirrorX == mirrorX.rounded(), drawn[y].indices.contains(mx), drawn[y][x] != drawn[y][mx] {
                    Issue.record("\(circle): pixel (\(x), \(y)) and its left-right mirror differ")
                    ok = false
                }
                if mirrorY == mirrorY.rounded(), drawn.indices.contains(my), drawn[y][x] != drawn[my][x] {
                    Issue.record("\(circle): pixel (\(x), \(y)) and its up-down mirror differ")
                    ok = false
                }
                if !ok { return false }
            }
        }
        return ok
    }

    /// Random circles of radius 0.5...20 at random sub-pixel centres, every third one on a
    /// pixel centre or corner in each axis (where exact ties with the edge are common), as
    /// discs, rings and filled rings.
    @Test func everyDiscAndRingIsMirrorSymmetric() {
        var rng = SeededRandom(seed: 23)
        for i in 0..<450 {
            func coordinate() -> Double {
                let whole = Double(rng.nextInt(in: 30, 34))
                switch rng.nextInt(in: 0, 2) {
                case 0: return whole + Double(rng.nextInt(in: 0, 1)) / 2  // centre or corner
                default: return whole + Double(rng.nextInt(in: 0, 255)) / 256
                }
            }
            let radius: Double = switch rng.nextInt(in: 0, 2) {
            case 0: Double(rng.nextInt(in: 1, 40)) / 2  // 0.5, 1, 1.5 ... 20
            default: 0.5 + Double(rng.nextInt(in: 0, 1248)) / 64
            }
            let lineWidth: Double = rng.nextInt(in: 0, 1) == 0
                ? Double(rng.nextInt(in: 1, 6)) / 2 : Double(rng.nextInt(in: 16, 256)) / 64
            let kind = rng.nextInt(in: 0, 2)
            let circle = Circle(x: coordinate(), y: coordinate(), radius: radius, lineWidth: lineWidth,
                                filled: kind != 1, ringed: kind != 0)
            if !DiscTests.checkSymmetric(circle, DiscTests.draw(circle, way: i)) { return }
        }
    }

    /// Circles anywhere (not on a 1/512 grid): each pixel shows what its centre's distance
    /// says, unless that distance is within rounding of an edge.
    @Test func arbitraryCentresFollowTheCircleOnTheGrid() {
        var rng = SeededRandom(seed: 5)
        for i in 0..<150 {
            let circle = Circle(x: rng.nextDouble(in: 30, 35), y: rng.nextDouble(in: 30, 35),
                                radius: rng.nextDouble(in: 0.5, 20), lineWidth: rng.nextDouble(in: 0.3, 4),
                                filled: i % 3 != 1, ringed: i % 3 != 0)
            let drawn = DiscTests.draw(circle, way: i)
            let centre = DiscTests.placed(circle)
            let inner = circle.radius - circle.lineWidth
            for y in 0..<drawn.count {
                for x in 0..<drawn[y].count {
                    let dx = Double(x) + 0.5 - centre.x, dy = Double(y) + 0.5 - centre.y
                    let d2 = dx * dx + dy * dy
                    let r2 = circle.radius * circle.radius
                    if abs(d2 - r2) < 1e-9 || (circle.ringed && inner > 0 && abs(d2 - inner * inner) < 1e-9) { continue }
                    let want: Coverage = d2 > r2 ? .outside
                        : !circle.ringed ? .fill
                        : inner > 0 && d2 < inner * inner ? (circle.filled ? .fill : .outside) : .stroke
                    if drawn[y][x] != want {
                        Issue.record("\(circle): pixel (\(x), \(y)) shows \(drawn[y][x]), want \(want)")
                        return
                    }
                }
            }
        }
    }

    /// The lit pixels of a disc of `radius` at `(x, y)` drawn with immediate mode.
    static func litPixels(x: Double, y: Double, radius: Double, columns: Int = 12, rows: Int = 24) -> Set<[Int]> {
        let canvas = Canvas(columns: columns, rows: rows)
        Graphics(canvas: canvas).fillCircle(x: x, y: y, radius: radius, color: .white)
        var lit: Set<[Int]> = []
        for py in 0..<canvas.height {
            for px in 0..<canvas.width where canvas.pixel(x: px, y: py) == .white { lit.insert([px, py]) }
        }
        return lit
    }

    @Test func radiusOneIsATwoByTwoBlockWhereverItIs() {
        // (It used to be an L of 3 pixels at (5.5, 40.5).) A diameter of 2 pixels sits on a
        // pixel corner: the nearest to the centre.
        #expect(DiscTests.litPixels(x: 5.5, y: 40.5, radius: 1) == [[5, 40], [6, 40], [5, 41], [6, 41]])
        #expect(DiscTests.litPixels(x: 5.2, y: 40.1, radius: 1) == [[4, 39], [5, 39], [4, 40], [5, 40]])
    }

    @Test func radiusThreeHasNoNubAndKeepsItsShapeAsItMoves() {
        // (It used to reach one pixel further right and down only.) Rows of 4, 6, 6, 6, 6, 4
        // pixels about a pixel corner, the same shape at every sub-pixel position.
        func shape(_ x: Double, _ y: Double) -> [[Int]] {
            let lit = DiscTests.litPixels(x: x, y: y, radius: 3)
            let x0 = lit.map { $0[0] }.min()!, y0 = lit.map { $0[1] }.min()!
            return lit.map { [$0[0] - x0, $0[1] - y0] }.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) }
        }
        let first = shape(5.5, 40.5)
        let widths = (0...5).map { row in first.filter { $0[1] == row }.count }
        #expect(widths == [4, 6, 6, 6, 6, 4])
        var rng = SeededRandom(seed: 8)
        for _ in 0..<50 {
            #expect(shape(5 + rng.nextUnit(), 40 + rng.nextUnit()) == first)
        }
    }

    @Test func aRingIsSymmetric() {
        // Radius 3, 1 wide, placed on the corner (5, 5): the centres with 4 <= d^2 <= 9.
        let canvas = Canvas(columns: 10, rows: 5)
        Graphics(canvas: canvas).strokeCircle(x: 4.5, y: 4.5, radius: 3, color: .white)
        #expect(pixelMap(canvas, [.white: "#"]) == """
            ..........
            ..........
            ...####...
            ..##..##..
            ..#....#..
            ..#....#..
            ..##..##..
            ...####...
            ..........
            ..........
            """)
    }

    /// Turned and scaled circles stay symmetric: a circle scaled the same both ways (turned
    /// or not) left-right and up-down, an ellipse with level axes too, a turned ellipse
    /// through its centre.
    @Test func scaledAndTurnedCirclesStaySymmetric() {
        for (cx, cy) in [(32.0, 32.0), (32.5, 32.5), (32.5, 32.0)] {
            for (rotation, scaleX, scaleY) in [(0.0, 2.0, 2.0), (0.7, 1.5, 1.5), (0.0, 2.5, 1.0), (0.0, -1.5, 2.0),
                                               (0.4, 2.0, 1.0), (Double.pi / 2, 1.0, 2.0)] {
                let canvas = Canvas(columns: 64, rows: 32)
                let node = CircleNode(radius: 5.25, x: cx, y: cy, fill: DiscTests.fill, stroke: DiscTests.stroke)
                node.rotation = rotation
                node.scaleX = scaleX
                node.scaleY = scaleY
                let s = Scene(background: .black)
                try! s.add(node)
                s.draw(into: canvas, time: 0)
                let level = rotation == 0 || scaleX == scaleY || rotation == Double.pi / 2
                // one drawn on the canvas's axes (unturned, or a circle turned) is placed on the
                // pixel grid for its size there first; a quarter turn of an ellipse is not
                // exactly level in floating point, so it is drawn as a turned one
                let placed = rotation == 0 || scaleX == scaleY
                let (cx, cy) = placed ? (Canvas.gridCentre(cx, radius: 5.25 * abs(scaleX)),
                                         Canvas.gridCentre(cy, radius: 5.25 * abs(scaleY))) : (cx, cy)
                var lit = 0
                for y in 0..<canvas.height {
                    for x in 0..<canvas.width {
                        let here = canvas.pixel(x: x, y: y)!
                        if here != .black { lit += 1 }
                        let mx = Int(2 * cx) - 1 - x, my = Int(2 * cy) - 1 - y
                        guard mx >= 0, mx < canvas.width, my >= 0, my < canvas.height else { continue }
                        #expect(here == canvas.pixel(x: mx, y: my), "through the centre, \(rotation) \(scaleX) \(scaleY)")
                        if level {
                            #expect(here == canvas.pixel(x: mx, y: y), "left-right, \(rotation) \(scaleX) \(scaleY)")
                            #expect(here == canvas.pixel(x: x, y: my), "up-down, \(rotation) \(scaleX) \(scaleY)")
                        }
                    }
                }
                #expect(lit > 50)
            }
        }
    }
}
