import ArcadeHost
import ArcadeLua
import ArcadeCore
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

/// Hot reload: from the file write to the new code running, and the reload alone.
func reloadBenchmarks() -> [BenchResult] {
    func main(_ n: Int) -> String {
        "local g = {} function g.update() g.state.version = \(n) end return g"
    }
    guard let entry = scratchGame(id: "reload", main: main(0)),
          let session = try? GameSession(entry: entry) else {
        return [BenchResult(name: "reload.setup_failed", value: 0, unit: "-")]
    }
    let watcher = FileWatcher(folders: [entry.folder])
    var endToEnd: [Double] = []
    var reloadOnly: [Double] = []
    for round in 1...20 {
        let text = main(round)
        guard let f = fopen(entry.folder + "/main.lua", "w") else { break }
        let t0 = now()
        fputs(text, f)
        fclose(f)
        var seen = false
        while !seen && now() - t0 < 2 {
            if !watcher.changes().isEmpty {
                let r0 = now()
                _ = session.reload()
                reloadOnly.append(now() - r0)
            }
            session.step()
            seen = (try? session.state()["version"]) == .int(Int64(round))
            if !seen { usleep(500) }
        }
        endToEnd.append(now() - t0)
    }
    func median(_ v: [Double]) -> Double { v.isEmpty ? -1 : v.sorted()[v.count / 2] }
    return [
        BenchResult(name: "reload.ms", value: median(endToEnd) * 1000, unit: "ms",
                    note: "file write -> new code running, median of 20; target <= 100"),
        BenchResult(name: "reload.apply_ms", value: median(reloadOnly) * 1000, unit: "ms",
                    note: "the reload itself (compile, swap, reload hook); target <= 5"),
    ]
}

/// Process start to the first menu frame written, under a pseudo-terminal (`script`): timed
/// to the moment the frame's first bytes come out of the terminal, not to the process's exit
/// (leaving waits, bounded, for the terminal's answer to the start-up query, which `script`
/// never gives). The same wait for a command that writes the same bytes at once is taken
/// off: what is left is the arcade's own start.
func startupBenchmarks() -> [BenchResult] {
    guard let arcade = siblingArcade(), access("/usr/bin/script", X_OK) == 0 else {
        return [BenchResult(name: "startup.menu_ms", value: -1, unit: "ms", note: "needs the release arcade and script(1)")]
    }
    // A frame starts with the "begin synchronized update" sequence.
    let marker: [UInt8] = Array("\u{1B}[?2026h".utf8)
    /// Seconds from starting `command` under `script` to the marker in its output, or nil
    /// when it never shows.
    func run(_ command: String) -> Double? {
        let t0 = now()
        guard let pipe = popen("script -qfec \"\(command)\" /dev/null 2>/dev/null < /dev/null", "r") else { return nil }
        var seen: [UInt8] = []
        var found: Double?
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            // `read`, not `fread`: it returns what has come so far instead of waiting for a
            // full buffer.
            let count = read(fileno(pipe), &buffer, buffer.count)
            if count <= 0 { break }
            if found == nil {
                seen += buffer[0..<count]
                if seen.count >= marker.count {
                    for i in 0...(seen.count - marker.count) where Array(seen[i..<(i + marker.count)]) == marker {
                        found = now() - t0
                        break
                    }
                }
            }
        }
        pclose(pipe)
        return found
    }
    var base: [Double] = []
    var menu: [Double] = []
    for _ in 0..<9 {
        guard let b = run("printf '\\\\033[?2026h'"),
              let m = run("\(arcade) --exit-after-first-frame --data /tmp/arcade-bench-data") else {
            return [BenchResult(name: "startup.menu_ms", value: -1, unit: "ms", note: "no frame came out")]
        }
        base.append(b)
        menu.append(m)
    }
    base.sort()
    menu.sort()
    return [BenchResult(name: "startup.menu_ms", value: (menu[4] - base[4]) * 1000, unit: "ms",
                        note: "process start -> first menu frame written (median of 9, pty cost removed); target <= 100")]
}

/// Building scenes from Lua: a tree of 100,000 nodes in chains 250 levels deep (each add
/// checks at most the nesting limit's worth of ancestors; it used to walk every one, which
/// made a 100,000-level chain take minutes), and flat nodes (each charged against the
/// game's memory cap as it is made).
func sceneBuildBenchmarks() -> [BenchResult] {
    let main = """
        local game = {}
        function game.input(e)
          arcade.scene.clear()
          if e.key == "d" then
            local p = nil
            for i = 1, 100000 do
              if i % 250 == 1 then p = nil end
              p = arcade.scene.group{ parent = p }
            end
          else
            for i = 1, 100000 do arcade.scene.rect{ x = i % 80, y = 1 } end
          end
        end
        return game
        """
    guard let entry = scratchGame(id: "scenebuild", main: main),
          let session = try? GameSession(entry: entry, options: .init(limits: .init(secondsPerCall: 60, secondsPerStep: 60))) else {
        return [BenchResult(name: "host.scene_setup_failed", value: 0, unit: "-")]
    }
    func build(_ key: String) -> Double {
        let perNode = medianSecondsPerOp(iterations: 100_000, rounds: 5) {
            session.step(events: [.key(KeyEvent(key))])
        }
        return session.failure == nil && session.stats.nodes == 100_000 ? perNode * 1e6 : -1
    }
    return [
        BenchResult(name: "host.deep_tree_node_us", value: build("d"), unit: "us",
                    note: "100,000 nodes 250 deep, per node (clear included)"),
        BenchResult(name: "host.flat_node_us", value: build("f"), unit: "us", note: "per node (clear included)"),
    ]
}
