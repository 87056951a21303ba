import Testing
import CLua
import CLuaLib

/// The arcade's own string, table, utf8 functions and load (CLua's patterns.h and library.h)
/// against Lua 5.4's, in one plain Lua state: the same results and the same error messages
/// over hand-picked edge cases and thousands of seeded random patterns and subjects.
@Suite struct LibraryCompatibilityTests {
    /// A plain state (luaL_newstate, every standard library) with the arcade's versions in
    /// the global `arcade`.
    final class PlainLua {
        let L: OpaquePointer

        init() {
            L = luaL_newstate()
            luaL_openlibs(L)
            arcade_forget_vm(L)
            arcade_push_library(L)
            lua_setglobal(L, "arcade")
        }

        deinit { lua_close(L) }

        /// Runs `source` with `args` and returns its results as strings (`tostring`).
        func run(_ source: String, _ args: [Int] = []) throws(Failure) -> [String] {
            let base = lua_gettop(L)
            defer { lua_settop(L, base) }
            guard luaL_loadstring(L, source) == LUA_OK else { throw Failure(String(cString: lua_tolstring(L, -1, nil))) }
            for a in args { lua_pushinteger(L, lua_Integer(a)) }
            guard arcade_pcall(L, Int32(args.count), LUA_MULTRET, 0) == LUA_OK else {
                throw Failure(String(cString: lua_tolstring(L, -1, nil)))
            }
            let top = lua_gettop(L)
            var out: [String] = []
            if top > base {
                for i in (base + 1)...top {
                    out.append(String(cString: luaL_tolstring(L, i, nil)))
                    lua_settop(L, -2)
                }
            }
            return out
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// Runs the comparison after `prelude`; returns the mismatches (one text) and the counts
    /// of cases, of cases where both failed alike, and of cases with results.
    func compare(seed: Int, rounds: Int, prelude: String = "") throws -> (mismatches: String, cases: Int, errors: Int, hits: Int) {
        let lua = PlainLua()
        let r = try lua.run(prelude + "\nlocal mismatches, cases, errors, hits = (function(...)\n" + Self.harness
                            + "\nend)(...)\nreturn table.concat(mismatches, '\\n'), cases, errors, hits", [seed, rounds])
        return (r[0], Int(r[1]) ?? 0, Int(r[2]) ?? 0, Int(r[3]) ?? 0)
    }

    @Test(arguments: [1, 2])
    func sameResultsAndErrorsAsLua54(seed: Int) throws {
        let r = try compare(seed: seed, rounds: 3000)
        #expect(r.mismatches.isEmpty, "\(r.mismatches)")
        // the generator reaches every kind of outcome
        #expect(r.cases > 90_000)
        #expect(r.errors > 10_000)
        #expect(r.hits > 30_000)
    }

    @Test func theComparisonNoticesADifference() throws {
        // a find that is wrong for one pattern only
        let r = try compare(seed: 1, rounds: 50, prelude: """
            local find = arcade.string.find
            arcade.string.find = function(s, p, ...) if p == "()" then return 1 end return find(s, p, ...) end
            """)
        #expect(r.mismatches.contains(#"find("abc", "()")"#), "\(r.mismatches)")
    }

    /// The comparison, in Lua: called with (seed, rounds), returns the list of mismatches
    /// and the three counts.
    static let harness = #"""
    -- Runs every case with the stock functions and with the arcade's (global `arcade`, from
    -- arcade_push_library) and returns the cases whose results or errors differ.
    local arcade, seed, rounds = arcade, ...
    seed = seed or 1
    rounds = rounds or 3000

    local stock = { string = {}, table = {}, utf8 = {}, load = load }
    for lib, fns in pairs(arcade) do
      if type(fns) == "table" then
        for name in pairs(fns) do stock[lib][name] = _G[lib][name] end
      end
    end
    local libs = { string = string, table = table, utf8 = utf8 }
    local function use(impl)
      for lib, fns in pairs(arcade) do
        if type(fns) == "table" then
          for name in pairs(fns) do libs[lib][name] = impl[lib][name] end
        end
      end
      load = impl.load
    end

