#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A terminal at the far end of a slow link, the way ssh gives one, with the arcade running as
/// its own process on a pseudo-terminal.
///
/// What the arcade writes is read at once into an unbounded buffer (ssh reads its pty eagerly,
/// and the TCP buffers hold whatever the network has not carried yet); the buffer drains into
/// a ``VTModel`` at a set number of bytes a second, the link's speed. When the drain reaches a
/// query (device status `CSI 5 n`, device attributes `CSI c`) the terminal answers it as a real
/// one does, and the answer reaches the arcade at once (the way back carries only keys and
/// answers). The screen shows a frame once its end (`CSI ? 2026 l`) has drained.
///
/// Used by the host tests (with the debug `arcade`) and by `arcade-bench` (the release one).
public final class SlowLink: @unchecked Sendable {
    public struct Settings: Sendable {
        public var cols = 160
        public var rows = 50
        /// Bytes a second the link carries; nil: everything as soon as it is written.
        public var bytesPerSecond: Int?
        /// Whether the terminal answers queries (some never do).
        public var answers = true
        /// Keep every byte the arcade wrote, in ``transcript``.
        public var keepsTranscript = false
        /// Where the arcade's standard error goes.
        public var stderrPath = "/dev/null"
        /// Added to the arcade's environment (which gets `TERM=xterm-256color` and
        /// `COLORTERM=truecolor`, and no `NO_COLOR`).
        public var environment: [String: String] = [:]

        public init() {}
    }

    /// What the link has seen so far (``SlowLink/stats``).
    public struct Stats: Sendable {
        /// Bytes the arcade wrote, and how many of them have drained to the terminal.
        public var bytesWritten = 0
        public var bytesDrained = 0
        /// Frames the arcade wrote (their starts), and frames the terminal has shown.
        public var framesWritten = 0
        public var framesShown = 0
        /// The most bytes that waited in the link at once, and the most frames that were in it
        /// at once (written and not yet wholly drained), since ``SlowLink/resetPeaks()``.
        public var peakBacklogBytes = 0
        public var peakFramesInLink = 0
        /// Queries the terminal met in the stream: device status, and device attributes.
        public var statusQueries = 0
        public var attributeQueries = 0
    }

    public let settings: Settings
    public let pid: pid_t
    private let primary: Int32
    private let lock = NSLock()
    // Everything below is guarded by `lock`.
    private var inbox: [UInt8] = []
    private var inboxStart = 0
    private var rate: Int?
    private var model: VTModel
    private var counts = Stats()
    private var bytes: [UInt8] = []
    private var watcher: ((VTModel) -> Bool)?
    private var watchHit: Double?
    private var running = true
    private var closed = false
    private var exitStatus: Int32?
    // The drain's parser (only the drain thread touches these).
    private var carry: [UInt8] = []
    private var parse = StreamScanner()
    /// The drain is inside a frame (between its start and its end).
    private var insideFrame = false
    /// The reader's own scanner, for frame starts.
    private var startsRead = StreamScanner()
    private var threads: [Thread] = []

    /// Starts `arguments` (the arcade executable first) on a pseudo-terminal of the set size.
    /// Call ``stop(timeout:)`` when done: the link runs (and holds itself) until then.
    public init(arguments: [String], settings: Settings = Settings()) throws {
        self.settings = settings
        rate = settings.bytesPerSecond
        model = VTModel(columns: settings.cols, rows: settings.rows,
                        fill: .init(scalar: " ", foreground: VTModel.defaultForeground, background: VTModel.defaultBackground))
        let (primary, secondary) = try TerminalProcess.openPseudoTerminal(cols: settings.cols, rows: settings.rows)
        self.primary = primary
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["COLORTERM"] = "truecolor"
        // the test runner's NO_COLOR would choose the 16-colour mode: the link is measured in truecolor
        environment["NO_COLOR"] = nil
        environment.merge(settings.environment) { $1 }
        do {
            pid = try TerminalProcess.spawn(arguments, terminal: secondary, stderr: settings.stderrPath,
                                            environment: environment)
        } catch {
            close(secondary)
            close(primary)
            throw error
        }
        close(secondary)  // the arcade's copy is the only one: its exit hangs the link up
        threads = [Thread { [self] in readLoop() }, Thread { [self] in drainLoop() }]
        threads.forEach { $0.start() }
    }

