-- Fishing: the pond laid out for the terminal (issue 24): the water across the whole width
-- below the bank, fish sized from its depth, the same fish at every size, and the HUD.

local SIZES = { { 80, 24 }, { 100, 30 }, { 160, 50 } }
local KINDS = { "croaker", "grouper", "snapper", "striped", "coral", "shark" }
-- the fishing article's sizes in points, restated so the ratios are checked against it
local ARTICLE = {
  croaker = { 35, 40 }, grouper = { 50, 50 }, snapper = { 50, 40 },
  striped = { 65, 53 }, coral = { 55, 55 }, shark = { 145, 90 },
}
-- the still scenery (sky, water, deep water, grass, earth), blank in text frames
local SCENERY = { "#1b2838", "#1d4e7a", "#163c60", "#4f8a3a", "#7a5a36" }
-- the decided pond, at every size (wave 4: the economy must not depend on the window)
local DECIDED = { croaker = 2, grouper = 2, snapper = 2, striped = 2, coral = 1, shark = 1 }

local function counts(s)
  local n = {}
  for _, k in ipairs(KINDS) do n[k] = 0 end
  for _, b in ipairs(s.swimming) do n[b.kind] = n[b.kind] + 1 end
  return n
end

local function expect_in_water(s, label)
  local w = s.water
  for i, b in ipairs(s.swimming) do
    local what = label .. ": " .. b.kind .. " " .. i
    expect(b.y, what .. " top"):to_be_at_least(w.top)
    expect(b.y + b.h, what .. " bottom"):to_be_at_most(w.bottom)
  end
end

local function sizes_by_kind(s)
  local out = {}
  for _, b in ipairs(s.swimming) do out[b.kind] = { b.w, b.h } end
  return out
end

test("every fish stays in the water, at every depth and size, over 3000 steps of casting", function(t)
  for _, size in ipairs(SIZES) do
    local g = t:start{ seed = 5, cols = size[1], rows = size[2] }
    local cols, rows, width, height = g:size()
    local label = cols .. "x" .. rows
    local s = g:state()
    -- the water: below the bank, down to the bed's text row, most of the canvas
    expect(s.water.top, label):to_be_greater_than(0)
    expect(s.water.bottom, label):to_equal(height - 2)
    expect(s.water.bottom - s.water.top, label):to_be_greater_than(height / 2)
    local seen, checked = {}, 0
    for step = 1, 3000 do
      if s.hook == "swinging" then g:key(s.phase == "over" and "r" or "space") end
      g:step()
      s = g:state()
      expect_in_water(s, label .. " step " .. step)
      for _, b in ipairs(s.swimming) do
        seen[b.kind] = true
        checked = checked + 1
      end
    end
    for _, k in ipairs(KINDS) do expect(seen[k], label .. ": " .. k .. " seen"):to_be(true) end
    expect(s.casts, label .. ": casts"):to_be_greater_than(5)
    expect(checked):to_be_greater_than(3000 * 5)
    g:close()
  end
end)

test("the shark is at most a third of the depth; the other kinds keep the article's ratios to it", function(t)
  local heights = {}
  for _, size in ipairs(SIZES) do
    local g = t:start{ seed = 2, cols = size[1], rows = size[2] }
    local label = size[1] .. "x" .. size[2]
    local s = g:state()
    local depth = s.water.bottom - s.water.top
    local box = sizes_by_kind(s)
    local shark_h = box.shark[2]
    expect(shark_h * 3, label .. ": three sharks tall"):to_be_at_most(depth)
    -- at most a third, and not much less: the largest art that fits
    expect(shark_h * 3, label .. ": not lost in the depth"):to_be_greater_than(depth / 3)
    local px = shark_h / ARTICLE.shark[2]  -- pixels per article point
    for _, k in ipairs(KINDS) do
      -- pixel art at the article's ratios, rounded: within a pixel and a half of them
      expect(box[k][1], label .. ": " .. k .. " width"):to_be_near(ARTICLE[k][1] * px, 1.5)
      expect(box[k][2], label .. ": " .. k .. " height"):to_be_near(ARTICLE[k][2] * px, 1.5)
    end
    heights[label] = shark_h
    g:close()
  end
  expect(heights["160x50"], "the fish grow with the pond"):to_be_greater_than(heights["80x24"])
end)

