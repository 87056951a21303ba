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
