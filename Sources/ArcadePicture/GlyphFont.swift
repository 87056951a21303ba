#if canImport(Glibc)
import Glibc
#endif

/// A bitmap font of 8x16 and 16x16 glyphs, read from text in the `.hex` format of GNU
/// Unifont: one glyph a line, `XXXX:` and the code point in hex, then 32 hex digits (a glyph
/// 8 pixels wide, one byte a row) or 64 (16 wide, two bytes a row), rows top to bottom, the
/// leftmost pixel in the highest bit.
///
/// ``shared`` reads Debian's `unifont` package (`/usr/share/unifont/unifont.hex`, and
/// `unifont_upper.hex` beside it for the planes above the first when present) once, the
/// first time a picture needs a glyph; `$ARCADE_UNIFONT` names another file to read first.
/// A code point the font lacks has no glyph: pictures draw a box in its place.
public final class GlyphFont: Sendable {
    /// One glyph: 16 rows, each 8 or 16 pixels, leftmost pixel in bit 15.
    public struct Glyph: Hashable, Sendable {
        /// 8 or 16.
        public let width: Int
        /// The 16 rows, each left-aligned in 16 bits (an 8-wide glyph uses the high byte).
        public let rows: [UInt16]

        public init(width: Int, rows: [UInt16]) {
            self.width = width
            self.rows = rows
        }

        /// True when the pixel at `x`, `y` is set.
        public func isSet(x: Int, y: Int) -> Bool {
            x >= 0 && x < width && y >= 0 && y < 16 && rows[y] & (0x8000 >> UInt16(x)) != 0
        }
    }

    /// The files the shared font is read from, in order (the first to give a code point wins).
    public static var defaultPaths: [String] {
        var paths: [String] = []
        if let own = getenv("ARCADE_UNIFONT").map({ String(cString: $0) }), !own.isEmpty { paths.append(own) }
        for folder in ["/usr/share/unifont", "/usr/local/share/unifont"] {
            paths.append(folder + "/unifont.hex")
            paths.append(folder + "/unifont_upper.hex")
        }
        return paths
    }

    /// The font from ``defaultPaths``, read the first time it is used.
    public static let shared = GlyphFont(paths: defaultPaths)

    /// Every row of every glyph, 16 a glyph.
    private let rows: [UInt16]
    /// Code point to (index of its first row / 16) << 1 | (1 when 16 wide).
    private let index: [UInt32: UInt32]
    /// The files read (empty when none was found).
    public let sources: [String]

    /// The glyphs of the `.hex` text `hex` (lines it cannot read are skipped).
    public convenience init(hex: String) {
        var bytes = Array(hex.utf8)
        self.init(files: [(path: "", bytes: bytes)])
        bytes.removeAll()
    }

    /// The glyphs of the files at `paths` that can be read; a code point in several goes by
    /// the first.
    public convenience init(paths: [String]) {
        var files: [(path: String, bytes: [UInt8])] = []
        var seen = Set<String>()
        for path in paths where !seen.contains(path) {
            seen.insert(path)
            if let bytes = Self.readFile(path) { files.append((path, bytes)) }
        }
        self.init(files: files)
    }

    private init(files: [(path: String, bytes: [UInt8])]) {
        var rows: [UInt16] = []
        var index: [UInt32: UInt32] = [:]
        var glyph = [UInt16](repeating: 0, count: 16)
        for file in files {
            file.bytes.withUnsafeBufferPointer { b in
                var i = 0
                let n = b.count
                while i < n {
                    // one line: code point, ':', digits
                    var code: UInt32 = 0
                    var digits = 0
                    var ok = true
                    while i < n, b[i] != UInt8(ascii: ":"), b[i] != 10 {
                        if let v = Self.hexValue(b[i]), digits < 8 { code = code << 4 | UInt32(v); digits += 1 } else { ok = false }
                        i += 1
                    }
                    if i < n, b[i] == UInt8(ascii: ":") { i += 1 } else { ok = false }
                    let start = i
                    while i < n, b[i] != 10, b[i] != 13 { i += 1 }
                    let count = i - start
                    while i < n, b[i] == 10 || b[i] == 13 { i += 1 }
                    guard ok, digits > 0, count == 32 || count == 64, index[code] == nil else { continue }
                    let perRow = count / 16  // 2 or 4 digits
                    var valid = true
                    for r in 0..<16 {
                        var v: UInt16 = 0
                        for d in 0..<perRow {
                            guard let h = Self.hexValue(b[start + r * perRow + d]) else { valid = false; break }
                            v = v << 4 | UInt16(h)
                        }
                        glyph[r] = perRow == 2 ? v << 8 : v
                    }
                    guard valid else { continue }
                    index[code] = UInt32(rows.count / 16) << 1 | (perRow == 4 ? 1 : 0)
                    rows.append(contentsOf: glyph)
                }
            }
        }
        self.rows = rows
        self.index = index
        sources = files.map(\.path).filter { !$0.isEmpty }
    }

    /// How many glyphs the font has.
    public var count: Int { index.count }

    /// The glyph of `code`, or nil when the font lacks it.
    public func glyph(_ code: UInt32) -> Glyph? {
        guard let entry = index[code] else { return nil }
        let first = Int(entry >> 1) * 16
        return Glyph(width: entry & 1 == 1 ? 16 : 8, rows: Array(rows[first..<first + 16]))
    }

    /// The glyph of `code` as its rows and width, without making an array (nil: none).
    func withGlyph<R>(_ code: UInt32, _ body: (UnsafeBufferPointer<UInt16>, Int) -> R) -> R? {
        guard let entry = index[code] else { return nil }
        let first = Int(entry >> 1) * 16
        return rows.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[first..<first + 16]), entry & 1 == 1 ? 16 : 8) }
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The bytes of the regular file at `path`, or nil.
    private static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size < 64 << 20 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var done = 0
        while done < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return Array(bytes.prefix(done))
    }
}
