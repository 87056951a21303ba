import ArcadeCore
import ArcadeRender

/// The settings card, from the menu (`o`) and from every pause card: colour mode, vision
/// filter, game speed, sound on or off, and the key remapping of the current game (the one paused, or the
/// one selected in the menu).
///
/// Up and down choose a row; left and right (or Enter, or a click) change a setting. On
/// "add a key", Enter asks for the player's key, then for the game's key it stands for; on
/// a mapping, Enter, Backspace or Delete removes it. Esc, or "done", closes the card.
struct SettingsCard {
    /// The rows, top to bottom.
    enum Row: Equatable {
        case color, vision, speed, sound, addKey
        /// One of the current game's mappings, by the player's key.
        case mapping(String)
        case done
    }

    /// What a remapping is waiting for.
    enum Capture: Equatable {
        case none
        /// The player's key.
        case from
        /// The game's key the player's `from` will stand for.
        case to(String)
    }

    /// What the card asks of the arcade after an event.
    enum Action: Equatable {
        case none
        /// The settings changed: apply and save them.
        case changed
        /// The game's key remapping changed: apply and save it.
        case keysChanged
        case close
    }

    var settings: HostSettings
    /// The colour mode "auto" picks here, shown beside it.
    var autoColor: ColorMode
    /// The game whose keys the card remaps (nil: none, from an empty menu).
    var gameID: String?
    var gameTitle: String
    var keys: KeyMap
    var selected = 0
    var capture = Capture.none
    /// Why the last mapping was refused.
    var message: String?

    var rows: [Row] {
        var rows: [Row] = [.color, .vision, .speed, .sound]
        if gameID != nil {
            rows.append(.addKey)
            rows += keys.mapping.keys.sorted().map { Row.mapping($0) }
        }
        rows.append(.done)
        return rows
    }

    /// The colour choices in order: nil is "auto".
    static let colorChoices: [ColorMode?] = [nil] + ColorMode.allCases.map { $0 }

    // MARK: Input

    mutating func handle(_ event: InputEvent) -> Action {
        switch event {
        case .key(let k):
            return handleKey(k)
        case .mouse(let m):
            guard m.action == .press || m.action == .move else { return .none }
            return .none
        default:
            return .none
        }
    }

    /// A click at a card row (0-based from the first setting row): selects it and acts as
    /// Enter would.
    mutating func click(row index: Int) -> Action {
        let all = rows
        guard all.indices.contains(index), capture == .none else { return .none }
        selected = index
        return activate(all[index], step: 1)
    }

    private mutating func handleKey(_ k: KeyEvent) -> Action {
        switch capture {
        case .from:
            if k.key == "esc" && k.modifiers.isEmpty {
                capture = .none
                return .none
            }
            guard k.modifiers.isEmpty || k.modifiers == .shift else { return .none }
            if KeyMap.reserved.contains(k.key) {
                message = "\(k.key) belongs to the arcade and cannot be remapped"
                capture = .none
                return .none
            }
            capture = .to(k.key)
            message = nil
            return .none
        case .to(let from):
            if k.key == "esc" && k.modifiers.isEmpty {
                capture = .none
                return .none
            }
            capture = .none
            do {
                try keys.map(from, to: k.key)
                message = nil
                return .keysChanged
            } catch {
                message = error.description
                return .none
            }
        case .none:
            break
        }
        let all = rows
        selected = min(selected, all.count - 1)
        switch k.key {
        case "up": selected = (selected + all.count - 1) % all.count
        case "down", "tab": selected = (selected + 1) % all.count
        case "left": return activate(all[selected], step: -1)
        case "right": return activate(all[selected], step: 1)
        case "enter", "space": return activate(all[selected], step: 1)
        case "backspace", "delete":
            if case .mapping(let from) = all[selected] { return remove(from) }
        case "esc", "q": return .close
        default: break
        }
        return .none
    }

    private mutating func activate(_ row: Row, step: Int) -> Action {
        message = nil
        switch row {
        case .color:
            let choices = Self.colorChoices
            let i = choices.firstIndex(of: settings.color) ?? 0
            settings.color = choices[(i + step + choices.count) % choices.count]
            return .changed
        case .vision:
            let all = VisionFilter.allCases
            let i = all.firstIndex(of: settings.vision) ?? 0
            settings.vision = all[(i + step + all.count) % all.count]
            return .changed
        case .speed:
            let all = GameSpeed.allCases
            let i = all.firstIndex(of: settings.speed) ?? 0
            settings.speed = all[(i + step + all.count) % all.count]
            return .changed
        case .sound:
            settings.muted.toggle()
            return .changed
        case .addKey:
            guard step > 0 else { return .none }
            capture = .from
            return .none
        case .mapping(let from):
            guard step > 0 else { return .none }
            return remove(from)
        case .done:
            return step > 0 ? .close : .none
        }
    }

