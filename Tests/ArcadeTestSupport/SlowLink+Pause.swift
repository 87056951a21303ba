/// What the slow-link tests and `arcade-bench` measure on a game played over a ``SlowLink``.
extension SlowLink {
    /// Waits for a game's first frame (its pause mark, top right) to be on the screen; true
    /// when it came within `timeout` seconds.
    public func waitForGame(timeout: Double = 20) -> Bool {
        waitForScreen(timeout: timeout) { $0.shows("▌▌") } != nil
    }

    /// Esc, then the seconds until the pause card is on the screen, `tries` times, with
    /// `play` seconds of play before each (Esc again resumes). A card that never shows within
    /// 20 seconds counts as infinity and ends the tries.
    public func pauseLatencies(tries: Int, play: Double = 0.6) -> [Double] {
        var latencies: [Double] = []
        for _ in 0..<tries {
            run(for: play)
            let pressed = Self.now()
            type("\u{1B}")
            guard let shown = waitForScreen(timeout: 20, { $0.shows("PAUSED") }) else {
                latencies.append(.infinity)
                break
            }
            latencies.append(shown - pressed)
            type("\u{1B}")
            _ = waitForScreen(timeout: 20) { !$0.shows("PAUSED") }
        }
        return latencies
    }

    /// The middle value (the upper one of an even count); infinity for none.
    public static func median(_ values: [Double]) -> Double {
        values.isEmpty ? .infinity : values.sorted()[values.count / 2]
    }
}
