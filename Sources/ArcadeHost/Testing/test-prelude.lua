local natives, Game = ...
local type, tostring, select, error, pairs, ipairs, setmetatable = type, tostring, select, error, pairs, ipairs, setmetatable
local mtype, floor = math.type, math.floor
local sort, concat = table.sort, table.concat
local where, fail_with, frame_note = natives.where, natives.fail, natives.frame_note

-- Declaring tests ------------------------------------------------------------------------

local tests, named = {}, {}

function test(name, fn)
  if type(name) ~= "string" or name == "" then
    error("test(name, fn): the name must be a non-empty string, got " .. type(name), 2)
  end
  if type(fn) ~= "function" then error("test(name, fn): fn must be a function, got " .. type(fn), 2) end
  if named[name] then error("test(name, fn): this file already has a test named '" .. name .. "'", 2) end
  named[name] = true
  tests[#tests + 1] = { name = name, fn = fn }
end

-- Showing values -----------------------------------------------------------------------

local function is_identifier(k)
  return type(k) == "string" and k:match("^[%a_][%w_]*$") ~= nil
end

local escapes = { ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t", ['"'] = '\\"', ["\\"] = "\\\\" }
local function quote(s)
  if #s > 200 then s = s:sub(1, 197) .. "..." end
  return '"' .. s:gsub('[%c"\\]', function(c) return escapes[c] or ("\\" .. c:byte()) end) .. '"'
end

-- The keys of t that are not its sequence 1..#t, in a stable order.
local function other_keys(t)
  local n, keys = #t, {}
  for k in pairs(t) do
    if not (mtype(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) < type(b) end
    if type(a) == "number" or type(a) == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  return keys
end

local function key_text(k)
  return is_identifier(k) and k or "[" .. (type(k) == "string" and quote(k) or tostring(k)) .. "]"
end

local function show(v, depth)
  local t = type(v)
  if t == "string" then return quote(v) end
  if t ~= "table" then return tostring(v) end
  depth = depth or 0
  if depth >= 3 then return "{...}" end
  local parts = {}
  for i = 1, #v do
    if #parts == 10 then break end
    parts[#parts + 1] = show(v[i], depth + 1)
  end
  for _, k in ipairs(other_keys(v)) do
    if #parts == 10 then break end
    parts[#parts + 1] = key_text(k) .. " = " .. show(v[k], depth + 1)
  end
  local more = #v + #other_keys(v) - #parts
  if more > 0 then parts[#parts + 1] = "... (" .. more .. " more)" end
  return "{" .. concat(parts, ", ") .. "}"
end

-- Deep equality: nil when equal, else where they first differ.
local function mismatch(got, want, path, depth)
  if got == want then return nil end
  if type(got) ~= "table" or type(want) ~= "table" then return { path = path, got = got, want = want } end
  if depth > 40 then return { path = path, got = got, want = want, deep = true } end
  for _, k in ipairs(other_keys(want)) do
    local d = mismatch(got[k], want[k], path .. (is_identifier(k) and "." .. k or "[" .. show(k) .. "]"), depth + 1)
    if d then return d end
  end
  for i = 1, #want do
    local d = mismatch(got[i], want[i], path .. "[" .. i .. "]", depth + 1)
    if d then return d end
  end
  for i = #want + 1, #got do
    if got[i] ~= nil then return { path = path .. "[" .. i .. "]", got = got[i], want = nil } end
  end
  for _, k in ipairs(other_keys(got)) do
    if want[k] == nil then
      return { path = path .. (is_identifier(k) and "." .. k or "[" .. show(k) .. "]"), got = got[k], want = nil }
    end
  end
  return nil
end

-- Expectations -------------------------------------------------------------------------

local Expectation = {}

local function new_expectation(value, label, negated)
  return setmetatable({ value = value, label = label, negated = negated }, Expectation)
end

Expectation.__index = function(e, key)
  if key == "never" then return new_expectation(e.value, e.label, not e.negated) end
  return Expectation[key]
end

-- Only the first value is checked, so expect(g:find("x")) reads the column; a second
-- value is the label only when it is a string.
function expect(value, label)
  return new_expectation(value, type(label) == "string" and label or nil, false)
end

-- Fails the running test with "file:line: [label: ]message (frame N)".
local function fail(e, message)
  fail_with(where() .. (e.label and e.label .. ": " or "") .. message .. frame_note())
end

-- Passes when ok (or, under `never`, when not ok); otherwise fails with what was expected
-- (`wanted`, e.g. "a number above 3") and what the value was.
local function judge(e, ok, wanted, got_text)
  if (ok and true or false) == not e.negated then return e end
  fail(e, "expected " .. (e.negated and "not " or "") .. wanted .. ", got " .. (got_text or show(e.value)))
  return e
end

local function number_or_fail(e, x, matcher)
  if type(x) ~= "number" then error(matcher .. ": the bound must be a number, got " .. type(x), 3) end
end

function Expectation:to_equal(want)
  local d = mismatch(self.value, want, "", 0)
  if d == nil or d.path == "" or self.negated then return judge(self, d == nil, show(want)) end
  return judge(self, false, show(want), show(self.value) .. " (at " .. d.path:gsub("^%.", "") .. ": expected "
    .. show(d.want) .. ", got " .. show(d.got) .. ")")
end

function Expectation:to_be(want)
  return judge(self, self.value == want, show(want))
end

function Expectation:to_be_truthy()
  return judge(self, self.value, "a true value (not nil or false)")
end

function Expectation:to_be_falsy()
  return judge(self, not self.value, "nil or false")
end

function Expectation:to_be_near(want, tolerance)
  number_or_fail(self, want, "to_be_near")
  tolerance = tolerance or 1e-9
  local v = self.value
  return judge(self, type(v) == "number" and math.abs(v - want) <= tolerance,
    "a number within " .. tostring(tolerance) .. " of " .. tostring(want))
end

local function compare(name, text, test)
  Expectation[name] = function(self, bound)
    number_or_fail(self, bound, name)
    local v = self.value
    return judge(self, type(v) == "number" and test(v, bound), "a number " .. text .. " " .. tostring(bound))
  end
end
compare("to_be_greater_than", "greater than", function(v, b) return v > b end)
compare("to_be_less_than", "less than", function(v, b) return v < b end)
compare("to_be_at_least", "of at least", function(v, b) return v >= b end)
compare("to_be_at_most", "of at most", function(v, b) return v <= b end)

function Expectation:to_be_between(low, high)
  number_or_fail(self, low, "to_be_between")
  number_or_fail(self, high, "to_be_between")
  local v = self.value
  return judge(self, type(v) == "number" and v >= low and v <= high,
    "a number from " .. tostring(low) .. " to " .. tostring(high))
end

function Expectation:to_contain(part)
  local v = self.value
  if type(v) == "string" then
    return judge(self, type(part) == "string" and v:find(part, 1, true) ~= nil, "a string containing " .. show(part))
  end
  local found = false
  if type(v) == "table" then
    for _, item in pairs(v) do
      if mismatch(item, part, "", 0) == nil then found = true break end
    end
  end
  return judge(self, found, "a table containing " .. show(part))
end

function Expectation:to_match(pattern)
  if type(pattern) ~= "string" then error("to_match: the pattern must be a string, got " .. type(pattern), 2) end
  local v = self.value
  return judge(self, type(v) == "string" and v:find(pattern) ~= nil, "a string matching " .. show(pattern))
end

function Expectation:to_have_length(n)
  number_or_fail(self, n, "to_have_length")
  local v = self.value
  local ok = (type(v) == "string" or type(v) == "table") and #v == n
  local got = (type(v) == "string" or type(v) == "table") and ("length " .. #v .. ": " .. show(v)) or show(v)
  return judge(self, ok, "length " .. tostring(n), got)
end

function Expectation:to_be_a(kind)
  if type(kind) ~= "string" then error("to_be_a: the type must be a string, got " .. type(kind), 2) end
  local v = self.value
  local is = type(v) == kind or (type(v) == "number" and mtype(v) == kind)
  return judge(self, is, "a value of type " .. kind, v == nil and "nil" or show(v) .. " (a " .. (mtype(v) or type(v)) .. ")")
end

function Expectation:to_fail(pattern)
  local fn = self.value
  if type(fn) ~= "function" then error("to_fail: expect() needs a function here, got " .. type(fn), 2) end
  local ok, err = pcall(fn)
  local message = not ok and tostring(err) or nil
  local matched = not ok and (pattern == nil or message:find(pattern, 1, true) ~= nil)
  return judge(self, matched, pattern and "an error containing " .. show(pattern) or "an error",
    ok and "no error" or show(message))
end

-- The game handle's Lua methods ------------------------------------------------------------

-- Steps until condition(state, game) is true (checked before each step) and returns the
-- steps taken; fails the test when it is still false after `limit` steps.
function Game.step_until(game, condition, limit)
  if type(condition) ~= "function" then
    error("step_until: the condition must be a function, got " .. type(condition), 2)
  end
  limit = limit or 3600
  if mtype(limit) ~= "integer" or limit < 0 then error("step_until: the limit must be a whole number of steps", 2) end
  for n = 0, limit do
    if condition(game:state(), game) then return n end
    if n < limit then game:step() end
  end
  fail_with(where() .. "step_until: the condition was still false after " .. limit .. " steps" .. frame_note())
end

-- The host's handle on this file's tests --------------------------------------------------

return {
  count = function() return #tests end,
  name = function(i) return tests[i].name end,
  -- a tail call: the test's traceback starts at the test function, named by its line
  run = function(i, context) return tests[i].fn(context) end,
}
