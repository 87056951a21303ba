/// When the next frame may go to the terminal, so that frames never queue on a slow link.
///
/// Behind every frame it writes, the arcade asks the terminal for its status
/// (`Terminal.askStatus()`). The terminal answers only once it has read everything before the
/// query, so the answer's arrival says the frame has crossed the whole way: the ssh and TCP
/// buffers, the network and the emulator. The next frame waits for that answer (or a
/// timeout); meanwhile the game steps on at 60 Hz, and the frame then drawn shows the latest
/// state, encoded against the last frame really sent. Locally the answer is back within a
/// millisecond, long before the next step, so every step still gets its frame.
///
/// Pure bookkeeping on times the caller passes in (monotonic seconds), so that it can be
/// tested without a clock.
struct FramePacer: Sendable {
    enum Mode: Equatable, Sendable {
        /// Nothing answered yet: a frame waits at most ``FramePacer/probeTimeout``.
        case probing
        /// The terminal answers: answers are sure to come, only late when a frame is big for
        /// the link, so a frame waits up to ``FramePacer/answerTimeout`` (or twice the last
        /// round trip, when that is longer).
        case answering
        /// The terminal never answered ``FramePacer/givesUpAfter`` queries in a row: no more
        /// queries, and a frame at every step as without pacing (until a late answer shows
        /// the terminal answers after all).
        case silent
    }

    /// How long a frame waits for the answer to the one before it while the terminal has not
    /// answered anything: a terminal that never answers still gets four frames a second.
    static let probeTimeout = 0.25
    /// How long a frame waits at least once the terminal has answered. A full repaint of a
    /// large window takes seconds over a slow link, and sending more behind it would queue.
    static let answerTimeout = 1.0
    /// Timeouts in a row after which a terminal is taken for one that does not answer: from
    /// ``Mode/probing`` the pacer goes silent, from ``Mode/answering`` it probes again.
    static let givesUpAfter = 8

    private(set) var mode = Mode.probing
    /// When each unanswered query was written, oldest first; answers come back in order.
    private(set) var unanswered: [Double] = []
    /// The latest round trip measured (seconds).
    private(set) var lastRoundTrip: Double?
    /// Frames written on a timeout since the last answer.
    private var timeoutsInARow = 0
    /// ``terminalAnswers()`` was called.
    private var heardOtherAnswer = false

    /// How long a frame waits for the answer to the previous one now.
    var timeout: Double {
        switch mode {
        case .answering: max(Self.answerTimeout, 2 * (lastRoundTrip ?? 0))
        case .probing, .silent: Self.probeTimeout
        }
    }

    /// True when a frame may be written at `now`: no answer is awaited, or the latest query
    /// has waited `timeout`.
    func mayDraw(at now: Double) -> Bool {
        guard mode != .silent, let latest = unanswered.last else { return true }
        return now - latest >= timeout
    }

    /// A frame was written at `now`. Returns true when a query should follow it (and counts
    /// that query as sent).
    mutating func frameWritten(at now: Double) -> Bool {
        if mode == .silent { return false }
        if !unanswered.isEmpty {
            timeoutsInARow += 1
            if timeoutsInARow >= Self.givesUpAfter {
                timeoutsInARow = 0
                mode = mode == .answering ? .probing : .silent
                if mode == .silent { return false }
            }
        }
        unanswered.append(now)
        return true
    }

    /// `count` answers arrived by `now`. Returns the round trip of each (seconds), oldest
    /// query first; an answer to a query sent before the pacer went silent wakes it up.
    mutating func answered(_ count: Int, at now: Double) -> [Double] {
        guard count > 0 else { return [] }
        mode = .answering
        timeoutsInARow = 0
        var trips: [Double] = []
        for _ in 0..<min(count, unanswered.count) {
            trips.append(now - unanswered.removeFirst())
        }
        if let last = trips.last { lastRoundTrip = last }
        return trips
    }

    /// The terminal answered another query (the start-up one): it answers, so the long
    /// timeout applies from the first frame on, which over a slow link is a full repaint.
    /// Only the first call counts: a terminal that later stops answering is not taken for
    /// one that answers again.
    mutating func terminalAnswers() {
        guard !heardOtherAnswer else { return }
        heardOtherAnswer = true
        if mode == .probing { mode = .answering }
    }

    /// Forgets the queries awaited (after a suspension, whose wait took their answers).
    mutating func forgetUnanswered() {
        unanswered.removeAll()
        timeoutsInARow = 0
    }
}
