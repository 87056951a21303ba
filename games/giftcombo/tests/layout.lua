-- Gift combo's layout at 80x24, 100x30 and 160x50 (GAMES.md, revised after the play test):
-- card texts and pictures inside their cards, the counter's pop clear of the HUD rows, "x1"
-- shown with its row, a HUD that says what to press, and a resize that lays out live cards.
-- Boxes come from game.state.boxes (canvas pixels, read back from the nodes); texts are
-- also looked for in the frame, where the boxes say they are.

local SIZES = { { 80, 24 }, { 100, 30 }, { 160, 50 } }

local function show(b)
  return ("{x=%g y=%g w=%g h=%g}"):format(b.x, b.y, b.w, b.h)
end

local function inside(inner, outer)
  return inner.x >= outer.x and inner.y >= outer.y
     and inner.x + inner.w <= outer.x + outer.w and inner.y + inner.h <= outer.y + outer.h
end

-- Whether a pixel box reaches into any of the terminal rows listed.
local function meets_rows(box, rows)
  for _, r in ipairs(rows) do
    if box.y < 2 * r + 2 and box.y + box.h > 2 * r then return r end
  end
  return nil
end

local PIXELS = { ["▀"] = true, ["▄"] = true, ["█"] = true }

-- The frame now as a grid of cells: grid[row + 1][col + 1] (one call into the game for the
-- whole frame, rather than one a cell); a wide character's second cell is "".
local function grid(g)
  return g:cells()
end

local function cell(cells, col, row)
  return cells[row + 1] and cells[row + 1][col + 1] or " "
end

-- The first column from `from` on where a row shows pixels, or nil.
local function pixels_in_row(cells, row, from)
  for col = from, #cells[row + 1] - 1 do
    if PIXELS[cell(cells, col, row)] then return col end
  end
  return nil
end

-- Whether the frame shows `text` (ASCII) starting at a cell. The plain frame shows a blank
-- drawn over a shape (a card) as a full block.
local function text_at(cells, text, col, row)
  for k = 1, #text do
    local want, got = text:sub(k, k), cell(cells, col + k - 1, row)
    if not (got == want or (want == " " and got == "█")) then return false end
  end
  return true
end

-- Whether every cell of a pixel box is blank.
local function blank(cells, box)
  for row = box.y // 2, (box.y + box.h - 1) // 2 do
    for col = math.floor(box.x), math.ceil(box.x + box.w) - 1 do
      if cell(cells, col, row) ~= " " then return false end
    end
  end
  return true
end

