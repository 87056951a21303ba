import CLua

/// Which walks over a table's keys (`pairs` loops, and `next` from a table's start) run
/// backwards, in a VM with the iteration probe installed.
///
/// Lua's order over string keys (and table, function or coroutine keys) depends on a hash
/// seed each state draws for itself, and on addresses, so it can change from one run to
/// the next. The probe first makes it fixed: a walk over two or more such keys visits the
/// keys sorted (booleans, then numbers, then strings, each in order; other keys, which have
/// no order, last, in Lua's). The determinism check then runs the game a second time with
/// chosen walks backwards: a game whose outcome depends on that order behaves differently.
/// Walks over numbers and booleans only (an array, say) keep Lua's order, which does not
/// change between runs.
public enum IterationReversal: Sendable, Equatable {
    /// Every walk in the fixed order; the walks are still reported.
    case nowhere
    /// Every walk over two or more string (or reference) keys runs backwards.
    case everywhere
    /// Only the walks started at these places (`chunk:line`, e.g. `mygame/main.lua:12`).
    case only(Set<String>)

    /// True when a walk started at `site` runs backwards.
    public func reverses(_ site: String) -> Bool {
        switch self {
        case .nowhere: false
        case .everywhere: true
        case .only(let sites): sites.contains(site)
        }
    }
}

extension LuaVM {
    /// Replaces the sandbox's `pairs` and `next` with versions that walk a table of two or
    /// more string (or reference) keys in a fixed order (see ``IterationReversal``), report
    /// each such walk to `walked(site, keys)`, where `site` is the `chunk:line` that started
    /// it, and walk it backwards when that returns true. Install it after ``installSandbox()``.
    ///
    /// For the determinism check only: a walk first collects and sorts the table's keys, so it
    /// costs a table, a sort and a native call. Everything else is Lua's own behaviour:
    /// `__pairs` is honoured (and its order kept), fields cleared during a walk are skipped,
    /// and `next(t, k)` with a key the probe did not hand out falls back to Lua's `next`.
    public func installIterationProbe(_ walked: @escaping (_ site: String, _ keys: Int) -> Bool) throws(LuaError) {
        let walk: LuaFunction = { s in
            let level = Int32(s.integer(at: 1) ?? 1)
            let keys = Int(s.integer(at: 2) ?? 0)
            var site = s.location(level: level)
            if site.hasSuffix(": ") { site.removeLast(2) }
            s.push(walked(site.isEmpty ? "?" : site, keys))
            return 1
        }
        let probe = try load(Self.iterationProbePrelude, chunkName: "=iteration probe")
        try protectedCall(label: "installing the iteration probe") { s in
            self.push(probe)
            self.pushModule("", [("walk", walk)])
            return 1
        }
    }

    /// Runs once with the probe's native `walk(level, keys)` in its argument table.
    /// Its source is `Sandbox/iteration-probe.lua`, compiled into the module as bytes (the `embedInCode`
    /// resource in Package.swift): a Lua file that Lua tools read, no file to find at run time.
    static let iterationProbePrelude = String(decoding: PackageResources.iteration_probe_lua, as: UTF8.self)
}
