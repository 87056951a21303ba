extension AnimatableProperty {
    /// The property a script names: any ``description`` (`"scale_x"`, `"outline"`,
    /// `"color2"`, ...), with case and underscores ignored, so `"scaleX"` and `"strokeEnd"`
    /// work too. Nil for an unknown name.
    public init?(name: String) {
        // The names as scripts usually spell them, without building a folded copy (a coin
        // shower names a property thousands of times a second).
        switch name {
        case "x": self = .x; return
        case "y": self = .y; return
        case "position": self = .position; return
        case "scale": self = .scale; return
        case "scale_x": self = .scaleX; return
        case "scale_y": self = .scaleY; return
        case "rotation": self = .rotation; return
        case "alpha": self = .alpha; return
        default: break
        }
        let s = name.lowercased().filter { $0 != "_" }
        switch s {
        case "x": self = .x
        case "y": self = .y
        case "position": self = .position
        case "scale": self = .scale
        case "scalex": self = .scaleX
        case "scaley": self = .scaleY
        case "rotation": self = .rotation
        case "alpha": self = .alpha
        case "color", "color0": self = .color(0)
        case "outline", "color1": self = .color(1)
        case "strokestart": self = .strokeStart
        case "strokeend": self = .strokeEnd
        default:
            guard s.hasPrefix("color"), let i = Int(s.dropFirst(5)), i >= 0 else { return nil }
            self = .color(i)
        }
    }

    /// True when writing one may change the other: equal properties, `position` with `x`
    /// or `y`, `scale` with `scaleX` or `scaleY`. An animation on a property replaces the
    /// running animations on every property it overlaps.
    public func overlaps(_ other: AnimatableProperty) -> Bool {
        if self == other { return true }
        switch (self, other) {
        case (.position, .x), (.position, .y), (.x, .position), (.y, .position),
             (.scale, .scaleX), (.scale, .scaleY), (.scaleX, .scale), (.scaleY, .scale):
            return true
        default:
            return false
        }
    }
}

extension AnimatableValue {
    /// Numbers the engine stores per value: 1 scalar, 2 vector, 4 colour.
    var dimension: Int {
        switch self {
        case .scalar: 1
        case .vector: 2
        case .color: 4
        }
    }

    /// "scalar", "vector" or "colour", for error messages.
    var kindName: String {
        switch self {
        case .scalar: "scalar"
        case .vector: "vector"
        case .color: "colour"
        }
    }

    /// Appends the value's numbers (colour channels as 0...255).
    func append(to numbers: inout [Double]) {
        switch self {
        case .scalar(let v):
            numbers.append(v)
        case .vector(let v):
            numbers.append(v.x)
            numbers.append(v.y)
        case .color(let c):
            numbers.append(Double(c.r))
            numbers.append(Double(c.g))
            numbers.append(Double(c.b))
            numbers.append(Double(c.a))
        }
    }
}

extension AnimatableProperty {
    /// The largest colour slot an animation can drive (its code must fit 16 bits).
    static let maximumColorSlot = Int(UInt16.max) - 16

    /// A 16-bit code for the engine's compact nodes; nil for a colour slot out of range.
    var engineCode: UInt16? {
        switch self {
        case .x: 0
        case .y: 1
        case .position: 2
        case .scale: 3
        case .scaleX: 4
        case .scaleY: 5
        case .rotation: 6
        case .alpha: 7
        case .strokeStart: 8
        case .strokeEnd: 9
        case .color(let i): i >= 0 && i <= Self.maximumColorSlot ? UInt16(16 + i) : nil
        }
    }

    /// The property for an ``engineCode``.
    @inline(__always)
    init(engineCode code: UInt16) {
        switch code {
        case 0: self = .x
        case 1: self = .y
        case 2: self = .position
        case 3: self = .scale
        case 4: self = .scaleX
        case 5: self = .scaleY
        case 6: self = .rotation
        case 7: self = .alpha
        case 8: self = .strokeStart
        case 9: self = .strokeEnd
        default: self = .color(Int(code) - 16)
        }
    }
}
