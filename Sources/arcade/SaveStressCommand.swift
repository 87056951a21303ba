import ArcadeCore
import ArcadeHost
import ArcadeLua
import ArgumentParser

/// `arcade _save-stress --data DIR --seconds S`: writes to the save database as fast as it
/// can, alternating a value and a score, each in its own transaction.
///
/// Hidden: it exists for the test that kills it with SIGKILL at random moments and then
/// checks that the database opens clean, and as a rough measure of write speed.
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
        for warning in store.warnings { Output.err("arcade: \(warning)\n") }
        guard store.isPersistent else { throw ExitCode(3) }
        // the crash test waits for this line before choosing when to kill
        Output.out("ready\n")

        var random = SeededRandom(seed: seed)
        let start = monotonicSeconds()
        var writes: Int64 = 0
        while monotonicSeconds() - start < seconds {
            writes += 1
            do {
                if writes % 2 == 1 {
                    let pad = String(repeating: "x", count: Int(random.nextInt(in: 0, Int64(Self.largestValue))))
                    let value: LuaValue = .table(["n": .int(writes), "pad": .string(pad), "list": .array([.int(writes), .number(0.5)])])
                    try store.setValue(value, game: "stress", key: "k\(writes / 2 % Int64(Self.keyCount))")
                } else {
                    _ = try store.submitScore(writes, game: "stress")
                }
            } catch {
                Output.err("arcade: \(error.message)\n")
                throw ExitCode(1)
            }
        }
        let elapsed = monotonicSeconds() - start
        Output.out("\(writes) writes in \(elapsed) s: \(Int(Double(writes) / elapsed)) transactions/s\n")
        store.close()
    }
}
