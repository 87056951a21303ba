extension TimingCurve {
    /// The curve a script names, or nil for an unknown name.
    ///
    /// Case, `_`, `-` and spaces are ignored. Core Animation's names: `linear`, `easeIn`,
    /// `easeOut`, `easeInEaseOut` (also `easeInOut`), `default`. Penner curves in any of the
    /// usual spellings: `easeOutQuad` (easings.net), `outQuad` (Solar2D), `quadOut` (flux),
    /// `EASING_OUTQUAD` (Defold).
    public init?(named name: String) {
        // Core Animation's names as written, without building a folded copy (a coin shower
        // names two curves per coin).
        switch name {
        case "linear": self = .linear; return
        case "easeIn": self = .easeIn; return
        case "easeOut": self = .easeOut; return
        case "easeInEaseOut", "easeInOut": self = .easeInEaseOut; return
        case "default": self = .default; return
        default: break
        }
        var s = Substring(String(name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " }))
        switch s {
        case "linear": self = .linear; return
        case "default": self = .default; return
        case "easein": self = .easeIn; return
        case "easeout": self = .easeOut; return
        case "easeineaseout", "easeinout": self = .easeInEaseOut; return
        default: break
        }
        if s.hasPrefix("easing") {
            s = s.dropFirst(6)
        } else if s.hasPrefix("ease") {
            s = s.dropFirst(4)
        }
        // "inout" before "in" and "out": it contains both.
        let directions: [(String, EasingDirection)] = [("inout", .inOut), ("in", .in), ("out", .out)]
        for (word, direction) in directions {
            if s.hasPrefix(word), let family = EasingFamily(rawValue: String(s.dropFirst(word.count))) {
                self = .easing(family, direction)
                return
            }
            if s.hasSuffix(word), let family = EasingFamily(rawValue: String(s.dropLast(word.count))) {
                self = .easing(family, direction)
                return
            }
        }
        return nil
    }
}
