-- Last Circle, Wave 4 (GAMES.md "pressure from the first round"): points with a speed bonus,
-- a bar that runs faster from round 10, a key for every circle, distinct 256-colour entries,
-- a HUD in the pixel font from 40 rows, and three players who see only the screen.

local LABEL_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"
local SEEDS = { 1, 2, 3, 4, 5 }

local function cell_of(c)
  return math.floor(c.x), math.floor(c.y / 2)
end

local function until_stage(g, stage, limit)
  return g:step_until(function(s) return s.stage == stage end, limit or 600)
end

-- The test's own random numbers (a small LCG), never the game's math.random.
local function lcg(seed)
  local x = (seed * 2654435761 + 1) % 2147483648
  return function(n)
    x = (1103515245 * x + 12345) % 2147483648
    return (x // 65536) % n + 1
  end
end

-- Rule tests may name the answer (the last circle to join); the policies below may not.
-- Presses its key as soon as it is drawn (it shows once the circle starts to pop).
local function pick_answer(g)
  local s = g:state()
  local new = s.circles[#s.circles]
  local col, row = cell_of(new)
  local n = 0
  while g:cell(col, row) ~= new.key do
    g:step()
    n = n + 1
    assert(n < 30, "the key is never drawn")
  end
  g:key(new.key):step()
end

---------------------------------------------------------------------------------------------
-- Policies: idle, random and a perfect memory, one run each over five seeds

local SKILLED_ROUNDS = 20   -- a perfect memory never misses: its run is cut after 20 rounds

-- Idle: starts the run and does nothing.
local function idle_run(t, seed)
  local g = t:start{ seed = seed }
  g:key("enter"):step()
  g:step_until(function(s) return s.phase == "over" and s.card end, 60 * 60)
  return g:state().score, g:state().reason
end

-- Random: about four times a second a key of the game (every circle key, enter, space) or a
-- click on a random cell, half and half, from the start of the run to its end.
local function random_run(t, seed)
  local g = t:start{ seed = seed }
  local rnd = lcg(seed)
  local cols, rows = g:size()
  g:key("enter"):step()
  local steps = 0
  while g:state().phase ~= "over" and steps < 60 * 600 do
    if rnd(2) == 1 then
      local keys = rnd(#LABEL_KEYS + 2)
      local key = keys <= #LABEL_KEYS and LABEL_KEYS:sub(keys, keys) or (keys == #LABEL_KEYS + 1 and "enter" or "space")
      g:key(key)
    else
      g:click(rnd(cols) - 1, rnd(rows) - 1)
    end
    g:step(15)
    steps = steps + 15
  end
  return g:state().score, g:state().reason, g:state().round
end

-- A perfect memory: it remembers every circle it has seen on screen (by place) and picks the
-- one it has not seen before, about a second into the round once every circle has popped in.
-- It looks at the circles in an order of its own, never at their order in the state. Even
-- seeds play by key, odd seeds by mouse.
local function skilled_run(t, seed, cols, rows)
  local g = t:start{ seed = seed, cols = cols, rows = rows }
  local rnd = lcg(seed + 100)
  local seen = {}
  local function place(c) return string.format("%.3f %.3f", c.x, c.y) end
  local function remember(s)
    for _, c in ipairs(s.circles) do seen[place(c)] = true end
  end
  g:key("enter"):step()
  g:wait(1)
  remember(g:state())            -- the two circles to remember, popped in
  while g:state().phase == "play" and g:state().round <= SKILLED_ROUNDS do
    until_stage(g, "round")
    g:wait(0.8)                  -- every circle is in (delays up to 0.3 s, pops 0.5 s)
    local s = g:state()
    local order = {}
    for i = 1, #s.circles do order[i] = i end
    for i = #order, 2, -1 do
      local j = rnd(i)
      order[i], order[j] = order[j], order[i]
    end
    local new
    for _, i in ipairs(order) do
      if not seen[place(s.circles[i])] then new = s.circles[i] break end
    end
    new = new or s.circles[order[1]]
    remember(s)
    if seed % 2 == 0 then g:key(new.key) else g:click(cell_of(new)) end
    g:step()
    if g:state().phase == "play" then until_stage(g, "round") end
  end
  return g:state().score, g:state().reason, g:state().round
end

test("skill pays: a perfect memory scores at least 3x a random picker, random at least idle", function(t)
  local idle, random, skilled = 0, 0, 0
  for _, seed in ipairs(SEEDS) do
    local i, why = idle_run(t, seed)
    expect(why, "idle ends by the bar"):to_equal("time's up")
    local r = random_run(t, seed)
    local k, _, reached = skilled_run(t, seed)
    expect(reached, "seed " .. seed .. ": a perfect memory clears every round"):to_equal(SKILLED_ROUNDS + 1)
    print(string.format("seed %d: idle %d, random %d, skilled %d", seed, i, r, k))
    idle, random, skilled = idle + i, random + r, skilled + k
  end
  local n = #SEEDS
  print(string.format("means: idle %.1f, random %.1f, skilled %.1f", idle / n, random / n, skilled / n))
  expect(idle, "idle scores nothing"):to_equal(0)
  expect(random, "random at least idle"):to_be_at_least(idle)
  expect(skilled, "skilled at least 3x random"):to_be_at_least(3 * random)
  expect(skilled, "skilled scores"):to_be_greater_than(0)
end)

test("a perfect memory also clears rounds at 160x50, by key and by mouse", function(t)
  for _, seed in ipairs({ 6, 7 }) do
    local g = t:start{ seed = seed, cols = 160, rows = 50 }
    g:close()
  end
  -- five rounds each is enough to show the places hold at this size
  local old = SKILLED_ROUNDS
  SKILLED_ROUNDS = 5
  for _, seed in ipairs({ 6, 7 }) do
    local score, _, reached = skilled_run(t, seed, 160, 50)
    expect(reached):to_equal(6)
    expect(score):to_be_at_least(5 * 15)
  end
  SKILLED_ROUNDS = old
end)

---------------------------------------------------------------------------------------------
-- Rules

test("a right pick scores 10 plus up to 10 for the time left on the bar", function(t)
  local g = t:start{ seed = 31 }
  g:key("enter"):step()
  until_stage(g, "round")
  -- before the bar starts (0.3 s into the round): the whole bonus
  g:step(5)
  pick_answer(g)
  local s = g:state()
  expect(s.last_bonus):to_equal(10)
  expect(s.last_points):to_equal(20)
  expect(s.score):to_equal(20)
  expect(g:text()):to_contain("+10 and +10 for speed")
  -- half the bar used: half the bonus
  until_stage(g, "round")
  g:wait(0.3 + 2.5)
  expect(g:state().elapsed):to_be_near(2.5, 0.02)
  pick_answer(g)
  s = g:state()
  expect(s.last_bonus):to_equal(5)
  expect(s.score):to_equal(35)
  -- near the end of the bar: next to nothing
  until_stage(g, "round")
  g:wait(0.3 + 4.9)
  pick_answer(g)
  s = g:state()
  expect(s.last_bonus):to_equal(0)
  expect(s.score):to_equal(45)
  expect(s.round):to_equal(3)
  expect(s.phase):to_equal("play")
end)

test("phase is ready, play, over; level follows the round; the reason is the screen's words", function(t)
  local g = t:start{ seed = 32 }
  g:step()
  local s = g:state()
  expect(s.phase):to_equal("ready")
  expect(s.stage):to_equal("start")
  expect(s.level):to_equal(1)
  expect(s.score):to_equal(0)
  g:key("space"):step()
  expect(g:state().phase):to_equal("play")
  expect(g:state().stage):to_equal("memorise")
  until_stage(g, "round")
  pick_answer(g)
  until_stage(g, "round")
  expect(g:state().level):to_equal(2)
  g:step_until(function(st) return st.card end, 600)
  s = g:state()
  expect(s.phase):to_equal("over")
  expect(s.reason):to_equal("time's up")
  expect(g:text()):to_contain("time's up in round 2")
  expect(g:text()):to_contain("score " .. s.score)
end)

test("from round 10 the bar runs 0.1 s faster a round, never under 3 s", function(t)
  local g = t:start{ seed = 33 }
  g:key("enter"):step()
  local limits = {}
  for round = 1, 31 do
    until_stage(g, "round")
    local s = g:state()
    expect(s.round):to_equal(round)
    limits[round] = s.time_limit
    if round == 12 then
      -- let the bar run out once here: 0.3 s, then 4.7 s
      local begun = g:frame()
      local probe = t:start{ seed = 33 }
      probe:close()
      g:wait(0.3 + 4.7 - 1 / 60)
      expect(g:state().phase, "the bar still runs"):to_equal("play")
      expect(g:state().elapsed):to_be_near(4.7 - 1 / 60, 1e-6)
      break
    end
    pick_answer(g)
  end
  for round = 1, 9 do expect(limits[round], "round " .. round):to_equal(5) end
  expect(limits[10]):to_be_near(4.9)
  expect(limits[11]):to_be_near(4.8)
  expect(limits[12]):to_be_near(4.7)
  g:step()
  expect(g:state().reason):to_equal("time's up")
  -- the floor: a long run by a player who knows the answer
  g = t:start{ seed = 34 }
  g:key("enter"):step()
  for round = 1, 31 do
    until_stage(g, "round")
    limits[round] = g:state().time_limit
    pick_answer(g)
  end
  expect(limits[28]):to_be_near(3.1)
  expect(limits[29]):to_be_near(3)
  expect(limits[31], "never under 3 s"):to_be_near(3)
end)

test("every circle has a key and a palette entry of its own, up to 35 circles; then the oldest leaves", function(t)
  local g = t:start{ seed = 35 }
  local cube = { [0] = true, [95] = true, [135] = true, [175] = true, [215] = true, [255] = true }
  local palette = {}
  for _, hex in ipairs(g:state().palette) do
    expect(palette[hex], "palette entries differ"):to_equal(nil)
    palette[hex] = true
    for k = 2, 6, 2 do
      expect(cube[tonumber(hex:sub(k, k + 1), 16)], hex .. " is an xterm cube colour"):to_be(true)
    end
  end
  g:key("enter"):step()
  local before
  for round = 1, 36 do
    until_stage(g, "round")
    local s = g:state()
    local want = math.min(round + 2, #LABEL_KEYS)
    expect(s.circles, "round " .. round):to_have_length(want)
    local keys, colours = {}, {}
    for _, c in ipairs(s.circles) do
      expect(c.key, "round " .. round .. ": every circle has a key"):to_be_a("string")
      expect(keys[c.key], "round " .. round .. ": keys differ"):to_equal(nil)
      expect(palette[c.color], "round " .. round .. ": a palette colour"):to_be(true)
      expect(colours[c.color], "round " .. round .. ": colours differ"):to_equal(nil)
      keys[c.key], colours[c.color] = true, true
    end
    if round > #LABEL_KEYS - 2 then
      -- the oldest circle has left, the others stay where they were
      expect(s.circles[1].x, "round " .. round .. ": the oldest left").never:to_equal(before[1].x)
      for i = 1, #s.circles - 1 do
        expect(s.circles[i].x):to_equal(before[i + 1].x)
        expect(s.circles[i].y):to_equal(before[i + 1].y)
      end
    end
    before = s.circles
    g:wait(0.8)
    local new = s.circles[#s.circles]
    local col, row = cell_of(new)
    expect(g:cell(col, row), "round " .. round .. ": the key is drawn"):to_equal(new.key)
    pick_answer(g)
  end
  until_stage(g, "round")
  expect(g:state().round):to_equal(37)
  expect(g:state().circles):to_have_length(#LABEL_KEYS)
end)

test("from 40 rows the round and the score are drawn in the pixel font; resize switches", function(t)
  local g = t:start{ seed = 36, cols = 160, rows = 50 }
  g:key("enter"):step()
  until_stage(g, "round")
  pick_answer(g)
  until_stage(g, "round")
  local s = g:state()
  local round, score = g:node("hud round"), g:node("hud score")
  expect(round.visible):to_be(true)
  expect(round.text):to_equal("round 2")
  expect(score.visible):to_be(true)
  expect(score.text):to_equal("score " .. s.score)
  expect(score.height, "a large glyph is 7 pixels tall"):to_equal(7)
  expect(g:lines()[50]):to_contain("best 0")
  -- every circle is above the HUD
  for _, c in ipairs(s.circles) do expect(c.y + c.r):to_be_at_most(90) end
  -- the keys grow too: a cell of the circle's colour either side
  g:wait(0.8)
  local keys = g:nodes("key")
  expect(keys):to_have_length(#s.circles)
  for _, k in ipairs(keys) do expect(k.text):to_match("^ %w $") end
  g:resize(80, 24):step()
  expect(g:node("hud round").visible):to_be(false)
  for _, k in ipairs(g:nodes("key")) do expect(k.text):to_match("^%w$") end
  expect(g:lines()[24]):to_contain("round 2   score " .. s.score)
  g:resize(100, 40):step()
  expect(g:node("hud score").visible):to_be(true)
  -- the end card's score is large too
  g:step_until(function(st) return st.card end, 600)
  expect(g:node("over score").text):to_equal("score " .. s.score)
  expect(g:node("over score").visible):to_be(true)
  expect(g:text()):to_contain("new best!")
end)

test("nothing of a run is left when the next begins", function(t)
  local g = t:start{ seed = 37 }
  g:key("enter"):step()
  until_stage(g, "round")
  pick_answer(g)
  g:step_until(function(s) return s.card end, 900)
  g:key("enter"):step()
  until_stage(g, "round")
  local a = g:stats()
  pick_answer(g)
  g:step_until(function(s) return s.card end, 900)
  g:key("enter"):step()
  until_stage(g, "round")
  local b = g:stats()
  expect(b.nodes):to_equal(a.nodes)
  expect(b.animations):to_equal(a.animations)
  expect(b.timers):to_equal(0)
end)

---------------------------------------------------------------------------------------------
-- Golden frames: a round in play and the end card, at 80x24 and 160x50

for _, size in ipairs({ { 80, 24 }, { 160, 50 } }) do
  local cols, rows = size[1], size[2]
  local tag = cols .. "x" .. rows
  test("golden frames at " .. tag .. ": a round in play and the end card", function(t)
    local g = t:start{ seed = 3, cols = cols, rows = rows }
    g:key("enter"):step()
    for _ = 1, 3 do
      until_stage(g, "round")
      g:wait(0.6)
      pick_answer(g)
    end
    until_stage(g, "round")
    g:wait(1.5)
    g:expect_golden("play-" .. tag)
    local s = g:state()
    g:key(s.circles[1].key):step()
    g:step_until(function(st) return st.card end, 120)
    g:wait(1)
    g:expect_golden("over-" .. tag)
  end)
end
