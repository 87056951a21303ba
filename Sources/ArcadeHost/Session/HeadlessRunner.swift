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
        let display = profile != nil || cast != nil ? Display(mode: colorMode) : nil
        cast?.output(Terminal.enterSequence, atMicroseconds: 0)
        var pending = script.entries[...]
        let runStart = profile != nil ? ProfileClock.now() : 0
        defer { if let profile { profile.wallNanos &+= ProfileClock.now() &- runStart } }
        for frame in 0..<frames {
            var events: [InputEvent] = []
            while let e = pending.first, e.frame <= frame {
                events.append(e.event)
                pending = pending.dropFirst()
            }
            let start = profile != nil ? ProfileClock.now() : 0
            session.step(events: events)
            if let display {
                let at = UInt64(session.stepsRun) * 1_000_000 / UInt64(max(options.stepRate, 1))
                display.show(session, cast: cast, atMicroseconds: at, profile: profile)
            }
            if let profile { profile.busyNanos &+= ProfileClock.now() &- start }
            if session.failure != nil || session.context.quitRequested { break }
        }
        if let cast {
            let end = UInt64(session.stepsRun) * 1_000_000 / UInt64(max(options.stepRate, 1))
            // headless never pushed kitty keyboard flags, so its restore does not pop them
            cast.output(Terminal.restoreSequenceWithoutKittyPop, atMicroseconds: end)
        }
        return session
    }

    /// The frame, encoder and byte buffer a headless run draws with, as the interactive
    /// loop draws after each batch of steps.
    final class Display {
        let encoder: FrameEncoder
        var frame = Frame(columns: 0, rows: 0)
        var out: [UInt8] = []

        init(mode: ColorMode) {
            encoder = FrameEncoder(colorMode: mode)
        }

        func show(_ session: GameSession, cast: AsciicastWriter?, atMicroseconds at: UInt64, profile: ProfileCounters?) {
            let before = (frame.columns, frame.rows)
            session.render(into: &frame)
            if frame.columns != before.0 || frame.rows != before.1, before.0 > 0 {
                cast?.resize(cols: frame.columns, rows: frame.rows, atMicroseconds: at)
            }
            out.removeAll(keepingCapacity: true)
            let start = profile != nil ? ProfileClock.now() : 0
            encoder.encode(frame, into: &out)
            if let profile {
                profile.add(.encode, since: start)
                profile.frames += 1
                profile.bytes += out.count
            }
            cast?.output(out, atMicroseconds: at)
        }
    }
}
