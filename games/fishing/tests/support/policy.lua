-- Players for the fishing tests: they see what the screen shows (the phase, the wallet, the
-- hook's state, the landing marker, the fish on screen with their kind, way and speed), never
-- the game's random draws or bite rolls.

local policy = {}

-- The fishing article's kinds as a player knows them: bite chance in % and coins.
policy.KINDS = {
  croaker = { chance = 80, coins = 2 }, grouper = { chance = 50, coins = 5 },
  snapper = { chance = 30, coins = 10 }, striped = { chance = 15, coins = 20 },
  coral = { chance = 5, coins = 50 }, shark = { chance = 1, coins = 100 },
}

-- A small LCG of the test's own (not the game's math.random).
function policy.rng(seed)
  local x = seed * 7919 + 12345
  return function(n)
    x = (x * 1103515245 + 12345) % 2147483648
    return x % n + 1
  end
end

-- The coins a cast can expect `ahead` seconds from now, landing at `lx`, from the fish a
-- player sees now (on screen): the hook lands 1 s after the cast and waits 3, 4 or 5 s, the
-- last without bites, so a fish whose leading edge reaches the landing point 1 to 3 s after
-- the cast passes the open hook surely, 3 to 4 s with a chance of 2 in 3, 4 to 5 s with 1 in
-- 3; each counts its bite chance times its coins.
function policy.value(s, lx, ahead, width)
  lx, ahead = lx or s.landing.x, ahead or 0
  local total = 0
  for _, b in ipairs(s.swimming) do
    if b.vx and b.vx ~= 0 and (not width or (b.x + b.w > 0 and b.x < width)) then
      local edge = (b.dir > 0 and b.x + b.w or b.x) + b.vx * ahead
      local t = (lx - edge) / b.vx
      local k = policy.KINDS[b.kind]
      local v = k.chance * k.coins / 100
      if t >= 1.05 and t <= 2.95 then
        total = total + v
      elseif t > 2.95 and t <= 3.95 then
        total = total + v * 2 / 3
      elseif t > 3.95 and t <= 4.95 then
        total = total + v / 3
      end
    end
  end
  return total
end

-- The article's swing, one tick on: the angle and whether it swings back.
local LIMIT = math.pi / 4
local function swing(a, back)
  local d = 1.8 * math.cos(1.5 * a) * 0.01
  if back then
    a = a - d
    if a < -LIMIT then back = false end
  else
    a = a + d
    if a > LIMIT then back = true end
  end
  return a, back
end

-- The best moment to cast within the next `horizon` seconds, as a player who knows the swing
-- and watches the fish would pick it: the ticks from now, and the value then.
function policy.plan(s, g, horizon)
  local _, _, width = g:size()
  -- the landing point's x is the hook's angle mapped by the layout: recover its scale from now
  local a, back = s.hook_angle, s.swinging_back
  -- x = centre - k * tan(angle): the centre is the middle of the canvas, and the reach of the
  -- swing in the water (110 of the article's 145 points of the hook's depth) gives k
  local centre = width / 2
  local scale = (s.water.reach_right - centre) * 145 / 110
  local best_tick, best_value = 0, -1
  for tick = 0, math.floor(horizon * 60) do
    if tick > 0 then a, back = swing(a, back) end
    if scale and tick % 2 == 0 then
      local lx = centre - scale * math.tan(a)
      if lx >= s.water.reach_left and lx <= s.water.reach_right then
        local v = policy.value(s, lx, tick / 60, width)
        if v > best_value then best_tick, best_value = tick, v end
      end
    end
  end
  return best_tick, best_value
end

-- Plays one day from the ready screen (or the end card) to its end card. `act(s, g)` is
-- called while the day is on; it may queue input and returns how many steps to run before it
-- looks again (the input goes with the first). Returns the day's score, its end, the casts
-- it charged and the steps it took.
function policy.day(g, act, limit)
  local s = g:state()
  if s.phase == "over" then
    -- the end card takes presses after a second
    for _ = 1, 10 do
      g:key("r"):step(10)
      s = g:state()
      if s.phase ~= "over" then break end
    end
  end
  local steps, expected = 0, 0
  limit = limit or 60 * 60 * 15
  local start_casts = s.casts
  local rolls = s.rolls
  while steps < limit do
    local n = act(s, g) or 1
    g:step(n)
    steps = steps + n
    s = g:state()
    for kind, n in pairs(s.rolls) do
      local k = policy.KINDS[kind]
      expected = expected + (n - rolls[kind]) * k.chance / 100 * k.coins
    end
    rolls = s.rolls
    if s.phase == "over" then break end
  end
  return { score = s.score, reason = s.reason, casts = s.casts - start_casts, lost = s.lost, steps = steps,
           expected = expected, state = s }
end

-- Idle: starts the day with one cast, then does nothing.
function policy.idle()
  local started = false
  return function(s, g)
    if not started then
      g:key("space")
      started = true
      return 1
    end
    return 60
  end
end

-- Random: about 4 presses a second, each one of the game's inputs chosen uniformly (the cast
-- keys, r, and a click anywhere on the screen), at random moments.
function policy.random(seed)
  local rnd = policy.rng(seed)
  local keys = { "space", "enter", "down", "r", "click" }
  return function(s, g)
    local k = keys[rnd(#keys)]
    if k == "click" then
      local cols, rows = g:size()
      g:click(rnd(cols) - 1, rnd(rows) - 1)
    else
      g:key(k)
    end
    return rnd(29)  -- 1 to 29 steps: 15 on average, 4 presses a second
  end
end

-- Random-time casts: when the hook swings again, waits a random 0 to 3 s, then casts.
function policy.random_time(seed)
  local rnd = policy.rng(seed)
  local waited = false
  return function(s, g)
    if s.hook ~= "swinging" then
      waited = false
      return 10
    end
    if not waited then
      waited = true
      return rnd(180)
    end
    g:key("space")
    waited = false
    return 1
  end
end

-- Skilled: watches the fish on screen and the swing, and casts at the best moment of the next
-- second and a half when the landing point will then be on the way of fish worth at least
-- `want` coins, asking less as the clock runs down.
function policy.skilled(_, want)
  want = want or 12
  local target
  return function(s, g)
    if s.hook ~= "swinging" then
      target = nil
      return 5
    end
    if target then
      target = nil
      g:key("space")
      return 1
    end
    local clock = s.phase == "play" and s.cast_in or 99
    local need = want
    if clock <= 1 then
      need = 0
    elseif clock <= 5 then
      need = want * 0.6
    end
    local tick, value = policy.plan(s, g, math.min(1.5, math.max(0, clock - 1)))
    if value < need then return 15 end
    if tick == 0 then
      g:key("space")
      return 1
    end
    target = true
    return tick
  end
end

return policy
