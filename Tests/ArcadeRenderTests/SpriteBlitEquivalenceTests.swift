import ArcadeCore
import Testing
@testable import ArcadeRender

/// The fast path for unturned sprites (``Canvas/blitSprite(_:transform:alpha:tint:)``) against
/// the general rasterizer on thousands of random placements: every pixel and every cell must
/// come out the same.
@Suite struct SpriteBlitEquivalenceTests {
    struct Case {
        var rng: SeededRandom

        mutating func unit() -> Double { rng.nextUnit() }
        mutating func int(_ lo: Int, _ hi: Int) -> Int { Int(rng.nextInt(in: Int64(lo), Int64(hi))) }
        mutating func color(alpha: UInt8 = 255) -> Color {
            Color(r: UInt8(int(0, 255)), g: UInt8(int(0, 255)), b: UInt8(int(0, 255)), a: alpha)
        }

        /// Pixel art with transparent, half-transparent and opaque pixels; half the time only
        /// transparent and opaque ones (most pixel art, which has a kernel of its own).
        mutating func sprite() -> Sprite {
            let w = int(1, 9), h = int(1, 9)
            let opaqueOrClear = int(0, 1) == 0
            var pixels: [Color] = []
            for _ in 0..<(w * h) {
                switch int(0, 5) {
                case 0: pixels.append(.clear)
                case 1: pixels.append(opaqueOrClear ? color() : color(alpha: UInt8(int(1, 254))))
                default: pixels.append(color())
                }
            }
            return Sprite(width: w, height: h, pixels: pixels)
        }

        /// A scale: mostly ordinary, sometimes mirrored, exact halves and wholes, tiny or large.
        mutating func scale() -> Double {
            let sign: Double = int(0, 3) == 0 ? -1 : 1
            switch int(0, 9) {
            case 0: return sign * [0.5, 1, 2, 0.25, 3][int(0, 4)]
            case 1: return sign * (0.01 + unit() * 0.1)
            case 2: return sign * (4 + unit() * 20)
            default: return sign * (0.3 + unit() * 2.5)
            }
        }

        /// A position: on the canvas, or around and past its edges; sometimes on exact pixel
        /// centres and edges, where the sampling bias decides.
        mutating func coordinate(_ extent: Int) -> Double {
            switch int(0, 6) {
            case 0: return Double(int(-3, extent + 3))
            case 1: return Double(int(-3, extent + 3)) + 0.5
            // Exactly on a nudged pixel centre: the tie the sampling rule decides.
            case 2: return Double(int(-3, extent + 3)) + 0.5 - Canvas.sampleBias
            default: return -8 + unit() * Double(extent + 16)
            }
        }
    }

