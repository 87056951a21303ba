-- Gift combo's sounds: the counter's pop with each gift of the player's combo, the combo
-- leaving (a filled request or nobody's), a lost heart and the end of a run.

test("each gift of the player's combo pops in the step its counter ticks, on the combo's channel", function(t)
  local g = t:start{ seed = 1 }
  g:step():key("enter"):step()
  g:key("1"):step()
  g:step_until(function(s) return s.channels[1].count == 1 end, 60)
  local ticks = { g:frame() }
  for n = 2, 3 do
    g:wait(0.2):key("1"):step()
    g:step_until(function(s) return s.channels[1].count == n end, 60)
    ticks[n] = g:frame()
  end
  local pops = g:sounds("pop")
  expect(#pops):to_equal(3)
  for i, pop in ipairs(pops) do
    expect(pop.step):to_equal(ticks[i])
    expect(pop.channel):to_equal(1)
  end
  -- the combo leaves after its 3 s: a request filled, or the streak lost
  g:wait(4)
  expect(#g:sounds("fill") + #g:sounds("wrong")):to_equal(1)
end)

test("a viewer giving up costs a heart with a sound; the run's end plays the plain ending with no score", function(t)
  local g = t:start{ seed = 2 }
  g:step():key("enter"):step()
  g:step_until(function(s) return s.hearts < 3 end, 60 * 60)
  local hearts = g:sounds("heart")
  expect(#hearts):to_equal(1)
  expect(hearts[1].step):to_equal(g:frame())
  g:step_until(function(s) return s.phase == "over" end, 60 * 120)
  local last = g:sounds()[#g:sounds()]
  expect(last.name):to_equal("over")
  expect(last.step):to_equal(g:frame())
end)
