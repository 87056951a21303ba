#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import ArcadeRender

/// The arcade's menu, drawn with the engine itself: a drifting starfield, the title in the
/// big block font, and the games with their descriptions and best scores. Arrows and Enter,
/// or a click, launch a game; `q`, or a click on "quit" in the footer, quits. Broken games
/// are listed with their reason.
final class MenuScreen {
    enum Action { case launch(GameEntry), showProblem(GameEntry), settings, quit, none }

    let catalog: GameCatalog
    /// Best score per game id, shown beside each title.
    var bestScores: [String: Int64] = [:]
    /// Installed games show their author and version (``GameEntry/installedNote(userGamesDir:)``).
    var installedGamesDir = GameCatalog.userGamesDir()
    /// Loads best scores when the menu (re)appears.
    var loadScores: () -> [String: Int64] = { [:] }
    /// Best scores made at a slower game speed, kept apart and shown marked with the speed.
    var slowerScores: [String: [(speed: GameSpeed, score: Int64)]] = [:]
    var loadSlowerScores: () -> [String: [(speed: GameSpeed, score: Int64)]] = { [:] }
    private(set) var selected = 0
    /// The pointer is over the footer's "quit" (it lights up).
    private(set) var quitHovered = false
    private var time = 0.0
    private var stars: [(x: Double, y: Double, speed: Double, shade: UInt8)] = []
    /// What the menu was last drawn on (cards over the menu are drawn on it too).
    private(set) var canvas = Canvas(columns: 80, rows: 24)

    init(catalog: GameCatalog) {
        self.catalog = catalog
        var rng = SeededRandom(seed: 2026)
        for _ in 0..<90 {
            stars.append((rng.nextUnit(), rng.nextUnit(), 0.01 + rng.nextUnit() * 0.05, UInt8(60 + rng.nextInt(in: 0, 140))))
        }
        selected = catalog.entries.firstIndex(where: \.isPlayable) ?? 0
        refresh()
    }

    /// Puts the highlight on the game `id` (the one the player just left), when it is listed.
    func select(_ id: String) {
        if let i = catalog.entries.firstIndex(where: { $0.id == id }) { selected = i }
    }

    func refresh() {
        bestScores = loadScores()
        slowerScores = loadSlowerScores()
    }

    /// The game the highlight is on, if any.
    var selectedEntry: GameEntry? {
        catalog.entries.indices.contains(selected) ? catalog.entries[selected] : nil
    }

    func step(dt: Double) {
        time += dt
        for i in stars.indices {
            stars[i].x -= stars[i].speed * dt
            if stars[i].x < 0 { stars[i].x += 1 }
        }
    }

    func handle(_ event: InputEvent) -> Action {
        let entries = catalog.entries
        switch event {
        case .key(let k):
            switch k.key {
            case "up", "k", "w": move(-1)
            case "down", "j", "s", "tab": move(1)
            case "pageup": move(-max(1, layout.visible - 1))
            case "pagedown": move(max(1, layout.visible - 1))
            case "home": selected = 0
            case "end": selected = max(0, entries.count - 1)
            case "enter", "space":
                if entries.indices.contains(selected) { return open(entries[selected]) }
            case "q", "esc": return .quit
            case "o": return .settings
            default: break
            }
        case .mouse(let m):
            let onQuit = layout.isQuit(col: m.col, row: m.row)
            if m.action == .move || m.action == .drag { quitHovered = onQuit }
            if onQuit {
                return m.action == .press && m.button != .right ? .quit : .none
            }
            if m.action == .scrollUp { move(-1); return .none }
            if m.action == .scrollDown { move(1); return .none }
            if m.action == .press, let mark = layout.scrollMark(atRow: m.row) {
                move(mark < 0 ? -max(1, layout.visible - 1) : max(1, layout.visible - 1))
                return .none
            }
            guard let i = layout.entry(atCol: m.col, row: m.row), entries.indices.contains(i) else { return .none }
            if m.action == .move || m.action == .drag { selected = i }
            if m.action == .press {
                selected = i
                return open(entries[i])
            }
        default: break
        }
        return .none
    }

    /// Enter or a click on a row: a playable game starts; a broken one shows why.
    private func open(_ entry: GameEntry) -> Action {
        entry.isPlayable ? .launch(entry) : .showProblem(entry)
    }

    private func move(_ d: Int) {
        let n = catalog.entries.count
        guard n > 0 else { return }
        if abs(d) == 1 {
            selected = (selected + d + n) % n  // arrows wrap around
        } else {
            selected = min(max(selected + d, 0), n - 1)  // pages stop at the ends
        }
    }