    private mutating func remove(_ from: String) -> Action {
        keys.unmap(from)
        selected = min(selected, rows.count - 1)
        return .keysChanged
    }

    // MARK: Drawing

    static let highlight = Color(rgb: 0x283593)

    /// The card's width and height in cells.
    static let width = 64
    func height() -> Int { min(rows.count, Self.maxRows) + 6 }
    /// The most rows listed (mappings past it scroll).
    static let maxRows = 12

    /// The first row listed, so the selected one shows.
    private func firstShown() -> Int {
        let all = rows.count
        guard all > Self.maxRows else { return 0 }
        return min(max(0, selected - Self.maxRows + 1), all - Self.maxRows)
    }

    func box(cols: Int, rows: Int) -> (x: Int, y: Int, w: Int, h: Int) {
        CardView.box(cols: cols, rows: rows, w: Self.width, h: height())
    }

    /// The card row (index into ``rows``) drawn at screen row `row`, if any.
    func rowAt(col: Int, row: Int, cols: Int, rows screenRows: Int) -> Int? {
        let b = box(cols: cols, rows: screenRows)
        guard col > b.x, col < b.x + b.w - 1 else { return nil }
        let i = row - (b.y + 3) + firstShown()
        let shown = row - (b.y + 3)
        guard shown >= 0, shown < min(rows.count, Self.maxRows), rows.indices.contains(i) else { return nil }
        return i
    }

    func draw(on canvas: Canvas) {
        let g = Graphics(canvas: canvas)
        let b = box(cols: canvas.columns, rows: canvas.rows)
        CardView.frame(g, b, color: CardView.border)
        g.text("SETTINGS", x: Double(b.x + (b.w - 8) / 2), y: Double((b.y + 1) * 2), color: CardView.accent)
        let all = rows
        let first = firstShown()
        let labelX = b.x + 3, valueX = b.x + 22
        let inner = b.x + b.w - 2
        for (n, i) in (first..<min(all.count, first + Self.maxRows)).enumerated() {
            let y = Double((b.y + 3 + n) * 2)
            let on = i == selected
            if on {
                // the menu's highlight: a blue every palette has as a background, so the
                // row's text keeps its colours with 8 backgrounds too
                g.fillRect(x: Double(b.x + 1), y: y, width: Double(b.w - 2), height: 2, color: Self.highlight)
                g.text("▶", x: Double(b.x + 1), y: y, color: CardView.accent)
            }
            let (label, value) = text(for: all[i])
            g.text(label, x: Double(labelX), y: y, color: .white)
            let shown = TextWidth.prefix(value, cells: max(0, inner - valueX))
            g.text(String(shown.text), x: Double(valueX), y: y, color: on ? CardView.accent : CardView.dim)
        }
        let hint: String
        switch capture {
        case .from: hint = "press the key you want to use (esc: cancel)"
        case .to(let from): hint = "press the game's key that \(from) stands for (esc: cancel)"
        case .none: hint = message ?? "↑↓ choose   ←→ or enter change   esc done"
        }
        let line = TextWidth.prefix(hint, cells: b.w - 4)
        g.text(String(line.text), x: Double(b.x + 2), y: Double((b.y + b.h - 2) * 2),
               color: message != nil && capture == .none ? CardView.danger : CardView.dim)
    }

    private func text(for row: Row) -> (String, String) {
        switch row {
        case .color:
            return ("colour", settings.color.map(\.name) ?? "auto (\(autoColor.name))")
        case .vision:
            return ("vision", settings.vision.label)
        case .speed:
            return ("game speed", settings.speed.label + (settings.speed == .full ? "" : " (best scores kept apart)"))
        case .sound:
            return ("sound", settings.muted ? "off" : "on")
        case .addKey:
            return ("keys: \(TextWidth.fit(gameTitle, cells: 12))", "add a key…")
        case .mapping(let from):
            return ("  \(from)", "stands for \(keys.mapping[from] ?? "")")
        case .done:
            return ("done", "")
        }
    }
}
