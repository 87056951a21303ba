/// The cases `LibraryCompatibilityTests` runs in a game's VM and in a plain Lua state: Lua
/// chunks, one section per library, each run after `prelude`.
enum LibraryCases {
    /// What every section uses. A section calls `case(label, f, ...)` for each case and may
    /// read `seed` and `rounds` (its arguments); `out` is what the Swift side compares.
    static let prelude = #"""
    -- Each case is a function called in protected mode; what it gives (true and its
    -- results, or false and the error message) is kept in `out`. Recording and building
    -- inputs use nothing the fork replaces (pcall, table.pack, .., string.byte, char and
    -- sub, rawlen), so a wrong fork function changes only the cases that call it.
    local seed, rounds = ...
    local pack, pcall, type, tostring, error, select = table.pack, pcall, type, tostring, error, select
    local getmetatable, setmetatable, rawget, rawset, rawlen = getmetatable, setmetatable, rawget, rawset, rawlen
    local byte, char, sub = string.byte, string.char, string.sub
    local maxinteger, mininteger, huge = math.maxinteger, math.mininteger, math.huge

    local out = {}
    local lists = setmetatable({}, { __mode = "k" })

    -- A value as recorded: tables (other than lists) and functions by their type only.
    local function keep(v)
      local t = type(v)
      if t == "table" then
        if lists[v] then return v end
        return { box = "table" }
      elseif t == "function" or t == "thread" or t == "userdata" then
        return { box = t }
      end
      return v
    end

