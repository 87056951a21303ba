-- Ball catch (wave 4): rounds that drop faster, the gate, the end of a run and its card, the
-- best, the HUD at both sizes, resizes and golden frames.

local players = require("support.players")

-- Plays skilfully until fn(state) holds.
local function play_until(g, fn, limit)
  local _, _, W, H = g:size()
  local steps = 0
  while not fn(g:state()) do
    players.skilled(g, 30)
    steps = steps + 30
    g:release(0, 0)
    if steps > limit then error("not reached in " .. limit .. " steps") end
  end
end

test("each round drops faster: x0.85 a round from one ball a second, never under 0.4 s", function(t)
  local g = players.start(t, 1)
  expect(g:state().interval):to_equal(1)
  local steps = g:step_until(function(s) return s.dropped == 2 end, 120)
  expect(steps, "round 1: a ball a second"):to_equal(59)
  play_until(g, function(s) return s.round == 3 and s.count == 2 end, 60 * 120)
  local s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.level):to_equal(3)
  expect(s.interval):to_be_near(0.85 ^ 2, 1e-9)
  local d = s.dropped
  g:step_until(function(st) return st.dropped == d + 1 end, 120)
  steps = g:step_until(function(st) return st.dropped == d + 2 end, 120)
  expect(steps, "round 3: a ball every 0.7225 s"):to_be_between(42, 44)
  expect(g:lines()[1]):to_contain("round 3")
end)

test("the 50th drop opens the gate: the round is summed up, the pile falls out, the next drop starts the next round", function(t)
  local g = players.start(t, 2)
  play_until(g, function(s) return s.dropped == 49 end, 60 * 60)
  g:step_until(function(s) return s.gate_open end, 70)
  local s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.round):to_equal(1)
  expect(s.count):to_equal(0)
  local points = s.round_score
  expect(points):to_be_greater_than(0)
  expect(s.best_round):to_equal(points)
  expect(g:node("card title").text):to_equal("round 1: " .. points .. " points")
  expect(g:node("card title").visible):to_be(true)
  expect(g:text()):to_contain("the gate is open: round 2 drops faster")
  expect(g:lines()[1]):to_contain("gate open")
  expect(g:lines()[1]).never:to_contain("gate opens in")
  local before = #g:balls()
  g:step(55)
  expect(#g:balls(), "the pile fell out"):to_be_less_than(before // 2 + 1)
  g:step_until(function(st) return st.dropped == 51 end, 10)
  s = g:state()
  expect(s.round):to_equal(2)
  expect(s.round_score):to_equal(0)
  expect(s.score, "the run's score goes on"):to_be_at_least(points)
  expect(s.interval):to_be_near(0.85, 1e-9)
  expect(g:lines()[1]):to_contain("gate opens in 49")
  expect(g:text()):to_contain("round 2 has begun: a ball every 0.85 s")
  g:wait(2.5)
  expect(g:text()).never:to_contain("round 2 has begun")
end)

test("the run ends when the pile passes the line: the card says why, the score, the best, how to go again", function(t)
  local g = players.start(t, 1)
  -- a skilled start scores; then the player stops and the pile grows past the line
  players.skilled(g, 60 * 20)
  g:release(0, 0)
  g:step_until(function(st) return st.phase == "over" end, 60 * 200)
  local s = g:state()
  expect(s.phase):to_equal("over")
  expect(s.reason):to_equal("the box overflowed")
  expect(s.pile):to_equal(1)
  local score = s.score
  expect(score):to_be_greater_than(0)
  expect(s.best):to_equal(score)
  expect(g:best()):to_equal(score)
  local text = g:text()
  expect(g:node("card title").text):to_equal("GAME OVER")
  expect(text):to_contain("the box overflowed in round " .. s.round)
  expect(text):to_contain("score " .. score)
  expect(text):to_contain("new best!")
  expect(text):to_contain("space or click: play again")
  -- after the end nothing drops, and the paddle does not move
  local dropped, p = s.dropped, s.paddle
  g:key("left"):step(120)
  expect(g:state().dropped):to_equal(dropped)
  expect(g:state().paddle):to_equal(p)
  -- space plays again; an idle run scores 0 and leaves the best
  g:key("space"):step()
  s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.score):to_equal(0)
  expect(s.round):to_equal(1)
  expect(s.reason):to_be(nil)
  g:step_until(function(st) return st.phase == "over" end, 60 * 120)
  expect(g:state().best):to_equal(score)
  expect(g:text()):to_contain("best " .. score)
  expect(g:text()).never:to_contain("new best!")
  -- the best is kept for the next visit
  local again = g:restart{ seed = 9 }
  again:step()
  expect(again:state().best):to_equal(score)
  expect(again:state().phase):to_equal("ready")
  expect(again:lines()[1]):to_contain("best " .. score)
