-- Fishing: the swing, the landing marker, a cast's phases and cost, the bank, the winnings,
-- near misses, the clock, and a day from its start card to its end card, by keys and by mouse.

-- The fishing article's coins per kind, restated so the game is checked against the article.
local COINS = { croaker = 2, grouper = 5, snapper = 10, striped = 20, coral = 50, shark = 100 }
-- The still scenery (sky, water, deep water, grass, earth): blank in the golden frames, so
-- the fish, the hook, the line and the text stand out.
local SCENERY = { "#1b2838", "#1d4e7a", "#163c60", "#4f8a3a", "#7a5a36" }
-- and the cards' fill, so their words read with their spaces
local BLANK = { "#1b2838", "#1d4e7a", "#163c60", "#4f8a3a", "#7a5a36", "#10202c" }

local function hook_is(name)
  return function(s) return s.hook == name end
end

-- Casts (space) as soon as the hook swings over the water, until the day ends or `casts` are made.
local function cast_quickly(g, casts)
  local s = g:state()
  local made = 0
  while s.phase ~= "over" and made < (casts or 99) do
    if s.hook == "swinging" and not s.landing.bank then
      g:key("space")
      made = made + 1
    end
    g:step(s.hook == "swinging" and 1 or 10)
    s = g:state()
  end
  return s
end

test("the hook swings by the article's recurrence, turning past 45 degrees each way", function(t)
  local g = t:start{ seed = 1 }
  g:blank(BLANK)
  local limit = math.pi / 180 * 45
  local angle, back = 0, false
  local low, high = 0, 0
  for step = 1, 300 do
    local delta = 1.8 * math.cos(1.5 * angle) * 0.01
    if back then
      angle = angle - delta
      if angle < -limit then back = false end
    else
      angle = angle + delta
      if angle > limit then back = true end
    end
    g:step()
    expect(g:state().hook_angle, "the angle after step " .. step):to_be_near(angle, 1e-9)
    low, high = math.min(low, angle), math.max(high, angle)
  end
  expect(high):to_be_greater_than(limit)
  expect(low):to_be_less_than(-limit)
end)

test("the landing marker follows the swing: where the article's formula lands the hook", function(t)
  for _, size in ipairs({ { 80, 24 }, { 160, 50 } }) do
    local g = t:start{ seed = 1, cols = size[1], rows = size[2] }
    local _, _, width = g:size()
    local s = g:state()
    -- the reach of the swing in the water gives the scale: 110 of the hook's 145 points
    local k = (s.water.reach_right - width / 2) * 145 / 110
    local banked, watered = 0, 0
    for _ = 1, 240 do
      g:step()
      s = g:state()
      local x = width / 2 - k * math.tan(s.hook_angle)
      expect(s.landing.x):to_be_near(x, 1e-6)
      local marker = g:node("marker")
      expect(marker.x, "the marker is drawn where the hook would land"):to_be_near(x, 1)
      expect(marker.y):to_be_near(s.landing.y, 1)
      expect(marker.y, "on the water, below the surface and above the open pond"):to_be_at_most(s.water.top)
      expect(s.landing.bank):to_be(x < s.water.reach_left or x > s.water.reach_right)
      if s.landing.bank then banked = banked + 1 else watered = watered + 1 end
    end
    expect(banked):to_be_greater_than(0)
    expect(watered):to_be_greater_than(0)
    g:close()
  end
end)

test("the hook is at least 2 x 2 pixels at 80x24", function(t)
  local g = t:start{ seed = 1 }
  g:blank(BLANK)
  local hook = g:node("hook")
  expect(hook.width):to_be_at_least(2)
  expect(hook.height):to_be_at_least(2)
end)

test("the start card: space casts at once and starts the day; a cast takes 10 coins and one of 20 casts",
  function(t)
  local g = t:start{ seed = 1 }
  g:blank(BLANK)
  local s = g:state()
  expect(s.phase):to_equal("ready")
  expect(g:text()):to_contain("A DAY AT THE LAKE")
  expect(g:text()):to_contain("space / click the pond: cast")
  g:step(20)
  g:key("space"):step()
  s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.hook):to_equal("casting")
  expect(s.wallet, "taken when the cast starts"):to_equal(90)
  expect(s.score):to_equal(90)
  expect(s.casts_left):to_equal(19)
  expect(s.day_start):to_equal(100)
  expect(s.level):to_equal(1)
  expect(g:text()).never:to_contain("A DAY AT THE LAKE")
  expect(g:text()):to_contain("coins 90")
  expect(g:text()):to_contain("casts left 19")
  g:key("space")  -- a press while the line is out does nothing
  expect(g:step_until(hook_is("waiting")), "steps of casting after the first"):to_equal(59)
  local wait = g:state().wait
  expect(wait):to_be_between(3, 5)
  expect(math.type(wait)):to_equal("integer")
  expect(g:step_until(hook_is("reeling")), "steps of waiting"):to_equal(wait * 60)
  expect(g:step_until(hook_is("swinging")), "steps of reeling after the first"):to_equal(59)
  s = g:state()
  expect(s.casts, "casts"):to_equal(1)
  expect(s.casts_left):to_equal(19)
  expect(s.wallet):to_be_at_least(90)
