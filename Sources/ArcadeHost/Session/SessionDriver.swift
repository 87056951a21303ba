import ArcadeCore

/// Drives one ``GameSession`` step by step: each step gets the events queued since the last
/// one (keys the player pressed, what a test sent) and then those of the input script due by
/// then. Every way of running a game goes through one: headless runs, the interactive
/// arcade (and its replays), the determinism check and the games' tests.
///
/// A script's event at frame `n` arrives with the step that takes the game from frame `n`
/// to `n + 1` (frame 0: the first step after `load`).
public final class SessionDriver {
    public let session: GameSession
    /// Events for the next step, delivered before the script's.
    public var queued: [InputEvent] = []
    /// The step the script's recording stopped at (its `end` line), if it says.
    public let end: Int?
    /// The script's events not delivered yet, in order.
    private var script: ArraySlice<InputScript.Entry>
    private var events: [InputEvent] = []

    public init(session: GameSession, script: InputScript = InputScript()) {
        self.session = session
        self.script = script.entries[...]
        end = script.end
    }

    /// True once the game has stopped taking steps: it failed, or it asked to quit.
    public var isStopped: Bool {
        session.failure != nil || session.context.quitRequested
    }

    /// True once as many steps have run as the recording being replayed did.
    public var reachedEnd: Bool {
        end.map { session.stepsRun >= $0 } ?? false
    }

    /// Runs one step with the queued events, then the script's due by now.
    public func step() {
        events.removeAll(keepingCapacity: true)
        swap(&events, &queued)
        while let e = script.first, e.frame <= session.frame {
            events.append(e.event)
            script.removeFirst()
        }
        session.step(events: events)
    }

    /// Runs up to `count` steps, fewer when the game stops (``isStopped``); `afterEach` runs
    /// after each step, the one it stopped in included.
    public func run(steps count: Int, afterEach: () -> Void = {}) {
        for _ in 0..<max(count, 0) {
            step()
            afterEach()
            if isStopped { break }
        }
    }
}