test("the pond holds the same fish at every size: 2/2/2/2/1/1", function(t)
  for _, size in ipairs(SIZES) do
    local g = t:start{ seed = 3, cols = size[1], rows = size[2] }
    local label = size[1] .. "x" .. size[2]
    local s = g:state()
    expect(counts(s), label):to_equal(DECIDED)
    expect(s.fish, label):to_equal(10)
    expect(#s.pond_ids, label):to_equal(10)
    g:close()
  end
end)

test("a kind swims as a school: its two fish the same way, the second a length and a half behind the first", function(t)
  for _, size in ipairs({ { 80, 24 }, { 160, 50 } }) do
    local g = t:start{ seed = 3, cols = size[1], rows = size[2] }
    local label = size[1] .. "x" .. size[2]
    local _, _, width = g:size()
    local seen = 0
    for step = 0, 1800 do
      if step > 0 then g:step() end
      local s = g:state()
      local by_kind = {}
      for _, b in ipairs(s.swimming) do
        by_kind[b.kind] = by_kind[b.kind] or {}
        table.insert(by_kind[b.kind], b)
      end
      -- the kinds take turns: croakers from the right, groupers from the left, and so on
      for i, kind in ipairs(KINDS) do
        for _, b in ipairs(by_kind[kind]) do
          expect(b.dir, label .. ": " .. kind .. "'s way"):to_equal(i % 2 == 1 and -1 or 1)
        end
      end
      -- (the ready screen: nothing is caught, so every school keeps together)
      for kind, list in pairs(by_kind) do
        local a, b = list[1], list[2]
        if b and a.x >= 0 and b.x >= 0 and a.x + a.w <= width and b.x + b.w <= width then
          expect(math.abs(a.x - b.x), label .. ": the " .. kind .. " school at step " .. step):to_be_near(1.5 * a.w, 1.5)
          seen = seen + 1
        end
      end
    end
    expect(seen, label .. ": schools seen on screen"):to_be_greater_than(1000)
    g:close()
  end
end)

test("a caught fish is replaced, so the pond keeps its count", function(t)
  local g = t:start{ seed = 3 }
  local s = g:state()
  local total = s.fish
  for _ = 1, 40 do
    if s.hook == "swinging" then g:key(s.phase == "over" and "r" or "space") end
    g:step(30)
    s = g:state()
    expect(s.fish + s.incoming, "swimming and coming"):to_equal(total)
  end
  local caught = 0
  for _, n in pairs(s.caught) do caught = caught + n end
  expect(caught, "fish landed"):to_be_greater_than(0)
end)

test("a resize lays out the water and every live fish again", function(t)
  local g = t:start{ seed = 4 }
  g:step(30)
  g:key("space"):step(100)
  expect(g:state().hook):to_equal("waiting")
  g:resize(160, 50):step()
  local s = g:state()
  expect(s.water.bottom):to_equal(98)
  expect(s.fish + s.incoming, "the same fish in the large pond"):to_equal(10)
  expect_in_water(s, "after growing")
  for _, b in ipairs(s.swimming) do
    if b.kind == "shark" then expect(b.h * 3):to_be_at_most(s.water.bottom - s.water.top) end
  end
  g:step_until(function(st) return st.hook == "swinging" end, 600)
  g:resize(80, 24):step()
  s = g:state()
  expect(s.water.bottom):to_equal(46)
  expect(s.fish + s.incoming, "the same fish in the small pond"):to_equal(10)
  for step = 1, 600 do
    g:step()
    expect_in_water(g:state(), "after shrinking, step " .. step)
  end
  g:step_until(function(st) return not st.landing.bank end, 600)
  g:key("space"):step()
  expect(g:state().hook):to_equal("casting")
end)

test("the hint says what can be done now", function(t)
  local g = t:start{ seed = 1 }
  g:blank(SCENERY):step()
  expect(g:lines()[24]):to_contain("space / click the pond: cast for 10 coins")
  g:step(30)
  g:key("space"):step()
  expect(g:text()):to_contain("waiting for a bite")
  g:step_until(function(s) return s.hook == "reeling" end, 600)
  g:step()
  expect(g:text()):to_contain("reeling in")
  g:step_until(function(s) return s.hook == "swinging" end, 120)
  g:step()
  expect(g:text()):to_contain("cast for 10 coins (")
end)

test("the wallet reads 'coins N' and counts up as the coins land, to the new total with the last", function(t)
  for seed = 1, 40 do
    local g = t:start{ seed = seed }
    g:step(30)
    g:key("space"):step()
    expect(g:lines()[1]):to_contain("coins 90")
    g:step_until(function(s) return s.hook == "reeling" end, 600)
    local s = g:state()
    if s.win >= 4 then
      local total = s.wallet
      expect(total):to_equal(90 + s.win)
      local shown, values = 90, {}
      for _ = 1, 70 do
        g:step()
        -- (a coin flying past may cover the space before the number)
        local n = tonumber(g:lines()[1]:match("coins[^%d]*(%d+)"))
        expect(n, "the wallet never counts down"):to_be_at_least(shown)
        expect(n, "nor past the total"):to_be_at_most(total)
        if n ~= shown then values[#values + 1] = n end
        shown = n
      end
      expect(shown, "the last coin brings the total"):to_equal(total)
      expect(#values, "it counted up in steps, one a coin"):to_be_greater_than(2)
      return
    end
    g:close()
  end
  error("no seed in 1..40 won 4 coins or more on the first cast")
end)

test("golden frame: fish hang apart on the hook at 80x24", function(t)
  local g = t:start{ seed = 11 }
  g:blank(SCENERY)
  g:step(30)
  g:key("space"):step()
  g:step_until(function(s) return #s.hooked_ids == 3 end, 400)
  g:step(10)
  g:expect_golden("three-on-the-hook")
end)
