#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// A filter the host puts on every colour a frame shows, just before the colours are written
/// to the terminal, so that every game gets it with no code of its own.
///
/// The three colour-blind modes daltonise: the difference a player with that vision cannot
/// see is moved into one they can. For deuteranopia and protanopia (red and green look
/// alike) a colour's place on the green-red axis is also given to its lightness and to its
/// place on the blue-yellow axis: reds come out lighter and warmer, greens darker and
/// bluer, so a red and a green a game shows side by side stay apart. For tritanopia (blue
/// and green, yellow and violet look alike) the blue-yellow axis is given to the green-red
/// one, and blue-yellow also darkens yellows and lightens blues a little. High contrast spreads lightness away from the middle and makes colours a little
/// stronger; text is drawn light on a dark backing, or dark on a light one.
///
/// The work happens in Oklab (a perceptual space); a colour pushed out of what the screen
/// can show keeps its lightness and hue and loses saturation.
public enum VisionFilter: String, CaseIterable, Sendable {
    case none
    case deuteranopia
    case protanopia
    case tritanopia
    case highContrast = "contrast"

    /// The name `--vision` takes and the settings card shows.
    public var name: String { rawValue }

    /// The words the settings card shows for it.
    public var label: String {
        switch self {
        case .none: "none"
        case .deuteranopia: "deuteranopia (red-green)"
        case .protanopia: "protanopia (red-green)"
        case .tritanopia: "tritanopia (blue-yellow)"
        case .highContrast: "high contrast"
        }
    }

    /// The colour the player is shown for `color` (alpha is kept).
    public func apply(_ color: Color) -> Color {
        if self == .none { return color }
        var c = Oklab(color)
        switch self {
        case .none:
            break
        case .deuteranopia, .protanopia:
            // the green-red coordinate (a), which these eyes lose, also sets lightness and
            // the blue-yellow coordinate (b), which they keep
            let a = c.a
            c.l += VisionFilter.redGreenToLightness * a
            c.b += VisionFilter.redGreenToBlueYellow * a
        case .tritanopia:
            let b = c.b
            c.a -= VisionFilter.blueYellowToRedGreen * b
            c.l += VisionFilter.blueYellowToLightness * b
        case .highContrast:
            // lightness pushed away from the middle (a power curve, so the lightest and the
            // darkest colours stay apart rather than all becoming white or black)
            let u = min(max(2 * c.l - 1, -1), 1)
            c.l = 0.5 + 0.5 * (u < 0 ? -1 : 1) * powf(abs(u), VisionFilter.contrastPower)
            c.a *= VisionFilter.contrastChroma
            c.b *= VisionFilter.contrastChroma
        }
        return c.color(alpha: color.a)
    }

    /// For a text cell under high contrast: its colours pulled apart in lightness, the
    /// lighter of the two (usually the text) to at least ``textLight`` and the other to at
    /// most ``textDark``, each keeping its hue. Other filters leave text as it is.
    public func text(foreground: Color, background: Color) -> (foreground: Color, background: Color) {
        guard self == .highContrast else { return (foreground, background) }
        if VisionFilter.lightness(foreground) >= VisionFilter.lightness(background) {
            return (VisionFilter.withLightness(foreground, atLeast: VisionFilter.textLight),
                    VisionFilter.withLightness(background, atMost: VisionFilter.textDark))
        }
        return (VisionFilter.withLightness(foreground, atMost: VisionFilter.textDark),
                VisionFilter.withLightness(background, atLeast: VisionFilter.textLight))
    }

    /// How far a unit of green-red moves lightness (deuteranopia, protanopia).
    static let redGreenToLightness: Float = 0.45
    /// How far a unit of green-red moves blue-yellow (deuteranopia, protanopia).
    static let redGreenToBlueYellow: Float = 1.2
    /// How far a unit of blue-yellow moves green-red (tritanopia).
    static let blueYellowToRedGreen: Float = 0.5
    /// How far a unit of blue-yellow moves lightness (tritanopia).
    static let blueYellowToLightness: Float = -0.25
    /// High contrast: the power of the curve that pushes lightness from the middle (below
    /// 1: mid-tones move out furthest).
    static let contrastPower: Float = 0.7
    /// High contrast: saturation grows by this much.
    static let contrastChroma: Float = 1.3
    /// High contrast: text is at least this light (Oklab lightness) over a dark backing...
    static let textLight: Float = 0.9
    /// ... whose lightness is at most this (and the other way round).
    static let textDark: Float = 0.22

    /// Oklab lightness of `c`, 0...1.
    public static func lightness(_ c: Color) -> Float { Oklab(c).l }

