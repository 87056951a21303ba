-- Coin bank's rules: a run from the start screen to the end card, the article's burst and
-- flight, coins that find the pig and coins that do not, levels, and what is kept.

local policies = require("support.policies")

local function finish_burst(g)
  return g:step_until(function(s) return not s.bursting end, 60 * 10)
end

-- Steps until a skilled player would press, then presses space.
local function press_well(g)
  local _, _, width = g:size()
  g:step_until(function(s) return policies.skilled_wants(s, width) end, 60 * 20)
  return g:key("space"):step()
end

local function started(seed, opts)
  return function(t)
    local g = t:start{ seed = seed, cols = opts and opts.cols, rows = opts and opts.rows }
    g:step():key("enter"):step()
    return g
  end
end

test("the start screen says how to start; enter starts a run, and so does a click on Start", function(t)
  local g = t:start{ seed = 1 }
  g:step()
  local s = g:state()
  expect(s.phase):to_equal("ready")
  expect(g:text()):to_contain("FEED THE PIG")
  expect(g:text()):to_contain("space / enter / click Start")
  g:key("enter"):step()
  s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.score):to_equal(0)
  expect(s.level):to_equal(1)
  expect(s.target):to_equal(500)
  expect(s.bursts_left):to_equal(5)
  expect(s.level_banked):to_equal(0)
  expect(g:text()):to_contain("money")

  local m = t:start{ seed = 1 }
  m:step()
  local col, row = m:find("Start")
  m:click(col - 6, row):step()
  expect(m:state().phase, "after a click beside the button"):to_equal("ready")
  m:click(col + 1, row):step()
  expect(m:state().phase, "after a click on Start"):to_equal("play")
end)

