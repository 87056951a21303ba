-- Coin bank: the burst of 300 coins, the shake, the button and the kept total.

-- Steps until the burst under way is over (the button is back); returns the steps taken.
local function finish_burst(g)
  return g:step_until(function(s) return s.button_visible end, 60 * 10)
end

test("enter launches 300 coins, one every 0.01 s; the bank shakes once and the button comes back", function(t)
  local g = t:start{ seed = 1 }
  g:key("enter"):step()
  expect(g:state().button_visible):to_be(false)
  expect(g:text()).never:to_contain("money")

  g:wait(1)  -- 61 steps of 1/60 s: a coin every 0.01 s makes about 100
  local s = g:state()
  expect(s.launched, "launched after a second"):to_be_between(95, 105)
  expect(s.arrived, "arrived after a second"):to_be_less_than(s.launched)

  finish_burst(g)
  s = g:state()
  expect(s.launched):to_equal(300)
  expect(s.arrived):to_equal(300)
  expect(s.banked):to_equal(300)
  expect(s.shakes, "shakes"):to_equal(1)
  expect(g:text()):to_contain("banked 300")
  expect(g:text()):to_contain("money")
end)

test("a flight lasts one second: the first coin arrives 60 steps after its launch, shrunk to half", function(t)
  local g = t:start{ seed = 5 }
  g:key("space"):step()
  local first = g:state().first
  expect(first.scale):to_be_between(1, 1.9)
  expect(first.start.scale_y, "squashed to half height at the start"):to_be_near(first.scale / 2)
  g:step_until(function(s) return s.first.arrival ~= nil end, 120)
  local arrival = g:state().first.arrival
  expect(g:frame() - first.frame, "steps in flight"):to_equal(59)
  expect(arrival.x):to_be_near(first.to[1])
  expect(arrival.y):to_be_near(first.to[2])
  expect(arrival.scale_x):to_be_near(first.scale / 2)
end)

test("only a click on the button starts a burst, and presses during a burst change nothing", function(t)
  local g = t:start{ seed = 2 }
  local col, row = g:find("Show")
  expect(col, "the button's text"):to_be_a("integer")
  g:click(2, row):step()
  expect(g:state().bursting, "after a click beside the button"):to_be(false)
  g:click(col + 3, row):step()
  expect(g:state().bursting, "after a click on it"):to_be(true)

  -- the same burst with every key and a click thrown at it midway ends the same
  local quiet = t:start{ seed = 2 }
  quiet:step():click(col + 3, row):step()
  g:step(20)
  quiet:step(20)
  g:key("enter"):key("space"):key("k"):click(col + 3, row):step()
  quiet:step()
  finish_burst(g)
  finish_burst(quiet)
  expect(g:state()):to_equal(quiet:state())
  expect(g:state().launched):to_equal(300)
end)

test("the banked total is saved, comes back next time and is the best score", function(t)
  local g = t:start{ seed = 3 }
  g:key("enter"):step()
  finish_burst(g)
  expect(g:save("total")):to_equal(300)
  expect(g:best()):to_equal(300)
  local again = g:restart{ seed = 9 }
  again:step()
  expect(again:state().banked):to_equal(300)
  expect(again:lines()[1]):to_match("^ banked 300")
end)

test("a burst leaves nothing behind", function(t)
  local g = t:start{ seed = 4 }
  g:step()
  local idle = g:stats()
  g:key("enter"):step()
  finish_burst(g)
  g:wait(1)
  local after = g:stats()
  expect(after.nodes, "nodes"):to_equal(idle.nodes)
  expect(after.animations, "animations"):to_equal(idle.animations)
  expect(after.timers, "timers"):to_equal(0)
end)

test("golden frames: idle and mid-burst", function(t)
  local g = t:start{ seed = 1 }
  g:step():expect_golden("idle")
  g:key("enter"):step(61):expect_golden("mid-burst")
end)
