import Foundation
import Testing
import ArcadeCore
@testable import ArcadeHost

/// The `arcade` executable beside the test bundle, and whether it has the hidden
/// `_save-stress` subcommand (registered in main.swift).
enum StressWriter {
    static let executable: String? = builtArcade

    /// A zero-second run succeeds only when the subcommand exists (`--help` would not
    /// tell: an unknown name falls through to the default subcommand's help).
    static let available: Bool = {
        guard let executable else { return false }
        let dir = ScratchFolder("probe")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = ["_save-stress", "--data", dir.path, "--seconds", "0"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()
}

/// SIGKILL at random moments while another process writes as fast as it can: every time,
/// the database must open as it is (not moved aside), pass SQLite's integrity check and
/// hold whole steps only (a step's value and score together).
///
/// Kills land mid-commit rarely (a commit is a short burst of writes), so one run proves
/// little alone: with the journal turned off, 300 rounds found damage twice. Every run adds
/// rounds; the writer's large values widen the window.
@Suite(.serialized) struct StorageCrashTests {
    static let rounds = 40

    @Test(.enabled(if: StressWriter.available, "arcade _save-stress is not available (register SaveStressCommand)"))
    func killedWritersLeaveASoundDatabase() throws {
        let executable = try #require(StressWriter.executable)
        let dir = ScratchFolder()
        var random = SeededRandom(seed: 20_240_601)
        var best: Int64 = 0
        for round in 0..<Self.rounds {
            // every fifth round starts a new file and is killed while opening or creating it
            let duringStart = round % 5 == 4
            let data = duringStart ? dir.file("fresh-\(round)") : dir.path
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: executable)
            writer.arguments = ["_save-stress", "--data", data, "--seconds", "60", "--seed", "\(round)"]
            let out = Pipe(), err = Pipe()
            writer.standardOutput = out
            writer.standardError = err
            try writer.run()
            if duringStart {
                usleep(UInt32(random.nextInt(in: 0, 40_000)))
            } else {
                // wait until it writes, then let it run for a random while
                let first = out.fileHandleForReading.availableData
                if first.isEmpty {
                    writer.waitUntilExit()
                    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    Issue.record("round \(round): the writer stopped before writing: \(text)")
                    return
                }
                usleep(UInt32(random.nextInt(in: 1_000, 150_000)))
            }
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            #expect(writer.terminationReason == .uncaughtSignal, "round \(round): the writer ended on its own")

            let path = SaveStore.path(inDataDirectory: data)
            guard FileManager.default.fileExists(atPath: path) else { continue }  // killed before creating it
            let store = SaveStore(location: .file(path))
            #expect(store.warnings == [], "round \(round)")
            #expect(store.location == .file(path), "round \(round)")
            #expect(try store.integrityCheck() == ["ok"], "round \(round)")
            var newest: Int64?
            for key in try store.keys(game: "stress") {
                let value = try store.value(game: "stress", key: key)
                let n = value?["n"]?.intValue
                #expect(n != nil, "round \(round): \(key) = \(String(describing: value))")
                newest = max(newest ?? 0, n ?? 0)
            }
            // a step's value and score are one transaction: the best score is the newest value's n
            let now = try store.bestScore(game: "stress")
            #expect(now == newest, "round \(round): best \(String(describing: now)), newest value \(String(describing: newest))")
            if !duringStart {
                // scores only ever go up, and a commit is never lost to a later kill
                #expect((now ?? 0) >= best, "round \(round)")
                best = now ?? 0
            }
            store.close()
        }
        #expect(!dir.listing().contains { $0.contains("corrupt") })
        #expect(best > 0)
    }
}
