import ArcadeCore
import ArcadeHost

/// Gift combo in crowd mode: bursts of gifts routed to two channels, pops, springs, slides
/// and the queue line, with every step composed and encoded.
func giftComboBenchmarks() -> [BenchResult] {
    guard let entry = repoGame("giftcombo") else {
        return [BenchResult(name: "game.giftcombo_missing", value: 0, unit: "-", note: "no games/giftcombo at \(repoGames)")]
    }
    // 20 s of crowd first, so both channels are busy and the queue has filled
    let crowd = gameRun(entry, cols: 80, rows: 24, warmup: 1200, steps: 600, start: [.key(KeyEvent("c"))])
    return [
        BenchResult(name: "game.giftcombo_fps", value: 1 / crowd.total, unit: "steps/s",
                    note: "target >= 2000 (80x24, crowd mode)"),
    ]
}