    /// Draws the same things on two canvases, the sprite through the fast path on one and
    /// the general path on the other, and returns both.
    /// With `kernel`, only what the opaque-or-clear kernel draws: art with no half-transparent
    /// pixel, on a fully opaque untinted node, with no text on the canvas.
    /// `build` picks the kernel's build (see ``Canvas/kernelBuild``).
    private func drawBoth(_ c: inout Case, kernel: Bool = false, build: KernelBuild = .fastest)
        -> (fast: Canvas, general: Canvas, fastTaken: Bool) {
        let columns = c.int(1, 30), rows = c.int(1, 12)
        let background = c.color()
        let fast = Canvas(columns: columns, rows: rows, background: background)
        fast.kernelBuild = build
        let general = Canvas(columns: columns, rows: rows, background: background)
        // Something beneath to blend onto: a rectangle, and sometimes text (glyphs to cover).
        let under = c.color(alpha: UInt8(c.int(1, 255)))
        let (rx, ry, rw, rh) = (c.coordinate(columns), c.coordinate(2 * rows), c.unit() * 10, c.unit() * 10)
        let text = c.int(0, 2) == 0 && !kernel ? "ab cd" : nil
        let textColor = c.color()
        let clip = c.int(0, 3) == 0 ? (c.coordinate(columns), c.coordinate(2 * rows), c.unit() * 20, c.unit() * 20) : nil
        var sprite = c.sprite()
        while kernel && !sprite.pixels.allSatisfy({ $0.a == 0 || $0.a == 255 }) { sprite = c.sprite() }
        let transform = AffineTransform(a: c.scale(), b: 0, c: 0, d: c.scale(), tx: c.coordinate(columns), ty: c.coordinate(2 * rows))
        let alpha: UInt32 = kernel ? 255 : [255, 255, 128, 1, UInt32(c.int(0, 255))][c.int(0, 4)]
        let tint = c.int(0, 3) == 0 && !kernel ? c.color(alpha: UInt8(c.int(0, 255))) : Color.white
        var taken = false
        for (canvas, isFast) in [(fast, true), (general, false)] {
            canvas.drawRect(width: rw, height: rh, transform: .translation(rx, ry), anchor: .zero, fill: under)
            if let text { canvas.drawText(text, transform: .translation(rx, ry), color: textColor) }
            if let (x, y, w, h) = clip { canvas.pushClip(minX: x, minY: y, maxX: x + w, maxY: y + h) }
            withExtendedLifetime(sprite) {
                let pixels = sprite.view
                if isFast {
                    taken = canvas.blitSprite(pixels, transform: transform, alpha: alpha, tint: tint)
                } else {
                    canvas.drawSpriteGeneral(pixels, transform: transform, alpha: alpha, tint: tint)
                }
            }
            // Text drawn after the sprite goes on top; a later shape covers glyphs it reaches.
            if clip != nil { canvas.popClip() }
        }
        return (fast, general, taken)
    }

    @Test func unturnedSpritesLandOnTheSamePixelsAsTheGeneralPath() {
        compareOnRandomPlacements(seed: 2024, cases: 6000, kernel: false)
    }

    /// The kernel for art of opaque and clear pixels (``arcade_blit_unturned``), on many more
    /// placements than the mixed test gives it: each of its builds this CPU runs, the one for
    /// any x86-64 CPU, the one that gathers pixels with SSSE3's byte shuffles and the one
    /// that draws rows in AVX2's wide vectors.
    @Test(arguments: KernelBuild.allCases) func opaqueOrClearSpritesLandOnTheSamePixelsAsTheGeneralPath(build: KernelBuild) {
        guard build.runsHere else { return }
        compareOnRandomPlacements(seed: 77, cases: 12000, kernel: true, build: build)
    }

