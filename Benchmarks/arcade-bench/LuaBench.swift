import ArcadeLua

/// Costs of crossing the Lua boundary.
func luaBenchmarks() -> [BenchResult] {
    var results = luaCallBenchmarks(limits: .init(), suffix: "")
    results += luaCallBenchmarks(limits: .init(secondsPerCall: 0), suffix: "_unbudgeted")
    return results
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
                                   note: "target <= 60"))
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
