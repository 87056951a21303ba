#if canImport(Glibc)
import Glibc
#endif

/// Which game the saves kept under an id belong to. An id alone says nothing about the game
/// behind it (any folder or cart may claim one), so the save file records, for each id, the
/// owner whose saves it keeps; another game claiming the id gets saves of its own, never
/// those (see ``SaveStore/slot(for:owner:)``).
///
/// - the arcade's own games: one fixed owner, ``bundled``;
/// - a game in a folder (`--games DIR`, the current folder): that folder, links resolved;
/// - a cart, installed or played without installing: the SHA-256 of its index, which names
///   its id and the hash of every file. An installed game keeps the identity of the cart
///   first installed under its id through `install --replace` (the player asked for the
///   update), and loses it when uninstalled: another cart installed later is another owner.
public struct SaveOwner: Sendable, Hashable, CustomStringConvertible {
    /// How the owner is recorded in the save file: `bundled`, `folder /abs/path`, `cart <hex>`.
    public let key: String
    /// True for the owners that take an id's saves from before owners were recorded: the
    /// arcade's own games and installed games, the kinds that held their id against every
    /// other game then too. Not part of the identity.
    public let takesUnownedSaves: Bool

    init(key: String, takesUnownedSaves: Bool = false) {
        self.key = key
        self.takesUnownedSaves = takesUnownedSaves
    }

    public static func == (a: SaveOwner, b: SaveOwner) -> Bool { a.key == b.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The arcade's own games.
    public static let bundled = SaveOwner(key: "bundled", takesUnownedSaves: true)

    /// The game in `folder` (made absolute, links resolved).
    public static func folder(_ folder: String) -> SaveOwner {
        SaveOwner(key: "folder " + resolvedPath(folder))
    }

    /// A cart of this identity (the hex SHA-256 of its index); `installed` when it is the
    /// installed game of its id.
    public static func cart(_ identity: String, installed: Bool = false) -> SaveOwner {
        SaveOwner(key: "cart " + identity, takesUnownedSaves: installed)
    }

    /// The owner recorded as `key` in the save file.
    init(recorded key: String) {
        self.init(key: key)
    }

    /// How messages name it: "one of the arcade's own games", "the game in /x/rocks",
    /// "the cart 3f1c9a0b77e2".
    public var description: String {
        if key == "bundled" { return "one of the arcade's own games" }
        if key.hasPrefix("folder ") { return "the game in " + key.dropFirst(7) }
        if key.hasPrefix("cart ") { return "the cart " + key.dropFirst(5).prefix(12) }
        return key
    }

    /// True when `text` (what a player types after `arcade adopt --from`) names this owner:
    /// its key, `bundled`, a folder (relative paths are taken from the working directory), or
    /// the start of a cart's identity (8 hex digits at least).
    public func isNamed(by text: String) -> Bool {
        if text == key { return true }
        if key.hasPrefix("folder ") { return key.dropFirst(7) == resolvedPath(text) }
        if key.hasPrefix("cart "), text.count >= 8 { return key.dropFirst(5).hasPrefix(text.lowercased()) }
        return false
    }
}

/// `path` made absolute, with links resolved when it exists.
func resolvedPath(_ path: String) -> String {
    let absolute = absolutePath(path)
    guard let real = realpath(absolute, nil) else { return absolute }
    defer { free(real) }
    return String(cString: real)
}
