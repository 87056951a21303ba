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

-- Layout (decided): a channel is a third of the canvas height, in steps of 8 pixels, so the
-- article's 40 : 10 row-to-margin ratio lands on whole cells; the row is 60 % of the width.
local CHANNEL_SHARE = 1 / 3
local ROW_SHARE = 0.6
local ROW_MIN = 50             -- pixels: the widest "sent gift [...]" and its picture fit
local PALETTE_HEIGHT = 8       -- pixels (four rows) along the bottom
local ICON_SCALE = 0.7         -- gift pictures in the palette

local GIFTS = {
  { name = "Rose", sprite = "rose.sprite" },
  { name = "Heart", sprite = "heart.sprite" },
  { name = "Rocket", sprite = "rocket.sprite" },
  { name = "Cake", sprite = "cake.sprite" },
  { name = "Star", sprite = "star.sprite" },
}
local SENDERS = {
  { name = "Mia", color = "#ff8a5c" },
  { name = "Leo", color = "#4fc3f7" },
  { name = "Ava", color = "#ce93d8" },
  { name = "Kai", color = "#9ccc65" },
  { name = "Zoe", color = "#ffd54f" },
}
-- keys 1-4 and the palette (GAMES.md, decided): four different (sender, gift) pairs
local PAIRS = {
  { sender = "Mia", gift = "Rose" },
  { sender = "Leo", gift = "Heart" },
  { sender = "Ava", gift = "Rocket" },
  { sender = "Kai", gift = "Cake" },
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
-- as one more; (2) else an idle channel takes it; (3) else it waits in the queue.
function game.send(sender, gift)
  local s = game.state
  s.sent = s.sent + 1
  local g = { sender = sender, gift = gift }
  for i, ch in ipairs(s.channels) do
    if ch.state ~= "idle" and ch.state ~= "end_animating" and same(ch, g) then return game.one_more(i) end
  end
  for i, ch in ipairs(s.channels) do
    if ch.state == "idle" then return game.take(i, g) end
  end
  s.queue[#s.queue + 1] = g
  game.show_queue()
end

-- Taking a gift: the counter shows x1 while the row slides in from the left and fades in;
-- then the counter ticks.
function game.take(i, g)
  local ch = game.state.channels[i]
  ch.state, ch.sender, ch.gift, ch.count, ch.waiting = "animating", g.sender, g.gift, 0, 0
  game.dress(i)
  local row = game.nodes.channels[i].row
  row.x, row.y, row.alpha = -game.layout.slide, 0, 0
  arcade.animate(row, { group = { { property = "x", to = 0 }, { property = "alpha", to = 1 } },
                        duration = SLIDE_IN }, game["slid_in_" .. i])
end

-- One more of the gift a channel shows: while will-end it cancels the leaving and ticks
-- again; otherwise it waits on the channel for the ticks before it.
function game.one_more(i)
  local ch = game.state.channels[i]
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
function game.tick(i)
  local s = game.state
  local ch = s.channels[i]
  ch.count = ch.count + 1
  s.shown = s.shown + 1
  if ch.count > s.best_combo then
    s.best_combo = ch.count
    arcade.score.submit(ch.count)
    game.show_best()
  end
  local counter = game.show_count(i, ch.count)
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
  local row = game.nodes.channels[i].row
  row.x, row.y, row.alpha = -game.layout.slide, 0, 0
  local q = game.state.queue
  if #q == 0 then return end
  local first = table.remove(q, 1)
  game.take(i, first)
  for k = #q, 1, -1 do
    if same(q[k], first) then
      table.remove(q, k)
      game.one_more(i)
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
    game.send(b.sender, b.gift)
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
end

---------------------------------------------------------------------------------------------
-- The overlay: nodes, what they show, and where they sit.
---------------------------------------------------------------------------------------------

local function find(list, name)
  for _, item in ipairs(list) do
    if item.name == name then return item end
  end
end

-- The channel's row shows its gift: avatar, name, "sent gift [name]", picture, "x1".
function game.dress(i)
  local ch, n = game.state.channels[i], game.nodes.channels[i]
  local sender = find(SENDERS, ch.sender) or { name = ch.sender, color = "white" }
  n.avatar.fill = sender.color
  n.initial.text = ch.sender:sub(1, 1)
  n.name.text = ch.sender
  n.name.color = sender.color
  n.desc.text = "sent gift [" .. ch.gift .. "]"
  n.gift.image = game.images[ch.gift]
  game.show_count(i, 1)
end

function game.show_count(i, count)
  local counter = game.nodes.channels[i].counter
  counter.text = "x" .. count
  counter.x = game.layout.row_width + 2 + counter.width / 2
  return counter
end

-- The queue line: how many gifts wait, and which, each kind once with how many of it (in
-- the order they arrived), as far as the width allows.
function game.show_queue()
  local queue, q = game.state.queue, game.nodes.queue
  if #queue == 0 then
    q.text, q.color = "queue empty", "#6c6488"
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
  local room = game.layout.w - 6      -- columns, keeping room for " ..."
  for k, kind in ipairs(kinds) do
    local item = (k == 1 and " " or ", ") .. kind.sender .. " " .. kind.gift .. (kind.n > 1 and (" x" .. kind.n) or "")
    if #line + #item > room then
      line = line .. " ..."
      break
    end
    line = line .. item
  end
  q.text, q.color = line, "#ffd54f"
end

function game.show_best()
  local best = math.max(arcade.score.best() or 0, game.state.best_combo)
  game.nodes.best.text = "best combo x" .. best
  game.nodes.best.x = game.layout.w - 1
end

function game.show_crowd()
  local on = game.state.crowd
  game.nodes.palette[#PAIRS + 1].lines[2].text = on and "on" or "off"
  game.nodes.palette[#PAIRS + 1].lines[2].color = on and "#9ccc65" or "#8a83a8"
end

local function text(opts)
  opts.anchor_x, opts.anchor_y = opts.anchor_x or 0, opts.anchor_y or 0
  return arcade.scene.text(opts)
end

function game.build()
  local nodes = { channels = {}, palette = {} }
  game.nodes = nodes
  game.images = {}
  for _, g in ipairs(GIFTS) do game.images[g.name] = arcade.image_file(g.sprite) end

  nodes.live = text{ x = 1, y = 0, text = " LIVE ", color = "white", background = "#d0203a", z = 5 }
  nodes.title = text{ x = 8, y = 0, text = "gift combo   1-4 send a gift   c crowd", color = "#c9c2e8", z = 5 }
  nodes.best = text{ anchor_x = 1, x = 0, y = 0, text = "", color = "#ffb020", z = 5 }
  nodes.queue = text{ x = 1, y = 0, text = "", z = 5 }

  for i = 1, CHANNELS do
    local slot = arcade.scene.group{ z = 2 }
    local row = arcade.scene.group{ parent = slot, alpha = 0 }
    local n = { slot = slot, row = row }
    n.pill = arcade.scene.rect{ parent = row, anchor_x = 0, anchor_y = 0, fill = "#2a2244", z = 1 }
    n.cap = arcade.scene.circle{ parent = row, fill = "#2a2244", z = 1 }
    n.avatar = arcade.scene.circle{ parent = row, stroke = "#3ddc5c", line_width = 1, z = 2 }
    n.initial = text{ parent = row, anchor_x = 0.5, text = "", color = "#1b1530", z = 3 }
    n.name = text{ parent = row, text = "", z = 3 }
    n.desc = text{ parent = row, text = "", color = "#e8e4f8", z = 3 }
    n.gift = arcade.scene.sprite{ parent = row, image = game.images[GIFTS[1].name], z = 3 }
    n.counter = arcade.scene.label{ parent = row, anchor_x = 0.5, anchor_y = 0.5, text = "x1", font = "large",
                                    color = "white", outline = "orange", z = 6 }
    nodes.channels[i] = n
  end

  for k = 1, #PAIRS + 1 do
    local pair = PAIRS[k]
    local e = { bg = arcade.scene.rect{ anchor_x = 0, anchor_y = 0, fill = "#241c3a", stroke = "#4a3f6e", z = 1 } }
    if pair then
      e.icon = arcade.scene.sprite{ image = game.images[pair.gift], scale = ICON_SCALE, z = 2 }
      e.lines = { text{ text = k .. " " .. pair.sender, color = find(SENDERS, pair.sender).color, z = 3 },
                  text{ text = pair.gift, color = "#e8e4f8", z = 3 } }
    else
      e.lines = { text{ text = "c crowd", color = "#e8e4f8", z = 3 }, text{ text = "off", z = 3 } }
    end
    nodes.palette[k] = e
  end
end

-- Places everything for a w x h pixel canvas. Channel rows keep their own animated
-- offsets inside their slots, so a resize never disturbs a channel mid-animation.
function game.lay_out(w, h)
  local ch = 8 * math.max(2, math.floor(h * CHANNEL_SHARE / 8))
  local gap = ch * CHANNEL_MARGIN // CHANNEL_HEIGHT
  local row_width = math.max(ROW_MIN, math.floor(w * ROW_SHARE))
  local palette_top = h - PALETTE_HEIGHT
  local band = CHANNELS * ch + (CHANNELS - 1) * gap
  -- the channels sit low, above the palette and the queue line, as gift overlays do
  local top = math.max(2, 2 * ((palette_top - 2 - band) * 3 // 4 // 2))
  local L = { w = w, h = h, ch = ch, gap = gap, row_width = row_width, palette_top = palette_top,
              slide = row_width + 20, lift = ch // 4 }
  game.layout = L
  local scale = ch / 16
  local name_y = 2 * (ch // 8)
  for i, n in ipairs(game.nodes.channels) do
    n.slot.x, n.slot.y = 1, top + (i - 1) * (ch + gap)
    n.pill:set{ x = ch / 2, y = 0, width = row_width - ch, height = ch }
    n.cap:set{ x = row_width - ch / 2, y = ch / 2, radius = ch / 2 }
    n.avatar:set{ x = ch / 2, y = ch / 2, radius = ch / 2 - 1 }
    n.initial:set{ x = ch / 2, y = ch / 2 - 2 }
    n.name:set{ x = ch + 2, y = name_y }
    n.desc:set{ x = ch + 2, y = ch - name_y - 2 }
    n.gift:set{ x = row_width - ch / 2 - 1, y = ch / 2, scale = scale }
    n.counter.y = ch / 2
    n.counter.x = row_width + 2 + n.counter.width / 2
  end
  game.nodes.queue.y = palette_top - 2
  game.nodes.best.x = w - 1
  local cell = w // (#PAIRS + 1)
  for k, e in ipairs(game.nodes.palette) do
    local x0 = (k - 1) * cell
    e.bg:set{ x = x0, y = palette_top, width = cell - 1, height = PALETTE_HEIGHT }
    local tx = x0 + 2
    if e.icon then
      e.icon:set{ x = x0 + 5, y = palette_top + PALETTE_HEIGHT / 2 }
      tx = x0 + 10
    end
    e.lines[1]:set{ x = tx, y = palette_top + 2 }
    e.lines[2]:set{ x = tx, y = palette_top + 4 }
  end
  game.palette_cell = cell
end

function game.load(ctx)
  local s = game.state
  s.channels = {}
  for i = 1, CHANNELS do s.channels[i] = { state = "idle", count = 0, waiting = 0 } end
  s.queue = {}
  s.sent, s.shown, s.best_combo = 0, 0, 0
  s.crowd = false
  s.burst = { left = 0, pause = 0 }
  game.timers = {}
  for i = 1, CHANNELS do game.timers[i] = false end
  game.crowd_timer = false
  arcade.scene.background("#1b1530")
  game.build()
  game.lay_out(ctx.width, ctx.height)
  game.show_queue()
  game.show_best()
  game.show_crowd()
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
  arcade.animate(bg, { property = "color", from = "#6a5aa8", to = "#241c3a", duration = 0.3 })
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
    game.show_best()
    game.show_queue()
  end
end

function game.update(dt) end

return game