    /// Where the menu's parts sit for one size; also what a click is matched against.
    struct Layout {
        /// The logo's centre (canvas pixels) and its scale (1 or 2).
        var logoX = 0.0, logoY = 0.0, logoScale = 1.0
        /// The logo's box in cells, kept free of stars.
        var logoBox = (x: 0, y: 0, w: 0, h: 0)
        /// The list's left column and width, its first row, rows per entry, and which
        /// entries show.
        var left = 0, width = 0, top = 0, pitch = 2, first = 0, visible = 0, count = 0
        /// Rows of the "more above" / "more below" marks (nil when nothing is hidden there).
        var moreAbove: Int?, moreBelow: Int?
        var footerRow = 0
        /// The footer's clickable "quit": its first column and its width, on ``footerRow``.
        var quitCol = 0, quitWidth = 0

        /// True on the footer's "quit".
        func isQuit(col: Int, row: Int) -> Bool {
            row == footerRow && quitWidth > 0 && col >= quitCol && col < quitCol + quitWidth
        }

        /// The entry drawn at a cell, if any.
        func entry(atCol col: Int, row: Int) -> Int? {
            guard row >= top, col >= left - 1, col <= left + width else { return nil }
            let offset = (row - top) / pitch
            guard (row - top) % pitch < 2, offset < visible else { return nil }
            let i = first + offset
            return i < count ? i : nil
        }

        /// -1 for the "more above" mark's row, 1 for "more below", nil elsewhere.
        func scrollMark(atRow row: Int) -> Int? {
            if row == moreAbove { return -1 }
            if row == moreBelow { return 1 }
            return nil
        }

        /// True when the cell is covered by text or the logo (no star is drawn there).
        func isTaken(col: Int, row: Int) -> Bool {
            if row >= logoBox.y && row < logoBox.y + logoBox.h && col >= logoBox.x && col < logoBox.x + logoBox.w {
                return true
            }
            let listEnd = top + max(visible - 1, 0) * pitch + 2
            if col >= left - 2 && col <= left + width + 1 {
                if row >= top && row < listEnd { return true }
                if row == moreAbove || row == moreBelow { return true }
            }
            return row == footerRow
        }
    }
    private(set) var layout = Layout()

    static let titleFont = BlockFont.large

    /// Lays the menu out for `cols` x `rows`: the logo (twice as big where it fits) and the
    /// list below it as one block, centred across and down, the footer on the last row.
    func makeLayout(cols: Int, rows: Int) -> Layout {
        var l = Layout()
        l.count = catalog.entries.count
        let logo = Self.titleFont.size(of: "ARCADE", outlined: true)
        l.logoScale = rows >= 40 && logo.width * 2 <= cols - 8 ? 2 : 1
        let logoRows = Int((Double(logo.height) * l.logoScale / 2).rounded(.up))
        l.pitch = rows >= 40 ? 3 : 2
        // as wide as the screen allows (up to 140 cells), so descriptions show whole
        l.width = min(cols - 4, max(76, min(140, cols - 8)))
        l.left = (cols - l.width) / 2
        l.footerRow = rows - 1
        // "q quit" ends the footer's hints, clickable, where the whole footer fits
        let hintsWidth = TextWidth.width(Self.footerHints)
        if l.left + hintsWidth + TextWidth.width(Self.quitLabel) <= cols {
            l.quitCol = l.left + hintsWidth
            l.quitWidth = TextWidth.width(Self.quitLabel)
        }
        // rows: the logo, a gap, a mark row, the entries, a mark row, then the footer's gap
        let fixed = logoRows + 1 + 2 + 2
        let room = max(1, (rows - fixed - 1 + (l.pitch - 2)) / l.pitch)
        l.visible = max(1, min(l.count, room))
        let listRows = (l.visible - 1) * l.pitch + 2
        let block = logoRows + 1 + 1 + listRows + 1
        let top = max(1, (rows - 1 - block) / 2)
        l.logoBox = (x: (cols - Int(Double(logo.width) * l.logoScale)) / 2, y: top,
                     w: Int(Double(logo.width) * l.logoScale), h: logoRows)
        l.logoX = Double(cols) / 2
        l.logoY = Double(top * 2) + Double(logo.height) * l.logoScale / 2
        let markAbove = top + logoRows + 1
        l.top = markAbove + 1
        l.first = max(0, min(selected - l.visible / 2, l.count - l.visible))
        if l.first > 0 { l.moreAbove = markAbove }
        if l.first + l.visible < l.count { l.moreBelow = l.top + listRows }
        return l
    }

    static let textColor = Color.white
    static let detailColor = Color(rgb: 0x9AA0B4)
    static let brokenColor = Color(rgb: 0xE57373)
    static let hintColor = Color(rgb: 0x6B7085)
    static let scoreColor = Color(rgb: 0xFFD54F)
    static let quitColor = Color(rgb: 0xB0B6CC)
    /// The footer: the keys, then the clickable "q quit".
    static let footerHints = "↑↓ choose   enter play   o settings   esc pause in a game   "
    static let quitLabel = "q quit"

