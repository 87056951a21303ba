extension LibraryCases {
    /// concat, insert, remove, move and unpack: random tables and ranges, proxies (tables
    /// whose elements live behind __index, __newindex and __len), and every error.
    static let table = #"""
    local proxy_mt = {
      __index = function(t, k) return rawget(t, "_" .. tostring(k)) end,
      __newindex = function(t, k, v) rawset(t, "_" .. tostring(k), v) end,
      __len = function(t) return rawget(t, "n") or 0 end,
    }
    local function proxy(base, n)
      local t = setmetatable({ n = n }, proxy_mt)
      for k = 1, n do t[k] = base[k] end
      return t
    end
    -- a copy of base[1..n] (table.move is the fork's)
    local function copy(base, n)
      local t = {}
      for k = 1, n do t[k] = base[k] end
      return t
    end
    local kinds = { function() return random(1, 50) end, function() return random(-9, 9) / 4 end,
                    function() return tostring(random(1, 99)) end, function() return char(random(97, 99)) end }
    for round = 1, 400 do
      local n = random(0, 12)
      local base, value = {}, kinds[round % #kinds + 1]
      for i = 1, n do base[i] = value() end
      local i, j = random(-3, n + 3), random(-3, n + 3)
      case("concat " .. i .. " " .. j, function() return table.concat(copy(base, n), ",", i, j) end)
      case("concat default", function() return table.concat(copy(base, n)) end)
      case("concat sep", function() return table.concat(copy(base, n), "--") end)
      case("concat from " .. i, function() return table.concat(copy(base, n), ";", i) end)
      case("insert end", function() local t = copy(base, n) table.insert(t, 99) return list(t) end)
      case("insert at " .. i, function() local t = copy(base, n) table.insert(t, i, 99) return list(t, n + 2) end)
      case("remove", function() local t = copy(base, n) local v = table.remove(t) return v, list(t, n + 1) end)
      case("remove at " .. i, function() local t = copy(base, n) local v = table.remove(t, i) return v, list(t, n + 1) end)
      local f, e, to = random(-2, n + 2), random(-2, n + 2), random(-2, n + 4)
      case("move self " .. f .. " " .. e .. " " .. to, function() local t = copy(base, n) table.move(t, f, e, to) return list(t, n + 6) end)
      case("move other", function() local d = table.move(copy(base, n), f, e, to, { 0, 0, 0 }) return list(d, n + 6) end)
      case("move returns", function() local t = copy(base, n) return table.move(t, f, e, to) == t end)
      case("unpack " .. i .. " " .. j, function() return table.unpack(copy(base, n), i, j) end)
      case("unpack default", function() return table.unpack(copy(base, n)) end)
      case("unpack from " .. i, function() return table.unpack(copy(base, n), i) end)
      case("proxy concat", function() return table.concat(proxy(base, n), ",", i, j) end)
      case("proxy insert", function() local t = proxy(base, n) table.insert(t, i, 99) return list(t, n + 2) end)
      case("proxy insert end", function() local t = proxy(base, n) table.insert(t, 99) return list(t, n + 2) end)
      case("proxy remove", function() local t = proxy(base, n) local v = table.remove(t, i) return v, list(t, n + 1) end)
      case("proxy move", function() local t = proxy(base, n) table.move(t, f, e, to) return list(t, n + 6) end)
      case("proxy move into", function() local d = proxy({}, 0) table.move(base, f, e, to, d) return list(d, n + 6) end)
      case("proxy unpack", function() return table.unpack(proxy(base, n), i, j) end)
    end

    -- numbers are written as tostring writes them (the fork writes them itself)
    local numbers = { 0, -0.0, 0.0, 1, -1, 0.1, 1 / 3, -2.5, 1e15, 1e16, 2 ^ 53, 2 ^ 63, -2 ^ 63, 1e100, 1e-300,
                      5e-324, maxinteger, mininteger, huge, -huge, 3.0, -7.0, 123456789012345678, 0 / 0, 2 ^ -1074,
                      1e14, 1e14 + 0.5, 123456.789e3, -1e-5 }
    case("concat numbers", function() return table.concat(numbers, " ") end)
    case("concat numbers and strings", function() return table.concat({ 1, "a", 2.0, "b", -0.0 }, ",") end)
    for _ = 1, 300 do
      local t = {}
      for i = 1, random(0, 8) do
        local k = random(1, 4)
        t[i] = k == 1 and random(-1000, 1000) or k == 2 and random(-1000, 1000) / random(1, 64)
               or k == 3 and random(-5, 5) * 10.0 ^ random(-20, 20) or tostring(random(1, 9))
      end
      case("concat random numbers", function() return table.concat(t, ";") end)
    end
    local odd = { 1, "x", {}, nil, true }
    local len_mt = function(n) return { __len = function() return n end } end
    case("concat bad value", function() return table.concat({ 1, {}, 3 }) end)
    case("concat bad value 2", function() return table.concat({ 1, 2, true }, ",") end)
    case("concat nil", function() return table.concat(odd, ",", 1, 4) end)
    case("concat not a table", function() return table.concat(5) end)
    case("concat a string", function() return table.concat("abc") end)
    case("concat number sep", function() return table.concat({ 1, 2, 3 }, 0) end)
    case("concat bad sep", function() return table.concat({ 1, 2 }, {}) end)
    case("concat nil sep", function() return table.concat({ 1, 2 }, nil, 2) end)
    case("concat float range", function() return table.concat({ 1, 2, 3 }, ",", 1.0, 2.0) end)
    case("concat bad range", function() return table.concat({ 1, 2, 3 }, ",", 1.5) end)
    case("concat string range", function() return table.concat({ 1, 2, 3 }, ",", "2", "3") end)
    case("concat empty range", function() return table.concat({ 1, 2, 3 }, ",", 3, 2) end)
    case("concat at maxinteger", function() return table.concat({}, ",", maxinteger, maxinteger) end)
    case("concat to maxinteger", function() return table.concat({}, ",", maxinteger - 1, maxinteger) end)
    case("concat at mininteger", function() return table.concat({ [mininteger] = "m" }, ",", mininteger, mininteger) end)
    case("concat __len float", function() return table.concat(setmetatable({ "a", "b" }, len_mt(2.0))) end)
    case("concat __len bad", function() return table.concat(setmetatable({ "a", "b" }, len_mt(2.5))) end)
    case("concat __len string", function() return table.concat(setmetatable({ "a", "b" }, len_mt("1"))) end)
    case("concat __index only", function() return table.concat(setmetatable({}, { __index = function(_, k) return k end }), ",", 1, 3) end)
    case("concat direct", table.concat, { 1, {} })
    case("concat long", function() local t = {} for i = 1, 20000 do t[i] = i % 7 == 0 and i or "s" .. i end return table.concat(t, ", ") end)

    case("insert no args", function() return table.insert() end)
    case("insert one arg", function() return table.insert({}) end)
    case("insert wrong args", function() return table.insert({}, 1, 2, 3) end)
    case("insert not a table", function() return table.insert(1, 2) end)
    case("insert bad pos", function() return table.insert({}, "x", 2) end)
    case("insert string pos", function() local t = { 1, 2 } table.insert(t, "2", 9) return list(t) end)
    case("insert float pos", function() return table.insert({}, 1.5, 2) end)
    case("insert at 0", function() return table.insert({ 1 }, 0, 2) end)
    case("insert past the end", function() return table.insert({ 1 }, 3, 2) end)
    case("insert at mininteger", function() return table.insert({ 1 }, mininteger, 2) end)
    case("insert nil", function() local t = { 1, 2 } table.insert(t, 1, nil) return list(t, 3) end)
    case("insert __len maxinteger", function()
      local t = setmetatable({}, len_mt(maxinteger))
      table.insert(t, "v")
      return rawget(t, mininteger), rawget(t, maxinteger)
    end)
    case("insert __len maxinteger at 1", function()
      local t = setmetatable({}, len_mt(maxinteger))
      table.insert(t, 1, "v")
      return rawget(t, 1)
    end)
    case("insert direct", table.insert, {}, 5, 1)
    case("insert long", function()
      local t = {}
      for i = 1, 2000 do table.insert(t, 1, i) end
      return t[1], t[1000], t[2000], #t
    end)

    case("remove empty", function() local t = {} return table.remove(t), table.remove(t, 0), table.remove(t, 1) end)
    case("remove bad", function() return table.remove({}, 3) end)
    case("remove negative", function() return table.remove({ 1 }, -1) end)
    case("remove past the end", function() local t = { 1, 2 } return table.remove(t, 3), list(t, 3) end)
    case("remove too far", function() return table.remove({ 1, 2 }, 4) end)
    case("remove string pos", function() local t = { 1, 2, 3 } return table.remove(t, "2"), list(t, 3) end)
    case("remove float pos", function() return table.remove({ 1, 2 }, 1.5) end)
    case("remove not a table", function() return table.remove("abc") end)
    case("remove nil", function() return table.remove() end)
    case("remove __len 0 at 0", function() return table.remove(setmetatable({ [0] = "z" }, len_mt(0)), 0) end)
    case("remove direct", table.remove, {}, 2)
    case("remove long", function()
      local t = {}
      for i = 1, 3000 do t[i] = i end
      for _ = 1, 1000 do table.remove(t, 1) end
      return t[1], t[2000], t[2001], #t
    end)

    case("move no dest", function() return table.move({}, 1, 2) end)
    case("move no args", function() return table.move() end)
    case("move huge", function() return table.move({}, mininteger, maxinteger, 1) end)
    case("move from 0 to maxinteger", function() return table.move({}, 0, maxinteger, 1) end)
    case("move wrap", function() return table.move({ 1, 2 }, 1, 2, maxinteger) end)
    case("move to maxinteger", function() local d = table.move({ 1 }, 1, 1, maxinteger, {}) return d[maxinteger] end)
    case("move at mininteger", function() local d = table.move({ [mininteger] = 5 }, mininteger, mininteger, 1, {}) return d[1] end)
    case("move bad dest", function() return table.move({}, 1, 2, 1, 5) end)
    case("move nil dest", function() local t = { 1, 2, 3 } table.move(t, 1, 2, 2, nil) return list(t, 4) end)
    case("move from a string", function() local d = table.move("abc", 1, 2, 1, { 7, 8 }) return list(d, 2) end)
    case("move float args", function() return table.move({ 1 }, 1.0, 1, 2.5) end)
    case("move string args", function() local d = table.move({ 1, 2 }, "1", "2", "3", {}) return list(d, 4) end)
    case("move overlap up", function() local t = { 1, 2, 3, 4, 5 } table.move(t, 1, 4, 2) return list(t, 5) end)
    case("move overlap down", function() local t = { 1, 2, 3, 4, 5 } table.move(t, 2, 5, 1) return list(t, 5) end)
    case("move read-only dest", function()
      return table.move({ 1 }, 1, 1, 1, setmetatable({}, { __newindex = function() error("read-only") end }))
    end)
    case("move direct", table.move, {}, 1, 2, 1, "x")
    case("move long", function()
      local t = {}
      for i = 1, 20000 do t[i] = i end
      table.move(t, 1, 19999, 2)
      table.move(t, 5000, 20000, 1, t)
      return t[1], t[2], t[15000], t[15001], t[20000]
    end)

    case("unpack too many", function() return table.unpack({}, 1, 1e8) end)
    case("unpack far too many", function() return table.unpack({}, 1, 2e6) end)
    case("unpack extremes", function() return table.unpack({}, maxinteger, mininteger) end)
    case("unpack at maxinteger", function() return table.unpack({ [maxinteger] = "x" }, maxinteger, maxinteger) end)
    case("unpack whole range", function() return table.unpack({}, mininteger, maxinteger) end)
    case("unpack near mininteger", function() return table.unpack({}, mininteger, mininteger + 2) end)
    case("unpack negative", function() return table.unpack({ [-1] = "a", [0] = "b", "c" }, -1, 1) end)
    case("unpack float", function() return table.unpack({ 1, 2 }, 1.5) end)
    case("unpack float end", function() return table.unpack({ 1, 2 }, 1, 2.0) end)
    case("unpack string", function() return table.unpack("abc") end)
    case("unpack string range", function() return table.unpack("abc", 1, 2) end)
    case("unpack nil", function() return table.unpack(nil) end)
    case("unpack nil range", function() return table.unpack(nil, 1, 2) end)
    case("unpack nil j", function() return table.unpack({ 1, 2, 3 }, 2, nil) end)
    case("unpack bad j", function() return table.unpack({ 1, 2, 3 }, 1, {}) end)
    case("unpack __len", function() return table.unpack(setmetatable({ 1, 2, 3 }, len_mt(2))) end)
    case("unpack many", function() local n = select("#", table.unpack({}, 1, 10000)) return n end)
    case("unpack direct", table.unpack, {}, 1, "x")
    """#

    /// sort: every size class, orders, comparators and errors compared exactly, and the
    /// cases where the fork differs on purpose compared by what both must agree on.
    static let sort = #"""
    local proxy_mt = {
      __index = function(t, k) return rawget(t, "_" .. tostring(k)) end,
      __newindex = function(t, k, v) rawset(t, "_" .. tostring(k), v) end,
      __len = function(t) return rawget(t, "n") or 0 end,
    }
    local lt_mt = { __lt = function(a, b) return a.k < b.k end }
    -- 1..n in a random order
    local function shuffled(n)
      local t = {}
      for i = 1, n do t[i] = i end
      for i = n, 2, -1 do
        local k = random(1, i)
        t[i], t[k] = t[k], t[i]
      end
      return t
    end
    local function sorted(t, less) table.sort(t, less) return list(t) end

    for round = 1, 300 do
      local n = random(0, 12)
      local base = {}
      for i = 1, n do base[i] = random(1, 20) end
      local function copy() local t = {} for i = 1, n do t[i] = base[i] end return t end
      case("sort " .. n, function() return sorted(copy()) end)
      case("sort desc", function() return sorted(copy(), function(a, b) return a > b end) end)
      case("sort truthy", function() return sorted(copy(), function(a, b) return a < b and 1 or nil end) end)
      case("sort strings", function()
        local t = copy()
        for k = 1, n do t[k] = tostring(t[k]) end
        return sorted(t)
      end)
      case("sort floats", function()
        local t = copy()
        for k = 1, n do t[k] = t[k] / 3 end
        return sorted(t)
      end)
      case("sort __lt", function()
        local keys, t = shuffled(n), {}
        for k = 1, n do t[k] = setmetatable({ k = keys[k] }, lt_mt) end
        table.sort(t)
        for k = 1, n do t[k] = t[k].k end
        return list(t)
      end)
      case("sort proxy", function()
        local t = setmetatable({ n = n }, proxy_mt)
        for k = 1, n do t[k] = base[k] end
        table.sort(t, function(a, b) return a > b end)
        return list(t, n)
      end)
      case("sort a range", function()
        local t = copy()
        return sorted(setmetatable(t, { __len = function() return n // 2 end }))
      end)
    end

    local shapes = {
      random = function(n) local t = {} for i = 1, n do t[i] = random(1, n // 2 + 1) end return t end,
      distinct = function(n) return shuffled(n) end,
      sorted = function(n) local t = {} for i = 1, n do t[i] = i end return t end,
      reversed = function(n) local t = {} for i = 1, n do t[i] = n - i end return t end,
      equal = function(n) local t = {} for i = 1, n do t[i] = 7 end return t end,
      pipe = function(n) local t = {} for i = 1, n do t[i] = i <= n // 2 and i or n - i end return t end,
      saw = function(n) local t = {} for i = 1, n do t[i] = i % 5 end return t end,
      two = function(n) local t = {} for i = 1, n do t[i] = random(0, 1) end return t end,
      strings = function(n) local t = {} for i = 1, n do t[i] = "k" .. random(1, n) end return t end,
    }
    local shape_names = { "random", "distinct", "sorted", "reversed", "equal", "pipe", "saw", "two", "strings" }
    for _, size in ipairs { 1, 2, 3, 4, 5, 7, 50, 99, 100, 101, 128, 129, 1000, 5000 } do
      for _, name in ipairs(shape_names) do
        local base = shapes[name](size)
        local function copy() local t = {} for i = 1, size do t[i] = base[i] end return t end
        case("sort " .. name .. " " .. size, function() return sorted(copy()) end)
        case("sort " .. name .. " desc " .. size, function() return sorted(copy(), function(a, b) return a > b end) end)
      end
    end

    case("sort bad cmp", function() return table.sort({ 3, 2, 1 }, 5) end)
    case("sort bad cmp, one element", function() return table.sort({ 1 }, 5) end)
    case("sort bad cmp, empty", function() return table.sort({}, "x") end)
    case("sort nil cmp", function() local t = { 2, 1 } table.sort(t, nil) return list(t) end)
    case("sort mixed", function() return table.sort({ 3, "a", 1 }) end)
    case("sort mixed 2", function() return table.sort({ "a", 1 }) end)
    case("sort tables", function() return table.sort({ {}, {} }) end)
    case("sort not a table", function() return table.sort("abc") end)
    case("sort nil", function() return table.sort() end)
    case("sort cmp error", function() return table.sort({ 1, 2, 3 }, function() error("cmp") end) end)
    case("sort cmp error object", function() return table.sort({ 1, 2 }, function() error({}) end) end)
    case("sort __lt error", function()
      return table.sort({ setmetatable({}, { __lt = function() error("lt") end }), setmetatable({}, {}) })
    end)
    for _, n in ipairs { 2 ^ 31 - 1, 2 ^ 31, maxinteger, 2 ^ 31 - 2 } do
      case("sort __len " .. n, function()
        local t = setmetatable({}, { __len = function() return n end, __index = function() error("read") end })
        return table.sort(t)
      end)
    end
    case("sort __len float", function() return table.sort(setmetatable({ 2, 1 }, { __len = function() return 2.5 end })) end)
    case("sort read-only", function()
      return table.sort(setmetatable({}, { __len = function() return 2 end, __index = function(_, k) return 3 - k end,
                                           __newindex = function() error("read-only") end }))
    end)
    case("sort direct", table.sort, { 2, 1 }, true)

    -- Where the fork differs on purpose (see LibraryDifferenceTests), the cases record only
    -- what both sorts must agree on.

    -- whether t[1..n] holds each element of original[1..n] once (elements are tables)
    local function permutation(t, original, n)
      local count = {}
      for i = 1, n do
        local v = original[i]
        count[v] = (count[v] or 0) + 1
      end
      for i = 1, n do
        local v = t[i]
        if not count[v] or count[v] == 0 then return false end
        count[v] = count[v] - 1
      end
      return true
    end
    local function records(keys)
      local t, copy = {}, {}
      for i = 1, #keys do
        t[i] = { k = keys[i], id = i }
        copy[i] = t[i]
      end
      return t, copy
    end
    local by_key = function(a, b) return a.k < b.k end
    local keyed_mt = { __lt = by_key }

    -- Elements that compare equal may end in another order than Lua's: compared are the
    -- keys in order, and that every element is still there.
    for _, size in ipairs { 2, 3, 10, 50, 100, 101, 300, 1000, 5000 } do
      for _, spread in ipairs { 2, 5, size } do
        local keys = {}
        for i = 1, size do keys[i] = random(1, spread) end
        case("sort equal keys " .. size .. " " .. spread, function()
          local t, original = records(keys)
          table.sort(t, by_key)
          local got = {}
          for i = 1, size do got[i] = t[i].k end
          return list(got), permutation(t, original, size)
        end)
        case("sort equal keys by __lt " .. size .. " " .. spread, function()
          local t, original = records(keys)
          for i = 1, size do setmetatable(t[i], keyed_mt) end
          table.sort(t)
          local got = {}
          for i = 1, size do got[i] = t[i].k end
          return list(got), permutation(t, original, size)
        end)
        -- numbers that are equal but look different: 1 and 1.0, 0 and -0.0
        case("sort equal numbers " .. size .. " " .. spread, function()
          local t = {}
          for i = 1, size do t[i] = keys[i] % 2 == 0 and keys[i] // 2 or (keys[i] // 2) + 0.0 end
          for i = 1, size, 7 do t[i] = t[i] == 0 and -0.0 or t[i] end
          table.sort(t)
          for i = 1, size do t[i] = math.tointeger(t[i]) or t[i] end
          return list(t)
        end)
      end
    end

    -- An invalid order function: each sort either finishes, with every element still there,
    -- or raises Lua's "invalid order function for sorting" (or runs into a comparison that
    -- fails); the fork and Lua need not agree on which.
    local function generator(x)
      return function()
        x = (x * 1103515245 + 12345) % 2147483648
        return x % 2 == 0
      end
    end
    local invalid = {
      always = function() return function() return true end end,
      never_then_always = function() local calls = 0 return function() calls = calls + 1 return calls > 3 end end,
      less_or_equal = function() return function(a, b) return a.k <= b.k end end,
      greater_or_equal = function() return function(a, b) return a.k >= b.k end end,
      coin = function() return generator(7) end,
      nan_keys = function() return by_key end,
    }
    local invalid_names = { "always", "never_then_always", "less_or_equal", "greater_or_equal", "coin", "nan_keys" }
    for _, size in ipairs { 2, 3, 4, 5, 10, 50, 100, 101, 300 } do
      for _, name in ipairs(invalid_names) do
        local keys = {}
        for i = 1, size do keys[i] = name == "nan_keys" and i % 3 == 0 and 0 / 0 or random(1, 4) end
        case("sort invalid order " .. name .. " " .. size, function()
          local t, original = records(keys)
          local ok, err = pcall(table.sort, t, invalid[name]())
          return permutation(t, original, size) and (ok or err == "invalid order function for sorting")
        end)
      end
    end
    -- numbers with NaN among them, by the default order (NaN is neither less nor greater)
    for _, size in ipairs { 2, 3, 10, 100, 300 } do
      local base = {}
      for i = 1, size do base[i] = i % 4 == 0 and 0 / 0 or random(1, 9) end
      case("sort with NaN " .. size, function()
        local t = {}
        for i = 1, size do t[i] = base[i] end
        local ok, err = pcall(table.sort, t)
        local count = {}
        for i = 1, size do
          local v = base[i] == base[i] and base[i] or "nan"
          count[v] = (count[v] or 0) + 1
        end
        for i = 1, size do
          local v = t[i] == t[i] and t[i] or "nan"
          if not count[v] or count[v] == 0 then return false end
          count[v] = count[v] - 1
        end
        return ok or err == "invalid order function for sorting"
      end)
    end
    -- numbers and strings mixed: which two are compared first may differ
    for _, size in ipairs { 4, 10, 100 } do
      local base = {}
      for i = 1, size do base[i] = i % 3 == 0 and tostring(i) or i end
      case("sort mixed types " .. size, function()
        local t = {}
        for i = 1, size do t[i] = base[i] end
        local ok, err = pcall(table.sort, t)
        return ok, err == "attempt to compare number with string" or err == "attempt to compare string with number"
      end)
    end
    """#
}
