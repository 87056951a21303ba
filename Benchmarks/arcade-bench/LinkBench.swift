#if canImport(Glibc)
import Glibc
#endif
import ArcadeTestSupport

/// The `arcade` executable beside this one (the release build), or nil.
func siblingArcade() -> String? {
    var exe = [UInt8](repeating: 0, count: 4096)
    let n = exe.withUnsafeMutableBufferPointer { b in
        b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { readlink("/proc/self/exe", $0, b.count - 1) }
    }
    guard n > 0 else { return nil }
    let dir = String(decoding: exe[..<n], as: UTF8.self).split(separator: "/").dropLast().joined(separator: "/")
    let arcade = "/" + dir + "/arcade"
    return access(arcade, X_OK) == 0 ? arcade : nil
}

/// Fishing at 160x50 played over a slow link (``SlowLink``, the harness of the host tests:
/// the release arcade on a pseudo-terminal whose output is read at once and drained to a
/// terminal model at a set rate): how long Esc takes to put the pause card on the screen at
/// 100 KB/s and at 2 MB/s, and the most that ever waited in the link at 100 KB/s.
func linkBenchmarks() -> [BenchResult] {
    guard let arcade = siblingArcade() else {
        return [BenchResult(name: "link.pause_latency_ms_100kBps", value: -1, unit: "ms", note: "needs the release arcade")]
    }
    struct Run {
        var latencies: [Double]
        var stats: SlowLink.Stats
        var framesPerSecond: Double
    }
    func play(bytesPerSecond: Int) -> Run? {
        let data = "/tmp/arcade-bench-link-\(getpid())"
        guard let link = try? SlowLink(arguments: [arcade, "play", "fishing", "--games", repoGames, "--seed", "1",
                                                   "--data", data]) else { return nil }
        defer {
            link.stop()
            for suffix in ["", "-wal", "-shm", "-journal"] { _ = unlink(data + "/arcade.sqlite" + suffix) }
            _ = rmdir(data)
        }
        guard link.waitForGame() else { return nil }
        link.bytesPerSecond = bytesPerSecond
        link.run(for: 2)
        link.resetPeaks()
        let before = link.stats
        let start = SlowLink.now()
        let latencies = link.pauseLatencies(tries: 7)
        var stats = link.stats
        let seconds = SlowLink.now() - start
        let frames = stats.framesWritten - before.framesWritten
        stats.bytesWritten -= before.bytesWritten
        stats.framesWritten = frames
        return Run(latencies: latencies, stats: stats, framesPerSecond: Double(frames) / seconds)
    }
    func milliseconds(_ values: [Double]) -> String {
        values.map { $0.isFinite ? String(Int(($0 * 1000).rounded())) : "never" }.joined(separator: " ")
    }
    var rows: [BenchResult] = []
    let slow = play(bytesPerSecond: 100_000)
    let fast = play(bytesPerSecond: 2_000_000)
    for (name, run, target) in [("100kBps", slow, 500), ("2MBps", fast, 200)] {
        guard let run else {
            rows.append(BenchResult(name: "link.pause_latency_ms_\(name)", value: -1, unit: "ms", note: "the game never showed"))
            continue
        }
        rows.append(BenchResult(name: "link.pause_latency_ms_\(name)", value: SlowLink.median(run.latencies) * 1000, unit: "ms",
                                note: "fishing 160x50, Esc -> card on screen, median of 7 (\(milliseconds(run.latencies))); "
                                    + "\(Int(run.framesPerSecond.rounded())) frames/s sent; target <= \(target)"))
    }
    if let slow {
        let frame = slow.stats.framesWritten > 0 ? Double(slow.stats.bytesWritten) / Double(slow.stats.framesWritten) : 0
        rows.append(BenchResult(name: "link.backlog_kb_100kBps", value: Double(slow.stats.peakBacklogBytes) / 1000, unit: "KB",
                                note: "most bytes waiting in the link at once (\(slow.stats.peakFramesInLink) frame(s) in it at most; "
                                    + "a frame \(format3(frame / 1000)) KB on average); target < 2 frames"))
    }
    return rows
}
