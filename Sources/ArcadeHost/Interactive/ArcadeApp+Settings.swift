import ArcadeCore
import ArcadeLua
import ArcadeRender
import ArcadeTerminal

/// The player's settings: colour mode, vision filter, game speed and key remapping, from
/// the settings card, the command line and the save file.
extension ArcadeApp {
    /// The colour mode in use.
    var colorMode: ColorMode { colorOverride ?? settings.color ?? autoColor }
    /// The vision filter in use.
    var vision: VisionFilter { visionOverride ?? settings.vision }
    /// The game speed in use.
    var speed: GameSpeed { speedOverride ?? settings.speed }

    /// The colour mode a terminal gets when nothing asks for one: truecolor when `COLORTERM`
    /// says so; the 16 system colours under `NO_COLOR` (a game cannot be drawn without
    /// colour: these are the plainest it can have, the terminal theme's own); else what the
    /// terminfo entry of `term` says it shows (256 when there is none to read).
    static func automaticColorMode(term: String?) -> ColorMode {
        if let noColor = environment("NO_COLOR"), !noColor.isEmpty { return .palette16 }
        if ["truecolor", "24bit"].contains(environment("COLORTERM")?.lowercased() ?? "") { return .trueColor }
        let entry = term.flatMap { name in
            TerminalCapabilities.terminfoPaths(term: name, environment: environment)
                .lazy.compactMap { FileBytes.read($0, limit: 1 << 16) }.first
        }
        return ColorMode.forTerminal(colors: TerminalCapabilities.colors(terminfo: entry))
    }

    /// Puts the colour mode and the vision filter in use on the encoder.
    func applySettings() {
        output.encoder.colorMode = colorMode
        output.encoder.visionFilter = vision
        speaker?.muted = settings.muted
    }

    /// Opens the settings card, for the game in play (`fromPause`) or the menu's selected one.
    func openSettings(fromPause: Bool) {
        let entry = fromPause ? playing : menu.selectedEntry.flatMap { $0.isPlayable ? $0 : nil }
        var shown = settings
        shown.color = colorOverride ?? settings.color
        shown.vision = vision
        shown.speed = speed
        let keys = fromPause ? keyMap : entry.map { options.store?.keyMap(game: $0.id) ?? KeyMap() } ?? KeyMap()
        let card = SettingsCard(settings: shown, autoColor: autoColor, gameID: entry?.id, gameTitle: entry?.title ?? "",
                                keys: keys)
        self.card = .settings(card, fromPause: fromPause)
    }

    /// One event for the settings card.
    func handleSettings(_ current: SettingsCard, fromPause: Bool, _ event: InputEvent) {
        var c = current
        var action = SettingsCard.Action.none
        if case .mouse(let m) = event {
            if m.action == .press, c.capture == .none,
               let row = c.rowAt(col: m.col, row: m.row, cols: size.cols, rows: size.rows) {
                action = c.click(row: row)
            } else if m.action == .release {
                pauseMarkPressed = false
            }
        } else {
            action = c.handle(event)
        }
        card = .settings(c, fromPause: fromPause)
        switch action {
        case .none:
            break
        case .changed:
            // what the card changed is the player's choice now, over the command line's
            if c.settings.color != current.settings.color { colorOverride = nil }
            if c.settings.vision != current.settings.vision { visionOverride = nil }
            if c.settings.speed != current.settings.speed { speedOverride = nil }
            settings.color = colorOverride == nil ? c.settings.color : settings.color
            settings.vision = visionOverride == nil ? c.settings.vision : settings.vision
            settings.speed = speedOverride == nil ? c.settings.speed : settings.speed
            settings.muted = c.settings.muted
            applySettings()
            if screen == .playing { session?.saves.keepScores(at: slowestSpeed(speed)) }
            let saved = settings
            save { (store) throws(StorageError) in try store.saveHostSettings(saved) }
        case .keysChanged:
            if let id = c.gameID {
                if fromPause { keyMap = c.keys }
                save { (store) throws(StorageError) in try store.saveKeyMap(c.keys, game: id) }
            }
        case .close:
            card = fromPause ? .pause(selected: 0) : nil
            if !fromPause { menu.refresh() }
        }
    }

    /// A run's scores are kept with those of the slowest speed it was played at.
    private func slowestSpeed(_ now: GameSpeed) -> GameSpeed {
        guard let slot = session?.saves else { return now }
        let before = GameSpeed.allCases.first { $0.scoreKey(slot.gameID) == slot.scoreID } ?? .full
        return before.rawValue < now.rawValue ? before : now
    }

    /// Runs a settings write; a failure goes to the log (the setting still applies this run).
    private func save(_ write: (SaveStore) throws(StorageError) -> Void) {
        guard let store = options.store else { return }
        do { try write(store) } catch { options.log("settings could not be saved: \(error.message)") }
    }

    /// What the pause card says of settings that are not the defaults, or nil.
    var settingsNote: String? {
        var parts: [String] = []
        if let color = colorOverride ?? settings.color { parts.append("colour \(color.name)") }
        if vision != .none { parts.append(vision.label) }
        if speed != .full { parts.append("speed \(speed.label)") }
        if !keyMap.isEmpty { parts.append("keys " + keyMap.summary) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
