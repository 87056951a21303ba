import ArcadeCore
import ArcadeLua
import ArcadeRender

/// The cards drawn over a game: pause, error, "window too small", and the hot-reload error
/// strip. Drawn with the engine's own canvas, like everything else on screen.
enum CardView {
    static let pauseChoices = ["resume", "restart", "back to menu", "settings"]
    static let errorChoices = ["reload", "restart", "back to menu"]

    static let panel = Color(rgb: 0x1B1F2A)
    static let border = Color(rgb: 0x5C6BC0)
    static let dim = Color(rgb: 0x9AA0B4)
    static let accent = Color(rgb: 0xFFB300)
    static let danger = Color(rgb: 0xE53935)
    /// What covers a game whose manifest asks for it while the pause card is up.
    static let backdrop = Color(rgb: 0x0E1118)

    /// The card's box in cells: centred, `w` x `h`.
    static func box(cols: Int, rows: Int, w: Int, h: Int) -> (x: Int, y: Int, w: Int, h: Int) {
        let w = min(w, cols - 2), h = min(h, rows - 2)
        return ((cols - w) / 2, (rows - h) / 2, w, h)
    }

    /// The card's panel and border. The panel is opaque: a game showing through a translucent
    /// one turns into blotches of near-equal greys once colours are cut to 256.
    static func frame(_ g: Graphics, _ b: (x: Int, y: Int, w: Int, h: Int), color: Color) {
        g.fillRect(x: Double(b.x), y: Double(b.y * 2), width: Double(b.w), height: Double(b.h * 2), color: panel)
        g.strokeRect(x: Double(b.x), y: Double(b.y * 2), width: Double(b.w), height: Double(b.h * 2), color: color)
    }

    /// Where the choice buttons sit: one row, centred, at the card's bottom.
    static func choiceLayout(_ choices: [String], box b: (x: Int, y: Int, w: Int, h: Int)) -> [(col: Int, row: Int, width: Int)] {
        let widths = choices.map { TextWidth.width($0) + 4 }
        let total = widths.reduce(0, +) + 2 * (choices.count - 1)
        var col = b.x + (b.w - total) / 2
        var out: [(Int, Int, Int)] = []
        for w in widths {
            out.append((col, b.y + b.h - 2, w))
            col += w + 2
        }
        return out
    }

    static func drawChoices(_ g: Graphics, _ choices: [String], selected: Int, box b: (x: Int, y: Int, w: Int, h: Int)) {
        for (i, slot) in choiceLayout(choices, box: b).enumerated() {
            let on = i == selected
            g.text(" \(on ? "▶" : " ") \(choices[i]) ", x: Double(slot.col), y: Double(slot.row * 2),
                   color: on ? .black : .white, background: on ? accent : Color(rgb: 0x303648))
        }
    }

    /// The choice under a click, if any. `controls`: how many the pause card lists.
    /// `note`: the pause card shows a line on the settings.
    static func choiceAt(col: Int, row: Int, choices: [String], controls: Int = 0, note: Bool = false, cols: Int,
                         rows: Int) -> Int? {
        let b = box(cols: cols, rows: rows, w: 64, h: choices == errorChoices ? 16 : pauseHeight(controls: controls, note: note))
        for (i, slot) in choiceLayout(choices, box: b).enumerated()
        where row == slot.row && col >= slot.col && col < slot.col + slot.width {
            return i
        }
        return nil
    }

    /// The pause card's height in rows: the title block, one row per control and a gap
    /// before and after them, a row for the settings `note` when there is one, the choices.
    static func pauseHeight(controls: Int, note: Bool = false) -> Int {
        (controls == 0 ? 9 : 7 + controls) + (note ? 1 : 0)
    }

