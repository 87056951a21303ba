import ArcadeCore
import ArcadeLua

/// Runs a game without a terminal, as fast as it can: the same steps as interactive play,
/// fed from an input script instead of the keyboard.
public struct HeadlessRunner {
    public var entry: GameEntry
    public var options: GameSession.Options
    /// Steps to run.
    public var frames: Int
    public var script: InputScript
    /// Where `arcade.save` / `arcade.score` go (nil: an in-memory store, forgotten after the run).
    public var store: SaveStore?

    public init(entry: GameEntry, options: GameSession.Options, frames: Int, script: InputScript = InputScript()) {
        self.entry = entry
        self.options = options
        self.frames = frames
        self.script = script
    }

    /// The session after the run, or the error that kept it from starting.
    public func run(log: @escaping (String) -> Void = { _ in }) throws(LuaError) -> GameSession {
        let session = try GameSession(entry: entry, options: options, store: store, log: log)
        var pending = script.entries[...]
        for frame in 0..<frames {
            var events: [InputEvent] = []
            while let e = pending.first, e.frame <= frame {
                events.append(e.event)
                pending = pending.dropFirst()
            }
            session.step(events: events)
            if session.failure != nil || session.context.quitRequested { break }
        }
        return session
    }
}
