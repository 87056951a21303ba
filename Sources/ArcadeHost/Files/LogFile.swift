#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// Where `print` from games goes while the terminal belongs to the renderer:
/// `$XDG_STATE_HOME/arcade/arcade.log` (default `~/.local/state/arcade/arcade.log`).
public final class LogFile {
    private let fd: Int32
    /// The file's path.
    public let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }
    deinit { close(fd) }

    /// The log, opened for appending (its folders made as needed), or nil when it cannot be.
    public static func open() -> LogFile? {
        guard let base = stateDir else { return nil }
        mkdir(base, 0o755)
        mkdir(base + "/arcade", 0o755)
        let path = base + "/arcade/arcade.log"
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        return fd >= 0 ? LogFile(fd: fd, path: path) : nil
    }

    /// `$XDG_STATE_HOME`, else `~/.local/state`; nil when neither is known.
    private static var stateDir: String? {
        environment("XDG_STATE_HOME") ?? environment("HOME").map { $0 + "/.local/state" }
    }

    /// Appends `line`, its control bytes escaped.
    public func append(_ line: String) {
        FileIO.writeAll(fd, ControlEscaping.escapingControls(line) + "\n")
    }
}
