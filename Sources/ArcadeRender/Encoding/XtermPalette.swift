import ArcadeCore

/// The xterm 256-colour palette: 16 system colours, a 6x6x6 colour cube (16...231) and a
/// 24-step grey ramp (232...255).
///
/// Only the cube and the ramp are used for matching: the 16 system colours are whatever the
/// user's theme makes them.
public enum XtermPalette {
    /// The six channel levels of the colour cube.
    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The cube or grey-ramp entry nearest to `color` (squared RGB distance; ties go to the
    /// cube).
    public static func index(nearestTo color: Color) -> UInt8 {
        let ri = cubeStep(color.r)
        let gi = cubeStep(color.g)
        let bi = cubeStep(color.b)
        let cube = (Int(cubeLevels[ri]), Int(cubeLevels[gi]), Int(cubeLevels[bi]))
        let mean = (Int(color.r) + Int(color.g) + Int(color.b)) / 3
        let k = min(23, max(0, (mean - 3) / 10))
        let grey = 8 + 10 * k
        let r = Int(color.r)
        let g = Int(color.g)
        let b = Int(color.b)
        let dCube = sq(r - cube.0) + sq(g - cube.1) + sq(b - cube.2)
        let dGrey = sq(r - grey) + sq(g - grey) + sq(b - grey)
        if dGrey < dCube { return UInt8(232 + k) }
        return UInt8(16 + 36 * ri + 6 * gi + bi)
    }

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

    /// The index of the cube level nearest to a channel value.
    @inline(__always) static func cubeStep(_ v: UInt8) -> Int {
        if v < 48 { return 0 }
        if v < 115 { return 1 }
        return (Int(v) - 35) / 40
    }

    @inline(__always) static func sq(_ x: Int) -> Int { x * x }

    static let systemColors: [Color] = [
        0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
        0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
    ].map { Color(rgb: $0) }
}
