import ArcadeCore
import ArcadeHost

/// Ball catch at its heaviest while still in play: a run started with space and left to pile
/// up for 35 s (about 35 balls against the shut gate, just short of the overflow that ends this
/// idle run at about 37 s), the drops still coming and the paddle swept to and fro over the
/// pile by held keys.
func ballCatchBenchmarks() -> [BenchResult] {
    guard let entry = repoGame("ballcatch") else {
        return [BenchResult(name: "game.ballcatch_missing", value: 0, unit: "-", note: "no games/ballcatch at \(repoGames)")]
    }
    // one drop a second from the start of the run; timed from 35 s for 0.8 s
    let warmup = 35 * 60 + 2
    let run = gameRun(entry, cols: 80, rows: 24, warmup: warmup, steps: 48, rounds: 3,
                      start: [.key(KeyEvent("space"))]) { i in
        // right held, then left: the paddle sweeps to and fro as a player's would
        switch i - warmup {
        case 0: return [.key(KeyEvent("right", isRepeat: true))]
        case 24: return [.keyUp(KeyEvent("right")), .key(KeyEvent("left", isRepeat: true))]
        default: return []
        }
    }
    return [
        BenchResult(name: "game.ballcatch_fps", value: 1 / run.total, unit: "steps/s",
                    note: "target >= 2000 (80x24, ~35 balls piled)"),
        BenchResult(name: "game.ballcatch_step_us", value: run.step * 1e6, unit: "us", note: "Lua, physics"),
        BenchResult(name: "game.ballcatch_compose_us", value: run.compose * 1e6, unit: "us", note: "scene to frame"),
        BenchResult(name: "game.ballcatch_encode_us", value: run.encode * 1e6, unit: "us", note: "frame to terminal bytes"),
    ]
}
