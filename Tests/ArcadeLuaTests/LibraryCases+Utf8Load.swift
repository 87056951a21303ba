extension LibraryCases {
    /// utf8.len and utf8.offset over random byte sequences (valid, overlong, surrogates,
    /// the 5- and 6-byte forms lax mode accepts, stray continuation bytes) and positions.
    static let utf8 = #"""
    local bytes = { "a", "z", "\0", "\127", "\128", "\191", "\192", "\193", "\194\169", "\224\160\128", "\237\160\128",
      "\239\191\191", "\240\144\128\128", "\244\143\191\191", "\244\144\128\128", "\248\136\128\128\128",
      "\252\132\128\128\128\128", "\253\191\191\191\191\191", "\254", "\255", "\226\130\172", "\195",
      "\224\128\128", "\240\128\128\128", "\237\191\191", "\238\128\128", "\248\128\128\128\128" }
    for _ = 1, 600 do
      local parts = {}
      for k = 1, random(0, 8) do parts[k] = bytes[random(#bytes)] end
      local s = join(parts)
      local i, j, n = random(-#s - 2, #s + 2), random(-#s - 2, #s + 2), random(-5, 5)
      case("len " .. show(s), function() return utf8.len(s) end)
      case("len range " .. i .. " " .. j, function() return utf8.len(s, i, j) end)
      case("len lax", function() return utf8.len(s, i, j, true) end)
      case("len from " .. i, function() return utf8.len(s, i) end)
      case("len lax from " .. i, function() return utf8.len(s, i, -1, 1) end)
      case("offset " .. n .. " " .. show(s), function() return utf8.offset(s, n) end)
      case("offset " .. n .. " at " .. i, function() return utf8.offset(s, n, i) end)
      case("offset 0 at " .. i, function() return utf8.offset(s, 0, i) end)
    end

    -- long strings (the fork counts its work as it walks them)
    local long_parts = {}
    for k = 1, 60000 do long_parts[k] = bytes[random(1, 15)] end
    local long = join(long_parts)
    local clean = repeated("a\194\169\226\130\172\240\144\128\128", 20000)
    for _, s in ipairs { long, clean, clean .. "\255" .. clean } do
      case("long len", function() return utf8.len(s) end)
      case("long len lax", function() return utf8.len(s, 1, -1, true) end)
      case("long len tail", function() return utf8.len(s, -1000) end)
      for _, n in ipairs { 1, 2, 1000, 50000, 79999, 80000, 80001, -1, -2, -50000, -80000, -80001, maxinteger, mininteger } do
        case("long offset " .. n, function() return utf8.offset(s, n) end)
        case("long offset " .. n .. " from the middle", function() return utf8.offset(s, n, #s // 2) end)
      end
    end

    case("len bad", function() return utf8.len({}) end)
    case("len nil", function() return utf8.len() end)
    case("len number", function() return utf8.len(12345) end)
    case("len bad i", function() return utf8.len("abc", "x") end)
    case("len float i", function() return utf8.len("abc", 1.5) end)
    case("len bad j", function() return utf8.len("abc", 1, {}) end)
    case("len at the end", function() return utf8.len("abc", 4), utf8.len("abc", 4, 3), utf8.len("", 1, 0) end)
    case("len past the end", function() return utf8.len("abc", 5) end)
    case("len j past the end", function() return utf8.len("abc", 1, 4) end)
    case("len i 0", function() return utf8.len("abc", 0) end)
    case("len i far back", function() return utf8.len("abc", -10) end)
    case("len j far back", function() return utf8.len("abc", 1, -10) end)
    case("len extremes", function() return utf8.len("abc", mininteger, maxinteger) end)
    case("len lax values", function() return utf8.len("\237\160\128", 1, -1, "x"), utf8.len("\237\160\128", 1, -1, false) end)
    case("len direct", utf8.len, "abc", 9)
    case("offset bad", function() return utf8.offset("abc") end)
    case("offset float", function() return utf8.offset("abc", 1.5) end)
    case("offset past the end", function() return utf8.offset("abc", 1, 5) end)
    case("offset at the end", function() return utf8.offset("abc", 0, 4), utf8.offset("abc", 1, 4), utf8.offset("abc", -1, 4) end)
    case("offset continuation", function() return utf8.offset("\226\130\172", 1, 2) end)
    case("offset back from continuation", function() return utf8.offset("\226\130\172", -1, 3) end)
    case("offset 0 on continuation", function() return utf8.offset("\226\130\172", 0, 3) end)
    case("offset i 0", function() return utf8.offset("abc", 1, 0) end)
    case("offset i far back", function() return utf8.offset("abc", 1, -10) end)
    case("offset bad i", function() return utf8.offset("abc", 1, "x") end)
    case("offset number subject", function() return utf8.offset(12345, 2) end)
    case("offset direct", utf8.offset, "abc", 1, 10)
    """#

    /// load: text chunks as strings and through reader functions cut into pieces of every
    /// size, names, environments, and every error. (Binary chunks and modes without 't',
    /// which the fork refuses on purpose, are in LibraryDifferenceTests.)
    static let load = #"""
    local function run(fn, ...)
      if type(fn) ~= "function" then return fn, ... end
      return pcall(fn)
    end
    local long = "x = [[" .. repeated("long string ", 12000) .. "]] return #x"
    local many = repeated("x = (x or 0) + 1\n", 9000) .. "return x"
    local chunks = { "return 1 + 1", "x =", "", "return ...", "return x", long, many, "return 'a\0b'",
      "local t = {} for i = 1, 10 do t[i] = i end return #t", "return function() end", "error('boom')",
      "return [[" .. repeated("]", 70000), "x = = 1", "return 'abc", "--[[ unfinished", "#!/bin/lua\nreturn 1",
      "\239\187\191return 1", "return select('#', ...)", "return _ENV ~= nil", "goto nowhere", "local x <const> = 1; x = 2",
      "return " .. repeated("(", 300) .. "1" .. repeated(")", 300), "return " .. repeated("{", 250) .. repeated("}", 250),
      "return 0x7fffffffffffffff + 1, 1e400, 9223372036854775808", "return '\\u{7FFFFFFF}'", "return '\\xZZ'",
      "\27Lua is not a binary chunk in text mode" }
    for _, c in ipairs(chunks) do
      local label = show(c)
      local text_only = byte(c, 1) == 27    -- Lua's default mode would read it as binary
      if not text_only then
        case("load " .. label, function() return run(load(c)) end)
        case("load bt env " .. label, function() return run(load(c, nil, "bt", { x = 5 })) end)
        case("load nil mode " .. label, function() return run(load(c, "=c", nil, { x = 1 })) end)
        case("load tb " .. label, function() return run(load(c, "=c", "tb")) end)
      end
      case("load named " .. label, function() return run(load(c, "=chunk", "t")) end)
      case("load t " .. label, function() return run(load(c, "@file.lua", "t")) end)
      case("load nil env " .. label, function() return run(load(c, "=c", "t", nil)) end)
      for _, size in ipairs { 1, 7, 1000, 65536, 70000 } do
        case("load reader " .. size .. " " .. label, function()
          local at = 1
          return run(load(function()
            local piece = sub(c, at, at + size - 1)
            at = at + size
            if piece == "" then return nil end
            return piece
          end, "=reader", "t"))
        end)
      end
    end
    for _, name in ipairs { "=", "@", "", "=" .. repeated("n", 200), "@" .. repeated("dir/", 60) .. "f.lua",
                            repeated("s", 100), "line\nbreak", 5 } do
      case("load name " .. show(name), function() return load("x =", name) end)
      case("load name of a reader " .. show(name), function()
        local done = false
        return load(function() if done then return nil end done = true return "x =" end, name)
      end)
    end
    case("load reader number", function()
      local n = 0
      return run(load(function() n = n + 1 if n == 1 then return 42 end end))
    end)
    case("load reader empty", function() return run(load(function() return "" end)) end)
    case("load reader table", function() return run(load(function() return {} end)) end)
    case("load reader error", function() return run(load(function() error("no") end)) end)
    case("load reader error object", function() return run(load(function() error({}) end)) end)
    case("load reader after nil", function()
      local calls = 0
      local f = load(function() calls = calls + 1 if calls == 1 then return "return 7" end end)
      return calls, run(f)
    end)
    case("load nothing", function() return load() end)
    case("load nil", function() return load(nil) end)
    case("load number", function() return run(load(5)) end)
    case("load table", function() return load({}) end)
    case("load name table", function() return load("return 1", {}) end)
    case("load env number", function() return run(load("return x", "=c", "t", 5)) end)
    case("load env sets only _ENV", function()
      local up = 7
      return run(load("return x", "=c", "t", setmetatable({}, { __index = function(_, k) return k .. up end })))
    end)
    case("load direct", load, {})
    case("load method name", function() return load("return ...", "=c")("a", "b") end)
    """#
}
