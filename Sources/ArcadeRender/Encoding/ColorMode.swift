/// How colours are written to the terminal.
public enum ColorMode: Hashable, Sendable, CaseIterable {
    /// 24-bit `38;2;r;g;b` / `48;2;r;g;b`.
    case trueColor
    /// The xterm 256-colour palette (`38;5;n`), nearest entry of the 6x6x6 cube or the grey
    /// ramp, for terminals without truecolor.
    case palette256
    /// The 16 system colours for text and background alike (`30`-`37`, `90`-`97`, `40`-`47`,
    /// `100`-`107`), for terminals whose terminfo says 16 colours (`xterm-16color`).
    case palette16
    /// 16 foreground colours on 8 backgrounds (`40`-`47` only), as the Linux console shows
    /// them, for terminals whose terminfo says 8 colours (`linux`, `xterm-color`). Colours
    /// are matched against the console's own palette (its dim yellow is brown).
    case palette8

    /// The name `--color` takes and the settings card shows.
    public var name: String {
        switch self {
        case .trueColor: "truecolor"
        case .palette256: "256"
        case .palette16: "16"
        case .palette8: "8"
        }
    }

    /// The mode a `--color` value names, or nil.
    public init?(name: String) {
        guard let mode = ColorMode.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = mode
    }

    /// How many colours a cell's foreground can take in a palette mode (0 for truecolor).
    var foregroundCount: Int {
        switch self {
        case .trueColor: 0
        case .palette256: 256
        case .palette16, .palette8: 16
        }
    }

    /// How many colours a cell's background can take in a palette mode (0 for truecolor).
    var backgroundCount: Int {
        switch self {
        case .trueColor: 0
        case .palette256: 256
        case .palette16: 16
        case .palette8: 8
        }
    }

    /// The mode a terminal whose terminfo says it shows `colors` colours gets by default,
    /// when `COLORTERM` does not say truecolor: nil `colors` (no entry on this machine, so
    /// taken on trust) and 256 or more get the 256-colour palette.
    public static func forTerminal(colors: Int?) -> ColorMode {
        guard let colors else { return .palette256 }
        if colors >= 256 { return .palette256 }
        if colors >= 16 { return .palette16 }
        return .palette8
    }
}
