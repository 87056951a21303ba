-- Gift combo: a live-stream gift overlay. Viewers send gifts; the same gift from the same
-- sender again becomes a combo counter "x N" on one of two channels, and gifts that find
-- no channel wait in a queue. Every movement and delay is a native animation or timer:
-- the channel state machine below only runs when one of them ends.

local CHANNELS = 2             -- gift combo article: kChannelCount = 2
local CHANNEL_HEIGHT = 40      -- gift combo article: kChannelViewH = 40 (kept as a ratio to the margin)
local CHANNEL_MARGIN = 10      -- gift combo article: kChannelMargin = 10
local SLIDE_IN = 0.25          -- gift combo article: performAnimation slides in and fades in over 0.25 s
local POP = 0.25               -- gift combo article: ShowDigitAnimation's keyframes last 0.25 s together
local POP_SCALES = { 1, 3, 0.7 }   -- gift combo article: the counter grows to 3x, then shrinks to 0.7x
local POP_TIMES = { 0, 0.5, 1 }    -- gift combo article: each keyframe takes half of the 0.25 s
local SPRING = 0.25            -- gift combo article: then springs back to 1x over 0.25 s
local SPRING_DAMPING = 0.7     -- gift combo article: usingSpringWithDamping 0.7
local SPRING_VELOCITY = 10     -- gift combo article: initialSpringVelocity 10
local WILL_END = 3.0           -- gift combo article: performEndAnimation afterDelay 3.0
local LEAVE = 0.25             -- GAMES.md (decided): fade out and slide up over 0.25 s

-- The crowd (GAMES.md, decided): bursts of one gift from one sender, a pause, the next burst.
local CROWD_STEP = 0.1         -- seconds between two gifts of a burst
local BURST_MIN, BURST_MAX = 1, 8      -- gifts in a burst
local PAUSE_MIN, PAUSE_MAX = 6, 30     -- crowd steps of silence after a burst: a little faster than two channels show

-- Layout (decided, revised after the play test). From the top: one HUD row, the two
-- channels, a status row (the queue), the palette. The channels' height keeps the article's
-- 40 : 10 row-to-margin ratio and is as large as the band allows while both counters can
-- pop to the article's 3x without reaching a HUD row; the counter is drawn in the largest
-- block font and whole-pixel scale that fits so. The row is 60 % of the width.
local POP_MAX = 3              -- the largest scale in POP_SCALES: what the layout makes room for
local ROW_SHARE = 0.6
local ROW_MIN = 50             -- pixels
local CARD_MIN = 12            -- pixels: a card's smallest height (its picture at 1x, one pixel around)
local COUNTERS = {             -- the counter's font and whole-pixel scale, largest first; h: pixels tall at 1x
  { font = "large", scale = 2, h = 18 },
  { font = "small", scale = 2, h = 14 },
  { font = "large", scale = 1, h = 9 },
  { font = "small", scale = 1, h = 7 },
}
local COUNTER_SHARE = 0.4      -- the counter is at least this share of its card's height when it can be
local PALETTE_ROWS_WIDE = 6    -- palette rows from 40 terminal rows on (its pictures at 1x) ...
local PALETTE_ROWS = 4         -- ... and below (small pictures)
local PICTURE = 10             -- pixels: the gift pictures' size
local PALETTE_FILL = "#2e2650" -- the palette's buttons: filled, a pixel of it around each picture

