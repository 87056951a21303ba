import ArcadeCore
import ArcadeHost

/// Fishing played headless at 80 x 24, casting again as soon as the hook swings: the pond's
/// 24 crossings, the swing, casts, bites, catches, coins and the "+N", composed and encoded.
func fishingBenchmarks() -> [BenchResult] {
    guard let entry = repoGame("fishing") else {
        return [BenchResult(name: "game.fishing_missing", value: 0, unit: "-", note: "no games/fishing at \(repoGames)")]
    }
    // the cast key every 10 steps: ignored while a cast is under way, a new cast once it is over
    let run = gameRun(entry, cols: 80, rows: 24, warmup: 120, steps: 1800) { i in
        i % 10 == 0 ? [.key(KeyEvent("space"))] : []
    }
    return [
        BenchResult(name: "game.fishing_fps", value: 1 / run.total, unit: "steps/s",
                    note: "target >= 2000 (80x24, casting continuously)"),
        BenchResult(name: "game.fishing_step_us", value: run.step * 1e6, unit: "us", note: "Lua, timers, animation"),
        BenchResult(name: "game.fishing_compose_us", value: run.compose * 1e6, unit: "us", note: "scene to frame"),
        BenchResult(name: "game.fishing_encode_us", value: run.encode * 1e6, unit: "us", note: "frame to terminal bytes"),
    ]
}
