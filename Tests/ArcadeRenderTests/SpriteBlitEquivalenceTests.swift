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

        /// Pixel art with transparent, half-transparent and opaque pixels.
        mutating func sprite() -> Sprite {
            let w = int(1, 9), h = int(1, 9)
            var pixels: [Color] = []
            for _ in 0..<(w * h) {
                switch int(0, 5) {
                case 0: pixels.append(.clear)
                case 1: pixels.append(color(alpha: UInt8(int(1, 254))))
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
            switch int(0, 5) {
            case 0: return Double(int(-3, extent + 3))
            case 1: return Double(int(-3, extent + 3)) + 0.5
            default: return -8 + unit() * Double(extent + 16)
            }
        }
    }

    /// Draws the same things on two canvases, the sprite through the fast path on one and
    /// the general path on the other, and returns both.
    private func drawBoth(_ c: inout Case) -> (fast: Canvas, general: Canvas, fastTaken: Bool) {
        let columns = c.int(1, 30), rows = c.int(1, 12)
        let background = c.color()
        let fast = Canvas(columns: columns, rows: rows, background: background)
        let general = Canvas(columns: columns, rows: rows, background: background)
        // Something beneath to blend onto: a rectangle, and sometimes text (glyphs to cover).
        let under = c.color(alpha: UInt8(c.int(1, 255)))
        let (rx, ry, rw, rh) = (c.coordinate(columns), c.coordinate(2 * rows), c.unit() * 10, c.unit() * 10)
        let text = c.int(0, 2) == 0 ? "ab cd" : nil
        let textColor = c.color()
        let clip = c.int(0, 3) == 0 ? (c.coordinate(columns), c.coordinate(2 * rows), c.unit() * 20, c.unit() * 20) : nil
        let sprite = c.sprite()
        let transform = AffineTransform(a: c.scale(), b: 0, c: 0, d: c.scale(), tx: c.coordinate(columns), ty: c.coordinate(2 * rows))
        let alpha: UInt32 = [255, 255, 128, 1, UInt32(c.int(0, 255))][c.int(0, 4)]
        let tint = c.int(0, 3) == 0 ? c.color(alpha: UInt8(c.int(0, 255))) : Color.white
        var taken = false
        for (canvas, isFast) in [(fast, true), (general, false)] {
            canvas.drawRect(width: rw, height: rh, transform: .translation(rx, ry), anchor: .zero, fill: under)
            if let text { canvas.drawText(text, transform: .translation(rx, ry), color: textColor) }
            if let (x, y, w, h) = clip { canvas.pushClip(minX: x, minY: y, maxX: x + w, maxY: y + h) }
            sprite.pixels.withUnsafeBufferPointer { buf in
                let pixels = SpritePixels(buf, width: sprite.width, height: sprite.height)
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
        var c = Case(rng: SeededRandom(seed: 2024))
        var taken = 0
        var drewSomething = 0
        for n in 0..<6000 {
            let (fast, general, fastTaken) = drawBoth(&c)
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
        #expect(taken > 5900)
        #expect(drewSomething > 3000)
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