    deinit {
        close(primary)
    }

    /// The link's speed now (bytes a second; nil: unlimited). May change while it runs.
    public var bytesPerSecond: Int? {
        get { locked { rate } }
        set { locked { rate = newValue } }
    }

    public var stats: Stats { locked { counts } }

    /// What the terminal shows now.
    public var screen: VTModel { locked { model } }

    /// Every byte the arcade wrote (with ``Settings/keepsTranscript``).
    public var transcript: [UInt8] { locked { bytes } }

    /// Starts measuring the backlog's peaks afresh.
    public func resetPeaks() {
        locked {
            counts.peakBacklogBytes = inbox.count - inboxStart
            counts.peakFramesInLink = counts.framesWritten - counts.framesShown
        }
    }

    /// Types `text` (keys reach the arcade at once).
    public func type(_ text: String) {
        write(Array(text.utf8))
    }

    /// Waits up to `timeout` seconds for the screen to satisfy `condition` (tried each time a
    /// frame is shown) and returns when it first did (``SlowLink/now()``), or nil.
    public func waitForScreen(timeout: Double, _ condition: @escaping (VTModel) -> Bool) -> Double? {
        let already: Bool = locked {
            watchHit = nil
            if condition(model) { return true }
            watcher = condition
            return false
        }
        if already { return Self.now() }
        let deadline = Self.now() + timeout
        while Self.now() < deadline {
            if let hit = locked({ watchHit }) { return hit }
            usleep(1000)
        }
        return locked {
            watcher = nil
            return watchHit
        }
    }

    /// Waits `seconds` while the link runs.
    public func run(for seconds: Double) {
        usleep(useconds_t(max(seconds, 0) * 1e6))
    }

