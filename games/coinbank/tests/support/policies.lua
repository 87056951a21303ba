-- The three players of the design's proof. Each sees only what a player sees: the pig's box
-- and speed, the drop point (the ring), whether the button is up, the HUD's numbers
-- (game.state mirrors them), the canvas size. None reads the game's random draws.

local policies = {}

-- A small LCG of the test's own, so the masher never draws from the game's math.random.
function policies.lcg(seed)
  local x = seed * 7919 + 17
  return function(n)
    x = (x * 1103515245 + 12345) % 2147483648
    return x % n
  end
end

-- Where the pig's middle is `t` seconds from now, walking at its speed and turning at the
-- screen's edges (mid-way turns cannot be foreseen: only their hop shows, just before).
local function pig_at(b, width, t)
  local lo, hi = b.w / 2 + 1, width - b.w / 2 - 1
  local len = hi - lo
  if len <= 0 or b.vx == 0 then return b.x + b.w / 2 end
  local u = (b.x + b.w / 2 - lo) / len + b.vx / len * t
  u = u % 2
  if u > 1 then u = 2 - u end
  return lo + u * len
end

-- The share of a burst pressed `delay` seconds from now that lands in the pig: coins land
-- from 1 s to 4 s after the press, evenly.
local function share(b, drop, width, delay)
  local hits, n = 0, 30
  for i = 0, n do
    local x = pig_at(b, width, delay + 1 + 3 * i / n)
    if math.abs(x - drop.x) <= b.w * 0.4 then hits = hits + 1 end
  end
  return hits / (n + 1)
end

-- Whether a skilled player presses now: the burst would land as well as any pressed later
-- in the pig's walk, and the pig is not hopping (it is about to turn).
function policies.skilled_wants(s, width)
  if s.phase ~= "play" or not s.button_visible or s.bank.hop then return false end
  local now = share(s.bank, s.drop, width, 0)
  if now == 0 then return false end
  local best = now
  for d = 0.1, 6, 0.1 do
    best = math.max(best, share(s.bank, s.drop, width, d))
  end
  return now >= best - 0.02
end

-- Plays one run from the start screen with `policy` ("idle", "random" or "skilled") and
-- returns the final state and the seconds the run lasted. `limit` caps the seconds.
function policies.play(t, policy, seed, opts)
  opts = opts or {}
  local g = t:start{ seed = seed, cols = opts.cols or 80, rows = opts.rows or 24 }
  local cols, rows, width = g:size()
  g:step()
  g:key("enter"):step()
  local rand = policies.lcg(seed)
  local limit = (opts.limit or 360) * 60
  local steps = 0
  local s = g:state()
  while s.phase == "play" and steps < limit do
    if policy == "random" then
      if rand(15) == 0 then               -- about 4 times a second
        local what = rand(4)
        if what == 0 then g:key("space")
        elseif what == 1 then g:key("enter")
        elseif what == 2 then g:key("k")
        else g:click(rand(cols), rand(rows)) end
      end
      g:step()
      steps = steps + 1
    elseif policy == "skilled" then
      if s.button_visible and policies.skilled_wants(s, width) then g:key("space") end
      g:step(3)
      steps = steps + 3
    else
      g:step(60)
      steps = steps + 60
    end
    s = g:state()
  end
  return s, steps / 60, g
end

return policies
