#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair for tests: the `Terminal` under test gets the secondary side, which
/// is a real tty to it, and the test plays the terminal emulator on the primary side.
/// (Unchecked Sendable: it only holds two descriptors that never change.)
final class PseudoTerminal: @unchecked Sendable {
    /// The emulator's side: what the program writes arrives here, and keys are typed here.
    let primary: Int32
    /// The program's side, a tty.
    let secondary: Int32

    /// Linux ioctls for unlocking the secondary and reading its number (what `unlockpt(3)` and
    /// `ptsname(3)` do; those are not visible to Swift through Glibc).
    private static let unlock = UInt(0x4004_5431)  // TIOCSPTLCK
    private static let number = UInt(0x8004_5430)  // TIOCGPTN

    /// Whether this machine can open pseudo-terminals at all.
    static var isAvailable: Bool { access("/dev/ptmx", R_OK | W_OK) == 0 }

    init?(cols: Int = 80, rows: Int = 24) {
        let primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard primary >= 0 else { return nil }
        var locked: Int32 = 0
        var index: UInt32 = 0
        guard ioctl(primary, Self.unlock, &locked) == 0, ioctl(primary, Self.number, &index) == 0
        else {
            close(primary)
            return nil
        }
        let secondary = open("/dev/pts/\(index)", O_RDWR | O_NOCTTY)
        guard secondary >= 0 else {
            close(primary)
            return nil
        }
        self.primary = primary
        self.secondary = secondary
        _ = fcntl(primary, F_SETFL, fcntl(primary, F_GETFL) | O_NONBLOCK)
        resize(cols: cols, rows: rows)
    }

    /// Whether `hangUp()` already closed the primary side.
    private var isHungUp = false

    deinit {
        close(secondary)
        if !isHungUp { close(primary) }
    }

    /// Closes the emulator's side, as when its window is closed.
    func hangUp() {
        if !isHungUp { close(primary) }
        isHungUp = true
    }

    /// Sets the window size, as an emulator does when its window changes.
    func resize(cols: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(cols), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(primary, UInt(TIOCSWINSZ), &size)
    }

    /// Types `bytes` as the emulator would send them.
    func type(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
            if written > 0 { offset += written } else { _ = waitFor(events: POLLOUT, seconds: 0.1) }
        }
    }

    func type(_ text: String) { type(Array(text.utf8)) }

    /// Everything the program wrote, read until nothing more arrives for `quiet` seconds
    /// (or, when `expected` is given, until that many bytes arrived).
    func output(quiet: Double = 0.1, expected: Int = .max) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while result.count < expected && waitFor(events: POLLIN, seconds: quiet) {
            let count = buffer.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            result += buffer[0..<count]
        }
        return result
    }

    /// The secondary's terminal modes.
    func modes() -> termios {
        var modes = termios()
        _ = tcgetattr(secondary, &modes)
        return modes
    }

    private func waitFor(events: Int32, seconds: Double) -> Bool {
        var wait = pollfd(fd: primary, events: Int16(events), revents: 0)
        return poll(&wait, 1, Int32(seconds * 1000)) > 0
    }
}