    /// The pixels where `a` and `b` differ, as "(x,y)", in reading order.
    static func pixelsThatDiffer(_ a: Canvas, _ b: Canvas) -> [String] {
        var differs: [String] = []
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differs.append("(\(x),\(y))") }
        }
        return differs
    }

    private func compareOnRandomPlacements(seed: UInt64, cases: Int, kernel: Bool, build: KernelBuild = .fastest) {
        var c = Case(rng: SeededRandom(seed: seed))
        var taken = 0
        var drewSomething = 0
        for n in 0..<cases {
            let (fast, general, fastTaken) = drawBoth(&c, kernel: kernel, build: build)
            if fastTaken { taken += 1 }
            var differs: [String] = []
            var changed = false
            for y in 0..<fast.height {
                for x in 0..<fast.width {
                    let a = fast.pixel(x: x, y: y)!, b = general.pixel(x: x, y: y)!
                    if a != b { differs.append("(\(x),\(y)) \(a) vs \(b)") }
                    if a != fast.background { changed = true }
                }
            }
            if changed { drewSomething += 1 }
            #expect(differs.isEmpty, "case \(n): \(differs.prefix(4))")
            let sameCells = fast.makeFrame() == general.makeFrame()
            #expect(sameCells, "case \(n): cells differ")
            if !differs.isEmpty { return }
        }
        // The fast path must actually have been the one drawing, nearly always.
        #expect(taken > cases * 59 / 60)
        #expect(drewSomething > cases / 2)
    }

    /// Sprite nodes drawn by a scene take the kernel with their anchor folded in (the content
    /// transform worked out with its zero terms left out): the same pixels as the general
    /// rasterizer given the content transform the long way, for random anchors, mirrors,
    /// scales, places and parents.
    @Test(arguments: KernelBuild.allCases) func sceneSpritesWithAnchorsLandOnTheSamePixelsAsTheGeneralPath(build: KernelBuild) {
        guard build.runsHere else { return }
        var c = Case(rng: SeededRandom(seed: 501))
        for n in 0..<3000 {
            let columns = c.int(1, 30), rows = c.int(1, 12)
            let background = c.color()
            var sprite = c.sprite()
            while !sprite.pixels.allSatisfy({ $0.a == 0 || $0.a == 255 }) { sprite = c.sprite() }
            let node = SpriteNode(sprite: sprite, x: c.coordinate(columns), y: c.coordinate(2 * rows))
            node.scaleX = c.scale()
            node.scaleY = c.scale()
            node.anchor = Vec2([0, 0.5, 1, c.unit()][c.int(0, 3)], [0, 0.5, 1, c.unit()][c.int(0, 3)])
            let scene = Scene(background: background)
            let group = try! scene.add(GroupNode(x: c.coordinate(4), y: c.coordinate(4)))
            group.scale = c.int(0, 2) == 0 ? c.scale() : 1
            try! scene.add(node, to: group)
            let fast = Canvas(columns: columns, rows: rows)
            fast.kernelBuild = build
            scene.draw(into: fast, time: 0)
            let general = Canvas(columns: columns, rows: rows, background: background)
            let w = Double(sprite.width), h = Double(sprite.height)
            let content = node.composedTransform.translatedBy(-node.anchor.x * w, -node.anchor.y * h)
            withExtendedLifetime(sprite) {
                general.drawSpriteGeneral(sprite.view, transform: content, alpha: 255, tint: .white)
            }
            let differs = Self.pixelsThatDiffer(fast, general)
            #expect(differs.isEmpty, "case \(n): \(differs.prefix(4))")
            if !differs.isEmpty { return }
        }
    }

    /// Busy scenes drawn as a scene draws them (most sprites through the kernel, each build
    /// this CPU runs) against the same sprites drawn one at a time, in the scene's order, by
    /// the canvas's own sprite call: hundreds of overlapping sprites of a few images, flipbooks,
    /// scales, mirrors, turns, tints and fades, interleaved, many partly or wholly off the
    /// canvas, so a later sprite must cover an earlier one exactly as drawn alone.
    @Test(arguments: KernelBuild.allCases) func busyScenesLandOnTheSamePixelsAsEachSpriteDrawnAlone(build: KernelBuild) {
        guard build.runsHere else { return }
        var c = Case(rng: SeededRandom(seed: 4242))
        for n in 0..<60 {
            let columns = c.int(4, 40), rows = c.int(2, 16)
            let background = c.color()
            // A few images, as a burst has: mostly art of opaque and clear pixels.
            var images: [Sprite] = []
            for _ in 0..<c.int(1, 4) { images.append(c.sprite()) }
            let flipbook = Flipbook(frames: [c.sprite(), c.sprite(), c.sprite()], frameDuration: 0.1)
            let scene = Scene(background: background)
            let layer = try! scene.add(GroupNode(x: c.int(0, 3) == 0 ? c.coordinate(4) : 0, y: 0))
            if c.int(0, 3) == 0 { layer.scale = c.scale() }
            let scales = [c.scale(), c.scale(), c.scale()]
            var nodes: [SpriteNode] = []
            for _ in 0..<c.int(50, 400) {
                let x = -6 + c.unit() * Double(columns + 12), y = -6 + c.unit() * Double(2 * rows + 12)
                let node = c.int(0, 9) == 0 ? SpriteNode(flipbook: flipbook, x: x, y: y)
                    : SpriteNode(sprite: images[c.int(0, images.count - 1)], x: x, y: y)
                // Runs of like sprites, broken now and then by another scale, a mirror, a turn,
                // a tint, a fade or a place in the draw order.
                node.scaleX = scales[c.int(0, 2)]
                node.scaleY = c.int(0, 4) == 0 ? c.scale() : node.scaleX / 2
                switch c.int(0, 19) {
                case 0: node.rotation = c.unit() * 6
                case 1: node.tint = c.color(alpha: UInt8(c.int(0, 255)))
                case 2: node.alpha = c.unit()
                case 3: node.z = Double(c.int(-2, 2))
                case 4: node.anchor = Vec2(c.unit(), c.unit())
                default: break
                }
                node.animationStart = Double(c.int(0, 2)) * 0.1
                nodes.append(try! scene.add(node, to: layer))
            }
            let time = c.unit()
            let drawn = Canvas(columns: columns, rows: rows)
            drawn.kernelBuild = build
            scene.draw(into: drawn, time: time)
            let alone = Canvas(columns: columns, rows: rows, background: background)
            alone.kernelBuild = build
            for case let node as SpriteNode in layer.children {
                let frame = node.flipbook.frames[node.currentFrame(at: time)]
                alone.drawSprite(frame, transform: node.composedTransform, anchor: node.anchor, alpha: node.composedAlpha,
                                 tint: node.tint)
            }
            let differs = Self.pixelsThatDiffer(drawn, alone)
            #expect(differs.isEmpty, "scene \(n) (\(nodes.count) sprites): \(differs.prefix(4))")
            let sameCells = drawn.makeFrame() == alone.makeFrame()
            #expect(sameCells, "scene \(n): cells differ")
            if !differs.isEmpty { return }
        }
    }

    /// A sprite node the kernel declines (a scale past a million) in the middle of a run of
    /// ones it draws is drawn by the general path in its turn: over the sprites before it,
    /// under those after it.
    @Test(arguments: KernelBuild.allCases) func aSpriteTheKernelDeclinesIsDrawnInItsTurn(build: KernelBuild) {
        guard build.runsHere else { return }
        let coin = try! Sprite(palette: ["y": Color(rgb: 0xC8921E), "Y": Color(rgb: 0xFFD23F)], rows: [".yy.", "yYYy", "yYYy", ".yy."])
        let wall = Sprite(width: 2, height: 2, fill: Color(rgb: 0x3050A0))
        let scene = Scene(background: .black)
        var nodes: [SpriteNode] = []
        for i in 0..<150 {
            let node = SpriteNode(sprite: i == 70 ? wall : coin, x: Double(i % 17) * 1.7, y: Double(i % 11) * 1.3)
            if i == 70 {
                node.scaleX = 2e6
                node.scaleY = 1
                node.y = 7.2
            }
            nodes.append(try! scene.add(node))
        }
        let drawn = Canvas(columns: 30, rows: 8)
        drawn.kernelBuild = build
        scene.draw(into: drawn, time: 0)
        let alone = Canvas(columns: 30, rows: 8)
        alone.kernelBuild = build
        for node in nodes {
            alone.drawSprite(node.flipbook.frames[0], transform: node.composedTransform, anchor: node.anchor,
                             alpha: node.composedAlpha, tint: node.tint)
        }
        let differs = Self.pixelsThatDiffer(drawn, alone)
        let wallShows = (0..<drawn.height).contains { y in
            (0..<drawn.width).contains { x in drawn.pixel(x: x, y: y) == Color(rgb: 0x3050A0) }
        }
        #expect(differs.isEmpty, "\(differs.prefix(4))")
        #expect(wallShows)
    }

    /// A turned sprite is not for the fast path: it says so and leaves the canvas alone.
    @Test func aTurnedSpriteIsLeftToTheGeneralPath() {
        let canvas = Canvas(columns: 8, rows: 4)
        let turned = AffineTransform(translation: Vec2(4, 4), rotation: 0.3, scaleX: 1, scaleY: 1)
        letterF.pixels.withUnsafeBufferPointer { buf in
            #expect(!canvas.blitSprite(SpritePixels(buf, width: 3, height: 4), transform: turned, alpha: 255, tint: .white))
        }
        for y in 0..<canvas.height {
            for x in 0..<canvas.width { #expect(canvas.pixel(x: x, y: y) == canvas.background) }
        }
    }
}
