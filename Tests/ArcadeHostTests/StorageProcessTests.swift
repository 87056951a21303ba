import Foundation
import Testing
import ArcadeCore
@testable import ArcadeHost

/// The save file made unusable under a running arcade, from outside the process: a `-shm`
/// truncated (SIGBUS inside SQLite when it was mapped), a file size limit reached (SIGXFSZ,
/// then a full disk), and SIGKILL in the middle of a game's step.
@Suite(.serialized) struct StorageProcessTests {
    /// Starts `arguments` on the built arcade (through `sh -c` when `shell` is given, which
    /// then runs before it), with stdout and stderr on pipes.
    static func start(_ arguments: [String], shell: String? = nil) throws -> (Process, Pipe, Pipe) {
        let executable = try arcadeExecutable()
        let p = Process()
        if let shell {
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", shell + "; exec \"$0\" \"$@\"", executable] + arguments
        } else {
            p.executableURL = URL(fileURLWithPath: executable)
            p.arguments = arguments
        }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return (p, out, err)
    }

    static func text(_ pipe: Pipe) -> String {
        String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Waits (up to `seconds`) until `path` exists and is not empty.
    static func waitForData(at path: String, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            if size > 0 { return true }
            usleep(5_000)
        }
        return false
    }

    /// Truncating a mapped `-shm` made the next access raise SIGBUS inside SQLite. The file
    /// keeps a rollback journal, so no `-shm` is ever mapped, and one made unusable changes
    /// nothing; the writer ends on its own and the file holds whole steps.
    @Test(.enabled(if: StressWriter.available, "arcade _save-stress is not available"))
    func truncatingTheShmUnderAWriterCannotCrashIt() throws {
        for round in 0..<3 {
            let dir = ScratchFolder()
            let (writer, out, err) = try Self.start(["_save-stress", "--data", dir.path, "--seconds", "1", "--seed", "\(round)"])
            #expect(!out.fileHandleForReading.availableData.isEmpty)  // "ready"
            #expect(Self.waitForData(at: dir.database))
            usleep(UInt32(50_000 * (round + 1)))
            let shm = dir.database + "-shm"
            truncate(shm, 0)
            unlink(shm)
            mkdir(shm, 0)  // and nothing usable in its place
            writer.waitUntilExit()
            #expect(writer.terminationReason == .exit, "round \(round): ended by signal \(writer.terminationStatus)")
            #expect(writer.terminationStatus == 0, "round \(round): \(Self.text(err))")
            let store = SaveStore(location: .file(dir.database))
            #expect(store.warnings.isEmpty)
            #expect(try store.integrityCheck() == ["ok"])
            #expect((try store.bestScore(game: "stress") ?? 0) > 0)
        }
    }

    /// A write past `ulimit -f` ended the arcade with SIGXFSZ; now it fails as a full disk
    /// does: the game plays to the end with its saves in memory, and stderr says so.
    @Test func aFileSizeLimitReachedMidGameLeavesTheGamePlaying() throws {
        let g = try SaveTroubleTests.saverGame(bytes: 3000)
        let dir = ScratchFolder()
        // dash counts ulimit -f in 512-byte blocks: 256 KiB, passed after a few dozen steps
        let (p, out, err) = try Self.start(["play", "scratch", "--games", g.root, "--headless", "--data", dir.path,
                                            "--frames", "200", "--state"], shell: "ulimit -f 512")
        let state = Self.text(out), messages = Self.text(err)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit, "ended by signal \(p.terminationStatus)")
        #expect(p.terminationStatus == 0, "\(messages)")
        #expect(state.contains("\"steps\": 200"), "\(state)")
        #expect(state.contains("\"misread\": 0"), "\(state)")
        #expect(messages.hasPrefix("arcade: The save file \(dir.database) stopped working: "), "\(messages)")
        #expect(messages.contains("Saves are kept in memory from now on; this session's saves will be lost when the arcade quits."))
        #expect(messages.split(separator: "\n").count == 1)
        let store = SaveStore(location: .file(dir.database))
        #expect(store.warnings.isEmpty)
        #expect(try store.integrityCheck() == ["ok"])
    }

    /// SIGKILL at random instants of a game that saves two values and a score every step:
    /// what is on disk is always whole steps.
    @Test func aGameKilledMidStepNeverLeavesTheStepHalfSaved() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load() game.state.n = arcade.save.get("b") or 0 end
            function game.update()
              local n = game.state.n + 1
              game.state.n = n
              arcade.save.set("a", { n = n, pad = string.rep("p", 40000) })
              arcade.save.set("b", n)
              arcade.score.submit(n)
            end
            return game
            """])
        let dir = ScratchFolder()
        var random = SeededRandom(seed: 28)
        var last: Int64 = 0
        // Twenty kills at random instants; on a machine so busy that none of them came after
        // the first committed step, more rounds with longer waits (up to 8 s), so the test
        // always sees committed steps survive.
        var round = 0
        while round < 20 || (last == 0 && round < 26) {
            defer { round += 1 }
            let (p, _, _) = try Self.start(["play", "scratch", "--games", g.root, "--headless", "--data", dir.path,
                                            "--frames", "100000000"])
            #expect(Self.waitForData(at: dir.database), "round \(round): nothing saved")
            usleep(round < 20 ? UInt32(random.nextInt(in: 5_000, 120_000)) : UInt32(250_000 << (round - 20)))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            #expect(p.terminationReason == .uncaughtSignal, "round \(round): the game ended on its own")
            let store = SaveStore(location: .file(dir.database))
            #expect(store.warnings.isEmpty, "round \(round)")
            let a = try store.value(game: "scratch", key: "a")?["n"]?.intValue
            let b = try store.value(game: "scratch", key: "b")?.intValue
            let best = try store.bestScore(game: "scratch")
            #expect(a == b && b == best, "round \(round): a \(String(describing: a)), b \(String(describing: b)), best \(String(describing: best))")
            #expect((best ?? 0) >= last, "round \(round): a committed step was lost")
            last = best ?? 0
            store.close()
        }
        #expect(last > 0)
    }
}
