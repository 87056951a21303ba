import ArcadeCore

/// Remembers recent nearest-palette answers: a frame uses few distinct colours, and each
/// cell would otherwise search the palette twice.
struct PaletteCache {
    /// `rgb + 1` per slot (0 = empty), and the palette index found for it.
    private var keys: [UInt32]
    private var indices: [UInt8]
    private static let slotBits: UInt32 = 12

    init() {
        keys = Array(repeating: 0, count: 1 << Int(PaletteCache.slotBits))
        indices = Array(repeating: 0, count: 1 << Int(PaletteCache.slotBits))
    }

    /// The palette index nearest to `color`.
    @inline(__always) mutating func index(for color: Color) -> UInt32 {
        let rgb = TerminalCell.rgbKey(color)
        let slot = Int((rgb &* 2_654_435_761) >> (32 - PaletteCache.slotBits))
        if keys[slot] == rgb &+ 1 { return UInt32(indices[slot]) }
        let found = XtermPalette.index(nearestTo: color)
        keys[slot] = rgb &+ 1
        indices[slot] = found
        return UInt32(found)
    }
}
