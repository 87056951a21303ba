/// A game as one file: its folder in a ustar archive (see ``Tar``), led by an index that
/// names the cart format and the game, and lists the SHA-256 of every file.
///
/// The archive holds `arcade-cart.txt`, then the game's files under `<id>/` in byte order of
/// their paths, every header with the same owner, mode and time, so packing the same folder
/// twice gives the same bytes. `tar -xf game.arcade` unpacks it into `<id>/`, and
/// `sha256sum -c arcade-cart.txt` checks the files (it warns about the two header lines):
///
///     arcade-cart 1
///     id coinbank
///     3f1c...e0  coinbank/bank.sprite
///     ...
///
/// A value of this type has passed every check of ``read(_:limits:)`` or was packed from a
/// folder that passed them (``pack(_:limits:)``).
public struct Cart: Sendable {
    /// The format this arcade writes and reads.
    public static let formatVersion = 1
    /// The index's name: the archive's first entry.
    public static let indexName = "arcade-cart.txt"
    /// What a cart file is called: `<id>.arcade`.
    public static let fileExtension = ".arcade"

    /// One file of the game.
    public struct File: Sendable, Equatable {
        /// Inside the game's folder, like `tests/golden/start.txt`.
        public var path: String
        public var bytes: [UInt8]
    }

    /// The game's id (its manifest's).
    public let id: String
    /// The game's validated manifest.
    public let manifest: GameManifest
    /// Every file, in byte order of their paths.
    public let files: [File]

    init(id: String, manifest: GameManifest, files: [File]) {
        self.id = id
        self.manifest = manifest
        self.files = files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The cart's bytes: the index, then every file under `<id>/`.
    public var bytes: [UInt8] {
        var entries = [Tar.Entry(path: Cart.indexName, bytes: Array(index.utf8))]
        entries += files.map { Tar.Entry(path: id + "/" + $0.path, bytes: $0.bytes) }
        // every path was checked against CartLimits.pathBytes, which ustar always fits
        return Tar.archive(entries) ?? []
    }

    /// The text of `arcade-cart.txt`.
    var index: String {
        var text = "arcade-cart \(Cart.formatVersion)\nid \(id)\n"
        for f in files { text += "\(SHA256.hex(f.bytes))  \(id)/\(f.path)\n" }
        return text
    }

    /// Sizes: the files' own bytes, and the cart's.
    public var contentBytes: Int { files.reduce(0) { $0 + $1.bytes.count } }
}

/// Why a cart was refused, or could not be made, played, installed or removed: one line.
public struct CartProblem: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What a cart may hold. The docs ("Share your game") state these numbers.
public struct CartLimits: Sendable, Equatable {
    /// Most files (the index not counted).
    public var files: Int
    /// Most bytes of file contents, all files together.
    public var bytes: Int
    /// Longest path inside the game's folder, in bytes.
    public var pathBytes: Int
    /// Most folders a path may go down.
    public var depth: Int

    public init(files: Int = 1_000, bytes: Int = 16 << 20, pathBytes: Int = 200, depth: Int = 8) {
        self.files = files
        self.bytes = bytes
        self.pathBytes = pathBytes
        self.depth = depth
    }

    /// The index's largest size (a line per file, at most a path and a hash each).
    var indexBytes: Int { 64 + files * (pathBytes + 100) }

    /// The largest a cart file can be within these limits: every file's header and padding,
    /// the index, and the end marker.
    public var cartBytes: Int { bytes + (files + 1) * 2 * Tar.blockSize + indexBytes + 2 * Tar.blockSize }
}

extension Cart {
    /// True for an id a game may have: a lower-case ASCII letter, then up to 31 of a-z, 0-9,
    /// `-` and `_`. Nothing a path or a terminal would read specially.
    public static func isPlainID(_ id: String) -> Bool {
        let b = Array(id.utf8)
        guard let first = b.first, b.count <= 32, (97...122).contains(first) else { return false }
        return b.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 || $0 == 95 }
    }

    /// Why `path` (inside the game's folder) cannot be in a cart, or nil when it can: parts of
    /// ASCII letters, digits, `.`, `-`, `_` and `+`, none empty or starting with a dot (so no
    /// `..`, no absolute path, no hidden file), within the length and depth limits (when given).
    static func pathProblem(_ path: String, limits: CartLimits?) -> String? {
        let bytes = Array(path.utf8)
        if bytes.isEmpty { return "an empty path" }
        if bytes.first == UInt8(ascii: "/") { return "an absolute path" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains("..") { return "a path that climbs out of its folder with '..'" }
        if parts.contains(where: \.isEmpty) { return "an empty part (a doubled or trailing '/')" }
        if parts.contains(where: { $0.hasPrefix(".") }) { return "a hidden name (starting with '.')" }
        let allowed: (UInt8) -> Bool = { b in
            (97...122).contains(b) || (65...90).contains(b) || (48...57).contains(b) || b == 46 || b == 45 || b == 95 || b == 43
        }
        if !bytes.allSatisfy({ $0 == UInt8(ascii: "/") || allowed($0) }) {
            return "a name with characters other than letters, digits, '.', '-', '_' and '+'"
        }
        guard let limits else { return nil }
        if bytes.count > limits.pathBytes { return "a path longer than \(limits.pathBytes) bytes" }
        if parts.count - 1 > limits.depth { return "a path more than \(limits.depth) folders deep" }
        return nil
    }

    /// `text` as a message shows it: printable ASCII kept, anything else escaped, cut short.
    static func shown(_ text: String) -> String {
        var out = ""
        for s in text.unicodeScalars.prefix(120) {
            out += (32..<127).contains(s.value) ? String(s) : "\\u{\(String(s.value, radix: 16))}"
        }
        return text.unicodeScalars.count > 120 ? out + "..." : out
    }
}