    -- The elements t[1..n] (n defaults to #t), to be recorded one by one.
    local function list(t, n)
      n = n or #t
      local l = { n = n }
      for i = 1, n do l[i] = keep(t[i]) end
      lists[l] = true
      return l
    end

    -- What a string.gmatch loop over s collects (at most 30 rounds), for the pattern
    -- sections' cases (it runs inside them, so a wrong gmatch changes only those).
    local function collect(s, p, init)
      local got = {}
      for a, b, c in string.gmatch(s, p, init) do
        got[#got + 1] = list({ a, b, c }, 3)
        if #got >= 30 then break end
      end
      return list(got)
    end

    -- A case: f(...) called in protected mode, its outcome recorded under label.
    local function case(label, f, ...)
      local r = pack(pcall(f, ...))
      for i = 1, r.n do r[i] = keep(r[i]) end
      r.label = label
      out[#out + 1] = r
    end

    -- math.random(a, b) or (b) from a generator of the cases' own: a game's math.random is
    -- the host's, which a plain state does not have.
    local state = seed or 1
    local function random(a, b)
      state = (state * 1103515245 + 12345) % 2147483648
      if b == nil then a, b = 1, a end
      return a + (state >> 8) % (b - a + 1)
    end

    -- table.concat(parts, sep) without table.concat: pairs joined, then pairs of pairs...
    local function join(parts, sep)
      sep = sep or ""
      local level, n = {}, #parts
      if n == 0 then return "" end
      for i = 1, n do level[i] = parts[i] end
      while n > 1 do
        local up, m = {}, 0
        for i = 1, n, 2 do
          m = m + 1
          up[m] = i < n and (level[i] .. sep .. level[i + 1]) or level[i]
        end
        level, n = up, m
      end
      return level[1]
    end

    -- string.rep(s, n) without string.rep: s, s..s, s..s..s..s... added where n has a bit.
    local function repeated(s, n)
      local r = ""
      while n > 0 do
        if n % 2 == 1 then r = r .. s end
        s, n = s .. s, n // 2
      end
      return r
    end

    -- t[i], ..., t[n] (n defaults to #t) without table.unpack.
    local function spread(t, i, n)
      i, n = i or 1, n or #t
      if i > n then return end
      return t[i], spread(t, i + 1, n)
    end

    -- A short form of v for a label (string.format's %q is the fork's; a table's or a
    -- function's address differs between the states).
    local function show(v)
      local t = type(v)
      if t == "table" or t == "function" then return t end
      if t ~= "string" then return tostring(v) end
      local t = {}
      for i = 1, #v < 40 and #v or 40 do
        local c = byte(v, i)
        t[i] = (c < 32 or c > 126 or c == 34 or c == 92) and ("\\" .. c) or char(c)
      end
      return '"' .. join(t) .. (#v > 40 and ('"...(' .. #v .. ")") or '"')
    end

    -- An object whose tostring is text (and which counts how often it was asked).
    local function named(text)
      return setmetatable({}, { __tostring = function() return text end })
    end
    """#

    /// find, match, gmatch and gsub over every replacement kind, on hand-picked patterns.
    static let patterns = #"""
    local replacements = {
      "<%0>", "%1", "%2-%1", "x%%y", "%", "%a", "", "[%1%1]", 7, 2.5, "%0%0%0", "a%", "%9", "%%%1",
      { a = "A", b = false, ab = 1, ["1"] = "one", c = {} },
      function(a, b) return b and (tostring(a) .. tostring(b)) or nil end,
      function(a) return a == "a" and {} or "<" .. tostring(a) .. ">" end,
      function() return false end,
      function(...) return select("#", ...) end,
      function(a) if a == "b" then error("no b") end return a end,
    }

    local function check_pattern(s, p, r)
      local q = show(p)
      case("find " .. show(s) .. " " .. q, function() return string.find(s, p) end)
      for _, init in ipairs { 0, 1, 2, -1, -3, #s, #s + 1, #s + 2, -100, maxinteger, mininteger } do
        case("find init " .. init .. " " .. q, function() return string.find(s, p, init) end)
        case("match init " .. init .. " " .. q, function() return string.match(s, p, init) end)
      end
      case("find plain " .. q, function() return string.find(s, p, 1, true) end)
      case("find not plain " .. q, function() return string.find(s, p, 1, false) end)
      case("match " .. q, function() return string.match(s, p) end)
      case("gmatch " .. q, function() return collect(s, p) end)
      case("gmatch init 3 " .. q, function() return collect(s, p, 3) end)
      case("gmatch init -2 " .. q, function() return collect(s, p, -2) end)
      case("gmatch init past " .. q, function() return collect(s, p, #s + 5) end)
      for _, repl in ipairs(r) do
        case("gsub " .. q .. " " .. show(repl), function() return string.gsub(s, p, repl) end)
        case("gsub n=2 " .. q .. " " .. show(repl), function() return string.gsub(s, p, repl, 2) end)
      end
      case("gsub method " .. q, function() return s:gsub(p, "%0%0") end)
      case("find method " .. q, function() return s:find(p, 2) end)
    end

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
      -- captures: nested, positions, empty, unclosed, and back-references to each kind
      { "abcd", "((a)(b)((c)d))" }, { "abcd", "(a(b(c)))()" }, { "abab", "((a)b)%1" }, { "abab", "(a)(b)%1%2" },
      { "aXa", "(.)X%1" }, { "aXb", "(.)X%1" }, { "abc", "()(b)()" }, { "abc", "(%1)" }, { "aa", "(a)%1%1" },
      { "abc", "(()b)" }, { "abc", "(b)(" }, { "abc", "(b))" }, { "abc", "%2(a)(b)" }, { "xx", "(x*)%1" },
      -- anchors anywhere but the start or the end are ordinary characters
      { "a^b$c", "^a^b$c$" }, { "^a", "^^a" }, { "$", "$$" }, { "a$", "a$$" }, { "ab", "^(a)(b)$" },
      -- %b and %f at the edges of the subject, nested and unbalanced
      { "(a(b)c", "%b()" }, { "a)b(c)", "%b()" }, { "[[x]]", "%b[]" }, { "<<>", "%b<>" }, { "aaa", "%baa" },
      { "word", "%f[%w]%w+%f[%W]" }, { "one two", "%f[%s]" }, { "x", "%f[x]" }, { "x", "%f[^x]" }, { "", "%f[%z]" },
      { "ab12", "%f[%d]%d+" }, { "a.b", "%f[%.]" }, { "a]b", "%f[]]" }, { "a", "%f[%a" }, { "a", "%f[" },
      -- classes and sets
      { "aZ09 _.\n\127\255", "[%a%d]+" }, { "aZ09 _.\n", "[^%s%p]+" }, { "Az", "[A-Z]+" }, { "-", "[%-]" },
      { "z-a", "[z-a]" }, { "b", "[^a-c]" }, { "%", "[%a-z]" }, { "ÿ", "[\255]" }, { "a\0", "[\0]" },
      { "\0", "%G" }, { "ABC", "%U+" }, { "#$%", "%P" }, { "fF0", "%X+" }, { "aW", "%W" }, { "xy", "%C+" },
      -- quantifiers after every kind of item
      { "((()))", "%(+" }, { "aaa", "[a]-$" }, { "abc", "%a-c" }, { "ab", "a-b?" }, { "ab", "a?b?c?" },
      { "aaa", "a**" }, { "a+", "a++" }, { "a?", "a??" }, { "aaa", "a-+" }, { "a", ".?.?.?$" },
      { repeated("(", 40) .. repeated(")", 40), "%b()" }, { "abc", repeated("(", 33) .. repeated(")", 33) },
      { "abc", repeated("(", 32) .. repeated(")", 32) }, { repeated("a", 300), repeated("a?", 300) },
      { repeated("a", 300), repeated("a?", 150) }, { repeated("a", 250), repeated("(a)", 10) .. ".*" },
      { repeated("a", 210), repeated("a*", 210) }, { repeated("a", 210), repeated("a-", 201) .. "b" },
      { repeated("a", 12), repeated("a-", 5) .. "b" }, { repeated("a", 100), repeated("(a)", 32) },
    }
    for _, e in ipairs(edge) do check_pattern(e[1], e[2], replacements) end

    -- gsub's count limit, every kind of value for it, and of replacement
    for _, n in ipairs { 0, 1, 2, 3, -1, mininteger, maxinteger, 2.0, "2", "x", 2.5, {}, false } do
      case("gsub limit " .. show(n), function() return string.gsub("abcabc", "b", "X", n) end)
      case("gsub limit empty matches " .. show(n), function() return string.gsub("abc", "", "-", n) end)
      case("gsub limit anchored " .. show(n), function() return string.gsub("aaa", "^a", "b", n) end)
    end
    local kinds = pack(true, nil, {}, 12, -1.5, "%%", named("x"))
    for i = 1, kinds.n do
      local r = kinds[i]
      case("gsub replacement " .. show(r), function() return string.gsub("abc", "%w", r) end)
    end
    case("gsub no replacement", function() return string.gsub("abc", "b") end)
    case("gsub table keys by capture", function()
      return string.gsub("$name is $age", "%$(%w+)", { name = "Ann", age = 7 })
    end)
    case("gsub table with __index", function()
      return string.gsub("a b c", "%a", setmetatable({}, { __index = function(_, k) return k:upper() end }))
    end)
    case("gsub position capture into a table", function() return string.gsub("abc", "()b", { [2] = "two" }) end)
    case("gsub position capture into a function", function()
      return string.gsub("abc", "()(b)()", function(i, b, j) return i .. b .. j end)
    end)
    case("gsub function gets every capture", function()
      return string.gsub("k1=v1, k2=v2", "(%w+)=(%w+)", function(k, v) return v .. "=" .. k end)
    end)
    case("gsub position in a template", function() return string.gsub("abc", "()b", "%1") end)
    case("gsub bad argument types", function() return string.gsub(nil, "a", "b") end)
    case("gsub bad pattern type", function() return string.gsub("a", {}, "b") end)
    case("gsub numbers as strings", function() return string.gsub(12321, 2, 7) end)
    case("gsub called by pcall", pcall, string.gsub, "abc", "(", "x")
    case("gsub direct error", string.gsub, "abc", "%", "x")

    -- gmatch: the iterator after its last match, anchors, and its arguments
    case("gmatch exhausted", function()
      local it = string.gmatch("ab", "%a")
      return it(), it(), it(), it()
    end)
    case("gmatch empty matches", function() return collect("baaac", "a*") end)
    case("gmatch anchor is a character", function() return collect("a^a^", "^a") end)
    case("gmatch position captures", function() return collect("abc", "()") end)
    case("gmatch bad init", function() return string.gmatch("abc", "a", "x") end)
    case("gmatch float init", function() return collect("abcabc", "b", 2.0) end)
    case("gmatch malformed", function() return collect("abc", "[a") end)
    case("gmatch no pattern", function() return string.gmatch("abc") end)
    case("gmatch no subject", string.gmatch)

    -- find and match: their arguments
    case("find no args", function() return string.find() end)
    case("find number subject", function() return string.find(12345, 34) end)
    case("find bad init", function() return string.find("abc", "b", "x") end)
    case("find float init", function() return string.find("abc", "b", 1.5) end)
    case("find table pattern", function() return string.find("abc", {}) end)
    case("find plain with specials", function() return string.find("a.b(c)", ".b(", 1, true) end)
    case("find plain empty", function() return string.find("abc", "", 10, true) end)
    case("find plain at end", function() return string.find("abc", "", 4, true) end)
    case("match no pattern", function() return string.match("abc") end)
    case("match direct error", string.match, "abc", "(()")
    case("find direct error", string.find, "abc", "%g", {})
    """#

    /// find, match, gmatch and gsub on seeded random patterns and subjects over a small
    /// alphabet (arguments: seed, rounds).
    static let randomPatterns = #"""
    local replacements = {
      "<%0>", "%1", "%2-%1", "x%%y", "%", "%a", "", "[%1%1]", 7, 2.5,
      { a = "A", b = false, ab = 1, ["1"] = "one" },
      function(a, b) return b and (tostring(a) .. tostring(b)) or nil end,
      function(a) return a == "a" and {} or "<" .. tostring(a) .. ">" end,
      function() return false end,
    }
    local function check_pattern(s, p, r)
      local q = show(p)
      case("find " .. show(s) .. " " .. q, function() return string.find(s, p) end)
      for _, init in ipairs { 0, 1, 2, -1, -3, #s, #s + 1, #s + 2, -100 } do
        case("find init " .. init .. " " .. q, function() return string.find(s, p, init) end)
        case("match init " .. init .. " " .. q, function() return string.match(s, p, init) end)
      end
      case("find plain " .. q, function() return string.find(s, p, 1, true) end)
      case("match " .. q, function() return string.match(s, p) end)
      case("gmatch " .. q, function() return collect(s, p) end)
      case("gmatch init 3 " .. q, function() return collect(s, p, 3) end)
      case("gmatch init -2 " .. q, function() return collect(s, p, -2) end)
      for _, repl in ipairs(r) do
        case("gsub " .. q .. " " .. show(repl), function() return string.gsub(s, p, repl) end)
        case("gsub n=2 " .. q .. " " .. show(repl), function() return string.gsub(s, p, repl, 2) end)
      end
      case("gsub method " .. q, function() return s:gsub(p, "%0%0") end)
    end

    local atoms = {
      "a", "b", "c", ".", "%a", "%d", "%s", "%w", "%p", "%l", "%u", "%x", "%c", "%g", "%A", "%S", "%D", "%z",
      "%%", "%.", "%(", "%]", "[abc]", "[^ab]", "[a-c]", "[%a_]", "[]]", "[^]]", "[a-]", "[%d%s]", "[^%w]", "(", ")", "()",
      "%b()", "%bab", "%baa", "%f[%w]", "%f[^a]", "%f[%z]", "%1", "%2", "-", "1", " ", "\0",
    }
    local quantifiers = { "", "", "", "*", "+", "-", "?" }
    local broken = { "%", "[a", "[^", "%b", "%ba", "%f", "%fa", "(", ")", "%9", "[%", "%0", "[" }
    local subject_chars = { "a", "a", "b", "b", "c", "(", ")", "1", "2", " ", "_", ".", "%", "]", "-", "\0", "A", "Z", "\n" }
    local function random_subject()
      local parts = {}
      for i = 1, random(0, 14) do parts[i] = subject_chars[random(#subject_chars)] end
      return join(parts)
    end
    local function random_pattern()
      local parts = {}
      if random(5) == 1 then parts[1] = "^" end
      for _ = 1, random(1, 6) do
        parts[#parts + 1] = atoms[random(#atoms)]
        parts[#parts + 1] = quantifiers[random(#quantifiers)]
      end
      if random(8) == 1 then parts[#parts + 1] = broken[random(#broken)] end
      if random(5) == 1 then parts[#parts + 1] = "$" end
      return join(parts)
    end
    for _ = 1, rounds do
      local s, p = random_subject(), random_pattern()
      check_pattern(s, p, { replacements[random(#replacements)], replacements[random(#replacements)] })
    end
    """#

    /// Plain finds of long patterns in long texts (the fork's find searches a window at a
    /// time, and finds a needle over 64 KB by a rolling hash).
    static let plainFind = #"""
    local letters = {}
    for i = 1, 300000 do letters[i] = char(97 + random(0, 6)) end
    local text = join(letters)
    local abab = repeated("ab", 40000)
    local texts = {
      { text, text:sub(200001, 270000) }, { text, text:sub(1, 70000) }, { text, text:sub(230001) },
      { text, text:sub(200001, 269999) .. "z" }, { text, text:sub(100001, 180000) .. text:sub(1, 10) },
      { abab .. "c", abab .. "c" }, { "x" .. abab .. "c" .. abab, abab .. "c" }, { abab .. abab, abab:sub(2) .. "a" },
      { abab, abab .. "x" }, { abab, abab }, { text .. abab, abab }, { text, text:sub(299990) },
      { text, text:sub(150000, 150100) }, { repeated("x", 5000) .. "y", repeated("x", 4000) .. "y" },
      { repeated("a", 1100000) .. "b", "ab" }, { repeated("a", 1100000), "b" }, { repeated("ab", 600000), "ba" },
    }
    for i, t in ipairs(texts) do
      for _, init in ipairs { 1, 2, 1000, 200001, -80001, -1, #t[1], #t[1] + 1 } do
        case("long find " .. i .. " " .. init, function() return string.find(t[1], t[2], init, true) end)
        case("long find no specials " .. i .. " " .. init, function() return string.find(t[1], t[2], init) end)
      end
    end
    """#

    /// format: every conversion with flags, widths and precisions over every kind of value;
    /// and "%q" of long strings, which the fork quotes in pieces.
    static let format = #"""
    local conversions = { "c", "d", "i", "u", "o", "x", "X", "a", "A", "e", "E", "f", "F", "g", "G", "p", "q", "s",
                          "b", "y", "n", "l", "L", "h", "z", " ", "\0" }
    local specs = { "", "5", "-5", "05", "+", " ", "#", ".3", "10.4", "-+ #0", ".0", "99", "100", ".99", ".100",
                    "0-", "1.1.1", "-#", "--5", repeated("-", 21), repeated("-", 20), ".", "5.", "+.3" }
    local values = { 0, 1, -1, 65, 255, 256, 3.0, 3.5, -0.0, 1 / 3, 1e300, -1e-300, huge, -huge, 0 / 0,
                     maxinteger, mininteger, "10", "0x10", " 7 ", "abc", "a\0b", "", "\r\n\0001\"\\", true, false,
                     {}, named("T"), setmetatable({}, { __tostring = function() return 5 end }) }
    local nothing, NIL = {}, {}     -- no value, and nil
    values[#values + 1] = nothing
    values[#values + 1] = NIL
    -- a table's (or a string's) address differs between states: "%s" of a table without
    -- __tostring and "%p" of anything but nil, booleans and numbers are left out
    local function addressed(c, v)
      if v == nothing or v == NIL then return false end
      if c == "p" then return type(v) ~= "boolean" and type(v) ~= "number" end
      return c == "s" and type(v) == "table" and getmetatable(v) == nil
    end
    for _, c in ipairs(conversions) do
      for _, spec in ipairs(specs) do
        local f = "%" .. spec .. c
        for _, v in ipairs(values) do
          if not addressed(c, v) then
            if v == nothing then
              case("format " .. show(f) .. " no value", function() return string.format(f) end)
            elseif v == NIL then
              case("format " .. show(f) .. " nil", function() return string.format(f, nil) end)
            else
              case("format " .. show(f) .. " " .. show(v), function() return string.format(f, v) end)
            end
          end
        end
      end
    end
    case("format %p of a table", function() local p = string.format("%p", {}) return p ~= "(null)" and #p > 2 end)
    case("format %20p", function() return string.format("%20p|%-8p|", nil, 1) end)

    -- %s: __tostring, long strings with and without precision, zeros
    local long = repeated("abcdefghij", 30)
    for _, f in ipairs { "%s", "%5s", "%.5s", "%-200s|", "%.200s", "%99s", "%99.2s" } do
      case("format " .. f .. " long", function() return string.format(f, long) end)
      case("format " .. f .. " zeros", function() return string.format(f, "a\0b" .. long) end)
      case("format " .. f .. " object", function() return string.format(f, named(long)) end)
    end
    -- %q of every kind of value it has a literal for, and of those it has not
    local literals = pack(0, -0.0, 1.5, -2.25e-310, 1e300, huge, -huge, 0 / 0, maxinteger, mininteger, mininteger + 1,
                          2 ^ 53, 0.1, "", "\0", "\0" .. "1", "\1" .. "23", "\r\n\t\v\f\a\b", "\127\128\255", "\"'\\",
                          "line\nline", true, false, nil, {}, named("x"), print, 2 ^ 63)
    for i = 1, literals.n do
      local v = literals[i]
      case("format %q " .. show(v), function() return string.format("%q", v) end)
    end
    -- several conversions: which argument an error names
    local mixed = { { "%d %s %q", 1, "a", "b" }, { "%d %s %q", "x", "a", "b" }, { "%d %s %q", 1, "a" },
                    { "%d %d %d %d", 1, 2, 3, {} }, { "%s%%%s", 1, 2 }, { "%%%d%%", 5 }, { "a\0b%sc\0", "\0" },
                    { "%5.1f|%-5d|%05.1e", 3.14159, 42, 1234.5 }, { "%c%c%c", 76, 117, 97 }, { "%", 1 }, { "%%%", 1 },
                    { "no conversions", 1, 2, 3 }, { "%10.3q", "x" }, { "%-q", "x" }, { "%.q", 1 }, { "%q%q", 1 } }
    for i, m in ipairs(mixed) do
      case("format mixed " .. i .. " " .. show(m[1]), function() return string.format(spread(m)) end)
    end
    case("format none", function() return string.format() end)
    case("format table", function() return string.format({}) end)
    case("format number", function() return string.format(12, 1) end)
    case("format nil", function() return string.format(nil) end)
    case("format direct", string.format, "%d", "x")
    case("format method", function() return ("%5.2f"):format(1 / 3) end)
    case("format __tostring error", function() return string.format("%s", setmetatable({}, { __tostring = error })) end)

    -- %q of long strings, quoted in pieces by the fork
    local pieces = { "a", "\0", "1", "\r", "9", "\n", '"', "\\", "\127", "0", "\255", "\31", "x" }
    local function long_string(n)
      local parts = {}
      for i = 1, n do parts[i] = pieces[random(#pieces)] end
      return join(parts)
    end
    local longs = { long_string(70000), long_string(200000), repeated("\0" .. "1", 70000),
      repeated("a", 65535) .. "\0" .. "7" .. repeated("b", 70000), repeated("\0", 65536) .. "5" .. repeated("\0", 70000),
      repeated("x", 65536), repeated("x", 65537), repeated("\r", 65535) .. "\r9" .. repeated("\r", 65536) .. "8" }
    for i, q in ipairs(longs) do
      case("format q " .. i, function() return string.format("%q", q) end)
      case("format mixed " .. i, function() return string.format("<%5d|%q|%s|%q|%.3f|%%|%q>", 42, q, "mid", "short", 1.5, q) end)
      case("format obj " .. i, function() return string.format("%s %q %s", named("obj"), q, 7) end)
      case("format method " .. i, function() return ("%q%q"):format(q, q) end)
      case("format extra " .. i, function() return string.format("%q", q, 1, 2) end)
      case("format bad after " .. i, function() return string.format("%q %d", q, "x") end)
      case("format bad before " .. i, function() return string.format("%d %q", "x", q) end)
      case("format missing " .. i, function() return string.format("%q %q", q) end)
      case("format modifier " .. i, function() return string.format("%5q", q) end)
      case("format invalid " .. i, function() return string.format("%q %y", q, 1) end)
      case("format zeros " .. i, function() return string.format("%q %10s", q, "a\0b") end)
      case("format long s " .. i, function() return string.format("%s|%q|%-3s", q, q, q) end)
      case("format too long " .. i, function() return string.format("%q %" .. repeated("-", 25) .. "d", q, 1) end)
      case("format q at the end " .. i, function() return string.format("x%q", q) end)
      case("format a q of a number too " .. i, function() return string.format("%q%q%q", 1.5, q, mininteger) end)
    end
    """#

    /// rep with and without separators, every kind of count, and its errors.
    static let rep = #"""
    for _, s in ipairs { "", "a", "ab", "xyz\0", 12 } do
      for _, n in ipairs { -1, 0, 1, 2, 3, 7, 1e10, maxinteger, mininteger, 2.5, "3", "x", 2 ^ 31 } do
        for _, sep in ipairs { "", ",", "--", 5, false } do
          -- the stock rep copies nothing 1e10 times there (the fork's returns at once)
          if s == "" and (sep or "") == "" and type(n) == "number" and n == n // 1 and n > 1e6 then goto next end
          case("rep " .. show(s) .. " " .. show(n) .. " " .. show(sep), function()
            if sep then return string.rep(s, n, sep) end
            return string.rep(s, n)
          end)
          ::next::
        end
      end
    end
    local chars = { "a", "b", ",", "\0", "-", "x", "\255" }
    local function piece(n)
      local parts = {}
      for i = 1, n do parts[i] = chars[random(#chars)] end
      return join(parts)
    end
    for _ = 1, 300 do
      local s, sep, n = piece(random(0, 5)), piece(random(0, 3)), random(0, 2000)
      case("rep random " .. show(s) .. " " .. n .. " " .. show(sep), function() return string.rep(s, n, sep) end)
    end
    -- sizes around the pieces the fork copies (1 MB at a time)
    for _, n in ipairs { 1048575, 1048576, 1048577, 3 * 1048576 + 1 } do
      case("rep long " .. n, function() local r = string.rep("ab", n // 2, "") return #r, r:sub(-3) end)
      case("rep long sep " .. n, function() local r = string.rep("abc", n // 5, "de") return #r, r:sub(-7), r:sub(1, 9) end)
    end
    case("rep no args", function() return string.rep() end)
    case("rep bad n", function() return string.rep("x", {}) end)
    case("rep no n", function() return string.rep("x") end)
    case("rep bad sep", function() return string.rep("x", 2, {}) end)
    case("rep bad s", function() return string.rep({}, 2) end)
    case("rep too large", function() return string.rep("x", 2 ^ 31, ",") end)
    case("rep too large sep", function() return string.rep("", maxinteger, ",") end)
    case("rep direct", string.rep, "x", 1.5)
    case("rep method", function() return ("ab"):rep(3, "|") end)
    """#
}
