-- Last circle's sounds: a new circle's pop, the right pick, a wrong pick, the bar running out
-- and the end card, each started in the step where it happens.

local function cell_of(c)
  return math.floor(c.x), math.floor(c.y / 2)
end

local function until_round(g)
  return g:step_until(function(s) return s.stage == "round" end, 600)
end

local function start_round_one(t, seed)
  local g = t:start{ seed = seed }
  g:key("enter"):step()
  until_round(g)
  g:wait(1)
  return g
end

test("each round's new circle pops in with a sound; the right pick chimes in the step it is made", function(t)
  local g = start_round_one(t, 1)
  expect(#g:sounds("appear")):to_equal(1)
  local s = g:state()
  g:click(cell_of(s.circles[#s.circles])):step()
  expect(g:state().stage):to_equal("won_round")
  local right = g:sounds("right")
  expect(#right):to_equal(1)
  expect(right[1].step):to_equal(g:frame())
  expect(right[1].channel):to_equal(1)
  until_round(g)
  expect(#g:sounds("appear"), "round 2's circle"):to_equal(2)
  expect(#g:sounds("wrong")):to_equal(0)
end)

test("a wrong pick wobbles at once, and the end card plays the best's fanfare after the blinks", function(t)
  local g = start_round_one(t, 2)
  local s = g:state()
  g:click(cell_of(s.circles[#s.circles])):step()
  until_round(g)
  g:wait(1)
  s = g:state()
  g:click(cell_of(s.circles[1])):step()
  local wrong = g:sounds("wrong")
  expect(#wrong):to_equal(1)
  expect(wrong[1].step):to_equal(g:frame())
  expect(#g:sounds("right")):to_equal(1)
  g:step_until(function(st) return st.card end, 600)
  local best = g:sounds("best")
  expect(#best, "the first run with points is a new best"):to_equal(1)
  expect(best[1].step):to_equal(g:frame())
end)

test("the bar running out with no points plays its own ending, once", function(t)
  local g = start_round_one(t, 3)
  g:step_until(function(s) return s.stage == "over" end, 60 * 30)
  local timeup = g:sounds("timeup")
  expect(#timeup):to_equal(1)
  expect(timeup[1].step):to_equal(g:frame())
  expect(timeup[1].channel):to_equal(2)
  expect(#g:sounds("over")):to_equal(0)
  expect(#g:sounds("best")):to_equal(0)
end)
