#if canImport(Glibc)
import Glibc
#endif

/// Watches the terminal's input for Ctrl-C while the loop is busy with work that may run long
/// (a game's steps and its frame), when the loop itself reads no input.
///
/// One thread, started on first use, sleeps while nothing is watched. Once a watch has lasted
/// ``grace`` (far longer than the work of a turn of an honest game), it reads whatever the
/// terminal sends and keeps it for the loop's next read. On a Ctrl-C (the byte 0x03, or the
/// kitty protocol's press of ctrl+c) it calls the watch's action, once, and leaves that Ctrl-C
/// out of what it keeps: it has been acted on.
final class InterruptWatch: @unchecked Sendable {
    /// How long a watch lasts before the thread reads the input (seconds).
    static let grace = 0.2

    private let fd: Int32
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    /// A pipe that wakes the thread from its `poll` when a watch ends.
    private var stopRead: Int32 = -1
    private var stopWrite: Int32 = -1
    private var started = false
    /// Guarded by `mutex`: a watch runs; which one; the thread is reading; what it read; the
    /// action; whether it ran; the input ended.
    private var watching = false
    private var watch = 0
    private var reading = false
    private var kept: [UInt8] = []
    private var action: (@Sendable () -> Void)?
    private var interrupted = false
    private var ended = false

    init(fd: Int32) {
        self.fd = fd
        pthread_mutex_init(&mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&changed, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    /// Starts watching: `action` runs on the watch's thread when the player presses Ctrl-C.
    /// False when no thread could be started (then nothing is watched).
    func begin(_ action: @escaping @Sendable () -> Void) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if !started {
            guard startThread() else { return false }
            started = true
        }
        watching = true
        watch &+= 1
        self.action = action
        interrupted = false
        ended = false
        pthread_cond_broadcast(&changed)
        return true
    }

    /// Ends the watch; once this returns the thread reads nothing more. Returns the bytes it
    /// read (for the loop to decode), and whether the player interrupted.
    func end() -> (bytes: [UInt8], interrupted: Bool) {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        watching = false
        action = nil
        if reading {
            var byte: UInt8 = 1
            _ = write(stopWrite, &byte, 1)
            while reading { pthread_cond_wait(&changed, &mutex) }
        }
        var drain = [UInt8](repeating: 0, count: 16)
        while read(stopRead, &drain, drain.count) > 0 {}
        let out = (kept, interrupted)
        kept.removeAll(keepingCapacity: true)
        interrupted = false
        return out
    }

    private func startThread() -> Bool {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (stopRead, stopWrite) = (ends[0], ends[1])
        var thread = pthread_t()
        let box = Unmanaged.passRetained(self).toOpaque()  // the thread lives as long as the process
        guard pthread_create(&thread, nil, { arg in
            Unmanaged<InterruptWatch>.fromOpaque(arg!).takeUnretainedValue().run()
        }, box) == 0 else {
            Unmanaged<InterruptWatch>.fromOpaque(box).release()
            close(stopRead)
            close(stopWrite)
            return false
        }
        pthread_detach(thread)
        return true
    }

    private func run() -> Never {
        var buffer = [UInt8](repeating: 0, count: 4096)
        pthread_mutex_lock(&mutex)
        while true {
            while !watching || ended { pthread_cond_wait(&changed, &mutex) }
            // the grace: most watches end before it does
            let current = watch
            var until = timespec()
            clock_gettime(CLOCK_MONOTONIC, &until)
            let nanoseconds = Int(until.tv_nsec) + Int(Self.grace * 1e9)
            until.tv_sec += nanoseconds / 1_000_000_000
            until.tv_nsec = nanoseconds % 1_000_000_000
            while watching && watch == current {
                if pthread_cond_timedwait(&changed, &mutex, &until) == ETIMEDOUT { break }
            }
            guard watching && watch == current else { continue }
            reading = true
            pthread_mutex_unlock(&mutex)
            var set = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
            var count = 0
            var closed = false
            if poll(&set, 2, -1) > 0 && set[0].revents != 0 {
                count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                closed = count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN)
            }
            pthread_mutex_lock(&mutex)
            reading = false
            if closed { ended = true }  // the loop's own read will find out
            if count > 0 {
                kept.append(contentsOf: buffer[0..<count])
                if !interrupted, let at = Self.interrupt(in: kept) {
                    kept.removeSubrange(at)
                    interrupted = true
                    action?()
                }
            }
            pthread_cond_broadcast(&changed)
        }
    }

    /// Where the first Ctrl-C press in `bytes` is: the byte 0x03, or the kitty protocol's
    /// `CSI 99 ; m u` (or `CSI 99 ; m:1 u`, `:2` a repeat) with ctrl and no other modifier but
    /// the locks.
    static func interrupt(in bytes: [UInt8]) -> Range<Int>? {
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x03 { return i..<(i + 1) }
            if bytes[i] == 0x1B, let end = kittyCtrlC(bytes, at: i) { return i..<end }
            i += 1
        }
        return nil
    }

    /// The end of a kitty ctrl+c press starting at `start`, if one is there.
    private static func kittyCtrlC(_ bytes: [UInt8], at start: Int) -> Int? {
        let head = Array("\u{1B}[99;".utf8)
        guard start + head.count < bytes.count, Array(bytes[start..<(start + head.count)]) == head else { return nil }
        var i = start + head.count
        var modifiers = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39, modifiers < 1000 {
            modifiers = modifiers * 10 + Int(bytes[i] - 0x30)
            i += 1
        }
        var event = 1
        if i + 1 < bytes.count, bytes[i] == UInt8(ascii: ":") {
            event = Int(bytes[i + 1]) - 0x30
            i += 2
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "u"), event == 1 || event == 2 else { return nil }
        // the modifiers are 1 + a bit set: 4 is ctrl, 64 caps lock and 128 num lock
        guard modifiers >= 1, (modifiers - 1) & ~(64 | 128) == 4 else { return nil }
        return i + 1
    }
}