local GIFTS = {
  { name = "Rose", sprite = "rose.sprite", icon = "rose_icon.sprite" },
  { name = "Heart", sprite = "heart.sprite", icon = "heart_icon.sprite" },
  { name = "Rocket", sprite = "rocket.sprite", icon = "rocket_icon.sprite" },
  { name = "Cake", sprite = "cake.sprite", icon = "cake_icon.sprite" },
  { name = "Star", sprite = "star.sprite" },
}
local SENDERS = {
  { name = "Mia", color = "#ff8a5c" },
  { name = "Leo", color = "#4fc3f7" },
  { name = "Ava", color = "#ce93d8" },
  { name = "Kai", color = "#9ccc65" },
  { name = "Zoe", color = "#ffd54f" },
  -- GAMES.md (Gift combo): real streams have names in every script, so the crowd's do too;
  -- CJK characters and these emoji take two cells each
  { name = "小明", color = "#ef9a9a" },
  { name = "さくら🌸", color = "#f48fb1" },
  { name = "김지민", color = "#80cbc4" },
  { name = "火箭少女🚀", color = "#ffab91" },
  { name = "🐱ねこ", color = "#b39ddb" },
  { name = "Zoë", color = "#fff59d" },
}
-- keys 1-4 and the palette (GAMES.md, decided): four different (sender, gift) pairs
local PAIRS = {
  { sender = "Mia", gift = "Rose" },
  { sender = "Leo", gift = "Heart" },
  { sender = "Ava", gift = "Rocket" },
  { sender = "Kai", gift = "Cake" },
}

-- What the top row says about the controls, longest first: the longest that fits is shown.
local HINTS = {
  "Gift Combo · press 1-4 or click a gift to send it, the same gift again makes a combo · c crowd",
  "press 1-4 or click a gift to send it · the same again makes a combo · c crowd",
  "1-4 or click a gift: send · again: combo · c crowd",
  "1-4 or click: send · c crowd",
}
-- What the status row says while the crowd sends, longest first.
local CROWD_NOTES = {
  "crowd sending · its combos do not count for your best",
  "crowd on · not counted for best",
  "crowd on",
}
local EMPTY_NOTES = {
  "queue empty · the same gift again within 3 s keeps its combo going",
  "queue empty",
}

local game = {}

-- GAMES.md §4: two gifts are the same when sender name and gift name match.
local function same(a, b)
  return a.sender == b.sender and a.gift == b.gift
end

---------------------------------------------------------------------------------------------
-- The channels (GAMES.md §4). Each one is idle, animating, will_end or end_animating.
---------------------------------------------------------------------------------------------

-- Routing a gift: (1) a channel that is not end-animating and shows the same gift takes it
-- as one more; (2) else an idle channel takes it; (3) else it waits in the queue. A gift
-- from the crowd is marked so: a combo with one in it does not count for the best result.
function game.send(sender, gift, crowd)
  local s = game.state
  s.sent = s.sent + 1
  local g = { sender = sender, gift = gift, crowd = crowd or nil }
  for i, ch in ipairs(s.channels) do
    if ch.state ~= "idle" and ch.state ~= "end_animating" and same(ch, g) then return game.one_more(i, g.crowd) end
  end
  for i, ch in ipairs(s.channels) do
    if ch.state == "idle" then return game.take(i, g) end
  end
  s.queue[#s.queue + 1] = g
  game.show_queue()
end

-- Taking a gift: the row slides in from the left and fades in; its counter shows "x1" with
-- the first tick, once the row is in place (GAMES.md, revised: never before its row).
function game.take(i, g)
  local ch = game.state.channels[i]
  ch.state, ch.sender, ch.gift, ch.count, ch.waiting = "animating", g.sender, g.gift, 0, 0
  ch.crowd = g.crowd
  game.dress(i)
  game.show_counter(i, false)
  local row = game.nodes.channels[i].row
  row.x, row.y, row.alpha = -game.layout.slide, 0, 0
  arcade.animate(row, { group = { { property = "x", to = 0 }, { property = "alpha", to = 1 } },
                        duration = SLIDE_IN }, game["slid_in_" .. i])
end

-- One more of the gift a channel shows: while will-end it cancels the leaving and ticks
-- again; otherwise it waits on the channel for the ticks before it.
function game.one_more(i, crowd)
  local ch = game.state.channels[i]
  if crowd then ch.crowd = true end
  if ch.state == "will_end" then
    game.timers[i]:cancel()
    game.timers[i] = false
    ch.state = "animating"
    game.tick(i)
  else
    ch.waiting = ch.waiting + 1
  end
end

-- A tick: N += 1, the counter shows "x N" and pops (3x, then 0.7x), then springs back to 1x.
-- The best result kept is the biggest combo of the player's own gifts (GAMES.md, revised:
-- only what the player earned counts); best_combo is the biggest shown, crowd included.
function game.tick(i)
  local s = game.state
  local ch = s.channels[i]
  ch.count = ch.count + 1
  s.shown = s.shown + 1
  if ch.count > s.best_combo then s.best_combo = ch.count end
  if not ch.crowd and ch.count > s.player_best then
    s.player_best = ch.count
    arcade.score.submit(ch.count)
    game.show_best()
  end
  local counter = game.show_count(i, ch.count)
  game.show_counter(i, true)
  arcade.animate(counter, { property = "scale", values = POP_SCALES, key_times = POP_TIMES, duration = POP,
                            timing = "linear" }, game["popped_" .. i])
