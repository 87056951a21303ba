#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import ArcadeHost
import ArcadePicture
import ArcadeRender

/// Pictures of frames: a PNG of an 80x24 fishing frame, and an animated GIF of a one-minute
/// replay of fishing at 80x24 (the run, the pictures and the file, as `--gif` makes it).
func pictureBenchmarks() -> [BenchResult] {
    guard let entry = repoGame("fishing") else {
        return [BenchResult(name: "picture.fishing_missing", value: 0, unit: "-", note: "no games/fishing at \(repoGames)")]
    }
    // a cast every 90 steps for a minute of game time
    var script = InputScript(header: .init(game: "fishing", seed: 1, cols: 80, rows: 24), end: 3600)
    for step in stride(from: 0, to: 3600, by: 90) {
        script.entries.append(.init(frame: step, event: .key(KeyEvent("space"))))
        script.entries.append(.init(frame: step + 5, event: .keyUp(KeyEvent("space"))))
    }
    var results: [BenchResult] = []

    // one frame of the pond mid-cast, the Unifont file read before timing
    let runner = HeadlessRunner(entry: entry, options: .init(seed: 1, cols: 80, rows: 24), frames: 600, script: script)
    if let session = try? runner.run() {
        let frame = session.renderFrame()
        blackHole(GlyphFont.shared.count)
        var bytes = 0
        var samples: [Double] = []
        for _ in 0..<9 {
            let t0 = threadCPUTime()
            for _ in 0..<10 { bytes = Picture(frame: frame).png().count }
            samples.append((threadCPUTime() - t0) / 10)
        }
        samples.sort()
        results.append(BenchResult(name: "picture.png_80x24_ms", value: samples[samples.count / 2] * 1000, unit: "ms",
                                   note: "80x24 fishing frame to PNG bytes (640x384, \(bytes) bytes)"))
        _ = session.close()
    }

    let path = "/tmp/arcade-bench-picture-\(getpid()).gif"
    defer { unlink(path) }
    var play = HeadlessPlay(entry: entry)
    play.replay = script
    play.gif = GIFRequest(path: path)
    var said = ""
    let t0 = now()
    let status = play.run(log: { _ in }, to: .init(out: { _ in }, outRaw: { _ in }, err: { said += $0 }))
    let seconds = now() - t0
    var st = stat()
    let size = stat(path, &st) == 0 ? Int(st.st_size) : 0
    if status != 0 {
        results.append(BenchResult(name: "picture.gif_failed", value: Double(status), unit: "-", note: said))
    } else {
        results.append(BenchResult(name: "picture.gif_60s_replay_s", value: seconds, unit: "s",
                                   note: "target well under 60 (fishing, 80x24, 30 fps: 1800 pictures)"))
        results.append(BenchResult(name: "picture.gif_60s_replay_bytes", value: Double(size), unit: "bytes",
                                   note: "target a few MB"))
    }
    return results
}
