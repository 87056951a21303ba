import ArcadeCore

/// A player's key remapping for one game: keys the player presses, each standing for a key
/// the game expects (`a` for `left`, `j` for `space`). The game receives the key it knows,
/// pressed, repeated and released as the player's key is, modifiers kept, so `arcade.is_down`
/// and repeats work as with the game's own keys. The player's own key no longer reaches
/// the game as itself.
///
/// Esc (the pause card), Ctrl-C (quit) and Ctrl-Z (suspend) belong to the host and cannot be
/// remapped away: they are refused as keys to map, and never taken by a mapping of `c` or `z`.
public struct KeyMap: Equatable, Sendable {
    /// Player key to game key, by key name (as input scripts name keys).
    public private(set) var mapping: [String: String] = [:]

    public init() {}

    /// Why a mapping was refused.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Keys that always keep their meaning: the host's own, and what only a player's finger
    /// means (the keys a game may not be given in place of them).
    public static let reserved: Set<String> = ["esc"]

    /// True when `key` (a key name) is a key the arcade knows.
    public static func isKey(_ key: String) -> Bool {
        guard let event = InputScript.parseKey(key) else { return false }
        return event.modifiers.isEmpty && event.key == key
    }

    /// Makes the player's `from` stand for the game's `to`.
    ///
    /// - Throws: ``Problem`` for a reserved key, a name that is no key, or a key mapped onto
    ///   itself.
    public mutating func map(_ from: String, to: String) throws(Problem) {
        if KeyMap.reserved.contains(from) { throw Problem(description: "\(from) belongs to the arcade and cannot be remapped") }
        if KeyMap.reserved.contains(to) { throw Problem(description: "no key can stand for \(to): it belongs to the arcade") }
        guard KeyMap.isKey(from) else { throw Problem(description: "'\(InputScript.shown(from))' is not a key") }
        guard KeyMap.isKey(to) else { throw Problem(description: "'\(InputScript.shown(to))' is not a key") }
        guard from != to else { throw Problem(description: "\(from) already is \(to)") }
        mapping[from] = to
    }

    /// Forgets what `from` stood for.
    public mutating func unmap(_ from: String) {
        mapping[from] = nil
    }

    public var isEmpty: Bool { mapping.isEmpty }

    /// The player's keys standing for the game's `key`, sorted.
    public func keys(standingFor key: String) -> [String] {
        mapping.filter { $0.value == key }.map(\.key).sorted()
    }

    /// What the game receives for the player's `event`: a key or its release with the game's
    /// name for it; anything else as it is. Ctrl-C and Ctrl-Z are never changed.
    public func apply(_ event: InputEvent) -> InputEvent {
        switch event {
        case .key(var k):
            guard let to = target(k) else { return event }
            k.key = to
            return .key(k)
        case .keyUp(var k):
            guard let to = target(k) else { return event }
            k.key = to
            return .keyUp(k)
        default:
            return event
        }
    }

    private func target(_ k: KeyEvent) -> String? {
        if k.modifiers.contains(.ctrl) && (k.key == "c" || k.key == "z") { return nil }
        return mapping[k.key]
    }

    /// The mapping as saved: `from=to` pairs, sorted, separated by spaces (`a=left d=right`).
    public var text: String {
        mapping.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// The mapping `text` saved; pairs that are no longer allowed are left out.
    public init(text: String) {
        for pair in text.split(separator: " ") where pair.count >= 3 {
            // the key before the first `=` after the first character (`==left` maps `=`)
            guard let eq = pair.dropFirst().firstIndex(of: "=") else { continue }
            try? map(String(pair[..<eq]), to: String(pair[pair.index(after: eq)...]))
        }
    }

    /// For the pause card: `a→left d→right`.
    public var summary: String {
        mapping.sorted { $0.key < $1.key }.map { "\($0.key)→\($0.value)" }.joined(separator: " ")
    }
}
