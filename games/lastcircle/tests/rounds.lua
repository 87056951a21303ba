-- Last Circle: two circles to remember, then rounds of n + 2 circles where the answer is the
-- circle that joined last (the last entry of `circles`); the bar, the blink and game over.

-- The cell under a circle's centre, as a click names it.
local function cell_of(c)
  return math.floor(c.x), math.floor(c.y / 2)
end

local function until_round(g)
  return g:step_until(function(s) return s.stage == "round" end, 600)
end

-- Enter, the first two circles to remember, then round 1 with every circle popped in.
local function start_round_one(t, seed, cols, rows)
  local g = t:start{ seed = seed, cols = cols, rows = rows }
  g:key("enter"):step()
  until_round(g)
  g:wait(1)  -- every circle has popped in (delays up to 0.3 s, then 0.5 s)
  return g
end

test("enter shows two circles to remember, then round 1 with three; clicking the new one wins it", function(t)
  local g = t:start{ seed = 1 }
  g:key("enter"):step()
  expect(g:state().stage):to_equal("memorise")
  expect(g:state().circles, "the first two circles"):to_have_length(2)
  until_round(g)
  g:wait(1)
  local s = g:state()
  expect(s.round):to_equal(1)
  expect(s.circles):to_have_length(3)
  g:click(cell_of(s.circles[3])):step()
  expect(g:state().stage, "after the right pick"):to_equal("won_round")
  expect(g:state().score, "10 and the speed bonus"):to_equal(10 + g:state().last_bonus)
  until_round(g)
  expect(g:state().round):to_equal(2)
  expect(g:state().circles, "round 2 shows n + 2 circles"):to_have_length(4)
end)

test("the keyboard alone: the key drawn on the new circle picks it", function(t)
  local g = start_round_one(t, 7)
  local s = g:state()
  local new = s.circles[#s.circles]
  local col, row = cell_of(new)
  expect(g:cell(col, row), "the key drawn on the new circle"):to_equal(new.key)
  g:key(new.key):step()
  expect(g:state().stage):to_equal("won_round")
end)

test("a wrong pick blinks the answer three times, then the game is over with the best kept", function(t)
  local g = start_round_one(t, 2)
  local s = g:state()
  g:click(cell_of(s.circles[1])):step()
  s = g:state()
  expect(s.phase):to_equal("over")
  expect(s.ending):to_equal("wrong")
  expect(s.reason):to_equal("wrong circle")
  expect(s.picked):to_equal(1)
  expect(s.card, "no card while the answer blinks"):to_be(false)
  -- three blinks of 0.2 s out and 0.2 s back
  local steps = g:step_until(function(st) return st.card end, 120)
  expect(steps):to_be_between(70, 73)
  expect(g:text()):to_contain("score 0")
  expect(g:text()):to_contain("wrong circle")
  expect(g:text()):to_contain("Retry")
  -- enter plays again
  g:key("enter"):step()
  expect(g:state().round):to_equal(1)
  expect(g:state().reason, "no reason before the next game is over"):to_equal(nil)
  until_round(g)
  expect(g:state().stage):to_equal("round")
end)

test("the bar starts 0.3 s into a round and fills in 5 s: time's up ends the game", function(t)
  local g = t:start{ seed = 3 }
  g:key("space"):step()
  until_round(g)
  local begun = g:frame()
  g:wait(2.8)
  expect(g:state().elapsed, "after 2.8 s of the round"):to_be_near(2.5, 0.02)
  g:step_until(function(s) return s.phase == "over" end, 60 * 6)
  local s = g:state()
  expect(s.ending):to_equal("time")
  expect(s.reason):to_equal("time's up")
  expect(s.elapsed):to_equal(5)
  expect(g:frame() - begun, "the steps the round took"):to_be_between(317, 319)
  expect(g:text()):to_contain("time's up")
end)

test("the best score is kept for the next game", function(t)
  local g = start_round_one(t, 4)
  local s = g:state()
  g:click(cell_of(s.circles[#s.circles])):step()
  until_round(g)
  g:wait(6)  -- the bar runs out in round 2
  expect(g:state().phase):to_equal("over")
  local score = g:state().score
  expect(score):to_be_at_least(11)
  expect(g:best()):to_equal(score)
  expect(g:text()):to_contain("new best!")
  local again = g:restart()
  again:step()
  expect(again:state().best):to_equal(score)
end)

test("the start screen keeps seven background circles and nothing piles up", function(t)
  local g = t:start{ seed = 5 }
  g:step()
  local before = g:stats()
  g:wait(60)
  expect(g:state().background):to_equal(7)
  local after = g:stats()
  expect(after.nodes, "nodes"):to_equal(before.nodes)
  expect(after.animations, "animations"):to_equal(before.animations)
end)

test("golden frames: the start screen, the circles to remember and a round mid-pop", function(t)
  local g = t:start{ seed = 1 }
  g:step(30):expect_golden("start")
  g:key("enter"):step(60):expect_golden("memorise")
  until_round(g)
  g:step(12):expect_golden("round-mid-pop")
end)
