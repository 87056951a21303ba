extension ProfileReport {
    /// The `--profile` table: one row per phase, `other` and `total` in milliseconds per
    /// step with their share of the total, then the rates, the bytes and what the game
    /// holds at the end (`stats`, the same counts `--stats` prints).
    ///
    ///     profile: coinbank, 600 steps, 600 frames in 0.412 s
    ///     phase        ms/step   share
    ///     lua            0.052   12.6%
    ///     ...
    ///     total          0.412  100.0%
    ///     steps/s         1456
    ///     frames/s        1456
    ///     bytes/frame     1234  (740400 in all)
    ///     live          nodes 2, animations 0, timers 0, bodies 0, lua heap 123 KiB
    ///
    /// A run in the terminal (`terminal`) adds the round trip a frame's status query took to
    /// be answered (the frames/s row is then the rate the link allowed):
    ///
    ///     round trip    0.412 ms  (longest 3.120 ms, 600 answered)
    public func table(game: String, stats: GameStats, terminal: Bool = false) -> String {
        var out = "profile: \(game), \(steps) steps, \(frames) frames in \(fixed(wallSeconds, places: 3)) s\n"
        out += "phase        ms/step   share\n"
        func row(_ name: String, _ ms: Double) {
            let share = totalMilliseconds > 0 ? ms / totalMilliseconds * 100 : 0
            out += leftAligned(name, 11) + rightAligned(fixed(ms, places: 3), 9)
                + rightAligned(fixed(share, places: 1) + "%", 8) + "\n"
        }
        for phase in ProfilePhase.allCases { row(phase.name, self[phase]) }
        row("other", otherMilliseconds)
        row("total", totalMilliseconds)
        out += leftAligned("steps/s", 11) + rightAligned(fixed(stepsPerSecond, places: 0), 9) + "\n"
        out += leftAligned("frames/s", 11) + rightAligned(fixed(framesPerSecond, places: 0), 9) + "\n"
        out += leftAligned("bytes/frame", 11) + rightAligned(fixed(bytesPerFrame, places: 0), 9)
            + "  (\(bytes) in all)\n"
        if terminal {
            if let average = roundTripMilliseconds, let longest = longestRoundTripMilliseconds {
                out += leftAligned("round trip", 11) + rightAligned(fixed(average, places: 3), 9)
                    + " ms  (longest \(fixed(longest, places: 3)) ms, \(roundTrips) answered)\n"
            } else {
                out += leftAligned("round trip", 11) + rightAligned("-", 9) + "  (the terminal answered no status query)\n"
            }
        }
        out += leftAligned("live", 11) + "  nodes \(stats.nodes), animations \(stats.animations), timers \(stats.timers), "
            + "bodies \(stats.bodies), lua heap \(stats.luaKiB) KiB\n"
        return out
    }
}
