import ArcadeHost
import ArcadeLua
import CLua
import CLuaLib

/// Costs of crossing the Lua boundary, and of running Lua in a game's VM at all.
func luaBenchmarks() -> [BenchResult] {
    var results = hookOverheadBenchmarks() + libraryBenchmarks()
    results += luaCallBenchmarks(limits: .init(), suffix: "")
    results += luaCallBenchmarks(limits: .init(secondsPerCall: 0), suffix: "_unbudgeted")
    return results
}

/// A Lua-heavy `update(dt)`: tables, arithmetic, calls, string operations (plain and
/// pattern ones, which in a game VM are the arcade's own).
let luaWorkGame = """
    local game = {}
    local function weight(v, i) return v.x * 0.5 + v.y % 7 + (i & 3) end
    local words = { "alpha", "beta", "gamma", "delta", "key=value", "x1 y2 z3" }
    function game.update(dt)
      local acc, list = 0, {}
      for i = 1, 60000 do
        local v = { x = i, y = i * 2 }
        list[#list + 1] = v
        if #list > 64 then list = {} end
        acc = acc + weight(v, i) + math.floor(i / 3)
        local w = words[i % #words + 1]
        local s = w .. (i % 100)
        acc = acc + #s + (s:find("a", 1, true) or 0) + #s:sub(2, 4)
        if i % 4 == 0 then
          local k, val = s:match("(%w+)=(%w+)")
          acc = acc + (k and #k or 0) + select(2, s:gsub("%d", ""))
        end
        if i % 16 == 0 then acc = acc + #string.format("%d:%s", i, w) + #table.concat({ w, s }, ",") end
      end
      game.result = acc
    end
    return game
    """

/// The same Lua loop as a game's update(dt), stepped by a real game session (sandbox, capped
/// allocator, the arcade's library functions, the time budget's watchdog), and in a plain
/// `lua_State` (luaL_newstate + luaL_openlibs, no hook), in the same run.
func hookOverheadBenchmarks() -> [BenchResult] {
    guard let entry = scratchGame(id: "luawork", main: luaWorkGame),
          let session = try? GameSession(entry: entry) else {
        return [BenchResult(name: "lua.hook_overhead_setup_failed", value: 0, unit: "-")]
    }
    defer { session.close() }
    session.step()  // load()
    guard session.failure == nil else {
        return [BenchResult(name: "lua.hook_overhead_failed", value: 0, unit: "-", note: "\(session.failure!)")]
    }

    let L = luaL_newstate()!
    defer { lua_close(L) }
    luaL_openlibs(L)
    var ok = luaL_loadstring(L, luaWorkGame) == LUA_OK && arcade_pcall(L, 0, 1, 0) == LUA_OK
    let gameIndex = lua_gettop(L)
    func plainStep() {
        lua_getfield(L, gameIndex, "update")
        lua_pushnumber(L, 1.0 / 60)
        if arcade_pcall(L, 1, 0, 0) != LUA_OK {
            ok = false
            lua_settop(L, gameIndex)
        }
    }
    plainStep()
    guard ok else { return [BenchResult(name: "lua.hook_overhead_plain_failed", value: 0, unit: "-")] }

    // interleaved, so both see the same machine load
    var game: [Double] = [], plain: [Double] = []
    for _ in 0..<9 {
        var t0 = now()
        session.step()
        game.append(now() - t0)
        t0 = now()
        plainStep()
        plain.append(now() - t0)
    }
    guard session.failure == nil, ok else {
        return [BenchResult(name: "lua.hook_overhead_failed", value: 0, unit: "-")]
    }
    game.sort()
    plain.sort()
    let (g, p) = (game[game.count / 2], plain[plain.count / 2])
    return [
        BenchResult(name: "lua.hook_overhead", value: g / p, unit: "x",
                    note: "target <= 1.10 (game update \(format3(g * 1e3)) ms, plain lua_State \(format3(p * 1e3)) ms)"),
    ]
}

