#if canImport(Glibc)
import Glibc
#endif

/// The thin layer of C calls on the tty, each wrapped once.
enum TTY {
    /// Writes all of `bytes` to `fd` (`write(2)`), carrying on after partial writes and
    /// interruptions, and waiting (`poll(2)`) when something made the descriptor non-blocking
    /// and its buffer is full.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(TerminalError) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(fd, next, remaining)
            if written > 0 {
                next += written
                remaining -= written
                continue
            }
            let code = written < 0 ? errno : EIO
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var wait = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&wait, 1, -1)
            default:
                throw .systemCall("write", errno: code)
            }
        }
    }

    /// The window size of the terminal on `fd` (`ioctl(TIOCGWINSZ)`), or `nil` when it will
    /// not say (not a terminal, or a pseudo-terminal nobody sized).
    static func windowSize(_ fd: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return nil
        }
        return TerminalSize(cols: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// `original` with raw input and output, as `cfmakeraw(3)` makes it: no line editing, no
    /// echo, no signals from keys (Ctrl-C and Ctrl-Z arrive as keys for the host to decide),
    /// no CR/LF translation either way, 8-bit characters; reads return as soon as one byte
    /// is there.
    static func rawMode(from original: termios) -> termios {
        var raw = original
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        return raw
    }

    /// A pipe whose ends are non-blocking and closed on exec (`pipe(2)`), for the SIGWINCH
    /// handler to wake the input reader: a handler must not block, and the reader drains it
    /// without blocking.
    static func makeWakePipe() throws(TerminalError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .systemCall("pipe", errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    /// Reads and discards whatever is in the non-blocking `fd`; true if there was anything.
    static func drain(_ fd: Int32) -> Bool {
        var sink = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var any = false
        while true {
            let count = withUnsafeMutableBytes(of: &sink) { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                any = true
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return any
            }
        }
    }

    /// Seconds on the monotonic clock (`clock_gettime(CLOCK_MONOTONIC)`), for input timing
    /// only; game time comes from the fixed-step clock.
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }
}
