-- Coin bank laid out for a landscape terminal: the pig grows with the canvas in whole pixel
-- steps and stays on screen, the HUD's numbers are in the pixel font from 40 rows, every
-- size re-lays out (coins in flight too), and golden frames of a run and of its end card.

local policies = require("support.policies")
local SIZES = { { 80, 24 }, { 100, 30 }, { 120, 40 }, { 160, 50 } }
local BANK_W, BANK_H = 17, 9     -- bank.sprite, in pixels

local function expect_inside_canvas(g, box, what)
  local _, _, w, h = g:size()
  expect(box.x, what .. " left"):to_be_at_least(0)
  expect(box.y, what .. " top"):to_be_at_least(0)
  expect(box.x + box.w, what .. " right"):to_be_at_most(w)
  expect(box.y + box.h, what .. " bottom"):to_be_at_most(h)
end

local function press_well(g)
  local _, _, width = g:size()
  g:step_until(function(s) return policies.skilled_wants(s, width) end, 60 * 20)
  return g:key("space"):step()
end

test("the pig is on screen at every size, in whole pixel steps, and larger at 160x50", function(t)
  local scales = {}
  for i, size in ipairs(SIZES) do
    local g = t:start{ seed = 10 + i, cols = size[1], rows = size[2] }
    g:step():key("enter"):step()
    for _ = 1, 4 do
      g:wait(1.7)
      local box = g:state().bank
      expect_inside_canvas(g, box, size[1] .. "x" .. size[2] .. " pig")
    end
    local box = g:state().bank
    local n = box.w // BANK_W
    expect(box.w, "pig width"):to_equal(BANK_W * n)
    expect(box.h, "pig height"):to_equal(BANK_H * n)
    scales[i] = n
    -- the drop point is at the top centre, inside the pig's band
    local drop = g:state().drop
    expect(drop.x * 2, "centred across"):to_equal(size[1])
    expect(drop.y):to_be_between(box.y, box.y + box.h)
    -- the button and the hint are below the band
    local _, row = g:find("money")
    expect(row * 2, "button row"):to_be_greater_than(box.y + box.h + 4)
  end
  expect(scales[1], "scale at 80x24"):to_equal(1)
  expect(scales[4], "scale at 160x50"):to_be_greater_than(scales[1])
end)

test("from 40 rows the HUD's numbers are in the pixel font; below, one line of text", function(t)
  local g = t:start{ seed = 3, cols = 160, rows = 50 }
  g:step():key("enter"):step()
  local score = g:node("score")
  expect(score.kind):to_equal("label")
  expect(score.visible):to_be(true)
  expect(score.text):to_equal("0")
  expect(g:node("level count").text):to_equal("0/500")
  expect(g:node("bursts").text):to_equal("5")
  expect(g:text()):to_contain("score (best 0)")
  g:resize(80, 24):step()
  expect(g:node("score").visible, "no pixel font at 80x24"):to_be(false)
  expect(g:lines()[1]):to_match("^ score 0 · level 1 · 0/500 coins · bursts 5 · best 0")
  g:resize(120, 40):step()
  expect(g:node("score").visible, "pixel font at 120x40"):to_be(true)
end)

test("the top row leaves the pause mark's corner free at every size", function(t)
  for _, size in ipairs(SIZES) do
    local g = t:start{ seed = 4, cols = size[1], rows = size[2] }
    g:step():key("enter"):step(30)
    local row = g:lines()[1]
    local cells = {}
    for _, c in utf8.codes(row) do cells[#cells + 1] = utf8.char(c) end
    expect(table.concat(cells, "", size[1] - 2, size[1]), size[1] .. "x" .. size[2] .. " top-right corner"):to_match("^%s*$")
  end
end)

test("a resize mid-burst lays everything out again and every coin in flight still lands", function(t)
  local g = t:start{ seed = 12 }
  g:step():key("enter"):step()
  local idle = g:stats()
  g:key("space"):step(40)
  g:resize(160, 50):step(20)
  local s = g:state()
  expect(s.bank.w, "pig width at 160x50"):to_be_greater_than(BANK_W)
  expect(s.drop.x):to_equal(80)
  expect_inside_canvas(g, s.bank, "pig after growing")
  g:resize(80, 24):step(20)
  expect(g:state().drop.x):to_equal(40)
  g:step_until(function(st) return not st.bursting end, 600)
  s = g:state()
  expect(s.arrived):to_equal(300)
  expect(s.burst_banked + s.lost):to_equal(300)
  g:wait(2)
  local after = g:stats()
  expect(after.nodes, "nodes: the old coin layers are gone"):to_equal(idle.nodes)
  expect(after.animations):to_equal(idle.animations)
  local col, row = g:find("money")
  g:click(col, row):step()
  expect(g:state().bursting):to_be(true)
end)

-- A run: one well-timed burst, then four pressed at once (mostly lost).
local function short_run(t, cols, rows)
  local g = t:start{ seed = 21, cols = cols, rows = rows }
  g:step():key("enter"):step()
  press_well(g)
  for _ = 1, 4 do
    g:step_until(function(s) return s.button_visible end, 600)
    g:key("space"):step()
  end
  g:step_until(function(s) return s.phase == "over" end, 600)
  return g
end

test("golden frames: a run in play and the end card, at 80x24 and 160x50", function(t)
  for _, size in ipairs({ { 80, 24 }, { 160, 50 } }) do
    local tag = size[1] .. "x" .. size[2]
    local g = t:start{ seed = 21, cols = size[1], rows = size[2] }
    g:step():key("enter"):step()
    press_well(g)
    g:step(200):expect_golden("play-" .. tag)
    local over = short_run(t, size[1], size[2])
    over:wait(2):expect_golden("over-" .. tag)
    expect(over:state().reason):to_equal("out of bursts")
  end
end)
