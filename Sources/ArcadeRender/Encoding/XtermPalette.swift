#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// The xterm 256-colour palette: 16 system colours, a 6x6x6 colour cube (16...231) and a
/// 24-step grey ramp (232...255).
///
/// Only the cube and the ramp are used for matching: the 16 system colours are whatever the
/// user's theme makes them.
public enum XtermPalette {
    /// The six channel levels of the colour cube.
    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The cube or grey-ramp entry that looks nearest to `color`.
    ///
    /// Distances are measured in Oklab (a perceptual space: equal steps look equally
    /// different), with differences in hue and saturation counting double those in lightness:
    /// the palette is coarse in the darks, and a dark green shown as a slightly lighter green
    /// reads as the same colour, while the same green shown as a grey does not. Plain RGB
    /// distance turned `#2f6b2f` grey. Ties go to the lower index.
    public static func index(nearestTo color: Color) -> UInt8 {
        let target = Oklab(color)
        var best = 0
        var bestDistance = Float.infinity
        entries.withUnsafeBufferPointer { candidates in
            for i in 0..<candidates.count {
                let c = candidates[i]
                let dl = c.l - target.l
                let da = c.a - target.a
                let db = c.b - target.b
                let d = dl * dl + chromaWeight * (da * da + db * db)
                if d < bestDistance {
                    bestDistance = d
                    best = i
                }
            }
        }
        return UInt8(16 + best)
    }

    /// The system colour (among the first `count`: 8 or 16) that looks nearest to `color`
    /// while keeping its hue.
    ///
    /// The system colours are all either grey or strongly coloured, so a plain nearest match
    /// turns most game colours grey (a dark green is nearer the dark grey than the green).
    /// Here the colour's saturation is first raised towards the palette's (its hue kept),
    /// then matched in Oklab as ``index(nearestTo:)`` does: a colour with any real hue goes
    /// to the entry of that hue, a greyish one to the grey nearest in lightness. The
    /// entries are matched as xterm shows them by default, or (`console`) as the Linux
    /// console does, whose dim yellow is a brown. Ties go to the lower index.
    public static func systemIndex(nearestTo color: Color, count: Int, console: Bool = false) -> UInt8 {
        var target = saturated(Oklab(color))
        target.l = systemLightness(target.l)
        let systemEntries = console ? consoleEntries : self.systemEntries
        var best = 0
        var bestDistance = Float.infinity
        let n = min(max(count, 1), 16)
        for i in 0..<n {
            let c = systemEntries[i]
            let dl = c.l - target.l
            let da = c.a - target.a
            let db = c.b - target.b
            let d = dl * dl + chromaWeight * (da * da + db * db)
            if d < bestDistance {
                bestDistance = d
                best = i
            }
        }
        return UInt8(best)
    }

    /// `c` with its chroma raised ``saturationBoost`` times (up to ``saturationCap``, and less
    /// near black), for matching against the strongly coloured system palette; greys stay grey.
    static func saturated(_ c: Oklab) -> Oklab {
        let chroma = (c.a * c.a + c.b * c.b).squareRoot()
        guard chroma > 0.0001 else { return c }
        // near black, less: a game's dark panel stays black rather than turning blue
        let scale = max(1, min(saturationBoost, saturationCap / chroma) * min(1, c.l / darkLightness))
        return Oklab(l: c.l, a: c.a * scale, b: c.b * scale)
    }

    /// Lightness as the system colours are matched on it: darks closer together, so a game's
    /// dark background gets black rather than the dark grey (which a terminal shows far
    /// lighter than any night sky).
    static func systemLightness(_ l: Float) -> Float {
        powf(max(l, 0), 1.5)
    }

    /// How much a colour's saturation is raised before it is matched to the system colours.
    static let saturationBoost: Float = 2.5
    /// Below this lightness a colour's saturation is raised less, down to not at all at black.
    static let darkLightness: Float = 0.35
    /// The chroma a raised colour reaches at most (the system colours' own is 0.2 to 0.3).
    static let saturationCap: Float = 0.26

    /// The 16 system colours in Oklab, in index order.
    static let systemEntries: [Oklab] = systemColors.map { matchable(Oklab($0)) }
    /// The Linux console's 16 colours (the VGA palette) in Oklab.
    static let consoleEntries: [Oklab] = consoleColors.map { matchable(Oklab($0)) }

    /// An entry with its lightness as ``systemIndex(nearestTo:count:console:)`` compares it.
    private static func matchable(_ c: Oklab) -> Oklab {
        Oklab(l: systemLightness(c.l), a: c.a, b: c.b)
    }

    /// The Linux console's colours (0-7 normal, 8-15 bright).
    public static let consoleColors: [Color] = [
        0x000000, 0xAA0000, 0x00AA00, 0xAA5500, 0x0000AA, 0xAA00AA, 0x00AAAA, 0xAAAAAA,
        0x555555, 0xFF5555, 0x55FF55, 0xFFFF55, 0x5555FF, 0xFF55FF, 0x55FFFF, 0xFFFFFF,
    ].map { Color(rgb: $0) }

    /// How much more a squared difference in the colour plane (a, b) counts than one in
    /// lightness.
    static let chromaWeight: Float = 4

    /// Entries 16...255 in Oklab, in index order.
    static let entries: [Oklab] = (16...255).map { Oklab(color(at: UInt8($0))) }

    /// The colour xterm shows for palette entry `index` (the system colours use xterm's
    /// defaults).
    public static func color(at index: UInt8) -> Color {
        switch index {
        case 0..<16:
            return systemColors[Int(index)]
        case 16..<232:
            let n = Int(index) - 16
            return Color(r: cubeLevels[n / 36], g: cubeLevels[(n / 6) % 6], b: cubeLevels[n % 6])
        default:
            let v = UInt8(8 + 10 * (Int(index) - 232))
            return Color(r: v, g: v, b: v)
        }
    }


    /// xterm's default system colours (0-7 normal, 8-15 bright).
    public static let systemColors: [Color] = [
        0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
        0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
    ].map { Color(rgb: $0) }
}

/// A colour in Oklab (Björn Ottosson, 2020): `l` lightness 0...1, `a` green to red, `b` blue
/// to yellow.
struct Oklab {
    var l: Float
    var a: Float
    var b: Float

    init(l: Float, a: Float, b: Float) {
        self.l = l
        self.a = a
        self.b = b
    }

    init(_ c: Color) {
        let r = Oklab.linear[Int(c.r)]
        let g = Oklab.linear[Int(c.g)]
        let b = Oklab.linear[Int(c.b)]
        let lc = cbrtf(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let mc = cbrtf(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let sc = cbrtf(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        l = 0.2104542553 * lc + 0.7936177850 * mc - 0.0040720468 * sc
        a = 1.9779984951 * lc - 2.4285922050 * mc + 0.4505937099 * sc
        self.b = 0.0259040371 * lc + 0.7827717662 * mc - 0.8086757660 * sc
    }

    /// sRGB channel value to linear light.
    static let linear: [Float] = (0..<256).map { v in
        let c = Float(v) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }
}
