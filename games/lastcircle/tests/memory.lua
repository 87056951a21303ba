-- Last Circle's memory rule (GAMES.md, revised after the play test): the first two circles
-- stay 1.5 s to be remembered; every round the circles so far come back at their places, one
-- new circle joins at a free place, and the keys are dealt afresh; a game ends for a reason.

local function cell_of(c)
  return math.floor(c.x), math.floor(c.y / 2)
end

local function until_round(g)
  return g:step_until(function(s) return s.stage == "round" end, 600)
end

-- Clicks the new circle (the last to join) once every circle has popped in; back in the
-- next round.
local function clear_round(g)
  g:wait(1)
  local s = g:state()
  g:click(cell_of(s.circles[#s.circles])):step()
  expect(g:state().stage, "round " .. s.round .. " cleared"):to_equal("won_round")
  until_round(g)
end

-- Cells drawn as pixels (anything but a blank or a glyph of text) in the rows of the play area.
local function drawn(g)
  local n = 0
  local lines = g:lines()
  for row = 2, #lines - 1 do
    for _, ch in utf8.codes(lines[row]) do
      if ch == 0x2580 or ch == 0x2584 or ch == 0x2588 then n = n + 1 end
    end
  end
  return n
end

test("the first two circles pop in, stay 1.5 s, shrink away, and round 1 begins", function(t)
  local g = t:start{ seed = 9 }
  g:key("enter"):step()
  local s = g:state()
  expect(s.stage):to_equal("memorise")
  expect(s.round):to_equal(1)
  expect(s.circles):to_have_length(2)
  expect(s.circles[1].key, "nothing to press while remembering"):to_equal(nil)
  expect(s.circles[2].key):to_equal(nil)
  expect(s.elapsed):to_equal(0)
  expect(g:text()):to_contain("remember these circles")
  -- the later pop ends at its delay + 0.5 s; from then both stay whole for 1.5 s
  local popped = math.max(s.circles[1].delay, s.circles[2].delay) + 0.5
  local in_steps = math.ceil(popped * 60)
  g:step(in_steps)
  local whole = drawn(g)
  expect(whole, "both circles drawn"):to_be_greater_than(20)
  -- clicks and keys do nothing meanwhile
  g:click(cell_of(s.circles[1])):key("1"):key("enter"):step(60)
  expect(g:state().stage):to_equal("memorise")
  expect(drawn(g), "still whole after 1 s"):to_equal(whole)
  g:step(28)
  expect(drawn(g), "still whole 1.5 s after the pop"):to_equal(whole)
  expect(g:state().stage):to_equal("memorise")
  g:step(10)
  expect(drawn(g), "shrinking"):to_be_less_than(whole)
  -- 0.3 s of shrinking, then round 1
  local steps = until_round(g)
  expect(1 + in_steps + 60 + 28 + 10 + steps, "steps from enter to round 1"):to_be_between(
    math.floor((popped + 1.8) * 60), math.ceil((popped + 1.8) * 60) + 2)
  s = g:state()
  expect(s.circles):to_have_length(3)
  expect(g:text()):to_contain("round 1")
  expect(g:text()):to_contain("score 0")
end)

test("circles come back at their places every round and the new one joins at a free place", function(t)
  local g = t:start{ seed = 14 }
  g:key("enter"):step()
  local before = g:state().circles
  until_round(g)
  for round = 1, 6 do
    local s = g:state()
    expect(s.round):to_equal(round)
    expect(s.circles):to_have_length(round + 2)
    for i, c in ipairs(before) do
      expect(s.circles[i].x, "round " .. round .. ": circle " .. i .. " x"):to_equal(c.x)
      expect(s.circles[i].y, "round " .. round .. ": circle " .. i .. " y"):to_equal(c.y)
      expect(s.circles[i].r, "round " .. round .. ": circle " .. i .. " r"):to_equal(c.r)
    end
    local new = s.circles[#s.circles]
    for i = 1, #s.circles - 1 do
      local c = s.circles[i]
      local d = math.sqrt((c.x - new.x) ^ 2 + (c.y - new.y) ^ 2)
      expect(d, "round " .. round .. ": the new circle clear of circle " .. i):to_be_at_least(c.r + new.r)
    end
    before = s.circles
    clear_round(g)
  end
  expect(g:state().round, "six rounds cleared"):to_equal(7)
end)

test("keys are dealt afresh each round: the new circle's key says nothing about its age", function(t)
  local slots = {}     -- how often the new circle got each key in round 1 and in round 2
  local moved = 0      -- old circles whose key changed from one round to the next
  for seed = 1, 24 do
    local g = t:start{ seed = seed }
    g:key("enter"):step()
    until_round(g)
    local s1 = g:state()
    for round, s in ipairs({ s1 }) do
      local seen = {}
      for _, c in ipairs(s.circles) do
        expect(c.key, "every circle has a key"):to_be_a("string")
        expect(seen[c.key], "keys differ within a round"):to_equal(nil)
        seen[c.key] = true
      end
      local key = s.circles[#s.circles].key
      slots[round .. key] = (slots[round .. key] or 0) + 1
    end
    clear_round(g)
    local s2 = g:state()
    local key = s2.circles[#s2.circles].key
    slots["2" .. key] = (slots["2" .. key] or 0) + 1
    for i = 1, #s1.circles do
      if s2.circles[i].key ~= s1.circles[i].key then moved = moved + 1 end
    end
    g:close()
  end
  -- 24 games: each key of 1-3 falls to the new circle of round 1, each of 1-4 in round 2
  for _, k in ipairs({ "11", "12", "13", "21", "22", "23", "24" }) do
    expect(slots[k], "the new circle got key " .. k:sub(2) .. " in round " .. k:sub(1, 1)):to_be_at_least(2)
  end
  expect(moved, "old circles get new keys"):to_be_at_least(24)
end)

test("a circle's key is drawn on it from the moment it starts to pop", function(t)
  local g = t:start{ seed = 11 }
  g:key("enter"):step()
  until_round(g)
  local begun = g:frame()
  local s = g:state()
  local first
  for i, c in ipairs(s.circles) do
    if not first or c.delay < s.circles[first].delay then first = i end
  end
  local c = s.circles[first]
  g:step(math.ceil(c.delay * 60) + 1)
  expect(g:cell(cell_of(c)), "the key on a circle still springing"):to_equal(c.key)
  local new = s.circles[#s.circles]
  g:step(math.max(0, math.ceil(new.delay * 60) + 1 - g:frame() + begun))
  expect(g:cell(cell_of(new)), "the key on the new circle as it springs"):to_equal(new.key)
  g:key(new.key):step()
  expect(g:state().stage, "a pick while the circles pop"):to_equal("won_round")
end)

test("game over says why: time's up or wrong circle; the wrong pick is marked and the bar hidden", function(t)
  -- time's up
  local g = t:start{ seed = 21 }
  g:key("enter"):step()
  expect(g:state().reason, "nil before the game is over"):to_equal(nil)
  until_round(g)
  g:wait(3)
  expect(g:lines()[1], "the bar runs"):to_match("█")
  g:step_until(function(s) return s.card end, 200)
  expect(g:state().reason):to_equal("time's up")
  expect(g:text()):to_contain("time's up")
  expect(g:text()).never:to_contain("wrong circle")
  expect(g:lines()[1], "the bar is hidden").never:to_match("█")
  -- a wrong pick
  g = t:start{ seed = 21 }
  g:key("enter"):step()
  until_round(g)
  g:wait(1)
  local s = g:state()
  local wrong = s.circles[2]
  g:click(cell_of(wrong)):step()
  s = g:state()
  expect(s.reason):to_equal("wrong circle")
  expect(s.picked):to_equal(2)
  local col, row = cell_of(wrong)
  expect(g:cell(col, row), "the wrong pick is marked"):to_equal("X")
  expect(g:lines()[1], "the bar is hidden").never:to_match("█")
  expect(g:text()):to_contain("wrong circle")
  g:step_until(function(st) return st.card end, 120)
  expect(g:text()):to_contain("wrong circle")
  expect(g:text()).never:to_contain("time's up")
  expect(g:lines()[1]).never:to_match("█")
end)

test("the HUD shows round and score while playing; the top-right corner stays free", function(t)
  local g = t:start{ seed = 5 }
  g:key("enter"):step()
  until_round(g)
  clear_round(g)
  g:wait(5.2)
  local lines = g:lines()
  expect(lines[#lines]):to_contain("round 2")
  expect(lines[#lines]):to_contain("score " .. g:state().score)
  expect(lines[#lines]):to_contain("best 0")
  local bar = lines[1]:match("^(.-)%s*$")
  expect(bar:gsub("█", ""), "row 0 holds the bar alone"):to_equal("")
  expect(utf8.len(bar), "the bar, nearly full, ends four columns before the corner"):to_be_between(70, 76)
end)

test("a resize moves every circle with the field, and play goes on", function(t)
  local g = t:start{ seed = 13 }
  g:key("enter"):step()
  until_round(g)
  for _ = 1, 4 do clear_round(g) end
  g:wait(1)
  local before = g:state().circles
  g:resize(160, 50):step()
  local after = g:state().circles
  expect(after):to_have_length(#before)
  -- the play area runs from y = 3 to above the HUD: two pixels below 40 rows, ten from 40
  for i, a in ipairs(before) do
    local b = after[i]
    expect(b.x / 160, "x"):to_be_near(a.x / 80, 1e-9)
    expect((b.y - 3) / (90 - 3), "y"):to_be_near((a.y - 3) / (46 - 3), 1e-9)
    expect(b.x - b.r >= 0 and b.x + b.r <= 160 and b.y - b.r >= 3 and b.y + b.r <= 90, "inside"):to_be(true)
    for j = i + 1, #after do
      local c = after[j]
      expect(math.sqrt((b.x - c.x) ^ 2 + (b.y - c.y) ^ 2), "apart"):to_be_at_least(b.r + c.r)
    end
  end
  local hud = g:node("hud round")
  expect(hud.text, "the round in the pixel font"):to_equal("round 5")
  expect(hud.visible):to_be(true)
  expect(hud.y + hud.height, "the HUD below the field"):to_be_at_most(100 - 2)
  expect(hud.y, "the HUD below the field"):to_be_at_least(90)
  -- taller than wide: the places keep their share of the field, the radii shrink alike so
  -- that no two circles meet
  g:resize(80, 50):step()
  after = g:state().circles
  for i, b in ipairs(after) do
    expect(b.x / 80, "x"):to_be_near(before[i].x / 80, 1e-9)
    expect(b.x - b.r >= 0 and b.x + b.r <= 80 and b.y - b.r >= 3 and b.y + b.r <= 90, "inside"):to_be(true)
    for j = i + 1, #after do
      local c = after[j]
      expect(math.sqrt((b.x - c.x) ^ 2 + (b.y - c.y) ^ 2), "apart"):to_be_at_least(b.r + c.r)
    end
  end
  local new = after[#after]
  g:click(cell_of(new)):step()
  expect(g:state().stage):to_equal("won_round")
end)

test("the mouse alone: start, clear a round, miss, retry", function(t)
  local g = t:start{ seed = 12 }
  g:step()
  local col, row = g:find("Start")
  g:click(2, row):step()
  expect(g:state().stage, "a click beside the button does nothing"):to_equal("start")
  g:click(col + 2, row):step()
  expect(g:state().stage):to_equal("memorise")
  until_round(g)
  clear_round(g)
  g:wait(1)
  g:click(cell_of(g:state().circles[1])):step()
  g:step_until(function(s) return s.card end, 120)
  col, row = g:find("Retry")
  g:click(col + 2, row):step()
  expect(g:state().stage):to_equal("memorise")
  expect(g:state().score):to_equal(0)
end)