    /// One line of a broken game's reason: the first line of its problem (Enter shows it all).
    static func shortReason(_ problem: String?) -> String {
        (problem ?? "broken").split(separator: "\n").first.map(String.init) ?? "broken"
    }

    /// `text` cut to `width` cells (a wide character takes two), with an ellipsis when cut.
    static func fit(_ text: String, _ width: Int) -> String {
        TextWidth.fit(text, cells: width)
    }

    func render(cols: Int, rows: Int, into frame: inout Frame) {
        if canvas.columns != cols || canvas.rows != rows { canvas.resize(columns: cols, rows: rows) }
        canvas.background = Color(rgb: 0x0B0E1A)
        canvas.clear()
        let l = makeLayout(cols: cols, rows: rows)
        layout = l
        let g = Graphics(canvas: canvas)
        let w = Double(cols), h = Double(rows * 2)
        for s in stars {
            let x = (s.x * w).rounded(.down), y = (s.y * h).rounded(.down)
            // stars drift behind the open sky only, never behind a word
            if l.isTaken(col: Int(x), row: Int(y) / 2) { continue }
            g.pixel(x: x, y: y, color: Color(r: s.shade, g: s.shade, b: UInt8(min(255, Int(s.shade) + 40))))
        }
        // the title breathes between two warm colours
        let t = (sin(time * 2) + 1) / 2
        let title = Color(rgb: 0xFFB300).lerp(to: Color(rgb: 0xFF7043), t)
        g.label("ARCADE", x: l.logoX, y: l.logoY, font: Self.titleFont, color: title, outline: Color(rgb: 0x3E2723),
                scale: l.logoScale)
        let entries = catalog.entries
        let left = Double(l.left)
        if entries.isEmpty {
            g.text("no games found", x: left, y: Double(l.top * 2), color: .white)
        }
        if let row = l.moreAbove {
            g.text("▲ \(l.first) more above", x: left, y: Double(row * 2), color: Self.hintColor)
        }
        if let row = l.moreBelow {
            g.text("▼ \(l.count - l.first - l.visible) more below", x: left, y: Double(row * 2), color: Self.hintColor)
        }
        for (i, e) in entries.enumerated() where i >= l.first && i < l.first + l.visible {
            let row = l.top + (i - l.first) * l.pitch
            let on = i == selected
            if on {
                let pulse = 0.75 + 0.25 * sin(time * 6)
                g.fillRect(x: left - 1, y: Double(row * 2), width: Double(l.width + 2), height: 4,
                           color: Color(rgb: 0x283593).lerp(to: Color(rgb: 0x3949AB), pulse))
            }
            let marker = on ? "▶ " : "  "
            if e.isPlayable {
                var best = bestScores[e.id].map { "best \($0)" } ?? ""
                for slow in slowerScores[e.id] ?? [] {
                    best += (best.isEmpty ? "best " : "  ") + "\(slow.score) at \(slow.speed.label)"
                }
                let bestWidth = TextWidth.width(best)
                g.text(Self.fit(marker + e.title, l.width - bestWidth - 1), x: left, y: Double(row * 2), color: Self.textColor)
                g.text(best, x: left + Double(l.width - bestWidth), y: Double(row * 2), color: Self.scoreColor)
                let note = Self.fit(e.installedNote(userGamesDir: installedGamesDir) ?? "", l.width / 2)
                let noteWidth = TextWidth.width(note)
                g.text("  " + Self.fit(e.manifest?.description ?? "", l.width - 2 - (note.isEmpty ? 0 : noteWidth + 2)),
                       x: left, y: Double((row + 1) * 2), color: Self.detailColor)
                g.text(note, x: left + Double(l.width - noteWidth), y: Double((row + 1) * 2), color: Self.detailColor)
            } else {
                let name = marker + "✗ " + e.id + "  "
                g.text(name, x: left, y: Double(row * 2), color: Self.brokenColor)
                let nameWidth = TextWidth.width(name)
                g.text(Self.fit("broken: " + Self.shortReason(e.problem), l.width - nameWidth), x: left + Double(nameWidth),
                       y: Double(row * 2), color: Self.brokenColor)
                g.text("  enter shows the whole error", x: left, y: Double((row + 1) * 2), color: Self.detailColor)
            }
        }
        g.text(Self.fit(Self.footerHints, cols - l.left), x: left, y: Double(l.footerRow * 2), color: Self.hintColor)
        if l.quitWidth > 0 {
            g.text(Self.quitLabel, x: Double(l.quitCol), y: Double(l.footerRow * 2),
                   color: quitHovered ? Self.textColor : Self.quitColor)
        }
        canvas.render(into: &frame)
    }
}
