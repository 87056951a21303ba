-- Last Circle: rounds of n + 2 circles, the last to pop in is the answer; the bar, the
-- blink and game over.

-- The circle that popped in last (the largest delay) in a state's round.
local function answer(s)
  local best
  for i, c in ipairs(s.circles) do
    if not best or c.delay > s.circles[best].delay then best = i end
  end
  return best
end

-- The cell under a circle's centre, as a click names it.
local function cell_of(c)
  return math.floor(c.x), math.floor(c.y / 2)
end

local function start_round_one(t, seed)
  local g = t:start{ seed = seed }
  g:key("enter"):step()
  g:wait(1)  -- every circle has popped in (delays up to 0.3 s, then 0.5 s)
  return g
end

test("enter starts round 1 with three circles; clicking the last to pop in wins it", function(t)
  local g = start_round_one(t, 1)
  local s = g:state()
  expect(s.phase):to_equal("round")
  expect(s.round):to_equal(1)
  expect(s.circles):to_have_length(3)
  local col, row = cell_of(s.circles[answer(s)])
  g:click(col, row):step()
  expect(g:state().phase, "after the right pick"):to_equal("won_round")
  expect(g:state().score):to_equal(1)
  g:step_until(function(st) return st.phase == "round" end, 60)
  expect(g:state().round):to_equal(2)
  expect(g:state().circles, "round 2 shows n + 2 circles"):to_have_length(4)
end)

test("the keyboard alone: the answer's key is its place in reading order", function(t)
  local g = start_round_one(t, 7)
  local s = g:state()
  local order = {}
  for i in ipairs(s.circles) do order[i] = i end
  table.sort(order, function(a, b)
    local pa, pb = s.circles[a], s.circles[b]
    if math.floor(pa.y / 2) ~= math.floor(pb.y / 2) then return pa.y < pb.y end
    return pa.x < pb.x
  end)
  local key
  for place, i in ipairs(order) do
    if i == answer(s) then key = tostring(place) end
  end
  local col, row = cell_of(s.circles[answer(s)])
  expect(g:cell(col, row), "the key drawn on the answer"):to_equal(key)
  g:key(key):step()
  expect(g:state().phase):to_equal("won_round")
end)

test("a wrong pick blinks the answer three times, then the game is over with the best kept", function(t)
  local g = start_round_one(t, 2)
  local s = g:state()
  local wrong = answer(s) == 1 and 2 or 1
  g:click(cell_of(s.circles[wrong])):step()
  s = g:state()
  expect(s.phase):to_equal("over")
  expect(s.ending):to_equal("wrong")
  expect(s.picked):to_equal(wrong)
  expect(s.card, "no card while the answer blinks"):to_be(false)
  -- three blinks of 0.2 s out and 0.2 s back
  local steps = g:step_until(function(st) return st.card end, 120)
  expect(steps):to_be_between(70, 73)
  expect(g:text()):to_contain("score 0")
  expect(g:text()):to_contain("Retry")
  -- enter plays again
  g:key("enter"):step()
  expect(g:state().round):to_equal(1)
  expect(g:state().phase):to_equal("round")
end)

test("the bar starts 0.3 s into a round and fills in 5 s: time's up ends the game", function(t)
  local g = t:start{ seed = 3 }
  g:key("space"):step()
  g:wait(2.8)
  expect(g:state().elapsed, "after 2.8 s of the round"):to_be_near(2.5, 0.02)
  local steps = g:step_until(function(s) return s.phase == "over" end, 60 * 6)
  local s = g:state()
  expect(s.ending):to_equal("time")
  expect(s.elapsed):to_equal(5)
  expect(g:frame(), "the step time ran out"):to_be_between(318, 320)
end)

test("the best score is kept for the next game", function(t)
  local g = start_round_one(t, 4)
  local s = g:state()
  g:click(cell_of(s.circles[answer(s)])):step()
  g:step_until(function(st) return st.phase == "round" end, 60)
  g:wait(6)  -- the bar runs out in round 2
  expect(g:state().phase):to_equal("over")
  expect(g:best()):to_equal(1)
  local again = g:restart()
  again:step()
  expect(again:state().best):to_equal(1)
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

test("golden frames: the start screen and a round mid-pop", function(t)
  local g = t:start{ seed = 1 }
  g:step(30):expect_golden("start")
  g:key("enter"):step(12):expect_golden("round-mid-pop")
end)