end)

test("a click on the pond casts at once, where the marker shows", function(t)
  local g = t:start{ seed = 2 }
  g:blank(BLANK)
  g:click(40, 2):step()
  expect(g:state().phase, "a click on the sky does nothing"):to_equal("ready")
  g:step_until(function(s) return not s.landing.bank end)
  local at = g:state().landing.x
  g:click(10, 20):step()
  local s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.hook):to_equal("casting")
  expect(s.cast_x):to_equal(at)
  expect(s.wallet):to_equal(90)
end)

test("a cast that would land on the bank is not charged, is short, catches nothing and says so", function(t)
  local g = t:start{ seed = 2 }
  g:blank(BLANK)
  g:key("space"):step()  -- the day starts with a cast in the water
  g:step_until(hook_is("swinging"), 600)
  g:step_until(function(s) return s.landing.bank end, 600)
  g:step()
  expect(g:text()):to_contain("on the bank")
  local before = g:state()
  g:key("down"):step()
  local s = g:state()
  expect(s.on_bank):to_be(true)
  expect(s.wallet, "not charged"):to_equal(before.wallet)
  expect(s.casts_left, "not counted"):to_equal(before.casts_left)
  g:step()
  expect(g:text()):to_contain("on the bank: not charged")
  expect(g:step_until(hook_is("waiting"))):to_equal(28)
  expect(g:state().wait):to_equal(1)
  expect(g:state().biting, "no bites from the bank"):to_be(false)
  g:step_until(hook_is("swinging"), 200)
  expect(g:state().win):to_equal(0)
  expect(g:state().wallet):to_equal(before.wallet)
end)

test("a catch pays the kind's coins when the reel-in starts, and the day's tally counts it", function(t)
  for seed = 1, 40 do
    local g = t:start{ seed = seed }
    g:step(30)
    g:key("enter"):step()
    g:step_until(hook_is("reeling"), 600)
    local s = g:state()
    local win = 0
    for kind, n in pairs(s.bites) do win = win + n * COINS[kind] end
    if win > 0 then
      expect(s.win, "the cast's winnings"):to_equal(win)
      expect(s.wallet, "paid at the start of the reel-in"):to_equal(100 - 10 + win)
      expect(g:node("win").text):to_equal("+" .. win)
      expect(g:node("win").y, "the +N rises over the pond"):to_be_greater_than(s.water.top)
      g:step(30)
      expect(g:node("win").y, "and stays over it"):to_be_at_least(s.water.top)
      g:step_until(hook_is("swinging"), 120)
      s = g:state()
      local caught = 0
      for kind, n in pairs(s.today) do
        caught = caught + n
        expect(n, kind):to_equal(s.bites[kind])
        if n > 0 then expect(g:text()):to_contain(kind .. " " .. n) end
      end
      expect(caught, "fish landed"):to_be_greater_than(0)
      expect(s.hooked_ids, "landed fish leave the hook"):to_equal({})
      return
    end
    g:close()
  end
  error("no seed in 1..40 caught a fish on the first cast")
end)

