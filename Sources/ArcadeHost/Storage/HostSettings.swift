import ArcadeLua
import ArcadeRender

/// How fast games run for a player who needs more time: the fixed step runs slower in wall
/// time, and the game sees the same `dt` (so it plays the same, only slower).
public enum GameSpeed: Int, CaseIterable, Sendable {
    case full = 100
    case threeQuarters = 75
    case half = 50

    /// Game seconds per wall-clock second.
    public var factor: Double { Double(rawValue) / 100 }

    /// `100 %`.
    public var label: String { "\(rawValue) %" }

    /// The speed `percent` names, or nil.
    public init?(percent: Int) { self.init(rawValue: percent) }

    /// Where the best score of a run at this speed is kept: the game's own for full speed,
    /// one of its own for each slower one (so a best made with more time is kept apart).
    public func scoreKey(_ gameID: String) -> String {
        self == .full ? gameID : "\(gameID)@\(rawValue)%"
    }
}

/// The arcade's own settings: colour mode, vision filter, game speed and sound, kept in the
/// save file, and each game's key remapping, kept under the game's id.
public struct HostSettings: Equatable, Sendable {
    /// nil: chosen from the terminal (`COLORTERM`, terminfo, `NO_COLOR`).
    public var color: ColorMode?
    public var vision: VisionFilter = .none
    public var speed: GameSpeed = .full
    /// The player turned the sound off (`m` on the pause card, or the settings card).
    public var muted = false

    public init(color: ColorMode? = nil, vision: VisionFilter = .none, speed: GameSpeed = .full, muted: Bool = false) {
        self.color = color
        self.vision = vision
        self.speed = speed
        self.muted = muted
    }

    /// True when nothing differs from a fresh arcade's settings.
    public var isDefault: Bool { self == HostSettings() }
}

/// Settings in the save file: under a scope no game id can take (ids start with a letter),
/// in the same table as the games' saves, so a damaged or unusable file is handled as theirs
/// are.
extension SaveStore {
    /// The scope the arcade's settings are kept under.
    static let settingsScope = ":arcade"

    /// The settings saved, or the defaults (a value that no longer means anything is left
    /// at its default).
    public func hostSettings() -> HostSettings {
        var s = HostSettings()
        if case .string(let name)? = try? value(game: Self.settingsScope, key: "color") { s.color = ColorMode(name: name) }
        if case .string(let name)? = try? value(game: Self.settingsScope, key: "vision") {
            s.vision = VisionFilter(rawValue: name) ?? .none
        }
        if case .int(let percent)? = try? value(game: Self.settingsScope, key: "speed") {
            s.speed = GameSpeed(percent: Int(percent)) ?? .full
        }
        s.muted = (try? value(game: Self.settingsScope, key: "muted")) == .bool(true)
        return s
    }

    /// Saves `settings` (the defaults are saved as no value).
    public func saveHostSettings(_ settings: HostSettings) throws(StorageError) {
        try setValue(settings.color.map { .string($0.name) }, game: Self.settingsScope, key: "color")
        try setValue(settings.vision == .none ? nil : .string(settings.vision.name), game: Self.settingsScope, key: "vision")
        try setValue(settings.speed == .full ? nil : .int(Int64(settings.speed.rawValue)), game: Self.settingsScope,
                     key: "speed")
        try setValue(settings.muted ? .bool(true) : nil, game: Self.settingsScope, key: "muted")
    }

    /// The key remapping the player made for the game `gameID`.
    public func keyMap(game gameID: String) -> KeyMap {
        guard case .string(let text)? = try? value(game: Self.settingsScope, key: "keys:" + gameID) else { return KeyMap() }
        return KeyMap(text: text)
    }

    /// Saves the key remapping for the game `gameID` (an empty one as no value).
    public func saveKeyMap(_ map: KeyMap, game gameID: String) throws(StorageError) {
        try setValue(map.isEmpty ? nil : .string(map.text), game: Self.settingsScope, key: "keys:" + gameID)
    }
}
