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
    static let iterationProbePrelude = #"""
    local natives = ...
    local rawnext, rawget, type, getmetatable, setmetatable = next, rawget, type, getmetatable, setmetatable
    local lua_pairs, sort, walk = pairs, table.sort, natives.walk

    -- booleans, then numbers, then strings; keys of other types have no order among them
    local RANK = { boolean = 1, number = 2, string = 3 }
    local function before(a, b)
      local ra, rb = RANK[type(a)] or 4, RANK[type(b)] or 4
      if ra ~= rb then return ra < rb end
      if ra == 1 then return not a and b end
      if ra == 4 then return false end
      return a < b
    end

    -- The keys of t: in Lua's order when at most one of them is a string or a reference
    -- (that order does not change between runs), else sorted, and backwards when the host
    -- says so. Called straight from pairs or next: level 3 of the stack is the game's code.
    local function order(t)
      local keys, n, unsettled = {}, 0, 0
      local k = rawnext(t)
      while k ~= nil do
        n = n + 1
        keys[n] = k
        local kind = type(k)
        if kind ~= "number" and kind ~= "boolean" then unsettled = unsettled + 1 end
        k = rawnext(t, k)
      end
      if unsettled >= 2 then
        sort(keys, before)
        if walk(3, n) then
          for i = 1, n // 2 do keys[i], keys[n + 1 - i] = keys[n + 1 - i], keys[i] end
        end
      end
      return keys, n
    end

    local function has_own_pairs(t)
      local mt = getmetatable(t)
      return mt ~= nil and (type(mt) ~= "table" or rawget(mt, "__pairs") ~= nil)
    end

    function pairs(t)
      if type(t) ~= "table" or has_own_pairs(t) then return lua_pairs(t) end
      local keys, n = order(t)
      local i = 0
      return function()
        while i < n do
          i = i + 1
          local key = keys[i]
          local value = rawget(t, key)
          if value ~= nil then return key, value end  -- cleared during the walk: skipped
        end
        return nil
      end, t, nil
    end

    -- next(t) starts a walk in the probe's order; next(t, k) carries on the latest walk of t.
    local walks = setmetatable({}, { __mode = "k" })
    function next(t, k)
      if type(t) ~= "table" then return rawnext(t, k) end
      if k == nil then
        local keys, n = order(t)
        if n < 2 then
          walks[t] = nil
          return rawnext(t)
        end
        local index = {}
        for i = 1, n do index[keys[i]] = i end
        walks[t] = { keys = keys, index = index, n = n }
        return keys[1], rawget(t, keys[1])
      end
      local w = walks[t]
      local i = w and w.index[k]
      if i == nil then return rawnext(t, k) end
      while i < w.n do
        i = i + 1
        local key = w.keys[i]
        local value = rawget(t, key)
        if value ~= nil then return key, value end
      end
      return nil
    end
    """#
}
