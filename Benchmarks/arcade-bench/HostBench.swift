import ArcadeHost
import ArcadeLua
#if canImport(Glibc)
import Glibc
#endif

/// Writes a throwaway game folder and returns its catalog entry.
func scratchGame(id: String, main: String) -> GameEntry? {
    let root = "/tmp/arcade-bench-\(getpid())"
    let folder = root + "/" + id
    mkdir(root, 0o755)
    mkdir(folder, 0o755)
    let manifest = """
        return { id = "\(id)", title = "\(id)", description = "benchmark game", author = "bench",
                 version = "0", api = 1 }
        """
    for (name, text) in [("manifest.lua", manifest), ("main.lua", main)] {
        guard let f = fopen(folder + "/" + name, "w") else { return nil }
        fputs(text, f)
        fclose(f)
    }
    return GameCatalog(searchDirs: [root]).game(id)
}

/// The host's per-step overhead.
func hostBenchmarks() -> [BenchResult] {
    guard let entry = scratchGame(id: "empty", main: "local g = {} function g.update(dt) end return g"),
          let session = try? GameSession(entry: entry) else {
        return [BenchResult(name: "host.setup_failed", value: 0, unit: "-")]
    }
    let n = 200_000
    let perStep = medianSecondsPerOp(iterations: n) {
        for _ in 0..<n { session.step() }
    }
    return [BenchResult(name: "host.empty_step_us", value: perStep * 1e6, unit: "us", note: "target <= 5")]
}
