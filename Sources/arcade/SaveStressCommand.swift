import ArcadeCore
import ArcadeHost
import ArcadeLua
import ArgumentParser

/// `arcade _save-stress --data DIR --seconds S`: writes to the save database as fast as it
/// can, one "step" after another: step n saves a value holding n and submits the score n,
/// grouped in one transaction as a game's step is.
///
/// Hidden: it exists for the test that kills it with SIGKILL at random moments and then
/// checks that the database opens clean with no step half-saved (the best score is the `n`
/// of the newest value), and as a rough measure of write speed.
struct SaveStressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_save-stress",
        abstract: "Write saves in a loop (for crash tests).",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("Keep the save database in DIR.", valueName: "DIR"))
    var data: String

    @Option(help: "How long to write, in seconds.")
    var seconds: Double = 5

    @Option(help: "Seed for the sizes of the values written.")
    var seed: UInt64 = 1

    /// Keys cycled through, so values are overwritten as well as created; with values of
    /// up to ``largestValue`` bytes they stay under the 1 MiB per-game limit.
    static let keyCount = 8
    /// Large values make each commit span dozens of pages, so kills land mid-commit often.
    static let largestValue = 120 << 10

    func run() throws {
        let store = SaveStore(dataDirectory: data)
        GameDirs.report(store)
        let opened = store.notices.count
        guard store.isPersistent else { throw ExitCode(3) }
        // the crash test waits for this line before choosing when to kill
        Output.out("ready\n")

        var random = SeededRandom(seed: seed)
        // steps go on from the last run's, so that across kills the best score stays the newest step
        var steps: Int64 = ((try? store.bestScore(game: "stress")) ?? nil) ?? 0
        let first = steps
        let start = monotonicSeconds()
        while monotonicSeconds() - start < seconds {
            steps += 1
            let pad = String(repeating: "x", count: Int(random.nextInt(in: 0, Int64(Self.largestValue))))
            let value: LuaValue = .table(["n": .int(steps), "pad": .string(pad), "list": .array([.int(steps), .number(0.5)])])
            store.beginGroup()
            do {
                try store.setValue(value, game: "stress", key: "k\(steps % Int64(Self.keyCount))")
                _ = try store.submitScore(steps, game: "stress")
            } catch {
                Output.err("arcade: \(error.message)\n")
                throw ExitCode(1)
            }
            store.endGroup()
        }
        let elapsed = monotonicSeconds() - start
        Output.out("\(steps - first) steps in \(elapsed) s: \(Int(Double(steps - first) / elapsed)) transactions/s\n")
        store.close()
        // the file failing (a full disk, deleted) leaves the saves in memory: say so
        GameDirs.report(store, from: opened)
        if !store.isPersistent { throw ExitCode(3) }
    }
}
