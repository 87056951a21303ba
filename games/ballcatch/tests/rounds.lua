-- Ball catch: rounds of one gate cycle, the best round, the HUD and resizes (GAMES.md, revised
-- after a play test).

-- A player who keeps the paddle busy: a press, then a drag to a new place in the lower half
-- every 12 steps, on a fixed path, for `seconds`.
local function flail(g, seconds)
  local cols, rows = g:size()
  local low, span = rows // 2, rows - rows // 2
  g:press(cols // 2, rows * 3 // 4)
  local k = 0
  for _ = 1, seconds * 60 // 12 do
    k = (k * 37 + 11) % (cols - 4)
    g:drag(2 + k, low + (k * 7) % span):step(12)
  end
  g:release(cols // 2, rows - 1):step()
end

test("a round ends when the 50th drop opens the gate, and the next drop starts the next at 0", function(t)
  local g = t:start{ seed = 1 }
  expect(g:state().round):to_equal(1)
  expect(g:state().round_score):to_equal(0)
  flail(g, 46)
  local s = g:state()
  expect(s.dropped):to_be_less_than(50)
  expect(s.round, "still the first round"):to_equal(1)
  local points = s.round_score
  expect(points, "points the paddle earned"):to_be_greater_than(0)
  expect(g:lines()[1]):to_contain("round 1: " .. points .. " points")

  g:step_until(function(st) return st.gate_open end, 60 * 5)
  s = g:state()
  expect(s.dropped):to_equal(50)
  expect(s.round, "the round that ended"):to_equal(1)
  expect(s.best_round):to_equal(s.round_score)
  expect(g:best(), "the round is the best result"):to_equal(s.round_score)
  expect(g:text()):to_contain("new best!")
  expect(g:text()):to_contain("the gate is open: round 2 starts with the next ball")
  expect(g:lines()[1]):to_contain("gate open")
  expect(g:lines()[1]).never:to_contain("gate opens in")
  local final = s.round_score

  g:step_until(function(st) return st.dropped == 51 end, 61)
  s = g:state()
  expect(s.round):to_equal(2)
  expect(s.round_score, "the new round starts at 0"):to_equal(0)
  expect(s.best_round):to_equal(final)
  expect(s.score, "the field's total goes on"):to_be_at_least(final)
  expect(g:lines()[1]):to_contain("round 2: 0 points  best round " .. final)
  expect(g:lines()[1]):to_contain("gate opens in 49")
  expect(g:text()):to_contain("round 2 has begun")
  g:wait(2)
  expect(g:text(), "the banner is gone").never:to_contain("round 2 has begun")
end)

test("idling earns nothing: three untouched rounds stay at 0 while the balls hit the boxes", function(t)
  local g = t:start{ seed = 2 }
  for round = 1, 3 do
    g:step_until(function(s) return s.gate_open and s.round == round end, 60 * 51)
    expect(g:state().round_score, "round " .. round):to_equal(0)
    expect(g:text()):to_contain("only balls your paddle bats score on +5 / +1")
    g:step_until(function(s) return not s.gate_open end, 61)
  end
  local s = g:state()
  expect(s.round):to_equal(4)
  expect(s.best_round):to_equal(0)
  expect(g:best() or 0):to_equal(0)
  expect(s.score, "the boxes were hit all the same"):to_be_greater_than(20)
  expect(s.hits.score1 + s.hits.score2):to_be_greater_than(10)
end)

test("the best round is kept: a worse round, r and a new run leave it", function(t)
  local g = t:start{ seed = 3 }
  flail(g, 46)
  g:step_until(function(s) return s.gate_open end, 60 * 5)
  local best = g:state().best_round
  expect(best):to_be_greater_than(0)
  -- an untouched second round scores 0 and changes nothing
  g:step_until(function(s) return s.round == 2 and s.gate_open end, 60 * 51)
  expect(g:state().round_score):to_equal(0)
  expect(g:state().best_round):to_equal(best)
  expect(g:best()):to_equal(best)
  expect(g:text()).never:to_contain("new best!")
  expect(g:text()):to_contain("best round " .. best)
  -- a new field starts at round 1 and keeps the best
  g:key("r"):step()
  local s = g:state()
  expect(s.round):to_equal(1)
  expect(s.round_score):to_equal(0)
  expect(s.best_round):to_equal(best)
  -- and so does the next run
  local again = g:restart{ seed = 5 }
  again:step()
  expect(again:state().best_round):to_equal(best)
  expect(again:lines()[1]):to_contain("round 1: 0 points  best round " .. best)
end)

test("r in the middle of a round drops that round: only whole rounds count", function(t)
  local g = t:start{ seed = 1 }
  flail(g, 30)
  expect(g:state().round_score):to_be_greater_than(0)
  g:key("r"):step()
  expect(g:state().best_round):to_equal(0)
  expect(g:best() or 0):to_equal(0)
end)

for _, size in ipairs{ { 80, 24 }, { 160, 50 } } do
  test(("the HUD at %dx%d: round, points, best round, the gate, the boxes' worth, the corner free")
      :format(size[1], size[2]), function(t)
    local g = t:start{ seed = 4, cols = size[1], rows = size[2] }
    g:step(30) -- the first ball has fallen past the hint it dropped over
    local top = g:lines()[1]
    expect(top):to_contain("round 1: 0 points  best round 0")
    expect(top):to_contain("[r] new field")
    expect(top):to_contain("gate opens in 49")
    for col = size[1] - 3, size[1] - 1 do
      expect(g:cell(col, 0), "column " .. col .. " of the top row"):to_equal(" ")
    end
    expect(g:text()):to_contain("arrows or drag: move the paddle")
    expect(g:find("+5")):to_be_a("integer")
    expect(g:find("+1")):to_be_a("integer")
    -- the longest count ends where the shortest does
    local _, row = g:find("gate opens in 49")
    expect(row):to_equal(0)
  end)
end

test("the hint goes once the paddle has earned a point, and comes back with a new field", function(t)
  local g = t:start{ seed = 1 }
  expect(g:text()):to_contain("arrows or drag: move the paddle")
  flail(g, 30)
  expect(g:state().round_score):to_be_greater_than(0)
  expect(g:text()).never:to_contain("arrows or drag: move the paddle")
  g:key("r"):step()
  expect(g:text()):to_contain("arrows or drag: move the paddle")
end)

test("a resize keeps every ball and the round, and scores nothing by itself", function(t)
  local g = t:start{ seed = 9 }
  g:wait(20)
  local before = g:state()
  g:resize(160, 50):step()
  local s = g:state()
  expect(s.balls):to_equal(before.balls)
  expect(s.score, "no touch made up by the resize"):to_equal(before.score)
  expect(s.round):to_equal(before.round)
  expect(s.paddle.x, "the paddle moved with the field"):to_be_near(before.paddle.x * 2, 1e-9)
  expect(s.paddle.y):to_be_near(before.paddle.y * 100 / 48, 1e-9)
  g:wait(3)
  expect(g:state().balls, "nothing lost through the walls"):to_equal(before.balls + 3)
  g:resize(80, 24):step()
  expect(g:state().balls):to_equal(before.balls + 3)
  g:wait(2)
  expect(g:state().balls):to_equal(before.balls + 5)
  expect(g:lines()[1]):to_contain("gate opens in")
end)

test("the gate-open frame", function(t)
  local g = t:start{ seed = 1 }
  g:step_until(function(s) return s.gate_open end, 60 * 51)
  g:step(20)
  g:expect_golden("gate-open")
end)
