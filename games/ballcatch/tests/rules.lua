-- Ball catch: the article's drop timer, gate and paddle, driven the way a player would.

test("a ball drops every second, the 50th opens the gate and the next shuts it", function(t)
  local g = t:start{ seed = 1 }
  expect(g:state().dropped, "dropped at load"):to_equal(1)
  g:wait(1)
  expect(g:state().dropped, "dropped after a second"):to_equal(2)
  expect(g:text()):to_contain("gate opens in 48")

  g:step_until(function(s) return s.gate_open end, 60 * 50)
  local s = g:state()
  expect(s.dropped):to_equal(50)
  expect(s.count, "the counter starts over"):to_equal(0)
  expect(g:text()):to_contain("the gate is open")

  g:step_until(function(st) return st.dropped == 51 end, 61)
  expect(g:state().gate_open):to_be(false)
  expect(g:text()).never:to_contain("the gate is open")
  expect(g:text()):to_contain("gate opens in 49")
end)

test("up keys stop the paddle at the half-way line, and it still moves sideways there", function(t)
  local g = t:start{ seed = 2 }
  local _, height = select(3, g:size())
  local start = g:state().paddle
  for _ = 1, 12 do g:key("up"):step(10) end
  local p = g:state().paddle
  expect(p.y, "paddle centre"):to_be_near(height / 2, 0.5)
  g:key("left"):step(10)
  expect(g:state().paddle.x):to_be_less_than(start.x)
  expect(g:state().paddle.y):to_be_near(height / 2, 0.5)
end)

test("a held arrow glides the paddle until its keyup", function(t)
  local g = t:start{ seed = 3 }
  local x0 = g:state().paddle.x
  g:key("right"):step()
  g:key("right", { is_repeat = true }):step(10)
  local gliding = g:state().paddle.x
  expect(gliding):to_be_greater_than(x0)
  g:step(5)
  expect(g:state().paddle.x, "still gliding"):to_be_greater_than(gliding)
  g:keyup("right"):step(5)
  local stopped = g:state().paddle.x
  g:step(30)
  expect(g:state().paddle.x, "after the keyup"):to_equal(stopped)
end)

test("r starts a fresh field: score and counter back to zero, one new ball", function(t)
  local g = t:start{ seed = 4 }
  g:wait(5.5)
  expect(g:state().balls):to_be_at_least(5)
  g:key("r"):step()
  local s = g:state()
  expect(s.balls, "balls in the world"):to_equal(1)
  expect(s.count):to_equal(1)
  expect(s.score):to_equal(0)
  expect(s.hits):to_equal({ score1 = 0, score2 = 0 })
  expect(g:stats().bodies):to_equal(1)
end)

test("the start frame", function(t)
  local g = t:start{ seed = 1 }
  g:step()
  g:expect_golden("start")
end)

test("the paddle driven into a side wall squeezes the balls there out along it, never through it", function(t)
  local g = t:start{ seed = 5 }
  local _, _, width, height = g:size()
  local worst, near = 0, 0
  -- Sweep the field side to side, high and low, pressing into each wall for a while.
  for round = 1, 8 do
    local side = round % 2 == 1 and "left" or "right"
    local vertical = round % 4 < 2 and "down" or "up"
    g:key(side):key(vertical)
    for i = 1, 240 do
      -- held: the terminal repeats the keys
      if i % 3 == 0 then g:key(side, { is_repeat = true }):key(vertical, { is_repeat = true }) end
      g:step()
      for _, b in ipairs(g:balls()) do
        local over = math.max(b.radius - b.x, b.x + b.radius - width, b.y + b.radius - height)
        worst = math.max(worst, over)
        if over > -b.radius then near = near + 1 end
      end
    end
    g:keyup(side):keyup(vertical)
  end
  expect(near, "ball-steps within a radius of a wall or the floor"):to_be_greater_than(100)
  expect(worst, "deepest into a side wall or the floor (px)"):to_be_less_than(0.5)
end)
