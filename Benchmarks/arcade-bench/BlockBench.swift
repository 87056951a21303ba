import ArcadeHost
import ArcadeLua

/// Worst-case block time of long single calls: how far past its budget a callback runs
/// when a script calls something that works for a long time inside one function (class 7
/// of the hostile-game issue). Each case runs as an update() with a 0.25 s budget (the
/// manifest's; a game's is 1 s, the overrun does not depend on it), timed from the call's
/// start to its error; the row is the worst overrun of five runs, in ms (the median beside it).
func blockBenchmarks() -> [BenchResult] {
    let budget = 0.25
    let million = (0..<10).map { c in
        "T = T or {} for i = \(c * 100_000 + 1), \((c + 1) * 100_000) do T[i] = (i * 7919) % 1000003 end"
    }
    // 32 MB of two-byte characters, doubled a callback at a time
    let doubled = ["S = string.rep('\\u{e9}', 1 << 19)"] + Array(repeating: "S = S .. S", count: 5)
    let cases: [(String, [String], String)] = [
        ("pattern_find", [], "string.find(string.rep('a', 60000), '.-.-.-.-b')"),
        ("pattern_gsub", [], "string.gsub(string.rep('a', 30000), '.-.-.-b', '')"),
        ("pattern_gmatch", [], "for w in string.rep('a', 30000):gmatch('a-a-a-b') do end"),
        ("pattern_balance", [], "string.find(string.rep('(', 300000), '%b()x')"),
        ("pattern_backref", [], "string.find(string.rep('a', 60000), '(a*)%1%1b')"),
        ("pattern_in_pcall", [], "local s = string.rep('a', 60000) while true do pcall(string.find, s, '.-.-.-.-b') end"),
        ("plain_find_32mb", ["S = string.rep('a', 16e6)"], "while true do S:find(string.rep('a', 8e6) .. 'b', 1, true) end"),
        ("rep_24mb", [], "while true do local s = string.rep('ab', 8e6, ',') end"),
        ("table_move_1e15", [], "table.move({}, 1, 1e15, 2)"),
        ("table_insert_len", [], "table.insert(setmetatable({}, { __len = function() return 1e15 end }), 1, 'x')"),
        ("table_sort_1m", million, "while true do table.sort(T) end"),
        ("table_concat_1m", million, "while true do table.concat(T, ',') end"),
        ("table_unpack_900k", million, "while true do table.unpack(T, 1, 900000) end"),
        ("utf8_len_32mb", doubled, "while true do utf8.len(S) end"),
        ("utf8_offset_32mb", doubled, "while true do utf8.offset(S, 16e6) end"),
        ("load_8mb", ["SRC = string.rep('x = x + 1 ', 8e5)"], "while true do load(SRC) end"),
        ("string_format_q_10mb", ["S = string.rep('\\0\\n', 5e6)"], "while true do string.format('%q', S) end"),
        // Lua's own, left as they are: one pass over a string the memory cap bounds
        ("string_upper_20mb", ["S = string.rep('a', 1 << 20)"] + Array(repeating: "S = S .. S", count: 4) + ["S = S:sub(1, 20e6)"],
         "while true do S:upper() end"),
        ("string_byte_slice", ["S = string.rep('a', 9e5)"], "while true do S:byte(1, -1) end"),
        // not library functions: one VM instruction, or the collector, bounded by the memory cap
        ("vm_concat_30mb", ["S = string.rep('x', 15e6)"], "while true do local t = S .. S end"),
        ("gc_full_40mb", ["K = {} for i = 1, 2.5e5 do K[i] = { i, i } end", "for i = 2.5e5 + 1, 5e5 do K[i] = { i, i } end"],
         "while true do collectgarbage() end"),
    ]
    var results: [BenchResult] = []
    var worst = 0.0
    for (name, setup, source) in cases {
        var overruns: [Double] = []
        var note = ""
        for _ in 0..<5 {
            guard let vm = try? LuaVM(name: "block", limits: .init(secondsPerCall: budget)),
                  (try? vm.installSandbox()) != nil else { note = "setup failed"; break }
            do {
                for chunk in setup { _ = try vm.call(try vm.load(chunk, chunkName: "block/setup.lua"), label: "load()") }
                let fn = try vm.load(source, chunkName: "block/main.lua")
                let t0 = now()
                do {
                    _ = try vm.call(fn, label: "update()")
                    note = "returned without an error"
                } catch where error.kind == .budget {
                    overruns.append(now() - t0 - budget)
                } catch {
                    note = "\(error.message)"
                }
            } catch {
                note = "setup: \(error.message)"
            }
        }
        results.append(blockRow(name, overruns, note: note, worst: &worst))
    }
    results.append(BenchResult(name: "block.worst_library_ms", value: worst * 1e3, unit: "ms",
                               note: "the rows above; target <= 50"))
    results += gfxBlockBenchmarks(budget: budget, worst: &worst)
    results.append(BenchResult(name: "block.worst_ms", value: worst * 1e3, unit: "ms", note: "every row; target <= 50"))
    return results
}

/// Drawing through `gfx` in a real session's draw(gfx), which the hook interrupts between
/// calls: the block is the longest single call.
func gfxBlockBenchmarks(budget: Double, worst: inout Double) -> [BenchResult] {
    let cases: [(String, String)] = [
        ("gfx_huge_shapes", """
            gfx.line(-1e15, -1e15, 1e15, 1e15, "white", 3) gfx.fill_circle(0, 0, 1e15, "red")
            gfx.rect(-1e15, -1e15, 2e15, 2e15, "blue", 1e14)
            """),
        ("gfx_text_1mb", "gfx.text(game.text, 0, 0)"),
    ]
    var results: [BenchResult] = []
    for (name, call) in cases {
        let main = """
            local game = {}
            function game.load() game.text = string.rep("abcdefgh", 131072) end  -- 1 MiB, the most text one call takes
            function game.draw(gfx) while true do \(call) end end
            return game
            """
        guard let entry = scratchGame(id: "block\(name.filter(\.isLetter))", main: main) else { continue }
        var overruns: [Double] = []
        var note = ""
        for _ in 0..<5 {
            guard let session = try? GameSession(entry: entry, options: .init(limits: .init(secondsPerCall: budget))) else {
                note = "setup failed"
                break
            }
            session.step()
            let t0 = now()
            _ = session.renderFrame()
            let elapsed = now() - t0
            if let f = session.failure, f.kind == .budget { overruns.append(elapsed - budget) } else {
                note = "\(String(describing: session.failure))"
            }
            session.close()
        }
        results.append(blockRow(name, overruns, note: note, worst: &worst))
    }
    return results
}

/// A row: the worst overrun (ms), with the median in the note.
func blockRow(_ name: String, _ overruns: [Double], note: String, worst: inout Double) -> BenchResult {
    guard note.isEmpty, !overruns.isEmpty else {
        return BenchResult(name: "block.\(name)_ms", value: -1, unit: "ms", note: note)
    }
    let sorted = overruns.sorted()
    worst = max(worst, sorted.last!)
    return BenchResult(name: "block.\(name)_ms", value: sorted.last! * 1e3, unit: "ms",
                       note: "median \(format3(sorted[sorted.count / 2] * 1e3)); target <= 50 past the budget")
}
