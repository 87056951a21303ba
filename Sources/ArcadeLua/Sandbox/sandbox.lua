local natives = ...
local rawload, error, type, select, tostring = load, error, type, select, tostring
local concat, setmetatable = table.concat, setmetatable

-- What the sandbox removes reads as nil, as in a Lua built without it, so libraries
-- that feature-test (`debug and debug.getmetatable or getmetatable`) load; using one
-- anyway fails with Lua's own message, to which the host adds a hint (LuaVM+Hints).
dofile, loadfile, string.dump = nil, nil, nil

-- `load` is the arcade's (CLuaLib's baselib.c): text chunks only, since a crafted binary
-- chunk can crash the VM, and parsed a piece at a time within the time budget.

-- Game tables' __gc functions run as a callback of their own (see arcade_gc_defer).
_ENV.setmetatable = natives.setmetatable

-- The time budget stops the Lua thread that runs when it expires, so resumes say which.
local co_create, co_resume, co_running, co_status, co_close =
  coroutine.create, coroutine.resume, coroutine.running, coroutine.status, coroutine.close
local mark = natives.mark_running
local function resumed(caller, ...)
  mark(caller)
  return ...
end
function coroutine.resume(co, ...)
  local caller = co_running()
  mark(co)
  return resumed(caller, co_resume(co, ...))
end
local function unwrapped(caller, co, ok, ...)
  mark(caller)
  if ok then return ... end
  local err = ...
  if co_status(co) == "dead" then co_close(co) end
  -- as 5.4's wrap: a message gets the position of the call into the coroutine
  if type(err) == "string" then error(err, 2) end
  error(err, 0)
end
function coroutine.wrap(f)
  local co = co_create(f)
  return function(...)
    local caller = co_running()
    mark(co)
    return unwrapped(caller, co, co_resume(co, ...))
  end
end

local gc = collectgarbage
local gcAllowed = { collect = true, count = true, step = true, isrunning = true }
function collectgarbage(opt, ...)
  if opt == nil or gcAllowed[opt] then return gc(opt, ...) end
  error("collectgarbage('" .. tostring(opt) .. "') is not available to games", 2)
end

print = function(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = tostring((select(i, ...))) end
  natives.log(concat(parts, "\t"))
end

math.random = natives.random
math.randomseed = natives.randomseed

os = { clock = natives.clock }

-- require: modules come only from the game's own folder (and the shared helpers).
local loaded = {}
local loading = {}
function require(name)
  if type(name) ~= "string" then
    error("bad argument #1 to 'require' (string expected, got " .. type(name) .. ")", 2)
  end
  local cached = loaded[name]
  if cached ~= nil then return cached end
  if loading[name] then error("module '" .. name .. "' requires itself (a require cycle)", 2) end
  local source, chunk = natives.read_module(name)
  if source == nil then error(chunk, 2) end
  local fn, err = rawload(source, "@" .. chunk, "t")
  if fn == nil then error(err, 0) end
  loading[name] = true
  local _ <close> = setmetatable({}, { __close = function() loading[name] = nil end })
  -- as Lua 5.4: the chunk gets the name and the loader data (where it was found), and
  -- require returns both the first time
  local result = fn(name, chunk)
  if result == nil then result = true end
  loaded[name] = result
  return result, chunk
end

-- the host's handle on the sandbox
local take_finalizers, pcall = natives.take_finalizers, pcall
return {
  forget_modules = function()
    for name in next, loaded do loaded[name] = nil end
  end,
  -- Runs the queued finalizers. An error in one is logged, as Lua only warns about
  -- them; a spent budget still stops the lot, since the hook raises again at once.
  run_finalizers = function()
    local queue = take_finalizers()
    if queue == nil then return end
    for i = 1, #queue, 2 do
      local ok, err = pcall(queue[i + 1], queue[i])
      if not ok then
        local shown_ok, shown = pcall(tostring, err)
        natives.log("error in __gc: " .. (shown_ok and type(shown) == "string" and shown or "(an error object)"))
      end
    end
  end,
}
