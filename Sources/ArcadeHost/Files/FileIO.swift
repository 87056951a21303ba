#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import ArcadeLua

/// Whole files read and written, and writes that go on until every byte is out, without
/// Foundation: the host's one home for them. The bytes of a file come from ``FileBytes``,
/// which refuses what is not a regular file and, given a folder, what lies outside it.
public enum FileIO {
    /// The text of the file at `path` (UTF-8; a malformed byte reads as U+FFFD), or nil when
    /// ``FileBytes/read(_:within:limit:)`` cannot read it.
    public static func readText(_ path: String, within root: String? = nil, limit: Int = 16 << 20) -> String? {
        FileBytes.read(path, within: root, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The text of a Lua file of a game, named `chunkName` in messages; with `root`, a file
    /// that lies outside that folder is refused.
    ///
    /// - Throws: ``LuaError`` of kind ``LuaError/Kind/file``, "`chunkName`: cannot read the file".
    static func readScript(_ path: String, within root: String?, chunkName: String) throws(LuaError) -> String {
        guard let text = readText(path, within: root) else {
            throw LuaError(kind: .file, message: "\(chunkName): cannot read the file")
        }
        return text
    }

    /// Writes `text` to `path`, created or emptied first. False when the file cannot be
    /// opened or not all of it could be written.
    public static func writeText(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return writeAll(fd, text)
    }

    /// Writes all of `bytes` to `fd`, going on after a short write or an interrupted call.
    /// False when a write fails (`errno` says why).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Writes all of `text`, as UTF-8 (see the other `writeAll`).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }
}
