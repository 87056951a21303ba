import ArcadeCore
import ArcadeRender

/// The arcade's menu, drawn with the engine itself: a drifting starfield, the title in the
/// big block font, and the games with their descriptions and best scores. Arrows and Enter,
/// or a click, launch a game; `q` quits. Broken games are listed with their reason.
final class MenuScreen {
    enum Action { case launch(GameEntry), quit, none }

    let catalog: GameCatalog
    /// Best score per game id, shown beside each title.
    var bestScores: [String: Int64] = [:]
    /// Loads best scores when the menu (re)appears.
    var loadScores: () -> [String: Int64] = { [:] }
    private(set) var selected = 0
    private var time = 0.0
    private var stars: [(x: Double, y: Double, speed: Double, shade: UInt8)] = []
    private var canvas = Canvas(columns: 80, rows: 24)
    private var listTop = 0

    init(catalog: GameCatalog) {
        self.catalog = catalog
        var rng = SeededRandom(seed: 2026)
        for _ in 0..<90 {
            stars.append((rng.nextUnit(), rng.nextUnit(), 0.01 + rng.nextUnit() * 0.05, UInt8(60 + rng.nextInt(in: 0, 140))))
        }
        selected = catalog.entries.firstIndex(where: \.isPlayable) ?? 0
        refresh()
    }

    func refresh() {
        bestScores = loadScores()
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
            case "enter", "space":
                if entries.indices.contains(selected), entries[selected].isPlayable { return .launch(entries[selected]) }
            case "q", "esc": return .quit
            default: break
            }
        case .mouse(let m):
            let i = (m.row - listTop) / 2
            guard m.row >= listTop, entries.indices.contains(i) else { return .none }
            if m.action == .move || m.action == .drag { selected = i }
            if m.action == .press {
                selected = i
                if entries[i].isPlayable { return .launch(entries[i]) }
            }
            if m.action == .scrollUp { move(-1) }
            if m.action == .scrollDown { move(1) }
        default: break
        }
        return .none
    }

    private func move(_ d: Int) {
        let n = catalog.entries.count
        guard n > 0 else { return }
        selected = (selected + d + n) % n
    }

    func render(cols: Int, rows: Int, into frame: inout Frame) {
        if canvas.columns != cols || canvas.rows != rows { canvas.resize(columns: cols, rows: rows) }
        canvas.background = Color(rgb: 0x0B0E1A)
        canvas.clear()
        let g = Graphics(canvas: canvas)
        let w = Double(cols), h = Double(rows * 2)
        for s in stars {
            g.pixel(x: (s.x * w).rounded(.down), y: (s.y * h).rounded(.down), color: Color(r: s.shade, g: s.shade, b: UInt8(min(255, Int(s.shade) + 40))))
        }
        // the title breathes between two warm colours
        let t = (sin(time * 2) + 1) / 2
        let title = Color(rgb: 0xFFB300).lerp(to: Color(rgb: 0xFF7043), t)
        g.label("ARCADE", x: w / 2, y: 8, color: title, outline: Color(rgb: 0x3E2723))
        let entries = catalog.entries
        listTop = 9
        let width = min(cols - 4, 76)
        let left = Double((cols - width) / 2)
        if entries.isEmpty {
            g.text("no games found", x: left, y: Double(listTop * 2), color: .white)
        }
        let visible = max(1, (rows - listTop - 3) / 2)
        let first = max(0, min(selected - visible / 2, entries.count - visible))
        listTop = 9 - first * 2
        for (i, e) in entries.enumerated() where i >= first && i < first + visible {
            let row = 9 + (i - first) * 2
            let on = i == selected
            if on {
                let pulse = 0.75 + 0.25 * sin(time * 6)
                g.fillRect(x: left - 1, y: Double(row * 2), width: Double(width + 2), height: 2,
                           color: Color(rgb: 0x283593).lerp(to: Color(rgb: 0x3949AB), pulse))
            }
            let best = bestScores[e.id].map { "best \($0)" } ?? ""
            let name = e.isPlayable ? e.title : "\(e.id) (broken)"
            g.text((on ? "▶ " : "  ") + name, x: left, y: Double(row * 2),
                   color: e.isPlayable ? .white : Color(rgb: 0xE57373))
            g.text(best, x: left + Double(width - best.count), y: Double(row * 2), color: Color(rgb: 0xFFD54F))
            let detail = e.isPlayable ? (e.manifest?.description ?? "") : (e.problem ?? "")
            g.text("  " + String(detail.prefix(width - 2)), x: left, y: Double((row + 1) * 2), color: Color(rgb: 0x9AA0B4))
        }
        g.text("↑↓ choose   enter play   esc pause in a game   q quit", x: left, y: Double((rows - 1) * 2),
               color: Color(rgb: 0x6B7085))
        canvas.render(into: &frame)
    }
}