func luaCallBenchmarks(limits: LuaVM.Limits, suffix: String) -> [BenchResult] {
    var results: [BenchResult] = []
    guard let vm = try? LuaVM(name: "bench", limits: limits), (try? vm.installSandbox()) != nil else {
        return [BenchResult(name: "lua.setup_failed", value: 0, unit: "-")]
    }

    // Lua -> Swift: a loop in Lua calling a trivial native function. The empty loop's own
    // cost is measured separately and subtracted.
    vm.setGlobal("trivial") { _ in 0 }
    let n = 2_000_000
    do {
        let callLoop = try vm.load("local f = trivial for i = 1, \(n) do f() end", chunkName: "=bench")
        let emptyLoop = try vm.load("local f = trivial for i = 1, \(n) do end", chunkName: "=bench")
        let withCalls = medianSecondsPerOp(iterations: n) { _ = try? vm.call(callLoop, label: "bench") }
        let loopOnly = medianSecondsPerOp(iterations: n) { _ = try? vm.call(emptyLoop, label: "bench") }
        results.append(BenchResult(name: "lua.call_swift\(suffix)_ns", value: (withCalls - loopOnly) * 1e9, unit: "ns",
                                   note: "target <= 40"))
    } catch {
        results.append(BenchResult(name: "lua.call_swift\(suffix)_ns", value: -1, unit: "ns", note: "\(error)"))
    }

    // Swift -> Lua: a protected call (with traceback handler and budget reset) of a trivial function.
    do {
        let fn = try vm.load("return function() end", chunkName: "=bench")
        _ = try vm.call(fn, label: "bench")
        let trivial = try vm.protectedCall(label: "bench", nresults: 1, push: { _ in vm.push(fn); return 0 },
                                           results: { _ in vm.ref() })
        let m = 500_000
        let perCall = medianSecondsPerOp(iterations: m) {
            for _ in 0..<m {
                try? vm.protectedCall(label: "update()") { _ in
                    vm.push(trivial)
                    return 0
                }
            }
        }
        results.append(BenchResult(name: "lua.callback\(suffix)_ns", value: perCall * 1e9, unit: "ns", note: "target <= 300"))
    } catch {
        results.append(BenchResult(name: "lua.callback\(suffix)_ns", value: -1, unit: "ns", note: "\(error)"))
    }
    return results
}

/// The library functions the arcade replaces (patterns, rep, table, utf8), in honest use:
/// the same loop in two plain states, one with Lua's functions and one with the arcade's.
let libraryWork = """
    local acc = 0
    local text = string.rep("the quick brown fox jumps over the lazy dog 123 ", 20)
    for i = 1, 300 do
      for w in text:gmatch("%a+") do acc = acc + #w end
      acc = acc + select(2, text:gsub("o", "0")) + (text:find("lazy", 1, true) or 0)
      acc = acc + #(text:match("(%d+)") or "") + (text:find("j%a+s") or 0)
      local t = {}
      for k = 1, 200 do t[k] = (k * 7919) % 1009 end
      table.sort(t)
      table.insert(t, 1, 0)
      acc = acc + #table.concat(t, ",") + table.remove(t) + select("#", table.unpack(t, 1, 50))
      acc = acc + #string.rep("ab", 100, ",") + utf8.len(text)
    end
    return acc
    """

func libraryBenchmarks() -> [BenchResult] {
    func state(arcade: Bool) -> OpaquePointer {
        let L = luaL_newstate()!
        luaL_openlibs(L)
        if arcade {
            arcade_forget_vm(L)
            arcade_install_library(L)
        }
        return L
    }
    let (stock, ours) = (state(arcade: false), state(arcade: true))
    defer { lua_close(stock); lua_close(ours) }
    func run(_ L: OpaquePointer) -> Double {
        let t0 = now()
        let ok = luaL_loadstring(L, libraryWork) == LUA_OK && arcade_pcall(L, 0, 1, 0) == LUA_OK
        lua_settop(L, 0)
        return ok ? now() - t0 : .nan
    }
    var a: [Double] = [], b: [Double] = []
    for _ in 0..<9 {
        a.append(run(stock))
        b.append(run(ours))
    }
    a.sort()
    b.sort()
    let (s, o) = (a[a.count / 2], b[b.count / 2])
    return [BenchResult(name: "lua.library_vs_stock", value: o / s, unit: "x",
                        note: "arcade's string/table/utf8 functions \(format3(o * 1e3)) ms, Lua's \(format3(s * 1e3)) ms")]
}
