import ArcadeCore
import ArcadeRender

/// A game a test started, with what the test queued for it and what it printed.
final class TestGame {
    /// The lines a game prints (`print`, `arcade.log`), kept from its first callback on.
    final class Log {
        var lines: [String] = []
    }

    let session: GameSession
    let store: SaveStore
    let log: Log
    /// Input for the next step.
    var pending: [InputEvent] = []
    /// Colours its text frames show as empty, besides the background (`g:blank`).
    var blank: [Color] = []

    init(session: GameSession, store: SaveStore, log: Log) {
        self.session = session
        self.store = store
        self.log = log
    }
}