end)

test("r starts a new run at once; nothing of the old run is left", function(t)
  local g = players.start(t, 3)
  g:step()
  local base = g:stats()
  players.random(g, 3, 60 * 20)
  g:key("r"):step()
  local s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.dropped):to_equal(1)
  expect(s.score):to_equal(0)
  expect(s.live):to_equal(0)
  expect(#g:balls()):to_equal(1)
  g:step(60)
  local now = g:stats()
  expect(now.nodes, "nodes: the fixed scene and two balls"):to_equal(base.nodes + 1)
  expect(now.bodies):to_equal(2)
  expect(now.timers):to_equal(base.timers)
end)

for _, size in ipairs{ { 80, 24 }, { 160, 50 } } do
  local cols, rows = size[1], size[2]
  test(("the HUD at %dx%d: score, round, best, pile, the gate; the corner free"):format(cols, rows), function(t)
    local g = players.start(t, 4, cols, rows)
    g:step(90)
    local top = g:lines()[1]
    for col = cols - 3, cols - 1 do
      expect(g:cell(col, 0), "column " .. col .. " of the top row"):to_equal(" ")
    end
    local text = g:text()
    expect(text):to_contain("gate opens in 48")
    expect(text):to_contain("pile ")
    expect(text):to_contain("best 0")
    expect(g:find("+5")):to_be_a("integer")
    expect(g:find("+1")):to_be_a("integer")
    if rows >= 40 then
      -- the score and the round in the pixel font; the row of words under them
      expect(top).never:to_contain("score")
      expect(g:node("score label").text):to_equal("SCORE 0")
      expect(g:node("round label").text):to_equal("ROUND 1")
      expect(g:node("score label").visible):to_be(true)
    else
      expect(top):to_contain("score 0  round 1  best 0  pile")
      expect(top):to_contain("gate opens in 48")
      expect(g:node("score label").visible):to_be(false)
    end
  end)
end

test("a resize in play keeps every ball, the run and the paddle's place in the field", function(t)
  local g = players.start(t, 9)
  g:wait(12)
  local before = g:state()
  g:resize(160, 50):step()
  local s = g:state()
  expect(s.balls):to_equal(before.balls)
  expect(s.score):to_equal(before.score)
  expect(s.phase):to_equal("play")
  expect(s.paddle.x):to_be_near(before.paddle.x * 2, 1e-9)
  expect(g:node("score label").visible):to_be(true)
  g:wait(3)
  expect(g:state().balls):to_equal(before.balls + 3)
  g:resize(80, 24):step()
  expect(g:node("score label").visible):to_be(false)
  expect(g:lines()[1]):to_contain("score " .. g:state().score)
end)

test("a resize on the end card lays it out again", function(t)
  local g = players.start(t, 5)
  g:step_until(function(s) return s.phase == "over" end, 60 * 120)
  g:resize(160, 50):step()
  expect(g:text()):to_contain("space or click: play again")
  expect(g:text()):to_contain("the box overflowed")
  g:resize(80, 24):step()
  expect(g:text()):to_contain("space or click: play again")
end)

for _, size in ipairs{ { 80, 24 }, { 160, 50 } } do
  local cols, rows = size[1], size[2]
  test(("golden frames at %dx%d: a run in play and its end card"):format(cols, rows), function(t)
    local g = players.start(t, 1, cols, rows)
    players.skilled(g, 60 * 20)
    g:release(0, 0):step()
    g:expect_golden(("play-%dx%d"):format(cols, rows))
    -- idle from here: the gate empties the pile each round, so the end may take a while
    g:step_until(function(s) return s.phase == "over" end, 60 * 400)
    g:step(60)
    g:expect_golden(("over-%dx%d"):format(cols, rows))
  end)
end