end

function game.spring_back(i)
  arcade.animate(game.nodes.channels[i].counter,
                 { property = "scale", from = POP_SCALES[#POP_SCALES], to = 1, duration = SPRING,
                   spring = { damping = SPRING_DAMPING, velocity = SPRING_VELOCITY } }, game["settled_" .. i])
end

-- After a tick: tick again while more of the same wait on this channel, else will-end and
-- leave in 3 s.
function game.after_tick(i)
  local ch = game.state.channels[i]
  if ch.waiting > 0 then
    ch.waiting = ch.waiting - 1
    game.tick(i)
  else
    ch.state = "will_end"
    game.timers[i] = arcade.after(WILL_END, game["will_end_over_" .. i])
  end
end

-- Leaving: fade out and slide up, then reset and go idle.
function game.leave(i)
  game.state.channels[i].state = "end_animating"
  game.timers[i] = false
  arcade.animate(game.nodes.channels[i].row,
                 { group = { { property = "alpha", to = 0 }, { property = "y", to = -game.layout.lift } },
                   duration = LEAVE }, game["left_" .. i])
end

-- Going idle: take the first queued gift, and every other queued gift that is the same
-- moves from the queue onto this channel's count.
function game.reset(i)
  local ch = game.state.channels[i]
  ch.state, ch.sender, ch.gift, ch.count, ch.waiting = "idle", nil, nil, 0, 0
  ch.crowd = nil
  game.show_counter(i, false)
  local row = game.nodes.channels[i].row
  row.x, row.y, row.alpha = -game.layout.slide, 0, 0
  local q = game.state.queue
  if #q == 0 then return end
  local first = table.remove(q, 1)
  game.take(i, first)
  for k = #q, 1, -1 do
    if same(q[k], first) then
      local merged = table.remove(q, k)
      game.one_more(i, merged.crowd)
    end
  end
  game.show_queue()
end

-- Timers and animations call game-table functions, so a hot reload reaches the new code;
-- they pass no channel, so each channel has its own named entry points.
for i = 1, CHANNELS do
  game["slid_in_" .. i] = function(finished) if finished then game.tick(i) end end
  game["popped_" .. i] = function(finished) if finished then game.spring_back(i) end end
  game["settled_" .. i] = function(finished) if finished then game.after_tick(i) end end
  game["will_end_over_" .. i] = function() game.leave(i) end
  game["left_" .. i] = function(finished) if finished then game.reset(i) end end
end

---------------------------------------------------------------------------------------------
-- The crowd: a stream of random gifts in bursts, from the seeded generator.
---------------------------------------------------------------------------------------------

function game.crowd_step()
  local b = game.state.burst
  if b.left > 0 then
    b.left = b.left - 1
    game.send(b.sender, b.gift, true)
  elseif b.pause > 0 then
    b.pause = b.pause - 1
  else
    b.sender = SENDERS[math.random(#SENDERS)].name
    b.gift = GIFTS[math.random(#GIFTS)].name
    b.left = math.random(BURST_MIN, BURST_MAX)
    b.pause = math.random(PAUSE_MIN, PAUSE_MAX)
  end
end

function game.toggle_crowd()
  local s = game.state
  s.crowd = not s.crowd
  if s.crowd then
    game.crowd_timer = arcade.every(CROWD_STEP, game.crowd_step)
  else
    game.crowd_timer:cancel()
    game.crowd_timer = false
  end
  game.show_crowd()
  game.show_queue()
end

---------------------------------------------------------------------------------------------
-- Texts that fit: a text longer than its room is cut and ends in an ellipsis. Rooms and
-- lengths are terminal cells, where a wide character (小, 🌸) takes two.
---------------------------------------------------------------------------------------------

local function length(text)
  return arcade.text_width(text)
end

local function fit(text, room)
  return arcade.fit_text(text, room)
end

-- The first character of a name, whatever its width (an avatar's initial).
local function initial(name)
  local one = arcade.fit_text(name, 1, "")
  return one ~= "" and one or arcade.fit_text(name, 2, "")
end

-- The first of `choices` that fits `room`, or the last one cut to fit.
local function longest_fitting(choices, room)
  for _, c in ipairs(choices) do
    if length(c) <= room then return c end
  end
  return fit(choices[#choices], room)
end

---------------------------------------------------------------------------------------------
-- The overlay: nodes, what they show, and where they sit.
---------------------------------------------------------------------------------------------

local function find(list, name)
  for _, item in ipairs(list) do
    if item.name == name then return item end
  end
end

-- The channel's row shows its gift: avatar, name, "sent gift [name]" and the picture, each
-- cut to the room its card has.
function game.dress(i)
  local ch, n, L = game.state.channels[i], game.nodes.channels[i], game.layout
  if not ch.sender then return end
  local sender = find(SENDERS, ch.sender) or { name = ch.sender, color = "white" }
  n.avatar.fill = sender.color
  n.initial.text = initial(ch.sender)
  n.name.text = fit(ch.sender, L.text_cols)
  n.name.color = sender.color
  local desc = "sent gift [" .. ch.gift .. "]"
  if length(desc) > L.text_cols then
    local room = L.text_cols - length("sent gift []")
    desc = room >= 3 and ("sent gift [" .. fit(ch.gift, room) .. "]") or fit(desc, L.text_cols)
  end
  n.desc.text = desc
  n.gift.image = game.images[ch.gift]
  game.measure_channel(i)
end

-- The counter's text, placed so that its left edge stays two pixels right of the row.
function game.show_count(i, count)
  local n = game.nodes.channels[i]
  n.counter.text = "x" .. count
  n.holder.x = game.layout.row_width + 2 + game.layout.counter.scale * n.counter.width / 2
  game.measure_counter(i)
  return n.counter
end

function game.show_counter(i, shown)
  game.nodes.channels[i].holder.visible = shown
  game.state.channels[i].counter_shown = shown
end

-- The status row: how many gifts wait, and which, each kind once with how many of it (in
-- the order they arrived), as far as the width allows; on the right, what the crowd does.
function game.show_queue()
  local s, L = game.state, game.layout
  local q, note = game.nodes.queue, game.nodes.note
  local room = L.cols - 2
  if s.crowd then
    note.text = longest_fitting(CROWD_NOTES, math.max(8, L.cols // 2 - 2))
    room = room - length(note.text) - 2
  else
    note.text = ""
  end
  local queue = s.queue
  if #queue == 0 then
    q.text, q.color = longest_fitting(EMPTY_NOTES, room), "#8a83a8"
    return
  end
  local kinds = {}
  for _, g in ipairs(queue) do
    local found
    for _, kind in ipairs(kinds) do
      if same(kind, g) then found = kind end
    end
    if found then
      found.n = found.n + 1
    else
      kinds[#kinds + 1] = { sender = g.sender, gift = g.gift, n = 1 }
    end
  end
  local line = "queue " .. #queue .. "   next:"
  for k, kind in ipairs(kinds) do
    local item = (k == 1 and " " or ", ") .. kind.sender .. " " .. kind.gift .. (kind.n > 1 and (" x" .. kind.n) or "")
    if length(line) + length(item) > room - 4 then
      line = line .. " ..."
      break
    end
    line = line .. item
  end
  q.text, q.color = fit(line, room), "#ffd54f"
end

-- The top row: LIVE, what to press, and the best combo, which keeps clear of the top-right
-- corner (the host's pause mark).
function game.show_best()
  local L, nodes = game.layout, game.nodes
  local best = math.max(arcade.score.best() or 0, game.state.player_best)
  nodes.best.text = "best combo x" .. best
  nodes.best.x = L.cols - 4
  nodes.hint.text = longest_fitting(HINTS, L.cols - 4 - length(nodes.best.text) - 2 - 8)
end

function game.show_crowd()
  local on = game.state.crowd
  local e = game.nodes.palette[#PAIRS + 1]
  e.lines[2].text = fit(on and "on: sending" or "off", game.layout.palette_text_room[#PAIRS + 1])
  e.lines[2].color = on and "#9ccc65" or "#8a83a8"
  game.measure_palette(#PAIRS + 1)
end

local function text(opts)
  opts.anchor_x, opts.anchor_y = opts.anchor_x or 0, opts.anchor_y or 0
  return arcade.scene.text(opts)
end

function game.build()
  local nodes = { channels = {}, palette = {} }
  game.nodes = nodes
  game.images, game.icons = {}, {}
  for _, g in ipairs(GIFTS) do
    game.images[g.name] = arcade.image_file(g.sprite)
    if g.icon then game.icons[g.name] = arcade.image_file(g.icon) end
  end

  nodes.live = text{ x = 1, y = 0, text = " LIVE ", color = "white", background = "#d0203a", z = 5 }
  nodes.hint = text{ x = 8, y = 0, text = "", color = "#c9c2e8", z = 5 }
  nodes.best = text{ anchor_x = 1, x = 0, y = 0, text = "", color = "#ffb020", z = 5 }
  nodes.queue = text{ x = 1, y = 0, text = "", z = 5 }
  nodes.note = text{ anchor_x = 1, x = 0, y = 0, text = "", color = "#9ccc65", z = 5 }

  for i = 1, CHANNELS do
    local slot = arcade.scene.group{ z = 2 }
    local row = arcade.scene.group{ parent = slot, alpha = 0 }
    local n = { slot = slot, row = row }
    n.pill = arcade.scene.rect{ parent = row, anchor_x = 0, anchor_y = 0, fill = "#2a2244", z = 1 }
    n.cap = arcade.scene.circle{ parent = row, fill = "#2a2244", z = 1 }
    n.avatar = arcade.scene.circle{ parent = row, stroke = "#3ddc5c", line_width = 1, z = 2 }
    n.initial = text{ parent = row, anchor_x = 0.5, anchor_y = 0.5, text = "", color = "#1b1530", z = 3 }
    n.name = text{ parent = row, text = "", z = 3 }
    n.desc = text{ parent = row, text = "", color = "#e8e4f8", z = 3 }
    n.gift = arcade.scene.sprite{ parent = row, image = game.images[GIFTS[1].name], z = 3 }
    -- the holder gives the counter its whole-pixel size; the counter's own scale is the pop
    n.holder = arcade.scene.group{ parent = row, z = 6, visible = false }
    n.counter = arcade.scene.label{ parent = n.holder, anchor_x = 0.5, anchor_y = 0.5, text = "x1", font = "large",
                                    color = "white", outline = "orange" }
    nodes.channels[i] = n
  end

  for k = 1, #PAIRS + 1 do
    local pair = PAIRS[k]
    local e = { bg = arcade.scene.rect{ anchor_x = 0, anchor_y = 0, fill = PALETTE_FILL, z = 1 } }
    if pair then
      e.icon = arcade.scene.sprite{ image = game.icons[pair.gift], anchor_x = 0, anchor_y = 0, z = 2 }
      e.lines = { text{ text = "", color = find(SENDERS, pair.sender).color, z = 3 },
                  text{ text = "", color = "#e8e4f8", z = 3 } }
    else
      e.lines = { text{ text = "", color = "#e8e4f8", z = 3 }, text{ text = "", z = 3 } }
    end
    nodes.palette[k] = e
  end
end

-- The channels' height and the counter's font for a band of `band` pixels: the tallest
-- card (in steps of 4 pixels, so the 40 : 10 margin is whole) with a counter of at least
-- COUNTER_SHARE of it, such that the two cards fit and the two counters, popped to 3x
-- around their cards' middles, stay inside the band.
local function choose_cards(band)
  for ch = 4 * (band * CHANNEL_HEIGHT // (2 * CHANNEL_HEIGHT + CHANNEL_MARGIN) // 4), CARD_MIN, -4 do
    local pitch = ch + ch * CHANNEL_MARGIN // CHANNEL_HEIGHT
    for _, c in ipairs(COUNTERS) do
      if POP_MAX * c.h + pitch <= band and c.h >= COUNTER_SHARE * ch then return ch, c end
    end
  end
  return CARD_MIN, COUNTERS[#COUNTERS]
end

-- Places everything for a w x h pixel canvas. Channel rows keep their own animated
-- offsets inside their slots, so a resize never disturbs a channel mid-animation.
function game.lay_out(w, h)
  local cols, rows = w, h // 2
  local palette_rows = rows >= 40 and PALETTE_ROWS_WIDE or PALETTE_ROWS
  local palette_row = rows - palette_rows
  local status_row = palette_row - 1
  local band_top, band_bottom = 2, 2 * status_row
  local band = band_bottom - band_top
  local ch, counter = choose_cards(band)
  local gap = ch * CHANNEL_MARGIN // CHANNEL_HEIGHT
  local pitch = ch + gap
  local row_width = math.max(ROW_MIN, math.floor(w * ROW_SHARE))

  -- the cards sit in the middle of the band, moved as little as needed for both pops to fit;
  -- a counter of an odd height sits half a pixel low, so that its pixels land on the grid
  local off = counter.h % 2 == 1 and 0.5 or 0
  local reach = POP_MAX * counter.h / 2
  local lo = math.max(band_top, math.ceil(band_top + reach - ch / 2 - off))
  local hi = math.min(band_bottom - (2 * ch + gap), math.floor(band_bottom - reach - ch / 2 - pitch - off))
  local top = band_top + (band - (2 * ch + gap)) // 2
  top = math.max(lo, math.min(hi, top - top % 2))

  -- the picture: the largest whole-pixel scale with a pixel to spare above and below, as far
  -- right as the card's round end lets its corners stay inside
  local pic = math.max(1, (ch - 4) // PICTURE)
  local half = PICTURE * pic / 2
  local r = ch / 2
  local inset = r * r > half * half and math.floor(math.sqrt(r * r - half * half)) or 0
  local pic_right = row_width - r + inset - 1
  local pic_left = pic_right - 2 * half
  local text_x = ch + 1

  local L = { w = w, h = h, cols = cols, rows = rows, ch = ch, gap = gap, pitch = pitch, top = top,
              row_width = row_width, counter = counter, off = off, pic = pic,
              palette_rows = palette_rows, palette_row = palette_row, palette_top = 2 * palette_row,
              status_row = status_row, text_cols = pic_left - 1 - text_x,
              slide = row_width + 20, lift = ch // 4 }
  game.layout = L

  for i, n in ipairs(game.nodes.channels) do
    local card_top = top + (i - 1) * pitch
    n.slot.x, n.slot.y = 1, card_top
    n.pill:set{ x = r, y = 0, width = row_width - ch, height = ch }
    n.cap:set{ x = row_width - r, y = r, radius = r }
    n.avatar:set{ x = r, y = r, radius = r - 1 }
    n.initial:set{ x = r, y = r }
    -- the name and "sent gift" on whole rows around the card's middle, one row apart
    -- at least, never outside the rows the card covers whole
    local middle = card_top + r
    local first, last = (card_top + 1) // 2, (card_top + ch) // 2 - 1
    local name_row = math.max(first, math.floor((middle - 3) / 2))
    local desc_row = math.min(last, math.floor((middle + 3) / 2))
    n.name:set{ x = text_x, y = 2 * name_row - card_top }
    n.desc:set{ x = text_x, y = 2 * desc_row - card_top }
    n.gift:set{ x = pic_left + half, y = r, scale = pic }
    n.holder:set{ y = r + off, scale = counter.scale }
    n.counter.font = counter.font
  end

  game.nodes.hint.x = 8
  game.nodes.queue.y = 2 * status_row
  game.nodes.note:set{ x = cols - 1, y = 2 * status_row }

  local cell = w // (#PAIRS + 1)
  local wide = palette_rows == PALETTE_ROWS_WIDE and cell >= 24
  L.palette_text_room = {}
  for k, e in ipairs(game.nodes.palette) do
    local x0 = (k - 1) * cell
    e.bg:set{ x = x0, y = L.palette_top, width = cell - 1, height = 2 * palette_rows }
    local tx = x0 + 2
    if e.icon then
      local pair = PAIRS[k]
      e.icon.image = wide and game.images[pair.gift] or game.icons[pair.gift]
      local inner = 2 * palette_rows - 2
      e.icon:set{ x = x0 + 2, y = L.palette_top + 1 + (inner - e.icon.height) // 2 }
      tx = x0 + 2 + e.icon.width + 1
    end
    local line_row = palette_row + (palette_rows == PALETTE_ROWS and 1 or 2)
    e.lines[1]:set{ x = tx, y = 2 * line_row }
    e.lines[2]:set{ x = tx, y = 2 * line_row + 2 }
    L.palette_text_room[k] = x0 + cell - 2 - tx
    local pair = PAIRS[k]
    if pair then
      e.lines[1].text = fit(k .. " " .. pair.sender, L.palette_text_room[k])
      e.lines[2].text = fit(pair.gift, L.palette_text_room[k])
    else
      e.lines[1].text = fit("c crowd", L.palette_text_room[k])
    end
  end
  game.palette_cell = cell

  -- the live channels: their texts cut again to the new room, their counters placed again
  for i, ch_state in ipairs(game.state.channels) do
    game.dress(i)
    game.show_count(i, math.max(1, ch_state.count))
    game.measure_channel(i)
  end
  game.state.boxes.hud_rows = { 0, status_row }
  for row = palette_row, rows - 1 do game.state.boxes.hud_rows[#game.state.boxes.hud_rows + 1] = row end
  game.show_best()
  game.show_queue()
  game.show_crowd()
  for k = 1, #PAIRS + 1 do game.measure_palette(k) end
end

---------------------------------------------------------------------------------------------
-- What the overlay draws where, in game.state.boxes, for tests: boxes in canvas pixels
-- ({ x, y, w, h }), read back from the nodes; channel cards as they stand once in place.
---------------------------------------------------------------------------------------------

-- A text node's cells as a box: the character at the anchor lands in the cell holding x, y.
local function text_box(node, ox, oy)
  local w, h = node.width, node.height
  if w == 0 then return nil end
  local lines = h // 2
  local ci = math.max(0, math.min(w - 1, math.floor(node.anchor_x * w)))
  local li = math.max(0, math.min(lines - 1, math.floor(node.anchor_y * lines)))
  return { x = math.floor(ox + node.x) - ci, y = 2 * (math.floor((oy + node.y) / 2) - li), w = w, h = h }
end

local function shape_box(node, ox, oy, w, h, scale)
  return { x = ox + node.x - node.anchor_x * w * scale, y = oy + node.y - node.anchor_y * h * scale,
           w = w * scale, h = h * scale }
end

local function circle_box(node, ox, oy)
  local r = node.radius
  return { x = ox + node.x - r, y = oy + node.y - r, w = 2 * r, h = 2 * r }
end

function game.measure_channel(i)
  local n, L = game.nodes.channels[i], game.layout
  local ox, oy = n.slot.x, n.slot.y
  local b = game.state.boxes.channels[i] or {}
  game.state.boxes.channels[i] = b
  b.card = { x = ox, y = oy, w = L.row_width, h = L.ch }
  b.parts = {
    { what = "pill", box = shape_box(n.pill, ox, oy, n.pill.width, n.pill.height, 1) },
    { what = "cap", box = circle_box(n.cap, ox, oy) },
    { what = "avatar", box = circle_box(n.avatar, ox, oy) },
    { what = "picture", box = shape_box(n.gift, ox, oy, n.gift.width, n.gift.height, n.gift.scale) },
  }
  for _, part in ipairs{ "initial", "name", "desc" } do
    local box = text_box(n[part], ox, oy)
    if box then b.parts[#b.parts + 1] = { what = part, text = n[part].text, box = box } end
  end
  game.measure_counter(i)
end

function game.measure_counter(i)
  local n, L = game.nodes.channels[i], game.layout
  local b = game.state.boxes.channels[i]
  if not b then return end
  local cx, cy = n.slot.x + n.holder.x, n.slot.y + n.holder.y
  local w, h = n.counter.width * n.holder.scale, n.counter.height * n.holder.scale
  b.counter = { x = cx - w / 2, y = cy - h / 2, w = w, h = h }
  b.pop = { x = cx - POP_MAX * w / 2, y = cy - POP_MAX * h / 2, w = POP_MAX * w, h = POP_MAX * h }
  b.counter_font, b.counter_scale = L.counter.font, L.counter.scale
end

function game.measure_palette(k)
  local e = game.nodes.palette[k]
  local b = { card = shape_box(e.bg, 0, 0, e.bg.width, e.bg.height, 1), parts = {} }
  if e.icon then
    b.parts[1] = { what = "icon", box = shape_box(e.icon, 0, 0, e.icon.width, e.icon.height, e.icon.scale) }
  end
  for j, line in ipairs(e.lines) do
    local box = text_box(line, 0, 0)
    if box then b.parts[#b.parts + 1] = { what = "line" .. j, text = line.text, box = box } end
  end
  game.state.boxes.palette[k] = b
end

function game.load(ctx)
  local s = game.state
  s.channels = {}
  for i = 1, CHANNELS do s.channels[i] = { state = "idle", count = 0, waiting = 0, counter_shown = false } end
  s.queue = {}
  s.sent, s.shown, s.best_combo, s.player_best = 0, 0, 0, 0
  s.crowd = false
  s.burst = { left = 0, pause = 0 }
  s.boxes = { channels = {}, palette = {}, hud_rows = {} }
  game.timers = {}
  for i = 1, CHANNELS do game.timers[i] = false end
  game.crowd_timer = false
  arcade.scene.background("#1b1530")
  game.build()
  game.lay_out(ctx.width, ctx.height)
end

function game.press(k)
  local pair = PAIRS[k]
  if pair then
    game.send(pair.sender, pair.gift)
  else
    game.toggle_crowd()
  end
  -- the pressed palette entry flashes, whichever way it was pressed
  local bg = game.nodes.palette[k].bg
  arcade.animate(bg, { property = "color", from = "#6a5aa8", to = PALETTE_FILL, duration = 0.3 })
end

function game.input(e)
  if e.type == "key" then
    local k = tonumber(e.key)
    if k and k >= 1 and k <= #PAIRS then
      game.press(k)
    elseif e.key == "c" and not (e.is_repeat) then
      game.press(#PAIRS + 1)
    end
  elseif e.type == "mouse" then
    if e.action == "press" and e.y >= game.layout.palette_top then
      local k = e.x // game.palette_cell + 1
      if k >= 1 and k <= #PAIRS + 1 then game.press(k) end
    end
  elseif e.type == "resize" then
    game.lay_out(e.width, e.height)
  end
end

function game.update(dt) end

return game
