-- Ball catch's sounds: the bat, a banked ball and the end of a run, each started in the step
-- where it happens.

local players = require("support.players")

local grab = players.grab

test("a ball landing on the still paddle is silent; the paddle batting one plays the bat", function(t)
  local g = t:start{ seed = 3 }
  g:key("space"):step()
  local drag = grab(g)
  drag(g:balls()[1].x, g:state().paddle.y)
  g:step(10)
  g:release(0, 0):step()
  g:step_until(function(_, h) return h:balls()[1].vy < 0 end, 120)
  expect(#g:sounds("bat"), "a bounce off the still paddle"):to_equal(0)
  players.under_next_ball(g)
  -- step by step: the bat sounds in the step the ball goes live
  local live_at
  g:key("up")
  for _ = 1, 6 do
    g:step()
    if not live_at and g:state().live >= 1 then live_at = g:frame() end
  end
  expect(live_at, "batted"):to_be_truthy()
  local bats = g:sounds("bat")
  expect(#bats):to_be_at_least(1)
  expect(bats[1].step):to_equal(live_at)
  expect(bats[1].channel):to_equal(1)
end)

test("a banked ball chimes in the step its points are scored", function(t)
  local g = t:start{ seed = 5 }
  g:key("space"):step()
  local drag = grab(g)
  local _, _, _, H = g:size()
  local scored = {}
  for _ = 1, 60 * 60 do
    local s = g:state()
    local before = s.score
    local target
    for _, b in ipairs(g:balls()) do
      if b.vy > 0 and b.y < s.paddle.y - 6 and (not target or b.y > target.y) then target = b end
    end
    if target then drag(target.x, target.y > s.paddle.y - 10 and H * 0.6 or H * 0.7) end
    g:step()
    if g:state().score > before then scored[#scored + 1] = g:frame() end
    if #scored >= 2 or g:state().phase ~= "play" then break end
  end
  expect(#scored):to_equal(2)
  local chimes = g:sounds("score")
  expect(#chimes):to_equal(2)
  for i, chime in ipairs(chimes) do
    expect(chime.step):to_equal(scored[i])
    expect(chime.channel):to_equal(2)
  end
end)

test("the end of a run plays the best's fanfare the first time, the plain ending after", function(t)
  local g = players.start(t, 1)
  players.skilled(g, 60 * 20)
  g:release(0, 0)
  g:step_until(function(s) return s.phase == "over" end, 60 * 200)
  expect(g:state().phase):to_equal("over")
  expect(g:state().score, "a run that sets a best"):to_be_greater_than(0)
  local last = g:sounds()[#g:sounds()]
  expect(last.name):to_equal("best")
  g:key("space"):step()
  g:step_until(function(s) return s.phase == "over" end, 60 * 120)
  last = g:sounds()[#g:sounds()]
  expect(last.name):to_equal("over")
  expect(last.step):to_equal(g:frame())
end)