-- Checks every card: its parts inside it, its texts in the frame where the boxes say,
-- pictures at whole-pixel scales, cards inside the canvas and off the HUD rows.
local function check_cards(g, where)
  local s = g:state()
  local cells = grid(g)
  local _, _, w, h = g:size()
  local canvas = { x = 0, y = 0, w = w, h = h }
  for i, c in ipairs(s.boxes.channels) do
    local label = where .. " channel " .. i
    expect(inside(c.card, canvas), label .. " card " .. show(c.card) .. " on the canvas"):to_be(true)
    expect(meets_rows(c.card, s.boxes.hud_rows), label .. " card off the HUD rows"):to_be(nil)
    for _, p in ipairs(c.parts) do
      expect(inside(p.box, c.card), label .. " " .. p.what .. " " .. show(p.box) .. " inside " .. show(c.card))
        :to_be(true)
      if p.what == "picture" then
        expect(p.box.w % 10, label .. " picture at a whole scale"):to_equal(0)
      end
      if p.text and #p.text > 1 and s.channels[i].state ~= "idle" then
        expect(text_at(cells, p.text, p.box.x, p.box.y // 2), label .. " shows '" .. p.text .. "' at its box"):to_be(true)
      end
    end
    expect(math.type(c.counter_scale), label .. " counter at a whole scale"):to_equal("integer")
  end
  for k, c in ipairs(s.boxes.palette) do
    local label = where .. " palette " .. k
    expect(inside(c.card, canvas), label .. " on the canvas"):to_be(true)
    for _, p in ipairs(c.parts) do
      expect(inside(p.box, c.card), label .. " " .. p.what .. " " .. show(p.box) .. " inside " .. show(c.card))
        :to_be(true)
      if p.text then
        expect(text_at(cells, p.text, p.box.x, p.box.y // 2), label .. " shows '" .. p.text .. "' at its box"):to_be(true)
      end
    end
  end
end

local function both_will_end(s)
  return s.channels[1].state == "will_end" and s.channels[2].state == "will_end"
end

for _, size in ipairs(SIZES) do
  local cols, rows = size[1], size[2]
  local at = cols .. "x" .. rows

  test("at " .. at .. " every card's texts and pictures lie inside its card", function(t)
    local g = t:start{ seed = 1, cols = cols, rows = rows }
    g:key("1"):key("3"):key("2"):step()
    g:step_until(both_will_end, 600)
    check_cards(g, at)
    -- and the Heart that waited behind them, once a channel took it
    g:step_until(function(s)
      for _, ch in ipairs(s.channels) do
        if ch.gift == "Heart" and ch.state == "will_end" then return true end
      end
    end, 600)
    check_cards(g, at)
  end)

  test("at " .. at .. " the counter's pop never meets the HUD rows", function(t)
    local g = t:start{ seed = 2, cols = cols, rows = rows }
    local s = g:state()
    local status = s.boxes.status_row
    g:key("1"):key("2"):step()
    -- twelve Roses: counts of two digits, both channels popping together at first
    for _ = 1, 11 do g:key("1"):step() end
    local pops = 0
    while true do
      -- the top row past its LIVE tag (text on a red background), the status row whole
      local cells = grid(g)
      expect(pixels_in_row(cells, 0, 8), "step " .. g:frame() .. ": pixels on the top row at column"):to_be(nil)
      expect(pixels_in_row(cells, status, 0), "step " .. g:frame() .. ": pixels on the status row at column"):to_be(nil)
      expect(table.concat(cells[1])):to_contain("best 0")
      for col = cols - 3, cols - 1 do
        expect(cell(cells, col, 0), "the top-right corner stays free"):to_equal(" ")
      end
      s = g:state()
      for i, c in ipairs(s.boxes.channels) do
        expect(meets_rows(c.pop, s.boxes.hud_rows), "channel " .. i .. " pop " .. show(c.pop)):to_be(nil)
      end
      if s.channels[1].count == 12 and s.channels[1].state == "will_end" then break end
      pops = pops + 1
      expect(pops, "steps"):to_be_less_than(600)
      g:step()
    end
  end)

  test("at " .. at .. " a channel's x1 appears with its row, not before it", function(t)
    local g = t:start{ seed = 3, cols = cols, rows = rows }
    g:key("3"):step()
    local s = g:state()
    local box = s.boxes.channels[1].counter
    local sliding = 0
    while s.channels[1].count == 0 do
      expect(s.channels[1].state):to_equal("animating")
      expect(s.channels[1].counter_shown, "step " .. g:frame() .. ": the counter while the row slides in")
        :to_be(false)
      expect(blank(grid(g), box), "step " .. g:frame() .. ": nothing where the counter will be"):to_be(true)
      sliding = sliding + 1
      g:step()
      s = g:state()
    end
    expect(sliding, "steps of slide-in"):to_be_between(14, 16)
    -- the row is in place: its avatar and texts show where the boxes say, and so does x1
    expect(s.channels[1].counter_shown):to_be(true)
    expect(blank(grid(g), box), "x1 drawn once the row is in place"):to_be(false)
    check_cards(g, at)
  end)

  test("at " .. at .. " the HUD says what you have, what to press and what is going on", function(t)
    local g = t:start{ seed = 4, cols = cols, rows = rows }
    local s = g:state()
    local status = s.boxes.status_row
    local top = g:lines()[1]
    for _, words in ipairs{ "LIVE", "space", "click", "c crowd", "best 0" } do
      expect(top, "the top row"):to_contain(words)
    end
    expect(g:lines()[status + 1], "the status row"):to_contain("queue empty")
    local palette = s.boxes.palette[1].parts
    expect(palette[2].text):to_equal("1 Mia")
    expect(text_at(grid(g), "1 Mia", palette[2].box.x, palette[2].box.y // 2), "the palette names key 1"):to_be(true)
    g:key("1"):key("2"):key("3"):key("3"):step()
    expect(g:lines()[status + 1]):to_contain("queue 2   next: Ava Rocket x2")
    g:key("c"):step()
    expect(g:lines()[status + 1]):to_contain("crowd ")
    expect(g:text()):to_contain("sending")
  end)
end

test("a resize lays out again the live cards, mid slide-in and mid pop", function(t)
  local g = t:start{ seed = 5 }
  g:key("1"):key("2"):step(8)
  g:resize(160, 50):step()
  local s = g:state()
  expect(s.boxes.channels[1].card.h, "cards grow with the canvas"):to_be_greater_than(12)
  expect(s.channels[1].state):to_equal("animating")
  g:step_until(both_will_end, 600)
  check_cards(g, "160x50 after a resize")
  -- back to 80x24 in the middle of a pop
  g:key("1"):step(3)
  expect(g:state().channels[1].state):to_equal("animating")
  g:resize(80, 24):step()
  s = g:state()
  expect(s.boxes.channels[1].card.h):to_equal(12)
  for i, c in ipairs(s.boxes.channels) do
    expect(meets_rows(c.pop, s.boxes.hud_rows), "channel " .. i .. " pop after the resize"):to_be(nil)
  end
  g:step_until(function(st) return st.channels[1].state == "will_end" end, 600)
  check_cards(g, "80x24 after a resize")
  expect(g:state().channels[1].count):to_equal(2)
end)

test("the crowd demo and practice outside a run never count for the best", function(t)
  local g = t:start{ seed = 6 }
  g:key("c"):wait(30)
  g:key("c"):step()
  for _ = 1, 3 do g:key("4"):step(2) end
  g:step_until(function(st)
    return #st.queue == 0 and st.channels[1].state == "idle" and st.channels[2].state == "idle"
  end, 60 * 120)
  local s = g:state()
  expect(s.best_combo, "the biggest combo shown"):to_be_greater_than(1)
  expect(s.phase):to_equal("ready")
  expect(g:best() or 0, "best kept"):to_equal(0)
  expect(g:lines()[1]):to_contain("best 0")
end)