    local concat, format, select, type, tostring, pcall = stock.table.concat, string.format, select, type, tostring, pcall
    local function show(...)
      local out = { tostring(select("#", ...)) }
      for i = 1, select("#", ...) do
        local v = select(i, ...)
        out[#out + 1] = type(v) == "string" and format("%q", v) or (type(v) == "table" or type(v) == "function") and type(v) or tostring(v)
      end
      return concat(out, " ")
    end

    local mismatches, cases, errors, hits = {}, 0, 0, 0
    local function compare(label, f)
      cases = cases + 1
      use(stock)
      local a = show(pcall(f))
      use(arcade)
      local b = show(pcall(f))
      use(stock)
      if a ~= b then
        if #mismatches < 40 then
          mismatches[#mismatches + 1] = label .. "\n    stock:  " .. a .. "\n    arcade: " .. b
        end
      elseif a:sub(1, 7) == "2 false" then
        errors = errors + 1
      elseif a ~= "2 true nil" and a ~= "1 true" then
        hits = hits + 1
      end
    end

    -- what a gmatch loop collects (at most 30 rounds)
    local function collect(s, p, init)
      local out = {}
      for a, b, c in string.gmatch(s, p, init) do
        out[#out + 1] = tostring(a) .. "|" .. tostring(b) .. "|" .. tostring(c)
        if #out >= 30 then break end
      end
      return concat(out, ";")
    end

    local replacements = {
      "<%0>", "%1", "%2-%1", "x%%y", "%", "%a", "", "[%1%1]", 7, 2.5,
      { a = "A", b = false, ab = 1, ["1"] = "one" },
      function(a, b) return b and (tostring(a) .. tostring(b)) or nil end,
      function(a) return a == "a" and {} or "<" .. tostring(a) .. ">" end,
      function() return false end,
    }

    local function check_pattern(s, p, r)
      local q = format("%q", p)
      compare("find(" .. format("%q", s) .. ", " .. q .. ")", function() return string.find(s, p) end)
      for _, init in ipairs { 0, 1, 2, -1, -3, #s, #s + 1, #s + 2, -100 } do
        compare("find init " .. init .. " " .. q, function() return string.find(s, p, init) end)
        compare("match init " .. init .. " " .. q, function() return string.match(s, p, init) end)
      end
      compare("find plain " .. q, function() return string.find(s, p, 1, true) end)
      compare("match " .. q, function() return string.match(s, p) end)
      compare("gmatch " .. q, function() return collect(s, p) end)
      compare("gmatch init 3 " .. q, function() return collect(s, p, 3) end)
      compare("gmatch init -2 " .. q, function() return collect(s, p, -2) end)
      for _, repl in ipairs(r) do
        compare("gsub " .. q .. " " .. tostring(repl), function() return string.gsub(s, p, repl) end)
        compare("gsub n=2 " .. q .. " " .. tostring(repl), function() return string.gsub(s, p, repl, 2) end)
      end
      compare("gsub method " .. q, function() return s:gsub(p, "%0%0") end)
    end

    -- hand-picked edge cases ----------------------------------------------------
    local edge = {
      { "hello world", "o w" }, { "hello world", "^h" }, { "hello world", "d$" }, { "a$b", "$b" }, { "a$b", "a$" },
      { "aaa", "a-" }, { "aaa", "a-$" }, { "aaab", "a*b" }, { "b", "a+b" }, { "ab", "a?b" }, { "abc", "()" },
      { "abc", "()b()" }, { "abc", "(a)(b)(c)" }, { "abcabc", "(abc)%1" }, { "abab", "(a)(b)%2" }, { "aa", "()%1" },
      { "x(a(b)c)y", "%b()" }, { "((", "%b()" }, { "aXb", "%bab" }, { "''x''", "%b''" }, { "THE (quick) fox", "%f[%a]%a+" },
      { "THE (quick) fox", "%f[%l]" }, { "abc", "%f[%z]" }, { "a\0b", "%z" }, { "a\0b", "[%z]" }, { "a\0b", "a\0b" },
      { "a\0b", "%Z+" }, { "]", "[]]" }, { "]", "[^]]" }, { "a-b", "[a-]" }, { "-", "[-a]" }, { "b", "[a-c]" },
      { "%", "%%" }, { "%", "[%%]" }, { "a.b", "%." }, { "x", "%x" }, { "q", "%q" }, { "é", "[\128-\255]+" },
      { "abc", "%" }, { "abc", "[a" }, { "abc", "[^" }, { "abc", "[%" }, { "abc", "[a%" }, { "abc", "%b" },
      { "abc", "%ba" }, { "abc", "%f" }, { "abc", "%fa" }, { "abc", "(" }, { "abc", "a)" }, { "abc", ")" },
      { "abc", "%1" }, { "abc", "(%1)" }, { "abc", "%0" }, { "abc", "(a)%2" }, { "abc", "(()" }, { "abc", "()%1" },
      { "abc", "^" }, { "abc", "" }, { "", "" }, { "", "^$" }, { "", ".*" }, { "", "a*" }, { "abc", "^(a)" },
      { "  x  ", "^%s*(.-)%s*$" }, { "key = value", "(%w+)%s*=%s*(%w+)" }, { "2024-01-02", "(%d+)-(%d+)-(%d+)" },
      { "abc", "[]" }, { "abc", "[^]" }, { "a]c", "[]a]+" }, { "abc", "[a-]" }, { "a^b", "[b^]" }, { "a^b", "a^b" },
      { "aaa", "^a" }, { "aaa", "a^" }, { "x", "[%w_]" }, { "_", "[%w_]" }, { "A", "%u%U?" }, { "\t\n", "%c+" },
      { "a,b,,c", "([^,]*)" }, { "hello", "" }, { "hello", "l*" }, { "abc", ".-" }, { "abc", ".-$" }, { "abc", "b*" },
      { string.rep("(", 40) .. string.rep(")", 40), "%b()" }, { "abc", string.rep("(", 33) .. string.rep(")", 33) },
      { "abc", string.rep("(", 32) .. string.rep(")", 32) }, { string.rep("a", 300), string.rep("a?", 300) },
      { string.rep("a", 300), string.rep("a?", 150) }, { string.rep("a", 250), string.rep("(a)", 10) .. ".*" },
      { string.rep("a", 210), string.rep("a*", 210) }, { string.rep("a", 210), string.rep("a-", 201) .. "b" }, { string.rep("a", 12), string.rep("a-", 5) .. "b" },
    }
    for _, e in ipairs(edge) do check_pattern(e[1], e[2], replacements) end

    -- random patterns over a small alphabet ----------------------------------------
    math.randomseed(seed)
    local random = math.random
    local atoms = {
      "a", "b", "c", ".", "%a", "%d", "%s", "%w", "%p", "%l", "%u", "%x", "%c", "%g", "%A", "%S", "%D", "%z",
      "%%", "%.", "%(", "%]", "[abc]", "[^ab]", "[a-c]", "[%a_]", "[]]", "[^]]", "[a-]", "[%d%s]", "[^%w]", "(", ")", "()",
      "%b()", "%bab", "%baa", "%f[%w]", "%f[^a]", "%f[%z]", "%1", "%2", "-", "1", " ", "\0",
    }
    local quantifiers = { "", "", "", "*", "+", "-", "?" }
    local broken = { "%", "[a", "[^", "%b", "%ba", "%f", "%fa", "(", ")", "%9", "[%", "%0", "[" }
    local subject_chars = { "a", "a", "b", "b", "c", "(", ")", "1", "2", " ", "_", ".", "%", "]", "-", "\0", "A", "Z", "\n" }
    local function random_subject()
      local out = {}
      for i = 1, random(0, 14) do out[i] = subject_chars[random(#subject_chars)] end
      return concat(out)
    end
    local function random_pattern()
      local out = {}
      if random(5) == 1 then out[1] = "^" end
      for _ = 1, random(1, 6) do
        out[#out + 1] = atoms[random(#atoms)]
        out[#out + 1] = quantifiers[random(#quantifiers)]
      end
      if random(8) == 1 then out[#out + 1] = broken[random(#broken)] end
      if random(5) == 1 then out[#out + 1] = "$" end
      return concat(out)
    end
    for _ = 1, rounds do
      local s, p = random_subject(), random_pattern()
      check_pattern(s, p, { replacements[random(#replacements)], replacements[random(#replacements)] })
    end

    -- long plain patterns (the arcade finds those with a rolling hash) ------------------
    do
      local letters, x = {}, seed
      for i = 1, 300000 do
        x = (x * 1103515245 + 12345) % 2147483648
        letters[i] = string.char(97 + x % 7)
      end
      local text = concat(letters)
      local abab = string.rep("ab", 40000)
      local cases = {
        { text, text:sub(200001, 270000) }, { text, text:sub(1, 70000) }, { text, text:sub(230001) },
        { text, text:sub(200001, 269999) .. "z" }, { text, text:sub(100001, 180000) .. text:sub(1, 10) },
        { abab .. "c", abab .. "c" }, { "x" .. abab .. "c" .. abab, abab .. "c" }, { abab .. abab, abab:sub(2) .. "a" },
        { abab, abab .. "x" }, { abab, abab }, { text .. abab, abab },
      }
      for i, case in ipairs(cases) do
        for _, init in ipairs { 1, 2, 1000, 200001, -80001 } do
          compare("long find " .. i .. " " .. init, function() return string.find(case[1], case[2], init, true) end)
          compare("long find no specials " .. i, function() return string.find(case[1], case[2], init) end)
        end
      end
    end

    -- string.format (the arcade quotes long strings for %q in pieces) -------------------
    do
      local pieces = { "a", "\0", "1", "\r", "9", "\n", '"', "\\", "\127", "0", "\255", "\31", "x" }
      local function long_string(n, k)
        local out, x = {}, k
        for i = 1, n do
          x = (x * 1103515245 + 12345) % 2147483648
          out[i] = pieces[x % #pieces + 1]
        end
        return concat(out)
      end
      local longs = { long_string(70000, 1), long_string(200000, 2), string.rep("\0" .. "1", 70000),
        string.rep("a", 65535) .. "\0" .. "7" .. string.rep("b", 70000), string.rep("\0", 65536) .. "5" .. string.rep("\0", 70000),
        string.rep("x", 65536), string.rep("x", 65537) }
      local obj = setmetatable({}, { __tostring = function() return "obj" end })
      for i, q in ipairs(longs) do
        compare("format q " .. i, function() return string.format("%q", q) end)
        compare("format mixed " .. i, function() return string.format("<%5d|%q|%s|%q|%.3f|%%|%q>", 42, q, "mid", "short", 1.5, q) end)
        compare("format obj " .. i, function() return string.format("%s %q %s", obj, q, 7) end)
        compare("format method " .. i, function() return ("%q%q"):format(q, q) end)
        compare("format extra " .. i, function() return string.format("%q", q, 1, 2) end)
        compare("format bad after " .. i, function() return string.format("%q %d", q, "x") end)
        compare("format bad before " .. i, function() return string.format("%d %q", "x", q) end)
        compare("format missing " .. i, function() return string.format("%q %q", q) end)
        compare("format modifier " .. i, function() return string.format("%5q", q) end)
        compare("format invalid " .. i, function() return string.format("%q %y", q, 1) end)
        compare("format zeros " .. i, function() return string.format("%q %10s", q, "a\0b") end)
      end
      for _, f in ipairs { "%d", "%5.2f", "%x", "%q", "%s", "%-5s|", "%c", "%i", "%a", "%g", "%%", "%", "%10.10.10d", "%q %q" } do
        compare("format " .. f, function() return string.format(f, 65, 66) end)
        compare("format str " .. f, function() return string.format(f, "abc", "d\0e") end)
      end
      compare("format none", function() return string.format() end)
      compare("format table", function() return string.format({}) end)
      compare("format number", function() return string.format(12, 1) end)
    end

    -- string.rep -------------------------------------------------------------------
    for _, s in ipairs { "", "a", "ab", "xyz\0" } do
      for _, n in ipairs { -1, 0, 1, 2, 3, 7, 1e10, math.maxinteger, 2.5, "3" } do
        for _, sep in ipairs { "", ",", "--", false } do
          -- the stock rep copies nothing 1e10 times there (the arcade's returns at once)
          if s == "" and (sep or "") == "" and n == n // 1 and n > 1e6 then goto next end
          compare("rep " .. format("%q", s) .. " " .. tostring(n) .. " " .. tostring(sep), function()
            if sep then return string.rep(s, n, sep) end
            return string.rep(s, n)
          end)
          ::next::
        end
      end
    end
    for _ = 1, 300 do
      local s, sep, n = random_subject():sub(1, 5), random_subject():sub(1, 3), random(0, 2000)
      compare("rep random", function() return string.rep(s, n, sep) end)
    end
    compare("rep no args", function() return string.rep() end)
    compare("rep bad n", function() return string.rep("x", {}) end)

    -- table functions ----------------------------------------------------------------
    local function dump(t, n)
      local out = {}
      for i = 1, n or #t do out[i] = tostring(t[i]) end
      return concat(out, ",")
    end
    local proxy_mt = {
      __index = function(t, k) return rawget(t, "_" .. k) end,
      __newindex = function(t, k, v) rawset(t, "_" .. k, v) end,
      __len = function(t) return rawget(t, "n") or 0 end,
    }
    for _ = 1, 400 do
      local n = random(0, 12)
      local base = {}
      for i = 1, n do base[i] = random(1, 50) end
      local function copy() return table.move(base, 1, n, 1, {}) end
      local i, j = random(-3, n + 3), random(-3, n + 3)
      compare("concat", function() return table.concat(copy(), ",", i, j) end)
      compare("concat default", function() return table.concat(copy()) end)
      compare("concat sep", function() return table.concat(copy(), "--") end)
      compare("insert end", function() local t = copy() table.insert(t, 99) return dump(t) end)
      compare("insert at " .. i, function() local t = copy() table.insert(t, i, 99) return dump(t, n + 2) end)
      compare("remove", function() local t = copy() local v = table.remove(t) return v, dump(t, n + 1) end)
      compare("remove at " .. i, function() local t = copy() local v = table.remove(t, i) return v, dump(t, n + 1) end)
      local f, e, to = random(-2, n + 2), random(-2, n + 2), random(-2, n + 4)
      compare("move self", function() local t = copy() table.move(t, f, e, to) return dump(t, n + 6) end)
      compare("move other", function() local t = copy() local d = table.move(t, f, e, to, { 0, 0, 0 }) return dump(d, n + 6) end)
      compare("unpack", function() return table.unpack(copy(), i, j) end)
      compare("unpack default", function() return table.unpack(copy()) end)
      compare("sort", function() local t = copy() table.sort(t) return dump(t) end)
      compare("sort desc", function() local t = copy() table.sort(t, function(a, b) return a > b end) return dump(t) end)
      compare("sort strings", function()
        local t = copy()
        for k = 1, #t do t[k] = tostring(t[k]) end
        table.sort(t)
        return dump(t)
      end)
      compare("proxy insert/remove", function()
        local t = setmetatable({ n = n }, proxy_mt)
        for k = 1, n do t[k] = base[k] end
        table.insert(t, 1, "first")
        rawset(t, "n", n + 1)
        local v = table.remove(t, 2)
        table.sort(t, function(a, b) return tostring(a) < tostring(b) end)
        return v, table.concat(t, ",", 1, n)
      end)
    end
    for _, size in ipairs { 2, 3, 4, 5, 50, 1000, 5000 } do
      local base = {}
      for i = 1, size do base[i] = random(1, size // 2 + 1) end
      compare("sort " .. size, function() local t = table.move(base, 1, size, 1, {}) table.sort(t) return dump(t) end)
      compare("sort sorted " .. size, function()
        local t = {}
        for i = 1, size do t[i] = i end
        table.sort(t)
        return dump(t)
      end)
      compare("sort reversed " .. size, function()
        local t = {}
        for i = 1, size do t[i] = size - i end
        table.sort(t, function(a, b) return a < b end)
        return dump(t)
      end)
      compare("sort equal " .. size, function()
        local t = {}
        for i = 1, size do t[i] = 7 end
        table.sort(t)
        return dump(t)
      end)
    end
    local odd = { 1, "x", {}, nil, true }
    -- numbers are written as tostring writes them, without a string made for each
    local numbers = { 0, -0.0, 0.0, 1, -1, 0.1, 1/3, -2.5, 1e15, 1e16, 2^53, 2^63, -2^63, 1e100, 1e-300, 5e-324,
                      math.maxinteger, math.mininteger, math.huge, -math.huge, 3.0, -7.0, 123456789012345678 }
    compare("concat numbers", function() return table.concat(numbers, " ") end)
    compare("concat numbers and strings", function() return table.concat({ 1, "a", 2.0, "b", -0.0 }, ",") end)
    for _ = 1, 300 do
      local t = {}
      for i = 1, random(0, 8) do
        local k = random(1, 4)
        t[i] = k == 1 and random(-1000, 1000) or k == 2 and random(-1000, 1000) / random(1, 64)
               or k == 3 and random(-5, 5) * 10.0 ^ random(-20, 20) or tostring(random(1, 9))
      end
      compare("concat random numbers", function() return table.concat(t, ";") end)
    end
    compare("concat bad value", function() return table.concat({ 1, {}, 3 }) end)
    compare("concat bad value 2", function() return table.concat({ 1, 2, true }, ",") end)
    compare("concat nil", function() return table.concat(odd, ",", 1, 4) end)
    compare("concat not a table", function() return table.concat(5) end)
    compare("insert wrong args", function() return table.insert({}, 1, 2, 3) end)
    compare("insert not a table", function() return table.insert(1, 2) end)
    compare("insert bad pos", function() return table.insert({}, "x", 2) end)
    compare("insert float pos", function() return table.insert({}, 1.5, 2) end)
    compare("remove empty", function() local t = {} return table.remove(t), table.remove(t, 0), table.remove(t, 1) end)
    compare("remove bad", function() return table.remove({}, 3) end)
    compare("move no dest", function() return table.move({}, 1, 2) end)
    compare("move huge", function() return table.move({}, math.mininteger, math.maxinteger, 1) end)
    compare("move wrap", function() return table.move({ 1, 2 }, 1, 2, math.maxinteger) end)
    compare("move bad dest", function() return table.move({}, 1, 2, 1, 5) end)
    compare("sort bad cmp", function() return table.sort({ 3, 2, 1 }, 5) end)
    compare("sort mixed", function() return table.sort({ 3, "a", 1 }) end)
    compare("sort not a table", function() return table.sort("abc") end)
    compare("unpack too many", function() return table.unpack({}, 1, 1e8) end)
    compare("unpack extremes", function() return table.unpack({}, math.maxinteger, math.mininteger) end)
    compare("unpack float", function() return table.unpack({ 1, 2 }, 1.5) end)
    compare("unpack string", function() return table.unpack("abc") end)

    -- utf8 -------------------------------------------------------------------------
    local bytes = { "a", "z", "\0", "\127", "\128", "\191", "\192", "\193", "\194\169", "\224\160\128", "\237\160\128",
      "\239\191\191", "\240\144\128\128", "\244\143\191\191", "\244\144\128\128", "\248\136\128\128\128",
      "\252\132\128\128\128\128", "\253\191\191\191\191\191", "\254", "\255", "\226\130\172", "\195" }
    for _ = 1, 600 do
      local out = {}
      for k = 1, random(0, 8) do out[k] = bytes[random(#bytes)] end
      local s = concat(out)
      local i, j, n = random(-#s - 2, #s + 2), random(-#s - 2, #s + 2), random(-5, 5)
      compare("len " .. format("%q", s), function() return utf8.len(s) end)
      compare("len range", function() return utf8.len(s, i, j) end)
      compare("len lax", function() return utf8.len(s, i, j, true) end)
      compare("len from", function() return utf8.len(s, i) end)
      compare("offset " .. n .. " " .. format("%q", s), function() return utf8.offset(s, n) end)
      compare("offset at " .. i, function() return utf8.offset(s, n, i) end)
    end
    compare("len bad", function() return utf8.len({}) end)
    compare("offset bad", function() return utf8.offset("abc") end)

    -- load (text chunks; the arcade's refuses binary ones, which the sandbox tests cover) --------
    local function run(fn, ...)
      if type(fn) ~= "function" then return fn, ... end
      return show(pcall(fn))
    end
    local long = "x = [[" .. string.rep("long string ", 12000) .. "]] return #x"
    local many = string.rep("x = (x or 0) + 1\n", 9000) .. "return x"
    local chunks = { "return 1 + 1", "x =", "", "return ...", "return x", long, many, "return 'a\0b'",
      "local t = {} for i = 1, 10 do t[i] = i end return #t", "return function() end", "error('boom')",
      "return [[" .. string.rep("]", 70000) }
    for _, c in ipairs(chunks) do
      local label = format("%q", c:sub(1, 30))
      compare("load " .. label, function() return run(load(c)) end)
      compare("load named " .. label, function() return run(load(c, "=chunk")) end)
      compare("load t " .. label, function() return run(load(c, "@file.lua", "t")) end)
      compare("load bt env " .. label, function() return run(load(c, nil, "bt", { x = 5 })) end)
      compare("load nil env " .. label, function() return run(load(c, "=c", nil, nil)) end)
      for _, size in ipairs { 1, 7, 1000, 70000 } do
        compare("load reader " .. size .. " " .. label, function()
          local at = 1
          return run(load(function()
            local piece = c:sub(at, at + size - 1)
            at = at + size
            if piece == "" then return nil end
            return piece
          end))
        end)
      end
    end
    compare("load binary t", function() return load("\27Lua", "=b", "t") end)
    compare("load reader number", function()
      local n = 0
      return run(load(function() n = n + 1 if n == 1 then return 42 end end))
    end)
    compare("load reader empty", function() return run(load(function() return "" end)) end)
    compare("load reader table", function() return run(load(function() return {} end)) end)
    compare("load reader error", function() return run(load(function() error("no") end)) end)
    compare("load nothing", function() return load() end)
    compare("load number", function() return run(load(5)) end)
    compare("load table", function() return load({}) end)
    compare("load name table", function() return load("return 1", {}) end)

    return mismatches, cases, errors, hits
    """#
}
