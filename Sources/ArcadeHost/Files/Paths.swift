#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

// Folders and paths, and the environment: what the catalog, the file watcher and the save
// store ask of the file system besides whole files (``FileIO``).

/// True when `path` is a directory.
func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

/// True when `path` exists.
func fileExists(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0
}

/// The names in a directory, sorted, without `.` and `..`.
func directoryEntries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        // Read the name where it lies: copying `d_name` out would read all 256 bytes the
        // declaration gives it, past the end of a short last record in readdir's buffer.
        let field = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let name = String(cString: field.assumingMemoryBound(to: CChar.self))
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// An environment variable, or nil when unset or empty.
func environment(_ name: String) -> String? {
    guard let p = getenv(name) else { return nil }
    let s = String(cString: p)
    return s.isEmpty ? nil : s
}

/// `path` made absolute against the working directory, with `.`/`..` and doubled slashes folded.
func absolutePath(_ path: String) -> String {
    var full = path
    if !path.hasPrefix("/") {
        var buf = [UInt8](repeating: 0, count: 4096)
        if buf.withUnsafeMutableBufferPointer({ b in
            b.withMemoryRebound(to: CChar.self) { getcwd($0.baseAddress, $0.count) != nil }
        }) {
            full = String(decoding: buf.prefix { $0 != 0 }, as: UTF8.self) + "/" + path
        }
    }
    var parts: [Substring] = []
    for p in full.split(separator: "/") {
        if p == "." { continue }
        if p == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
        parts.append(p)
    }
    return "/" + parts.joined(separator: "/")
}

/// True when `path` is a directory itself, not a link to one (`lstat`).
func isRealDirectory(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

/// Every `*.lua` file below `folder` (relative paths, sorted), skipping hidden folders.
///
/// The walk never follows a link to a folder (a link loop, or a link out of the game, must
/// not send it anywhere) and stops after `maxFiles` files or `maxDepth` levels.
func luaFiles(in folder: String, maxDepth: Int = 8, maxFiles: Int = 2_000) -> [String] {
    var out: [String] = []
    var visited = 0
    func walk(_ rel: String, depth: Int) {
        let dir = rel.isEmpty ? folder : folder + "/" + rel
        for name in directoryEntries(dir) where !name.hasPrefix(".") {
            visited += 1
            if out.count >= maxFiles || visited > 20 * maxFiles { return }
            let child = rel.isEmpty ? name : rel + "/" + name
            if isRealDirectory(folder + "/" + child) {
                if depth < maxDepth { walk(child, depth: depth + 1) }
            } else if name.hasSuffix(".lua") && !isDirectory(folder + "/" + child) {
                out.append(child)
            }
        }
    }
    walk("", depth: 0)
    return out
}
