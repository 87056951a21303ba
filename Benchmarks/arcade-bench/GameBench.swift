import ArcadeCore
import ArcadeHost
import ArcadeRender

/// The repository's `games/` folder, found from this file's place in `Benchmarks/arcade-bench/`.
let repoGames: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/games"
}()

/// Whole games played headless: what a displayed frame costs, script, native cores,
/// composition and terminal encoding together.
func gameBenchmarks() -> [BenchResult] {
    guard let entry = GameCatalog(searchDirs: [repoGames]).game("coinbank"), entry.isPlayable else {
        return [BenchResult(name: "game.coinbank_missing", value: 0, unit: "-", note: "no games/coinbank at \(repoGames)")]
    }
    // 300 coins: Enter starts a run and the next Enter sends a burst; timed from 0.5 s into
    // the burst to its end, when about 100 fly at once
    let burst = gameRun(entry, cols: 80, rows: 24, warmup: 30, steps: 180, start: [.key(KeyEvent("enter"))]) { i in
        i == 0 ? [.key(KeyEvent("enter"))] : []
    }
    // 10,000 coins: the same burst sends about 34 per launch, so about 3,400 fly at once
    let stress = gameRun(entry, cols: 200, rows: 60, warmup: 60, steps: 150, start: [.key(KeyEvent("k"))])
    return ballCatchBenchmarks() + [
        BenchResult(name: "game.coinbank_fps", value: 1 / burst.total, unit: "steps/s", note: "target >= 2000 (80x24, 300 coins)"),
        BenchResult(name: "game.coinbank_10k_fps", value: 1 / stress.total, unit: "steps/s",
                    note: "target >= 400 (200x60, 10,000 coins)"),
        BenchResult(name: "game.coinbank_10k_step_us", value: stress.step * 1e6, unit: "us", note: "Lua, timers, animation"),
        BenchResult(name: "game.coinbank_10k_compose_us", value: stress.compose * 1e6, unit: "us", note: "scene to frame"),
        BenchResult(name: "game.coinbank_10k_encode_us", value: stress.encode * 1e6, unit: "us", note: "frame to terminal bytes"),
    ] + fishingBenchmarks() + giftComboBenchmarks() + lastCircleBenchmarks()
}

/// A game's repository entry, or nil when it is missing or broken.
func repoGame(_ id: String) -> GameEntry? {
    guard let entry = GameCatalog(searchDirs: [repoGames]).game(id), entry.isPlayable else { return nil }
    return entry
}

/// CPU seconds per step of a game, whole and by part, the median of a few fresh runs: `start`
/// arrives on the first step, `input(i)` on step `i` after it (warm-up included); each step is
/// stepped, composed and encoded, as the interactive loop does for every displayed frame.
func gameRun(_ entry: GameEntry, cols: Int, rows: Int, warmup: Int, steps: Int, rounds: Int = 5,
             start: [InputEvent] = [], input: (Int) -> [InputEvent] = { _ in [] })
    -> (total: Double, step: Double, compose: Double, encode: Double) {
    var samples: [(total: Double, step: Double, compose: Double, encode: Double)] = []
    for _ in 0..<rounds {
        guard let session = try? GameSession(entry: entry, options: .init(seed: 1, cols: cols, rows: rows)) else {
            return (.infinity, 0, 0, 0)
        }
        let encoder = FrameEncoder()
        var frame = session.canvas.makeFrame()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        session.step(events: start)
        var times = (step: 0.0, compose: 0.0, encode: 0.0)
        for i in 0..<(warmup + steps) {
            if i == warmup { times = (0, 0, 0) }
            // CPU time: a game runs on this one thread, and the machine is shared.
            let t0 = threadCPUTime()
            session.step(events: input(i))
            let t1 = threadCPUTime()
            session.render(into: &frame)
            let t2 = threadCPUTime()
            bytes.removeAll(keepingCapacity: true)
            encoder.encode(frame, into: &bytes)
            let t3 = threadCPUTime()
            times.step += t1 - t0
            times.compose += t2 - t1
            times.encode += t3 - t2
        }
        blackHole(bytes.count)
        if session.failure != nil { return (.infinity, 0, 0, 0) }
        session.close()
        let n = Double(steps)
        samples.append(((times.step + times.compose + times.encode) / n, times.step / n, times.compose / n, times.encode / n))
    }
    samples.sort { $0.total < $1.total }
    return samples[samples.count / 2]
}
