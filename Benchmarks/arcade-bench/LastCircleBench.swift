import ArcadeCore
import ArcadeHost
import ArcadeLua

/// Last Circle at 80 x 24: the start screen (seven background loops and the pulsing button)
/// and round 5 (seven circles springing in while the countdown bar runs).
func lastCircleBenchmarks() -> [BenchResult] {
    guard let entry = repoGame("lastcircle"), let route = lastCircleRoute(entry, toRound: 5) else {
        return [BenchResult(name: "game.lastcircle_missing", value: 0, unit: "-", note: "no playable games/lastcircle at \(repoGames)")]
    }
    let start = gameRun(entry, cols: 80, rows: 24, warmup: 60, steps: 600)
    // the route's clicks carry each run to round 5; timing starts as round 5 begins and covers
    // its pops and 4.7 s of the bar
    let round5 = gameRun(entry, cols: 80, rows: 24, warmup: route.roundStart, steps: 300,
                         start: [.key(KeyEvent("enter"))], input: { route.clicks[$0] ?? [] })
    return [
        BenchResult(name: "game.lastcircle_start_fps", value: 1 / start.total, unit: "steps/s",
                    note: "target >= 2000 (80x24, start screen)"),
        BenchResult(name: "game.lastcircle_round5_fps", value: 1 / round5.total, unit: "steps/s",
                    note: "target >= 2000 (80x24, round 5, 7 circles)"),
    ]
}

/// Plays seed 1 at 80 x 24 as ``gameRun(_:cols:rows:warmup:steps:rounds:start:input:)`` will
/// (Enter first, then step `i` gets `clicks[i]`), clicking each round's last circle, and
/// returns those clicks and the step at which round `toRound` begins.
private func lastCircleRoute(_ entry: GameEntry, toRound: Int) -> (clicks: [Int: [InputEvent]], roundStart: Int)? {
    guard let session = try? GameSession(entry: entry, options: .init(seed: 1, cols: 80, rows: 24)) else { return nil }
    defer { session.close() }
    func field(_ key: String) -> LuaValue? { (try? session.state())?[key] }
    session.step(events: [.key(KeyEvent("enter"))])
    var clicks: [Int: [InputEvent]] = [:]
    var i = 0
    // the first two circles are shown to remember before round 1 begins
    while case .string("memorise")? = field("stage") {
        session.step()
        i += 1
        if i > 10_000 { return nil }
    }
    while field("round")?.intValue ?? 0 < Int64(toRound) {
        for _ in 0..<40 { session.step(); i += 1 }
        guard case .array(let circles)? = field("circles"), let last = circles.last,
              let x = last["x"]?.doubleValue, let y = last["y"]?.doubleValue else { return nil }
        let (col, row) = (Int(x.rounded(.down)), Int((y / 2).rounded(.down)))
        let click: [InputEvent] = [.mouse(MouseEvent(.press, col: col, row: row)), .mouse(MouseEvent(.release, col: col, row: row))]
        clicks[i] = click
        session.step(events: click)
        i += 1
        guard case .string("won_round")? = field("stage") else { return nil }
        while case .string("won_round")? = field("stage") {
            session.step()
            i += 1
            if i > 10_000 { return nil }
        }
    }
    return (clicks, i)
}
