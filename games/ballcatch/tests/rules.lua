-- Ball catch (wave 4): the bat, live balls, banking, the pile and the run, driven as a player
-- would drive them.

local players = require("support.players")
local grab = players.grab

-- Where ball b is in g:balls(), by the live nodes: whether a live-tinted node sits on it.
local function is_live(g, b)
  for _, n in ipairs(g:nodes("live ball")) do
    if math.abs(n.x - b.x) < 0.01 and math.abs(n.y - b.y) < 0.01 then return true end
  end
  return false
end

-- The ball lying on the paddle's top, if one does: on it, and moving up or down with it
-- (vy, the paddle's speed down, in pixels a second).
local function resting_on_paddle(g, vy)
  local p, paddle = g:state().paddle, g:node("paddle")
  for _, b in ipairs(g:balls()) do
    if math.abs(b.y + b.radius - (p.y - paddle.height / 2)) < (vy and 1 or 0.3)
        and math.abs(b.x - p.x) < paddle.width / 2 and math.abs(b.vy - (vy or 0)) < 3 then
      return b
    end
  end
end

test("the start card says how to start; space starts a run, and nothing drops before", function(t)
  local g = t:start{ seed = 1 }
  g:step(120)
  local s = g:state()
  expect(s.phase):to_equal("ready")
  expect(s.dropped):to_equal(0)
  expect(#g:balls()):to_equal(0)
  expect(g:text()):to_contain("space or click: start")
  expect(g:node("card title").text):to_equal("BALL CATCH")
  expect(g:text()):to_contain("arrows: move, tap up: jab · drag: move, flick up: jab")
  g:key("space"):step()
  s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.dropped):to_equal(1)
  expect(s.score):to_equal(0)
  expect(s.level):to_equal(1)
  expect(s.pile):to_equal(0)
  expect(s.live):to_equal(0)
  expect(g:text()).never:to_contain("space or click: start")
end)

test("a click starts a run, drags the paddle, and after the end a click plays again", function(t)
  local g = t:start{ seed = 2 }
  g:click(10, 20):step()
  expect(g:state().phase):to_equal("play")
  local x0 = g:state().paddle.x
  local drag = grab(g)
  drag(x0 - 20, g:state().paddle.y)
  g:step(20)
  expect(g:state().paddle.x):to_be_near(x0 - 20, 1)
  g:release(0, 0)
  g:step_until(function(s) return s.phase == "over" end, 60 * 120)
  -- a drag's release or a hurried press right at the end does not start again
  g:click(40, 12):step()
  expect(g:state().phase):to_equal("over")
  g:wait(1)
  g:click(40, 12):step()
  expect(g:state().phase):to_equal("play")
  expect(g:state().score):to_equal(0)
  expect(g:state().dropped):to_equal(1)
end)

test("a ball landing on the still paddle is not batted; the paddle moving up into one bats it", function(t)
  local g = t:start{ seed = 3 }
  g:key("space"):step()
  local drag = grab(g)
  local p = g:state().paddle
  drag(g:balls()[1].x, p.y)
  g:step(10)
  g:release(0, 0):step()
  -- the first ball lands on the still paddle and bounces: never live
  g:step_until(function(_, h) return h:balls()[1].vy < 0 end, 120)
  expect(g:state().live):to_equal(0)
  expect(is_live(g, g:balls()[1])):to_be(false)
  -- the next ball, met by the paddle rising into it, is live
  players.under_next_ball(g)
  g:key("up"):step(6)
  expect(g:state().live, "batted"):to_be_at_least(1)
  expect(#g:nodes("live ball")):to_equal(g:state().live)
end)

-- Each way of moving the paddle, from a still paddle with the first ball lying on it.
local MOVES = {
  ["a held right arrow"] = function(g) g:key("right", { is_repeat = true }) end,
  ["a held up arrow"] = function(g) g:key("up", { is_repeat = true }) end,
  ["a tap of up"] = function(g) g:key("up") end,
  ["a tap of left"] = function(g) g:key("left") end,
  ["a quick drag up and across"] = function(g)
    local p = g:state().paddle
    g:press(math.floor(p.x), math.floor(p.y / 2)):step()
    g:drag(math.floor(p.x) + 6, math.floor(p.y / 2) - 4)
  end,
}

for name, move in pairs(MOVES) do
  test("a ball resting on a moving paddle is never live: " .. name, function(t)
    local g = t:start{ seed = 4 }
    g:key("space"):step()
    local drag = grab(g)
    drag(g:balls()[1].x, g:state().paddle.y)
    g:step(10)
    g:release(0, 0):step()
    -- whichever ball comes to rest on the still paddle first (the first one usually does)
    g:step_until(function(_, h) return resting_on_paddle(h) ~= nil end, 60 * 20)
    local b, k = resting_on_paddle(g), nil
    for i, other in ipairs(g:balls()) do
      if other.x == b.x and other.y == b.y then k = i end
    end
    expect(is_live(g, b), "the ball lying on the still paddle"):to_be(false)
    local count = #g:balls()
    move(g)
    for _ = 1, 60 do
      g:step()
      expect(#g:balls() >= count, "no ball left, so the ball keeps its place in the list"):to_be(true)
      expect(is_live(g, g:balls()[k]), "the ball that lay on the paddle"):to_be(false)
    end
    expect(g:state().phase):to_equal("play")
  end)
end

test("a live ball banks on the first box it hits: it pops and its points fly to the score", function(t)
  local g = t:start{ seed = 5 }
  g:key("space"):step()
  local banks = 0
  local drag = grab(g)
  -- bat every falling ball straight up from under the +5 box until one banks
  local box = g:node("score1")
  local _, _, W, H = g:size()
  for _ = 1, 60 * 60 do
    local s = g:state()
    local before, balls = s.score, #g:balls()
    local target
    for _, b in ipairs(g:balls()) do
      if b.vy > 0 and b.y < s.paddle.y - 6 and (not target or b.y > target.y) then target = b end
    end
    if target then
      local near = target.y > s.paddle.y - 10
      drag(target.x, near and H * 0.6 or H * 0.7)
    end
    g:step()
    s = g:state()
    if s.score > before then
      banks = banks + 1
      local gain = s.score - before
      expect(gain == 5 or gain == 1, "a box's points"):to_be(true)
      expect(#g:balls(), "the banked ball is gone"):to_be_at_most(balls - 1 + (s.dropped - (s.dropped - 1)))
      local marks = g:nodes("banked")
      expect(#marks):to_be_at_least(1)
      expect(marks[#marks].text):to_equal("+" .. gain)
      expect(#g:nodes("pop")):to_be_at_least(1)
      if banks >= 3 then break end
    end
    if s.phase ~= "play" then break end
  end
  expect(banks):to_be_at_least(3)
  expect(g:state().hits.score1 * 5 + g:state().hits.score2):to_equal(g:state().score)
  -- a second from the last bank (a ball still in the air may bank meanwhile: a second from that)
  g:release(0, 0)
  local quiet, waited = 0, 0
  while quiet < 60 do
    local before = g:state().score
    g:step()
    waited = waited + 1
    quiet = g:state().score > before and 0 or quiet + 1
    expect(waited, "a second without a bank"):to_be_at_most(60 * 30)
  end
  expect(g:state().hits.score1 * 5 + g:state().hits.score2):to_equal(g:state().score)
  expect(#g:nodes("banked"), "the flying marks are gone once they arrived"):to_equal(0)
  expect(#g:nodes("pop")):to_equal(0)
end)
