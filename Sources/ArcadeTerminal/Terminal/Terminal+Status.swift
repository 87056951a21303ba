#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

// The device status query the host sends behind each frame, and the terminal's answers to it:
// an answer comes back only once the terminal has read everything written before the query,
// so it tells when a frame has crossed the whole way (ssh, the network, the emulator).

extension Terminal {
    /// `CSI 5 n`, device status: every VT100-style terminal answers `CSI 0 n` ("ready").
    /// Not `CSI 6 n` (the cursor position): its answer `CSI row;col R` reads like F3 with
    /// modifiers.
    public static let statusQuery: [UInt8] = Array("\u{1B}[5n".utf8)

    /// Longest wait in `restore()` for the answer to the start-up query.
    static let startupReplyWait = 0.25

    /// Longest wait, when leaving or suspending, for the answers to status queries still on
    /// their way from a terminal known to answer them (they trail at most one frame).
    static let statusReplyWait = 1.0

    /// Writes `statusQuery` behind everything written so far and counts it as unanswered.
    ///
    /// It bypasses `outputTap`: a recording keeps what the screen shows, and a terminal
    /// replaying it should not be asked anything.
    public func askStatus() throws(TerminalError) {
        try Self.statusQuery.withUnsafeBytes { bytes in
            Result { () throws(TerminalError) in try TTY.writeAll(outputFD, bytes) }
        }.get()
        unansweredStatusQueries += 1
    }

    /// The answers to status queries that arrived since the last call (read by
    /// `readEvents`, never passed on as keys).
    public func takeStatusAnswers() -> Int {
        defer { untakenStatusAnswers = 0 }
        return untakenStatusAnswers
    }

    /// Counts one answer to a status query.
    func noteStatusAnswer() {
        answersStatus = true
        untakenStatusAnswers += 1
        if unansweredStatusQueries > 0 { unansweredStatusQueries -= 1 }
    }

    /// Reads (and drops) input until the answers we still expect have arrived, so that none
    /// lands in the shell's input after we leave: the start-up query's (with `startup`, for
    /// at most `startupReplyWait`; a quit right after `enter()` can come before it) and those
    /// to status queries from a terminal known to answer them (for at most
    /// `statusReplyWait`). A terminal that never answers costs only the bounded wait.
    func awaitAnswers(startup: Bool) {
        var startupPending = startup && keyboardMode == .probing
        var statusPending: Bool { answersStatus && unansweredStatusQueries > 0 }
        guard startupPending || statusPending else { return }
        let deadline = TTY.monotonicSeconds() + (statusPending ? Self.statusReplyWait : Self.startupReplyWait)
        var dropped: [InputEvent] = []
        while startupPending || statusPending {
            let left = deadline - TTY.monotonicSeconds()
            if left <= 0 { return }
            var fds = pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32((left * 1000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            let count = readBuffer.withUnsafeMutableBytes { read(inputFD, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return }
            readBuffer.withUnsafeBufferPointer { buffer in
                decoder.decode(UnsafeBufferPointer(rebasing: buffer[0..<count]), into: &dropped)
            }
            dropped.removeAll(keepingCapacity: true)
            for reply in decoder.takeReplies() {
                switch reply {
                case .primaryDeviceAttributes: startupPending = false
                case .deviceStatus: noteStatusAnswer()
                case .keyboardFlags: break  // leaving: nothing is pushed now
                }
            }
        }
    }
}
