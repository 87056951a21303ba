import ArcadeCore

/// The table a game's `input(event)` gets for each input event.
///
///     { type = "key", key = "space", is_repeat = false, ctrl = false, alt = false, shift = false }
///     { type = "keyup", key = "a", ... }
///     { type = "mouse", action = "press", button = "left", col = 10, row = 5, x = 10, y = 10, ctrl = ..., ... }
///     { type = "resize", cols = 100, rows = 30, width = 100, height = 60 }
///
/// Mouse events carry both the cell and the pixel (`y = 2 * row`); a resize both the cells
/// and the canvas in pixels.
extension LuaStack {
    /// Pushes `event` as the table `input(event)` gets.
    public func push(_ event: InputEvent) {
        reserve(4)
        pushTable(fields: 8)
        func set(_ k: String, _ v: String) { push(v); setField(k, in: -2) }
        func set(_ k: String, _ v: Int) { push(v); setField(k, in: -2) }
        func set(_ k: String, _ v: Bool) { push(v); setField(k, in: -2) }
        func modifiers(_ m: KeyModifiers) {
            set("ctrl", m.contains(.ctrl))
            set("alt", m.contains(.alt))
            set("shift", m.contains(.shift))
        }
        switch event {
        case .key(let k), .keyUp(let k):
            if case .key = event { set("type", "key") } else { set("type", "keyup") }
            set("key", k.key)
            set("is_repeat", k.isRepeat)
            set("repeat", k.isRepeat)  // the old name (a keyword: only e["repeat"] reads it)
            modifiers(k.modifiers)
        case .mouse(let m):
            set("type", "mouse")
            set("action", m.action.rawValue)
            set("button", m.button.rawValue)
            set("col", m.col)
            set("row", m.row)
            set("x", m.col)
            set("y", m.row * 2)
            modifiers(m.modifiers)
        case .resize(let c, let r):
            set("type", "resize")
            set("cols", c)
            set("rows", r)
            set("width", c)
            set("height", r * 2)
        }
    }
}
