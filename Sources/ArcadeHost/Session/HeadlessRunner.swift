import ArcadeCore
import ArcadeLua
import ArcadeRender
import ArcadeTerminal

/// Runs a game without a terminal, as fast as it can: the same steps as interactive play,
/// fed from an input script instead of the keyboard.
///
/// With ``profile`` or ``cast`` set, each step is also drawn and encoded as the terminal
/// would get it at 60 frames a second (one frame per step), so compose and encode can be
/// measured and the bytes recorded.
public struct HeadlessRunner {
    public var entry: GameEntry
    public var options: GameSession.Options
    /// Steps to run.
    public var frames: Int
    public var script: InputScript
    /// Where `arcade.save` / `arcade.score` go (nil: an in-memory store, forgotten after the run).
    public var store: SaveStore?
    /// Counts each phase's time, the steps, frames and bytes (`--profile`); nil: no clock reads.
    public var profile: ProfileCounters?
    /// Receives the bytes a terminal would have been sent (`--cast`): the set-up sequence at
    /// 0 s, the frame after step n at n / step rate seconds, a resize where one happened and
    /// the restore sequence at the end.
    public var cast: AsciicastWriter?
    /// The encoder's colours when frames are encoded.
    public var colorMode: ColorMode = .trueColor
    /// Stop stepping once the running thread's CPU clock (``ThreadCPUClock``, nanoseconds)
    /// reaches this: a check's overall limit. Nil: run every step.
    public var cpuDeadline: UInt64?
    /// Called after each step, with the session (a GIF takes its pictures here).
    var afterStep: ((GameSession) -> Void)?
    /// Where the game's sound goes, step by step (`--wav`).
    public var soundSinks: [SoundSink] = []

    public init(entry: GameEntry, options: GameSession.Options, frames: Int, script: InputScript = InputScript()) {
        self.entry = entry
        self.options = options
        self.frames = frames
        self.script = script
    }

    /// The session after the run, or the error that kept it from starting.
    public func run(log: @escaping (String) -> Void = { _ in }) throws(LuaError) -> GameSession {
        let session = try GameSession(entry: entry, options: options, store: store, log: log)
        session.profile = profile
        session.soundSinks = soundSinks
        let driver = SessionDriver(session: session, script: script)
        let output = profile != nil || cast != nil ? FrameOutput(colorMode: colorMode) : nil
        var frame = Frame(columns: 0, rows: 0)
        cast?.output(Terminal.enterSequence, atMicroseconds: 0)
        let runStart = profile != nil ? ProfileClock.now() : 0
        defer { if let profile { profile.wallNanos &+= ProfileClock.now() &- runStart } }
        var stepStart: UInt64 = 0
        for _ in 0..<max(frames, 0) {
            if profile != nil { stepStart = ProfileClock.now() }
            driver.step()
            afterStep?(session)
            if let output {
                // drawn as the interactive loop draws after each batch of steps
                let at = microseconds(after: session.stepsRun)
                let before = (frame.columns, frame.rows)
                session.render(into: &frame)
                if frame.columns != before.0 || frame.rows != before.1, before.0 > 0 {
                    cast?.resize(cols: frame.columns, rows: frame.rows, atMicroseconds: at)
                }
                let bytes = output.encode(frame, profile: profile)  // not in cast?.output(...): always encoded
                cast?.output(bytes, atMicroseconds: at)
            }
            if let profile { profile.busyNanos &+= ProfileClock.now() &- stepStart }
            if driver.isStopped { break }
            if let cpuDeadline, ThreadCPUClock.now() >= cpuDeadline { break }
        }
        // headless never pushed kitty keyboard flags, so its restore does not pop them
        cast?.output(Terminal.restoreSequenceWithoutKittyPop, atMicroseconds: microseconds(after: session.stepsRun))
        return session
    }

    /// When the frame after `steps` steps is shown, on the game's clock.
    private func microseconds(after steps: Int) -> UInt64 {
        UInt64(steps) * 1_000_000 / UInt64(max(options.stepRate, 1))
    }
}