    /// Quits the arcade (Ctrl-C, then a kill if it has not left within `timeout` seconds),
    /// lets the link drain what it wrote while leaving, and stops. Returns the exit status
    /// as `waitpid` gives it (nil when it had to be killed). Safe to call twice.
    @discardableResult
    public func stop(timeout: Double = 5) -> Int32? {
        if locked({ !running }) { return exitStatus }
        type("\u{03}")
        let deadline = Self.now() + timeout
        var status: Int32 = 0
        var exited = false
        while Self.now() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                exited = true
                break
            }
            usleep(5000)
        }
        if !exited {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        // what it wrote while leaving drains too (the restore sequence)
        while locked({ !closed || inbox.count > inboxStart }) && Self.now() < deadline + 2 { usleep(2000) }
        locked { running = false }
        while threads.contains(where: { !$0.isFinished }) { usleep(1000) }
        let result: Int32? = exited ? status : nil
        locked { exitStatus = result }
        return result
    }

    /// Monotonic seconds, the clock of every time the link reports.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    // MARK: The two ends

    /// Reads everything the arcade writes as soon as it is there (as ssh does).
    private func readLoop() {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while locked({ running }) {
            var fds = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, 20) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) }
            if count <= 0 {
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                locked { closed = true }  // EIO: the arcade has gone
                return
            }
            let new = chunk[0..<count]
            locked {
                inbox.append(contentsOf: new)
                if settings.keepsTranscript { bytes.append(contentsOf: new) }
                counts.bytesWritten += count
                for byte in new where startsRead.take(byte) == "?2026h" { counts.framesWritten += 1 }
                counts.peakBacklogBytes = max(counts.peakBacklogBytes, inbox.count - inboxStart)
                counts.peakFramesInLink = max(counts.peakFramesInLink, counts.framesWritten - counts.framesShown)
            }
        }
    }

    /// Moves bytes from the buffer to the terminal at the link's rate, every millisecond or so.
    private func drainLoop() {
        var last = Self.now()
        var credit = 0.0
        while locked({ running }) {
            usleep(1000)
            let t = Self.now()
            let chunk: ArraySlice<UInt8> = locked {
                let waiting = inbox.count - inboxStart
                var take = waiting
                if let rate {
                    credit += Double(rate) * (t - last)
                    take = min(waiting, Int(credit))
                    credit -= Double(take)
                    // an idle link saves nothing up: it cannot carry what was not there
                    if take == waiting { credit = min(credit, Double(rate) * 0.002) }
                }
                let slice = inbox[inboxStart..<(inboxStart + take)]
                inboxStart += take
                if inboxStart > 1 << 20 {
                    inbox.removeFirst(inboxStart)
                    inboxStart = 0
                }
                return slice
            }
            last = t
            if !chunk.isEmpty { deliver(chunk, at: t) }
        }
    }

    /// The terminal reads `chunk`: frames are shown as their ends arrive, queries answered as
    /// they are reached.
    private func deliver(_ chunk: ArraySlice<UInt8>, at t: Double) {
        var answers: [UInt8] = []
        for byte in chunk {
            carry.append(byte)
            guard let sequence = parse.take(byte) else { continue }
            var showNow = !insideFrame
            switch sequence {
            case "5n":
                locked { counts.statusQueries += 1 }
                if settings.answers { answers += Array("\u{1B}[0n".utf8) }
            case "c", "0c":
                locked { counts.attributeQueries += 1 }
                if settings.answers { answers += Array("\u{1B}[?62;22c".utf8) }
            case "?2026h":
                insideFrame = true
                showNow = false
            case "?2026l":
                showNow = true
                insideFrame = false
                locked { counts.framesShown += 1 }
            default:
                break
            }
            if showNow { show(at: t) }
            // an answer leaves as soon as its query is read, before what follows it
            if !answers.isEmpty {
                write(answers)
                answers.removeAll()
            }
        }
        locked { counts.bytesDrained += chunk.count }
    }

    /// Puts what has drained on the screen and tries the condition waited for.
    private func show(at t: Double) {
        locked {
            model.feed(carry)
            if let watcher, watcher(model) {
                watchHit = t
                self.watcher = nil
            }
        }
        carry.removeAll(keepingCapacity: true)
    }

    private func write(_ data: [UInt8]) {
        var offset = 0
        while offset < data.count {
            let n = data[offset...].withUnsafeBytes { Glibc.write(primary, $0.baseAddress, $0.count) }
            if n > 0 { offset += n } else if errno != EINTR && errno != EAGAIN { return }
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// Finds the control sequences in a byte stream fed one byte at a time: after the final byte
/// of a CSI sequence it returns the sequence's parameters and final byte ("5n", "?2026l").
struct StreamScanner {
    private enum State { case text, escape, csi }
    private var state = State.text
    private var sequence: [UInt8] = []

    mutating func take(_ byte: UInt8) -> String? {
        switch state {
        case .text:
            if byte == 0x1B { state = .escape }
        case .escape:
            state = byte == UInt8(ascii: "[") ? .csi : byte == 0x1B ? .escape : .text
            sequence.removeAll(keepingCapacity: true)
        case .csi:
            if (0x20...0x3F).contains(byte) {
                sequence.append(byte)
            } else {
                state = .text
                sequence.append(byte)
                return String(decoding: sequence, as: UTF8.self)
            }
        }
        return nil
    }
}

extension VTModel {
    /// The characters on each row, trailing spaces dropped.
    public var lines: [String] {
        (0..<rows).map { row in
            var line = String.UnicodeScalarView()
            for column in 0..<columns { line.append(self[column, row].scalar) }
            return String(String(line).reversed().drop { $0 == " " }.reversed())
        }
    }

    /// True when `text` shows on one row.
    public func shows(_ text: String) -> Bool {
        lines.contains { $0.contains(text) }
    }
}
