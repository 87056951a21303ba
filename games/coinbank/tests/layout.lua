-- Coin bank laid out for a landscape terminal: the bank grows with the canvas in whole
-- pixel steps and stays on screen, coins vanish behind it, the hint names every control,
-- and only the button's coins count toward the best.

local SIZES = { { 80, 24 }, { 100, 30 }, { 160, 50 } }
local BANK_W, BANK_H = 17, 9     -- bank.sprite, in pixels
local PINK = "#f4a6c0"           -- the bank's body colour

-- Columns first..last (0-based) of a frame line, whose block characters take several bytes.
local function columns(line, first, last)
  local out, col = {}, 0
  for _, c in utf8.codes(line) do
    if col >= first and col <= last then out[#out + 1] = utf8.char(c) end
    col = col + 1
  end
  return table.concat(out)
end

local function finish_burst(g)
  return g:step_until(function(s) return s.button_visible end, 60 * 10)
end

local function expect_inside_canvas(g, box, what)
  local _, _, w, h = g:size()
  expect(box.x, what .. " left"):to_be_at_least(0)
  expect(box.y, what .. " top"):to_be_at_least(0)
  expect(box.x + box.w, what .. " right"):to_be_at_most(w)
  expect(box.y + box.h, what .. " bottom"):to_be_at_most(h)
end

-- The whole-pixel scale of the bank box, after checking that it is one.
local function scale_of(box)
  local n = box.w // BANK_W
  expect(box.w, "bank width"):to_equal(BANK_W * n)
  expect(box.h, "bank height"):to_equal(BANK_H * n)
  expect(box.x, "bank left"):to_be_a("integer")
  expect(box.y, "bank top"):to_be_a("integer")
  return n
end

test("the bank is on screen at every size, in whole pixel steps, and larger at 160x50", function(t)
  local scales = {}
  for i, size in ipairs(SIZES) do
    local g = t:start{ seed = 10 + i, cols = size[1], rows = size[2] }
    g:step()
    local box = g:state().bank
    expect_inside_canvas(g, box, size[1] .. "x" .. size[2] .. " bank")
    scales[i] = scale_of(box)
    expect(box.x * 2 + box.w, "centred across"):to_be_between(size[1] - 1, size[1] + 1)
    -- the bank is drawn where its box says: its cells show it, the rows around it do not
    local lines = g:lines()
    local mid_row = (box.y + box.h // 2) // 2
    expect(columns(lines[mid_row + 1], box.x, box.x + box.w - 1), "the bank's middle row"):to_match("^[▀▄█]")
    expect(lines[(box.y + box.h) // 2 + 2], "the row below the bank"):to_match("^%s*$")
  end
  expect(scales[1], "scale at 80x24"):to_equal(1)
  expect(scales[3], "scale at 160x50"):to_be_greater_than(scales[1])
  expect(scales[2], "scale at 100x30"):to_be_between(scales[1], scales[3])
end)

test("the shaking bank stays on screen: its turned corners clear the top edge", function(t)
  for i, size in ipairs(SIZES) do
    local g = t:start{ seed = 20 + i, cols = size[1], rows = size[2] }
    g:step()
    local b = g:state().bank
    local reach = (b.w * math.sin(0.2) + b.h * math.cos(0.2)) / 2
    expect(b.y + b.h / 2 - reach, size[1] .. "x" .. size[2] .. ": top of the turned bank"):to_be_at_least(0)
    expect(b.y + b.h / 2 + reach, "bottom of the turned bank"):to_be_less_than(g:find("Show") and select(2, g:find("Show")) * 2 - 2)
  end
end)

test("coins vanish behind the bank: mid-burst its body shows no coin at any size", function(t)
  for i, size in ipairs(SIZES) do
    local g = t:start{ seed = 30 + i, cols = size[1], rows = size[2] }
    g:blank({ PINK })
    g:key("enter"):step(61)
    local s = g:state()
    expect(s.launched - s.arrived, "coins in flight"):to_be_greater_than(50)
    -- the body: sprite rows 2..7 and columns 3..11 are all pink
    local b = s.bank
    local n = b.w // BANK_W
    local x0, x1 = b.x + 3 * n, b.x + 12 * n
    local y0, y1 = b.y + 2 * n, b.y + 8 * n
    local lines = g:lines()
    local cells = 0
    for row = (y0 + 1) // 2, (y1 - 2) // 2 do
      local body = columns(lines[row + 1], x0, x1 - 1)
      expect(body, size[1] .. "x" .. size[2] .. " row " .. row .. " of the bank's body"):to_match("^%s*$")
      cells = cells + (x1 - x0)
    end
    expect(cells, "cells checked"):to_be_greater_than(0)
  end
end)

test("the hint names every control, whole, at 80x24, and the top-right corner stays free", function(t)
  local g = t:start{ seed = 4 }
  g:step()
  local hint = g:lines()[24]
  for _, control in ipairs({ "space", "enter", "click", "show me the money", "k: 10,000 coins" }) do
    expect(hint, "the hint"):to_contain(control)
  end
  expect(columns(g:lines()[1], 77, 79), "the top-right corner"):to_match("^%s*$")
  g:key("enter"):step(61)
  expect(g:lines()[1]:sub(1, 12), "the counter mid-burst"):to_match("^ banked %d")
end)

test("the stress burst flies 10,000 coins but banks none: best and banked stay", function(t)
  local g = t:start{ seed = 6 }
  g:key("enter"):step()
  finish_burst(g)
  expect(g:state().best, "best after a button burst"):to_equal(300)
  expect(g:best()):to_equal(300)

  g:key("k"):step()
  expect(g:text()):to_contain("not banked")
  g:wait(2)
  expect(g:state().banked, "banked mid-stress"):to_equal(300)
  finish_burst(g)
  local s = g:state()
  expect(s.arrived, "stress coins in"):to_equal(10000)
  expect(s.shakes, "the bank shook after each burst"):to_equal(2)
  expect(s.banked):to_equal(300)
  expect(s.best):to_equal(300)
  expect(g:best()):to_equal(300)
  expect(g:save("total")):to_equal(300)
end)

test("a button burst makes the best 300; a stress burst first changes nothing", function(t)
  local g = t:start{ seed = 7 }
  g:step()
  expect(g:state().best):to_equal(0)
  g:key("k"):step()
  finish_burst(g)
  expect(g:state().best, "best after the stress burst"):to_equal(0)
  expect(g:state().banked, "banked after the stress burst"):to_equal(0)
  expect(g:best(), "kept best"):to_be_falsy()
  g:key("space"):step()
  finish_burst(g)
  expect(g:state().best):to_equal(300)
  expect(g:best()):to_equal(300)
  local again = g:restart{ seed = 8 }
  again:step()
  expect(again:state().best, "best next time"):to_equal(300)
end)

test("the mouse alone: a click on the hint's \"k: 10,000 coins\" sends the stress burst", function(t)
  local g = t:start{ seed = 9 }
  g:step()
  local col, row = g:find("k: 10,000")
  g:click(col - 2, row):step()
  expect(g:state().bursting, "after a click just before it"):to_be(false)
  g:click(col + 5, row):step()
  expect(g:state().bursting):to_be(true)
  expect(g:state().burst_size):to_equal(10000)
end)

test("a resize mid-burst lays everything out again and every coin in flight still lands", function(t)
  local g = t:start{ seed = 12 }
  g:step()
  local idle = g:stats()
  g:key("enter"):step(40)
  g:resize(160, 50):step(20)
  local s = g:state()
  expect(s.bank.w, "bank width at 160x50"):to_be_greater_than(BANK_W)
  expect_inside_canvas(g, s.bank, "bank after growing")
  g:resize(80, 24):step(20)
  expect(g:state().bank):to_equal({ x = 31, y = 2, w = BANK_W, h = BANK_H })
  finish_burst(g)
  s = g:state()
  expect(s.arrived):to_equal(300)
  expect(s.banked):to_equal(300)
  expect(s.shakes):to_equal(1)
  g:wait(1)
  local after = g:stats()
  expect(after.nodes, "nodes: the old coin layers are gone"):to_equal(idle.nodes)
  expect(after.animations):to_equal(idle.animations)
  -- the button is back where the new layout puts it, and works
  local col, row = g:find("Show")
  expect(row, "button row at 80x24"):to_equal(15)
  g:click(col, row):step()
  expect(g:state().bursting):to_be(true)
end)

test("coins in flight when the canvas grows land in the bank where it now is", function(t)
  local g = t:start{ seed = 13 }
  g:key("enter"):step(40)          -- about 40 coins in flight, aimed at the bank at 80x24
  local old = g:state().first.to   -- that bank's target, in canvas pixels
  g:resize(160, 50):step()
  local b = g:state().bank
  expect(old[1] < b.x or old[2] < b.y, "the old target is outside the new bank"):to_be(true)
  g:blank({ PINK })
  -- while those coins land (steps 60 to 100), none gathers at the old target
  local col, row = math.floor(old[1]), math.floor(old[2] / 2)
  for _ = 1, 8 do
    g:step(7)
    for r = row - 1, row + 1 do
      expect(columns(g:lines()[r + 1], col - 3, col + 3), "around the old target, frame " .. g:frame()):to_match("^%s*$")
    end
  end
end)
