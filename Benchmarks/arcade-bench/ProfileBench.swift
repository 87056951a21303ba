import ArcadeCore
import ArcadeHost
import ArcadeRender

/// What the profiler's counters cost: the same runs with `GameSession.profile` off and on,
/// in alternating rounds so that the machine's noise falls on both alike. The interactive
/// arcade keeps them on for every game (F3 then has numbers at once); headless runs only
/// with `--profile`.
func profileBenchmarks() -> [BenchResult] {
    var rows: [BenchResult] = []
    if let entry = scratchGame(id: "empty", main: "local g = {} function g.update(dt) end return g"),
       let off = try? GameSession(entry: entry), let on = try? GameSession(entry: entry) {
        on.profile = ProfileCounters()
        let n = 100_000
        var offSamples: [Double] = [], onSamples: [Double] = []
        for _ in 0..<7 {
            offSamples.append(medianSecondsPerOp(iterations: n, rounds: 1) { for _ in 0..<n { off.step() } })
            onSamples.append(medianSecondsPerOp(iterations: n, rounds: 1) { for _ in 0..<n { on.step() } })
        }
        let (a, b) = (median(offSamples), median(onSamples))
        rows.append(BenchResult(name: "profile.empty_step_off_us", value: a * 1e6, unit: "us"))
        rows.append(BenchResult(name: "profile.empty_step_on_us", value: b * 1e6, unit: "us",
                                note: "+\(Int(((b - a) * 1e9).rounded())) ns a step (clock reads)"))
    }
    if let entry = repoGame("coinbank") {
        var offSamples: [Double] = [], onSamples: [Double] = []
        for _ in 0..<5 {
            offSamples.append(coinBankFrame(entry, profile: nil))
            onSamples.append(coinBankFrame(entry, profile: ProfileCounters()))
        }
        let (a, b) = (median(offSamples), median(onSamples))
        rows.append(BenchResult(name: "profile.coinbank_frame_off_us", value: a * 1e6, unit: "us", note: "300 coins, 80x24"))
        rows.append(BenchResult(name: "profile.coinbank_frame_on_us", value: b * 1e6, unit: "us",
                                note: "ratio on/off \(format3(b / a)) (same run)"))
    }
    return rows
}

/// Seconds per step + compose + encode of the coin bank's burst, with the given counters.
private func coinBankFrame(_ entry: GameEntry, profile: ProfileCounters?) -> Double {
    guard let session = try? GameSession(entry: entry, options: .init(seed: 1)) else { return .infinity }
    session.profile = profile
    let encoder = FrameEncoder()
    var frame = session.canvas.makeFrame()
    var bytes: [UInt8] = []
    session.step(events: [.key(KeyEvent("enter"))])
    for _ in 0..<30 { session.step() }
    let steps = 180
    let t0 = now()
    for _ in 0..<steps {
        session.step()
        session.render(into: &frame)
        bytes.removeAll(keepingCapacity: true)
        let e0 = profile != nil ? ProfileClock.now() : 0
        encoder.encode(frame, into: &bytes)
        profile?.add(.encode, since: e0)
    }
    return (now() - t0) / Double(steps)
}