    static func withLightness(_ c: Color, atLeast l: Float) -> Color {
        var o = Oklab(c)
        o.l = max(o.l, l)
        return o.color(alpha: c.a)
    }

    static func withLightness(_ c: Color, atMost l: Float) -> Color {
        var o = Oklab(c)
        o.l = min(o.l, l)
        return o.color(alpha: c.a)
    }

    // MARK: Simulating a vision

    /// The colour-vision deficiencies ``simulate(_:_:)`` can show.
    public enum Deficiency: CaseIterable, Sendable {
        case deuteranopia, protanopia, tritanopia
    }

    /// How `color` looks to a viewer with `deficiency` (Machado, Oliveira and Fernandes, 2009,
    /// full severity, applied in linear light).
    public static func simulate(_ color: Color, _ deficiency: Deficiency) -> Color {
        let m: [Float]
        switch deficiency {
        case .protanopia:
            m = [0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998]
        case .deuteranopia:
            m = [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.011820, 0.042940, 0.968881]
        case .tritanopia:
            m = [1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.303900]
        }
        let r = Oklab.linear[Int(color.r)], g = Oklab.linear[Int(color.g)], b = Oklab.linear[Int(color.b)]
        return Oklab.encode(r: m[0] * r + m[1] * g + m[2] * b, g: m[3] * r + m[4] * g + m[5] * b,
                            b: m[6] * r + m[7] * g + m[8] * b, alpha: color.a)
    }

    /// How far apart two colours look: their distance in Oklab (about 0.02 is the smallest
    /// difference anyone notices side by side; 1 is black to white).
    public static func difference(_ x: Color, _ y: Color) -> Float {
        let p = Oklab(x), q = Oklab(y)
        let dl = p.l - q.l, da = p.a - q.a, db = p.b - q.b
        return (dl * dl + da * da + db * db).squareRoot()
    }

    /// The vision a filter is made for, if any.
    public var deficiency: Deficiency? {
        switch self {
        case .deuteranopia: .deuteranopia
        case .protanopia: .protanopia
        case .tritanopia: .tritanopia
        case .none, .highContrast: nil
        }
    }
}

extension Oklab {
    /// The sRGB colour of this Oklab one; out of gamut, its saturation is lowered (lightness
    /// and hue kept) until it fits.
    func color(alpha: UInt8) -> Color {
        let l = min(max(self.l, 0), 1)
        var (lo, hi): (Float, Float) = (0, 1)
        if let rgb = Oklab.linearRGB(l: l, a: a, b: b) { return Oklab.encodeLinear(rgb, alpha: alpha) }
        // bisect on the share of chroma kept
        for _ in 0..<12 {
            let mid = (lo + hi) / 2
            if Oklab.linearRGB(l: l, a: a * mid, b: b * mid) != nil { lo = mid } else { hi = mid }
        }
        let rgb = Oklab.linearRGB(l: l, a: a * lo, b: b * lo) ?? (l, l, l)
        return Oklab.encodeLinear(rgb, alpha: alpha)
    }

    /// Linear sRGB of an Oklab colour, or nil when it is outside what sRGB can show.
    static func linearRGB(l: Float, a: Float, b: Float) -> (Float, Float, Float)? {
        let l1 = l + 0.3963377774 * a + 0.2158037573 * b
        let m1 = l - 0.1055613458 * a - 0.0638541728 * b
        let s1 = l - 0.0894841775 * a - 1.2914855480 * b
        let lc = l1 * l1 * l1, mc = m1 * m1 * m1, sc = s1 * s1 * s1
        let r = 4.0767416621 * lc - 3.3077115913 * mc + 0.2309699292 * sc
        let g = -1.2684380046 * lc + 2.6097574011 * mc - 0.3413193965 * sc
        let bl = -0.0041960863 * lc - 0.7034186147 * mc + 1.7076147010 * sc
        let e: Float = 0.0005
        guard r >= -e, r <= 1 + e, g >= -e, g <= 1 + e, bl >= -e, bl <= 1 + e else { return nil }
        return (r, g, bl)
    }

    static func encodeLinear(_ rgb: (Float, Float, Float), alpha: UInt8) -> Color {
        encode(r: rgb.0, g: rgb.1, b: rgb.2, alpha: alpha)
    }

    /// Linear light to an sRGB colour, each channel clamped.
    static func encode(r: Float, g: Float, b: Float, alpha: UInt8) -> Color {
        func channel(_ v: Float) -> UInt8 {
            let c = min(max(v, 0), 1)
            let s = c <= 0.0031308 ? 12.92 * c : 1.055 * powf(c, 1 / 2.4) - 0.055
            return UInt8(min(max((s * 255).rounded(), 0), 255))
        }
        return Color(r: channel(r), g: channel(g), b: channel(b), a: alpha)
    }
}