    /// The pause card: "PAUSED", the game's title, the game's controls (its manifest's
    /// `controls`: what to press or click on the left, what it does on the right) and the
    /// choices. At most ``GameManifest/maxControls`` controls of bounded length, so it fits
    /// an 80 x 24 terminal.
    /// `covered`: the manifest's `hide_on_pause`; the whole game is hidden behind a plain
    /// backdrop first, so nothing of the board can be studied while the clock is stopped.
    /// `sound`: whether sound plays (nil: no speaker, no line for it); `m` toggles it.
    /// `note`: the settings that are not the defaults (the vision filter, the speed, the
    /// remapped keys), on a row of its own above the choices.
    static func pause(on canvas: Canvas, title: String, controls: [GameControl] = [], selected: Int,
                      covered: Bool = false, sound: Bool? = nil, note: String? = nil) {
        let g = Graphics(canvas: canvas)
        if covered {
            g.fillRect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height), color: backdrop)
        }
        let b = box(cols: canvas.columns, rows: canvas.rows, w: 64, h: pauseHeight(controls: controls.count, note: note != nil))
        frame(g, b, color: border)
        let top = controls.isEmpty ? 2 : 1
        g.text("PAUSED", x: Double(b.x + (b.w - 6) / 2), y: Double((b.y + top) * 2), color: accent)
        let shown = TextWidth.prefix(title, cells: b.w - 4)
        g.text(String(shown.text), x: Double(b.x + (b.w - shown.width) / 2), y: Double((b.y + 2 * top) * 2), color: dim)
        if !controls.isEmpty {
            let inputWidth = controls.map { TextWidth.width($0.input) }.max() ?? 0
            let actionWidth = controls.map { TextWidth.width($0.action) }.max() ?? 0
            // inputs right-aligned against the actions, the block centred; the longest of
            // each (GameManifest's limits) just fit the card's 60 inner columns
            let gap = 2
            let left = b.x + 2 + max(0, (b.w - 4 - inputWidth - gap - actionWidth) / 2)
            let actionX = left + inputWidth + gap
            // rows that do not fit (a card shrunk by a short window) are left out
            for (i, control) in controls.enumerated() where 4 + i < b.h - 3 {
                let y = Double((b.y + 4 + i) * 2)
                g.text(control.input, x: Double(left + inputWidth - TextWidth.width(control.input)), y: y, color: accent)
                g.text(String(TextWidth.prefix(control.action, cells: max(0, b.x + b.w - 2 - actionX)).text), x: Double(actionX),
                       y: y, color: .white)
            }
        }
        if let note {
            let shown = TextWidth.prefix(note, cells: b.w - 4)
            g.text(String(shown.text), x: Double(b.x + (b.w - shown.width) / 2), y: Double((b.y + b.h - 3) * 2), color: dim)
        }
        drawChoices(g, pauseChoices, selected: selected, box: b)
        if let sound {
            let line = "m: sound " + (sound ? "on" : "off")
            g.text(line, x: Double(b.x + b.w - 2 - line.count), y: Double((b.y + 1) * 2), color: dim)
        }
    }

    /// The error card. `paused` (development mode): the game waits where it was, and a saved
    /// fix carries on from there, so the card says so.
    /// `hint`: a line on the likely cause, after the message (an error after a hot reload).
    static func error(on canvas: Canvas, error: LuaError, selected: Int, paused: Bool = false, hint: String? = nil) {
        let g = Graphics(canvas: canvas)
        let b = box(cols: canvas.columns, rows: canvas.rows, w: 64, h: 16)
        frame(g, b, color: danger)
        g.text(paused ? "PAUSED BY AN ERROR: SAVE A FIX TO CARRY ON" : "THE GAME STOPPED WITH AN ERROR",
               x: Double(b.x + 2), y: Double((b.y + 1) * 2), color: danger)
        var lines: [(String, Color)] = []
        if let file = error.file, let line = error.line { lines.append(("at \(file):\(line)", accent)) }
        if let callback = error.callback { lines += wrap("in \(callback)", width: b.w - 4).map { ($0, accent) } }
        lines += wrap(error.reason, width: b.w - 4).map { ($0, Color.white) }
        if let hint { lines += wrap(hint, width: b.w - 4).map { ($0, accent) } }
        lines += error.traceback.split(separator: "\n").prefix(6).flatMap { wrap(String($0).replacingTabs(), width: b.w - 4) }.map { ($0, dim) }
        for (i, (text, color)) in lines.prefix(b.h - 5).enumerated() {
            g.text(text, x: Double(b.x + 2), y: Double((b.y + 3 + i) * 2), color: color)
        }
        drawChoices(g, errorChoices, selected: selected, box: b)
    }

    /// Over the menu: why a game cannot be played (its manifest or main.lua failed to load),
    /// the whole message, and how to go back.
    static func problem(on canvas: Canvas, entry: GameEntry) {
        let g = Graphics(canvas: canvas)
        let b = box(cols: canvas.columns, rows: canvas.rows, w: 70, h: 16)
        frame(g, b, color: danger)
        g.text(String(TextWidth.prefix("\(entry.id) CANNOT BE PLAYED", cells: b.w - 4).text), x: Double(b.x + 2), y: Double((b.y + 1) * 2), color: danger)
        var lines = [("in \(entry.folder)", accent)]
        lines += wrap(entry.problem ?? "it could not be loaded", width: b.w - 4).map { ($0, Color.white) }
        for (i, (text, color)) in lines.prefix(b.h - 5).enumerated() {
            g.text(String(TextWidth.prefix(text, cells: b.w - 4).text), x: Double(b.x + 2), y: Double((b.y + 3 + i) * 2),
                   color: color)
        }
        let hint = "any key or a click goes back to the menu"
        g.text(String(TextWidth.prefix(hint, cells: b.w - 4).text), x: Double(b.x + 2), y: Double((b.y + b.h - 2) * 2), color: dim)
    }

    /// The strip a failed hot reload shows at the bottom until the next good save.
    /// `manifest`: it was `manifest.lua` that failed (the old manifest stays).
    static func reloadError(_ message: String, manifest: Bool = false, on canvas: Canvas) {
        let g = Graphics(canvas: canvas)
        let rows = canvas.rows
        g.fillRect(x: 0, y: Double((rows - 3) * 2), width: Double(canvas.columns), height: 6, color: Color(rgb: 0x5A1010))
        g.text(manifest ? "manifest reload failed (the old manifest stays):" : "reload failed (the old code keeps running):",
               x: 1, y: Double((rows - 3) * 2), color: accent)
        for (i, line) in wrap(message, width: canvas.columns - 2).prefix(2).enumerated() {
            g.text(line, x: 1, y: Double((rows - 2 + i) * 2), color: .white)
        }
    }

    /// What a window too small to play in shows: the size it needs and has, wrapped to the
    /// window's width (readable down to 20 x 10), centred.
    static func tooSmall(cols: Int, rows: Int, need: (Int, Int)) -> Canvas {
        let canvas = Canvas(columns: cols, rows: rows, background: Color(rgb: 0x101010))
        canvas.clear()
        let g = Graphics(canvas: canvas)
        let width = max(1, cols - 2)
        var lines = wrap("make the window at least \(need.0) x \(need.1)", width: width).map { ($0, Color.white) }
        lines += wrap("(now \(cols) x \(rows); q quits)", width: width).map { ($0, dim) }
        let top = max(0, (rows - lines.count) / 2)
        for (i, (line, color)) in lines.enumerated() where top + i < rows {
            let text = TextWidth.prefix(line, cells: cols)
            g.text(String(text.text), x: Double(max(0, (cols - text.width) / 2)), y: Double((top + i) * 2), color: color)
        }
        return canvas
    }

    /// Splits `text` into lines of at most `width` cells (a wide character takes two), at
    /// spaces where possible.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 4 else { return [text] }
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var w = Substring(word)
                var wordWidth = TextWidth.width(w)
                if lineWidth + wordWidth + 1 > width, !line.isEmpty {
                    out.append(line)
                    line = ""
                    lineWidth = 0
                }
                while wordWidth > width {
                    // a word longer than a line: cut between glyphs (at least one a line)
                    var head = TextWidth.prefix(w, cells: width)
                    if head.text.isEmpty { head = TextWidth.prefix(w, cells: 2) }
                    out.append(String(head.text))
                    w = w[head.text.endIndex...]
                    wordWidth -= head.width
                }
                if line.isEmpty {
                    line = String(w)
                    lineWidth = wordWidth
                } else {
                    line += " " + w
                    lineWidth += 1 + wordWidth
                }
            }
            out.append(line)
        }
        return out
    }
}

extension String {
    func replacingTabs() -> String {
        String(map { $0 == "\t" ? " " : $0 })
    }
}