test("the pig walks to and fro along the top band; the ring marks the fixed drop point", function(t)
  local g = started(2)(t)
  local s = g:state()
  local drop = s.drop
  expect(drop.x):to_equal(40)
  expect(g:node("ring").x):to_be_near(drop.x)
  local xs, turns, last_vx = {}, 0, s.bank.vx
  for _ = 1, 20 do
    g:wait(1)
    s = g:state()
    xs[#xs + 1] = s.bank.x
    if s.bank.vx * last_vx < 0 then turns = turns + 1 end
    last_vx = s.bank.vx
    expect(s.bank.x, "left edge"):to_be_at_least(0)
    expect(s.bank.x + s.bank.w, "right edge"):to_be_at_most(80)
    expect(s.bank.y):to_be_less_than(drop.y)
    expect(s.drop, "the drop point stays"):to_equal(drop)
  end
  expect(turns, "turns at the edges in 20 s"):to_be_at_least(2)
  expect(math.abs(s.bank.vx), "speed at level 1: the screen in 7 s"):to_be_near((80 - 17 - 2) / 7, 1e-6)
end)

test("a burst: 300 coins, one every 0.01 s, 1 s each, shrinking to half", function(t)
  local g = started(5)(t)
  g:key("space"):step()
  local s = g:state()
  expect(s.button_visible):to_be(false)
  expect(s.bursts_left):to_equal(4)
  local first = s.first
  expect(first.scale):to_be_between(1, 1.9)
  expect(first.start.scale_y, "squashed to half height at the start"):to_be_near(first.scale / 2)
  expect(first.to):to_equal({ s.drop.x, s.drop.y })
  g:step_until(function(st) return st.first.arrival ~= nil end, 120)
  expect(g:frame() - first.frame, "steps in flight"):to_equal(59)
  local arrival = g:state().first.arrival
  expect(arrival.x):to_be_near(s.drop.x)
  expect(arrival.y):to_be_near(s.drop.y)
  expect(arrival.scale_x):to_be_near(first.scale / 2)
  g:wait(0.5)
  s = g:state()
  expect(s.launched, "launched after 1.5 s"):to_be_between(145, 155)
  finish_burst(g)
  s = g:state()
  expect(s.launched):to_equal(300)
  expect(s.arrived):to_equal(300)
  expect(s.burst_banked + s.lost):to_equal(300)
end)

test("a coin that arrives off the pig is lost: it tumbles out of the bottom, and no shake", function(t)
  -- pressed at once: the pig starts under the ring and walks away, so it is gone when they land
  local g = started(3)(t)
  local idle = g:stats()
  g:key("space"):step()
  g:wait(1.2)
  local s = g:state()
  expect(s.lost, "coins lost 1.2 s in"):to_be_greater_than(5)
  expect(s.score):to_equal(0)
  finish_burst(g)
  s = g:state()
  expect(s.lost):to_equal(300)
  expect(s.burst_banked):to_equal(0)
  expect(s.score):to_equal(0)
  expect(s.banked):to_equal(0)
  expect(s.shakes, "no shake for an empty burst"):to_equal(0)
  expect(s.button_visible, "the button is back"):to_be(true)
  expect(g:text()):to_contain("last burst: 0 in, 300 lost")
  g:wait(1.5)   -- the last ones tumble away
  local after = g:stats()
  expect(after.nodes, "nodes"):to_equal(idle.nodes)
  expect(after.animations, "animations"):to_equal(idle.animations)
  expect(after.timers, "timers"):to_equal(0)
end)

test("a coin that arrives while the pig is under the ring is banked; the pig shakes", function(t)
  local g = started(4)(t)
  press_well(g)
  finish_burst(g)
  local s = g:state()
  expect(s.burst_banked, "banked by a well-timed burst"):to_be_greater_than(100)
  expect(s.score):to_equal(s.burst_banked)
  expect(s.level_banked):to_equal(s.burst_banked)
  expect(s.banked):to_equal(s.burst_banked)
  expect(s.shakes):to_equal(1)
  expect(g:text()):to_contain("score " .. s.score)
  expect(g:save("total")):to_equal(s.banked)
end)

test("an interrupted burst keeps the coins that had landed", function(t)
  local g = started(6)(t)
  press_well(g)
  g:wait(2.5)
  local s = g:state()
  expect(s.bursting):to_be(true)
  expect(s.score, "landed before leaving"):to_be_greater_than(0)
  local again = g:restart()
  again:step()
  local after = again:state()
  expect(after.banked, "the lifetime total"):to_equal(s.banked)
  expect(after.best, "the run's score as it stood"):to_equal(s.score)
  expect(after.phase):to_equal("ready")
end)

test("reaching the target starts the next level at once; running out of bursts ends the run", function(t)
  local g = started(7)(t)
  local _, _, width = g:size()
  local s = g:state()
  while s.level == 1 and s.phase == "play" do
    if policies.skilled_wants(s, width) then g:key("space") end
    g:step()
    s = g:state()
  end
  expect(s.phase):to_equal("play")
  expect(s.level):to_equal(2)
  expect(s.target):to_equal(600)
  expect(s.bursts_left, "the bursts refill"):to_equal(5)
  expect(s.level_banked):to_be_at_most(1)
  expect(g:text()):to_contain("level 2! 600 coins in 5 bursts")
  expect(math.abs(s.bank.vx), "the pig walks faster"):to_be_greater_than((80 - 17 - 2) / 7)
  -- five bursts pressed at once after the button comes back mostly miss
  for _ = 1, 6 do
    g:step_until(function(st) return st.button_visible end, 600)
    if g:state().phase ~= "play" then break end
    g:key("space"):step()
  end
  s = g:state()
  expect(s.phase):to_equal("over")
  expect(s.reason):to_equal("out of bursts")
  expect(g:text()):to_contain("OUT OF BURSTS")
  expect(g:text()):to_contain("score " .. s.score)
  expect(g:text()):to_contain("new best!")
  expect(s.best):to_equal(s.score)
  expect(g:best()):to_equal(s.score)
  expect(g:text()):to_contain("space / enter / click: play again")
end)

test("from level 3 the pig sometimes turns mid-way, hopping 0.4 s before", function(t)
  local g = started(8)(t)
  local _, _, width = g:size()
  local s = g:state()
  while s.level < 3 and s.phase == "play" do
    if policies.skilled_wants(s, width) then g:key("space") end
    g:step()
    s = g:state()
  end
  expect(s.level):to_equal(3)
  local mid_turns, hop_at = 0, nil
  local last = s.bank.vx
  for _ = 1, 60 * 40 do
    g:step()
    s = g:state()
    if s.phase ~= "play" then break end
    if s.bank.hop and not hop_at then hop_at = g:frame() end
    if s.bank.vx * last < 0 then
      local b = s.bank
      if b.x > 4 and b.x + b.w < width - 4 then
        mid_turns = mid_turns + 1
        expect(hop_at, "a hop before the mid-way turn"):to_be_a("integer")
        expect(g:frame() - hop_at, "steps from the hop to the turn"):to_be_between(23, 25)
      end
      hop_at = nil
    end
    last = s.bank.vx
  end
  expect(mid_turns, "mid-way turns seen"):to_be_at_least(1)
end)

test("the stress burst flies 10,000 coins into the still pig, never counts, and only between runs", function(t)
  local g = t:start{ seed = 9 }
  g:step()
  g:key("k"):step()
  local s = g:state()
  expect(s.burst_size):to_equal(10000)
  expect(s.bank.vx):to_equal(0)
  expect(s.bank.x + s.bank.w / 2):to_equal(40)
  expect(g:text()):to_contain("not banked")
  g:key("enter"):step()
  expect(g:state().phase, "no run starts mid stress burst"):to_equal("ready")
  finish_burst(g)
  s = g:state()
  expect(s.arrived):to_equal(10000)
  expect(s.lost, "every stress coin goes in"):to_equal(0)
  expect(s.banked):to_equal(0)
  expect(s.best):to_equal(0)
  expect(g:best()):to_be_falsy()
  g:step_until(function(st) return st.button_visible end, 120)
  -- in a run, k does nothing
  g:key("enter"):step()
  g:key("k"):step()
  expect(g:state().bursting):to_be(false)
  -- the mouse: the hint's "k: 10,000 coins" is clickable on the start screen
  local m = t:start{ seed = 9 }
  m:step()
  local col, row = m:find("k: 10,000")
  m:click(col - 2, row):step()
  expect(m:state().bursting, "after a click just before it"):to_be(false)
  m:click(col + 5, row):step()
  expect(m:state().burst_size):to_equal(10000)
end)

test("the mouse alone plays a whole run: Start, the money button, Play again", function(t)
  local g = t:start{ seed = 10 }
  g:step()
  local col, row = g:find("Start")
  g:click(col + 1, row):step()
  expect(g:state().phase):to_equal("play")
  for _ = 1, 5 do
    g:step_until(function(s) return s.button_visible end, 600)
    local c, r = g:find("money")
    expect(c, "the money button"):to_be_a("integer")
    g:click(c, r):step()
    expect(g:state().bursting):to_be(true)
  end
  g:step_until(function(s) return s.phase == "over" end, 600)
  g:wait(1)
  local c, r = g:find("again")
  g:click(c, r):step()
  local s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.score):to_equal(0)
  expect(s.bursts_left):to_equal(5)
end)

test("a finished run leaves nothing behind", function(t)
  local g = t:start{ seed = 11 }
  g:step()
  local ready = g:stats()
  g:key("enter"):step()
  for _ = 1, 5 do
    g:step_until(function(s) return s.button_visible end, 600)
    g:key("space"):step()
  end
  g:step_until(function(s) return s.phase == "over" end, 600)
  g:wait(3)
  local after = g:stats()
  expect(after.nodes, "nodes"):to_equal(ready.nodes)
  expect(after.animations, "animations"):to_equal(ready.animations)
  expect(after.timers, "timers"):to_equal(0)
end)
