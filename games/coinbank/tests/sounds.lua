-- Coin bank's sounds: the chime of coins landing in the pig (at most every 0.08 s, however
-- many land), the thud of coins that miss (at most every 0.3 s), and the end of a run.

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

test("coins landing in the pig chime once they have flown, no more often than every 5 steps", function(t)
  local g = t:start{ seed = 1 }
  g:step():key("enter"):step()
  press_well(g)
  local pressed = g:frame()
  expect(#g:sounds(), "nothing has landed yet"):to_equal(0)
  finish_burst(g)
  local s = g:state()
  expect(s.burst_banked):to_be_greater_than(0)
  local chimes = g:sounds("coin")
  expect(#chimes):to_be_between(1, 60)
  expect(chimes[1].step - pressed, "a coin flies 1 s"):to_be_at_least(59)
  for i, chime in ipairs(chimes) do
    expect(chime.channel):to_equal(1)
    if i > 1 then expect(chime.step - chimes[i - 1].step):to_be_at_least(5) end
  end
end)

test("coins that miss the pig thud; the run's end plays the best's fanfare for a first score", function(t)
  local g = t:start{ seed = 2 }
  g:step():key("enter"):step()
  -- pressed at once, most of a burst misses a pig walking away
  for _ = 1, 5 do
    g:key("space"):step()
    finish_burst(g)
  end
  local s = g:state()
  expect(s.phase):to_equal("over")
  if s.lost > 0 then expect(#g:sounds("lost")):to_be_greater_than(0) end
  local thuds = g:sounds("lost")
  for i = 2, #thuds do expect(thuds[i].step - thuds[i - 1].step):to_be_at_least(18) end
  local last = g:sounds()[#g:sounds()]
  expect(last.name):to_equal(s.new_best and "best" or "over")
  expect(last.step):to_equal(g:frame())
end)
