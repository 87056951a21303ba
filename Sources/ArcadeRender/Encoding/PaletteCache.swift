import ArcadeCore

/// What one colour becomes on its way to the terminal: the vision filter, then (for text
/// under high contrast) a lighter or darker shade, then the colour mode's key (`0xRRGGBB`
/// in truecolor, else a palette index).
struct ColorMapping: Equatable {
    /// Which palette the key is taken from.
    enum Target: Equatable {
        case rgb
        case palette256
        /// The first `n` system colours (8 or 16), matched as xterm shows them.
        case system(Int)
        /// The same, matched as the Linux console shows them; with 8, a bright colour's dim
        /// twin.
        case console(Int)
    }

    /// Text under high contrast: the lighter or the darker of its two colours.
    enum Shade: Equatable {
        case asIs, light, dark
    }

    var target: Target
    var filter: VisionFilter = .none
    var shade: Shade = .asIs

    /// The colour after the filter and the shade, before the palette.
    func filtered(_ color: Color) -> Color {
        var c = filter.apply(color)
        switch shade {
        case .asIs: break
        case .light: c = VisionFilter.withLightness(c, atLeast: VisionFilter.textLight)
        case .dark: c = VisionFilter.withLightness(c, atMost: VisionFilter.textDark)
        }
        return c
    }

    /// The terminal key of `color`.
    func key(for color: Color) -> UInt32 {
        let c = filtered(color)
        switch target {
        case .rgb: return TerminalCell.rgbKey(c)
        case .palette256: return UInt32(XtermPalette.index(nearestTo: c))
        case .system(let n): return UInt32(XtermPalette.systemIndex(nearestTo: c, count: n))
        case .console(let n):
            // 8 backgrounds: a bright colour's dim twin, its hue kept (a gold coin's is the
            // console's brown, not its green)
            let i = XtermPalette.systemIndex(nearestTo: c, count: 16, console: true)
            return UInt32(n == 8 ? i & 7 : i)
        }
    }
}

/// Remembers recent answers of a ``ColorMapping``: a frame uses few distinct colours, and
/// each cell would otherwise search the palette (and run the filter) twice.
struct PaletteCache {
    let mapping: ColorMapping
    /// `rgb + 1` per slot (0 = empty), and the key found for it.
    private var keys: [UInt32]
    private var found: [UInt32]
    private static let slotBits: UInt32 = 12

    /// The slots are made at the first lookup: a cell look keeps several caches, most of
    /// which a colour mode never asks.
    init(_ mapping: ColorMapping = ColorMapping(target: .palette256)) {
        self.mapping = mapping
        keys = []
        found = []
    }

    /// The terminal key for `color`.
    @inline(__always) mutating func index(for color: Color) -> UInt32 {
        if keys.isEmpty {
            keys = Array(repeating: 0, count: 1 << Int(PaletteCache.slotBits))
            found = Array(repeating: 0, count: 1 << Int(PaletteCache.slotBits))
        }
        let rgb = TerminalCell.rgbKey(color)
        let slot = Int((rgb &* 2_654_435_761) >> (32 - PaletteCache.slotBits))
        if keys[slot] == rgb &+ 1 { return found[slot] }
        let key = mapping.key(for: color)
        keys[slot] = rgb &+ 1
        found[slot] = key
        return key
    }
}
