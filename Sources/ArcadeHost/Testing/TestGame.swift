import ArcadeCore
import ArcadeRender

/// A game a test started, with what the test queued for it and what it printed.
final class TestGame {
    /// The lines a game prints (`print`, `arcade.log`), kept from its first callback on.
    final class Log {
        var lines: [String] = []
    }

    /// Steps the game, with the input the test queued (``SessionDriver/queued``) going to
    /// the next step.
    let driver: SessionDriver
    let store: SaveStore
    let log: Log
    /// Colours its text frames show as empty, besides the background (`g:blank`).
    var blank: [Color] = []

    var session: GameSession { driver.session }

    init(session: GameSession, store: SaveStore, log: Log) {
        driver = SessionDriver(session: session)
        self.store = store
        self.log = log
    }
}