test("a fish that rolls its bite chance and misses shows a '!' over it", function(t)
  local g = t:start{ seed = 4 }
  g:blank(BLANK)
  g:step(30)
  local seen = 0
  for _ = 1, 3000 do
    local s = g:state()
    if s.phase == "play" and s.hook == "swinging" and not s.landing.bank or s.phase == "ready" then g:key("space") end
    g:step()
    s = g:state()
    if s.rolled_tick == g:frame() then
      local swimming = {}
      for _, id in ipairs(s.pond_ids) do swimming[id] = true end
      for _, id in ipairs(s.rolled) do
        if swimming[id] then seen = seen + 1 end  -- rolled and still swimming: a miss
      end
      if seen > 0 then
        local marks = g:nodes("near miss")
        expect(#marks, "a '!' for the miss"):to_be_at_least(1)
        expect(marks[#marks].text):to_equal("!")
        expect(s.near_misses):to_be_at_least(1)
        return
      end
    end
  end
  error("no near miss in 3000 steps")
end)

test("a hook left swinging loses a cast and its coins when the clock runs out; the clock shrinks every 4 casts",
  function(t)
  local g = t:start{ seed = 3 }
  g:blank(BLANK)
  g:key("space"):step()
  g:step_until(hook_is("swinging"), 600)
  local s = g:state()
  expect(s.cast_in):to_equal(15)
  local wallet, left = s.wallet, s.casts_left
  g:step()
  expect(g:text()):to_contain("(15 s)")
  -- 15 s of swing: the cast is lost at the last step of it
  g:step(15 * 60 - 2)
  expect(g:state().casts_left):to_equal(left)
  g:step()
  s = g:state()
  expect(s.casts_left):to_equal(left - 1)
  expect(s.wallet):to_equal(wallet - 10)
  expect(s.lost):to_equal(1)
  -- one more quick cast and a lost one: four in all, level 2 with 12 s
  s = cast_quickly(g, 1)
  g:step_until(hook_is("swinging"), 600)
  s = g:state()
  expect(s.level):to_equal(1)
  g:step(15 * 60)
  s = g:state()
  expect(s.casts_left):to_equal(16)
  expect(s.level):to_equal(2)
  expect(s.cast_in):to_equal(12)
  g:step()
  expect(g:text()):to_contain("level 2: 12 s to cast")
end)

test("20 casts end the day: the end card says why, the day's coins and the best; r or space starts a new one",
  function(t)
  local g = t:start{ seed = 5 }
  g:blank(BLANK)
  local s = cast_quickly(g)
  expect(s.phase):to_equal("over")
  expect(s.casts_left):to_equal(0)
  expect(s.reason):to_equal("out of casts")
  expect(s.score):to_equal(s.wallet)
  expect(s.best):to_equal(s.score)
  expect(s.new_best):to_be(true)
  expect(g:best()):to_equal(s.score)
  g:step()
  local text = g:text()
  expect(text):to_contain("OUT OF CASTS")
  expect(text):to_contain("the day's coins: " .. s.score)
  expect(text):to_contain("NEW BEST")
  expect(text):to_contain("space / r / click: a new day")
  expect(g:node("marker").visible, "no marker on the end card"):to_be(false)
  -- a press in the card's first second does nothing (a late cast press does not skip it)
  g:key("space"):step()
  expect(g:state().phase):to_equal("over")
  g:step(60)
  g:key("r"):step()
  s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.wallet):to_equal(100)
  expect(s.casts_left):to_equal(20)
  expect(s.level):to_equal(1)
  for kind, n in pairs(s.today) do expect(n, kind):to_equal(0) end
  expect(s.hook, "a new day starts without a cast"):to_equal("swinging")
  -- a second day that ends no higher is not a new best
  local first_best = g:best()
  s = cast_quickly(g)
  g:step()
  expect(s.new_best):to_be(s.score > first_best)
  if s.score <= first_best then
    expect(s.new_best):to_be(false)
    expect(g:text()).never:to_contain("NEW BEST")
    expect(g:text()):to_contain("best day: " .. g:best())
  end
end)

test("the mouse alone plays a day and starts the next", function(t)
  local g = t:start{ seed = 6 }
  g:blank(BLANK)
  local s = g:state()
  local clicks = 0
  while s.phase ~= "over" and clicks < 200 do
    if s.hook == "swinging" and not s.landing.bank then
      g:click(5 + clicks % 70, 14 + clicks % 8)  -- anywhere on the pond
      clicks = clicks + 1
    end
    g:step(s.hook == "swinging" and 1 or 10)
    s = g:state()
  end
  expect(s.phase):to_equal("over")
  expect(s.reason):to_equal("out of casts")
  g:step(61)
  -- the card's button is three rows tall and says what it does
  local col, row = g:find("new day")
  expect(col):to_be_a("integer")
  g:click(col + 2, row):step()
  s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.wallet):to_equal(100)
end)

test("golden frames: a day in play and its end card, at 80x24 and 160x50", function(t)
  for _, size in ipairs({ { 80, 24 }, { 160, 50 } }) do
    local g = t:start{ seed = 9, cols = size[1], rows = size[2] }
    g:blank(BLANK)
    g:step(20)
    g:key("space"):step()
    g:step_until(function(s) return #s.hooked_ids > 0 end, 600)
    g:step(10)
    g:expect_golden("play-" .. size[1] .. "x" .. size[2])
    cast_quickly(g)
    g:step(30)
    g:expect_golden("over-" .. size[1] .. "x" .. size[2])
    g:close()
  end
end)
