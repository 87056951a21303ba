import ArcadeCore
import Testing
@testable import ArcadeRender

@Suite struct PaletteTests {
    @Test func everyCubeAndGreyEntryMapsToItself() {
        for i in 16...255 {
            let index = UInt8(i)
            #expect(XtermPalette.index(nearestTo: XtermPalette.color(at: index)) == index, "entry \(i)")
        }
    }

    @Test func nearestEntriesForKnownColours() {
        // Pure primaries are cube corners.
        #expect(XtermPalette.index(nearestTo: Color(rgb: 0xFF0000)) == 196)
        #expect(XtermPalette.index(nearestTo: Color(rgb: 0x00FF00)) == 46)
        #expect(XtermPalette.index(nearestTo: Color(rgb: 0x000000)) == 16)
        // Grey 128 is exactly ramp step 12 (8 + 10 * 12), nearer than the cube's grey 135.
        #expect(XtermPalette.index(nearestTo: Color(r: 128, g: 128, b: 128)) == 244)
        // The fishing line brown #9e664a = (158, 102, 74) gets the cube's (175, 95, 95),
        // entry 16 + 36 * 3 + 6 * 1 + 1, not the ramp grey 108.
        let brown: UInt8 = XtermPalette.index(nearestTo: Color(rgb: 0x9E664A))
        #expect(brown == 131)
    }

    /// Colours and the entries they must get.
    static let hueKeepers: [(rgb: UInt32, index: UInt8)] = [
        // The greens of a button and a hedge became greys (238, 240) by plain RGB distance.
        (0x2F6B2F, 22),   // (0, 95, 0)
        (0x2C6E49, 29),   // (0, 135, 95)
        (0x300000, 52),   // dark red: (95, 0, 0)
        (0x5A1010, 52),
        (0x000030, 17),   // navy: (0, 0, 95)
        (0x8B4513, 130),  // brown: (175, 95, 0)
        (0xFF8800, 208),
        (0x66CCFF, 81),
        // Colours that are nearly grey still get greys.
        (0x101820, 234),
        (0x202428, 235),
    ]

    @Test func darkAndSaturatedColoursKeepTheirHue() {
        for (rgb, index) in Self.hueKeepers {
            let found: UInt8 = XtermPalette.index(nearestTo: Color(rgb: rgb))
            #expect(found == index, "#\(String(rgb, radix: 16))")
        }
    }

    @Test func everySaturatedColourGetsAColourOfNearlyTheSameHue() {
        // Hues every 30 degrees, fairly to fully saturated, from dark (40 %) to bright.
        for value in [0.4, 0.6, 1.0] {
            for saturation in [0.7, 1.0] {
                for hue in stride(from: 0.0, to: 360, by: 30) {
                    let color = Self.hsv(hue, saturation, value)
                    let shown = XtermPalette.color(at: XtermPalette.index(nearestTo: color))
                    let (shownHue, shownSaturation) = Self.hueAndSaturation(shown)
                    let turn = abs(shownHue - hue).truncatingRemainder(dividingBy: 360)
                    #expect(shownSaturation > 0.3, "\(color) became \(shown)")
                    #expect(min(turn, 360 - turn) <= 30, "\(color) became \(shown)")
                }
            }
        }
    }

    static func hsv(_ h: Double, _ s: Double, _ v: Double) -> Color {
        let c = v * s
        let x = c * (1 - abs((h / 60).truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(h / 60) {
        case 0: (c, x, 0)
        case 1: (x, c, 0)
        case 2: (0, c, x)
        case 3: (0, x, c)
        case 4: (x, 0, c)
        default: (c, 0, x)
        }
        let m = v - c
        func byte(_ t: Double) -> UInt8 { UInt8(((t + m) * 255).rounded()) }
        return Color(r: byte(r), g: byte(g), b: byte(b))
    }

    static func hueAndSaturation(_ color: Color) -> (Double, Double) {
        let r = Double(color.r) / 255, g = Double(color.g) / 255, b = Double(color.b) / 255
        let hi = max(r, g, b), lo = min(r, g, b)
        guard hi > lo else { return (0, 0) }
        let d = hi - lo
        var h: Double
        if hi == r { h = 60 * ((g - b) / d) } else if hi == g { h = 60 * ((b - r) / d + 2) } else { h = 60 * ((r - g) / d + 4) }
        if h < 0 { h += 360 }
        return (h, d / hi)
    }

    @Test func systemColoursAreXtermDefaults() {
        #expect(XtermPalette.color(at: 1) == Color(rgb: 0xCD0000))
        #expect(XtermPalette.color(at: 15) == Color(rgb: 0xFFFFFF))
    }
}
