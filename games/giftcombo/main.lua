-- Gift combo: fill the requests. A live-stream gift overlay (the article's two channels, its
-- routing, queue, counter pop and will-end) turned into a game: viewers post requests (a
-- gift, a count N and a patience bar); a combo of that gift that leaves with exactly N fills
-- one. Every movement, delay and patience bar is a native animation or timer: the channel
-- state machine and the rules below only run when one of them ends or a key is pressed.

local button = require("lib.button")
local hitbox = require("lib.hitbox")

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
local TICK_GAP = 0.08          -- GAMES.md (wave 4): pending ticks of a channel run every 0.08 s

-- The run (GAMES.md, wave 4: fill the requests).
local HEARTS = 3
local STREAK_MAX = 5
local FILLS_PER_LEVEL = 5
local FIRST_REQUEST = 0.6      -- seconds from the start of a run to the first request
local function max_requests(level) return level >= 5 and 4 or level >= 3 and 3 or 2 end
local function count_range(level) return 1 + level, 4 + level end          -- level 1: 2 to 5
local function patience_of(level) return math.max(5, 12.5 - 0.5 * level) end   -- level 1: 12 s
local function spawn_gap(level) return math.max(0.8, 2.6 - 0.3 * (level - 1)) end
local CROWD_FROM = 4           -- the crowd joins from this level
local CROWD_QUEUE = 6          -- in a run, a crowd gift that finds this many of the crowd's queued is not sent

-- The crowd (GAMES.md, decided): bursts of one gift from one sender, a pause, the next burst.
local CROWD_STEP = 0.1         -- seconds between two gifts of a burst
local BURST_MIN, BURST_MAX = 1, 8      -- the load demo's bursts
local PAUSE_MIN, PAUSE_MAX = 6, 30     -- crowd steps of silence after a burst: a little faster than two channels show
-- in a run the crowd sends shorter bursts with longer pauses, growing with the level
local function run_burst(level) return 1, math.min(5, level - 2) end
local function run_pause(level) local lo = math.max(15, 75 - 10 * (level - CROWD_FROM)) return lo, lo + 40 end

-- Layout (decided, revised after the play test and for wave 4). From the top: the HUD (one
-- text row; from 40 rows also two rows of pixel-font numbers), the two channels on the left
-- with the requests column beside them, a status row (the queue), the palette. The channels'
-- height keeps the article's 40 : 10 row-to-margin ratio and is as large as the band allows
-- while both counters can pop to the article's 3x without reaching a HUD row.
local POP_MAX = 3              -- the largest scale in POP_SCALES: what the layout makes room for
local CARD_MIN = 12            -- pixels: a card's smallest height (its picture at 1x, one pixel around)
local COUNTERS = {             -- the counter's font and whole-pixel scale, largest first; h: pixels tall at 1x
  { font = "large", scale = 2, h = 18, w = 19 },   -- w: "x10" with its outline, at 1x
  { font = "small", scale = 2, h = 14, w = 13 },
  { font = "large", scale = 1, h = 9, w = 19 },
  { font = "small", scale = 1, h = 7, w = 13 },
}
local COUNTER_SHARE = 0.4      -- the counter is at least this share of its card's height when it can be
local PALETTE_ROWS_WIDE = 6    -- palette rows from 40 terminal rows on (its pictures at 1x) ...
local PALETTE_ROWS = 4         -- ... and below (small pictures)
local PANEL_SHARE, PANEL_MIN = 0.3, 24   -- the requests column: a share of the width, in columns
local PALETTE_FILL = "#2e2650" -- the palette's buttons: filled, a pixel of it around each picture
local CARD_FILL = "#2a2244"
local PANEL_FILL = "#1b1530"
local BAR_COLORS = { "#3ddc5c", "#c6e03a", "#ffb020", "#ff3b3b" }   -- patience: full, half, a quarter, none
local BAR_TIMES = { 0, 0.5, 0.75, 1 }

local GIFTS = {
  { name = "Rose", sprite = "rose.sprite", icon = "rose_icon.sprite", color = "#ff6b81" },
  { name = "Heart", sprite = "heart.sprite", icon = "heart_icon.sprite", color = "#ff8fc8" },
  { name = "Rocket", sprite = "rocket.sprite", icon = "rocket_icon.sprite", color = "#8fd3ff" },
  { name = "Cake", sprite = "cake.sprite", icon = "cake_icon.sprite", color = "#ffd28a" },
  { name = "Star", sprite = "star.sprite", color = "#ffd23f" },
}
-- keys 1-4 and the palette (GAMES.md, decided): four different (sender, gift) pairs
local PAIRS = {
  { sender = "Mia", gift = "Rose", color = "#ff8a5c" },
  { sender = "Leo", gift = "Heart", color = "#4fc3f7" },
  { sender = "Ava", gift = "Rocket", color = "#ce93d8" },
  { sender = "Kai", gift = "Cake", color = "#9ccc65" },
}
-- The crowd: the viewers who ask and the senders who are not you. GAMES.md (Gift combo): real
-- streams have names in every script; CJK characters and these emoji take two cells each.
local CROWD = {
  { name = "Zoe", color = "#ffd54f" },
  { name = "小明", color = "#ef9a9a" },
  { name = "さくら🌸", color = "#f48fb1" },
  { name = "김지민", color = "#80cbc4" },
  { name = "火箭少女🚀", color = "#ffab91" },
  { name = "🐱ねこ", color = "#b39ddb" },
  { name = "Zoë", color = "#fff59d" },
  { name = "Lucía", color = "#a5d6a7" },
  { name = "Мария", color = "#90caf9" },
  { name = "李娜", color = "#ffcc80" },
  { name = "ゆうき", color = "#e6ee9c" },
  { name = "민준", color = "#b0bec5" },
  { name = "Ömer", color = "#f8bbd0" },
  { name = "Nguyễn", color = "#c5e1a5" },
}

local HINTS = {
  play = {
    "1-4 or click: send · N presses, then stop: the combo fills a request for N as it leaves",
    "1-4 or click: send · press N times, then stop",
    "1-4: send · N presses, stop",
    "1-4 send",
  },
  idle = {
    "Gift Combo · fill the viewers' requests · space or click START · 1-4 try a gift · c crowd",
    "fill the viewers' requests · space/click: start · c crowd",
    "space or click: start · c crowd",
    "space: start",
  },
}
local CROWD_NOTES = {
  "crowd sending · a demo, it scores nothing",
  "crowd on · a demo",
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

local function pair_of_gift(gift)
  for k, p in ipairs(PAIRS) do
    if p.gift == gift then return k end
  end
end

local function find(list, name)
  for _, item in ipairs(list) do
    if item.name == name then return item end
  end
end

local function sender_color(name)
  for _, p in ipairs(PAIRS) do
    if p.sender == name then return p.color end
  end
  local c = find(CROWD, name)
  return c and c.color or "white"
end

---------------------------------------------------------------------------------------------
-- The channels (GAMES.md §4). Each one is idle, animating, will_end or end_animating.
---------------------------------------------------------------------------------------------

-- Routing a gift: (1) a channel that is not end-animating and shows the same gift takes it
-- as one more; (2) else an idle channel takes it; (3) else it waits in the queue, where the
-- player's gifts go before every gift of the crowd (GAMES.md, wave 4).
function game.send(sender, gift, crowd)
  local s = game.state
  s.sent = s.sent + 1
  local g = { sender = sender, gift = gift, crowd = crowd or nil }
  for i, ch in ipairs(s.channels) do
    if ch.state ~= "idle" and ch.state ~= "end_animating" and same(ch, g) then
      game.one_more(i, g.crowd)
      game.show_progress()
      return
    end
  end
  for i, ch in ipairs(s.channels) do
    if ch.state == "idle" then
      game.take(i, g)
      game.show_progress()
      return
    end
  end
  local at = #s.queue + 1
  if not crowd then
    at = 1
    for k, q in ipairs(s.queue) do
      if not q.crowd then at = k + 1 end
    end
  end
  table.insert(s.queue, at, g)
  game.show_queue()
  game.show_progress()
end

-- Taking a gift: the row slides in from the left and fades in; its counter shows "x1" with
-- the first tick, once the row is in place (GAMES.md, revised: never before its row).
function game.take(i, g)
  local ch = game.state.channels[i]
  ch.state, ch.sender, ch.gift, ch.count, ch.waiting = "animating", g.sender, g.gift, 0, 0
  ch.crowd, ch.free = g.crowd, false
  game.dress(i)
  game.show_counter(i, false)
  local row = game.nodes.channels[i].row
  row.x, row.y, row.alpha = -game.layout.slide, 0, 0
  arcade.animate(row, { group = { { property = "x", to = 0 }, { property = "alpha", to = 1 } },
                        duration = SLIDE_IN }, game["slid_in_" .. i])
end

-- One more of the gift a channel shows. The counter is honest (GAMES.md, wave 4): a press
-- ticks at once when the channel is showing its counter and its last tick is 0.08 s old;
-- otherwise it waits for the ticks before it, which run every 0.08 s. While will-end, it
-- cancels the leaving and ticks.
function game.one_more(i, crowd)
  local ch = game.state.channels[i]
  if crowd then ch.crowd = true end
  if ch.state == "will_end" then
    game.timers[i]:cancel()
    game.timers[i] = false
    ch.state = "animating"
    game.tick(i)
  elseif ch.free and ch.waiting == 0 then
    game.tick(i)
  else
    ch.waiting = ch.waiting + 1
  end
end

-- A tick: N += 1, the counter shows "x N" and pops (3x, then 0.7x), then springs back to 1x;
-- a tick during a pop starts the pop again. best_combo is the biggest combo shown.
function game.tick(i)
  local s = game.state
  local ch = s.channels[i]
  ch.count = ch.count + 1
  ch.free = false
  s.shown = s.shown + 1
  if ch.count > s.best_combo then s.best_combo = ch.count end
  -- the player's own combos pop, a semitone higher with each gift up to an octave
  if not ch.crowd then arcade.sfx.play("pop", { channel = i, pitch = math.min(ch.count - 1, 12) }) end
  local counter = game.show_count(i, ch.count)
  game.show_counter(i, true)
  arcade.animate(counter, { property = "scale", values = POP_SCALES, key_times = POP_TIMES, duration = POP,
                            timing = "linear" }, game["popped_" .. i])
  if game.gaps[i] then game.gaps[i]:cancel() end
  game.gaps[i] = arcade.after(TICK_GAP, game["gap_over_" .. i])
end

-- 0.08 s after a tick: the next pending one ticks, or the channel may tick at once again.
function game.gap_over(i)
  game.gaps[i] = false
  local ch = game.state.channels[i]
  if ch.state ~= "animating" then return end
  if ch.waiting > 0 then
    ch.waiting = ch.waiting - 1
    game.tick(i)
    game.show_progress()
  else
    ch.free = true
  end
end

function game.spring_back(i)
  arcade.animate(game.nodes.channels[i].counter,
                 { property = "scale", from = POP_SCALES[#POP_SCALES], to = 1, duration = SPRING,
                   spring = { damping = SPRING_DAMPING, velocity = SPRING_VELOCITY } }, game["settled_" .. i])
end

-- After the last tick's pop and spring: will-end, and leave in 3 s.
function game.after_tick(i)
  local ch = game.state.channels[i]
  if ch.state ~= "animating" or ch.waiting > 0 or not ch.free then return end
  ch.state = "will_end"
  game.timers[i] = arcade.after(WILL_END, game["will_end_over_" .. i])
end

-- Leaving: the combo leaves with its count (a request of a run may take it), then fades out
-- and slides up, then resets and goes idle.
function game.leave(i)
  local ch = game.state.channels[i]
  ch.state = "end_animating"
  game.timers[i] = false
  if game.state.phase == "play" and not ch.crowd then game.combo_left(ch.gift, ch.count, i) end
  game.show_progress()
  arcade.animate(game.nodes.channels[i].row,
                 { group = { { property = "alpha", to = 0 }, { property = "y", to = -game.layout.lift } },
                   duration = LEAVE }, game["left_" .. i])
end

-- Going idle: take the first queued gift, and every other queued gift that is the same
-- moves from the queue onto this channel's count.
function game.reset(i)
  local ch = game.state.channels[i]
  ch.state, ch.sender, ch.gift, ch.count, ch.waiting = "idle", nil, nil, 0, 0
  ch.crowd, ch.free = nil, false
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
  game.show_progress()
end

-- Every channel idle at once and the queue emptied: a new run starts on a clear overlay.
function game.clear_channels()
  game.state.queue = {}
  for i, ch in ipairs(game.state.channels) do
    if game.timers[i] then game.timers[i]:cancel() end
    if game.gaps[i] then game.gaps[i]:cancel() end
    game.timers[i], game.gaps[i] = false, false
    ch.state = "idle"   -- what a cancelled animation's callback finds: it does nothing more
    local n = game.nodes.channels[i]
    arcade.cancel_animations(n.row)
    arcade.cancel_animations(n.counter)
    n.counter.scale = 1
    game.reset(i)
  end
  game.show_queue()
end

-- Timers and animations call game-table functions, so a hot reload reaches the new code;
-- they pass no channel, so each channel has its own named entry points.
for i = 1, CHANNELS do
  game["slid_in_" .. i] = function(finished)
    if finished and game.state.channels[i].state == "animating" then game.tick(i) end
  end
  game["popped_" .. i] = function(finished) if finished then game.spring_back(i) end end
  game["settled_" .. i] = function(finished) if finished then game.after_tick(i) end end
  game["gap_over_" .. i] = function() game.gap_over(i) end
  game["will_end_over_" .. i] = function() game.leave(i) end
  game["left_" .. i] = function(finished)
    if finished and game.state.channels[i].state == "end_animating" then game.reset(i) end
  end
end

---------------------------------------------------------------------------------------------
-- The crowd: a stream of random gifts in bursts, from the seeded generator. Outside a run
-- `c` turns it on and off (the article's load demo); in a run it joins from level 4.
---------------------------------------------------------------------------------------------

function game.crowd_step()
  local s = game.state
  local b = s.burst
  if b.left > 0 then
    b.left = b.left - 1
    local waiting = 0
    for _, q in ipairs(s.queue) do
      if q.crowd then waiting = waiting + 1 end
    end
    if s.phase ~= "play" or waiting < CROWD_QUEUE then game.send(b.sender, b.gift, true) end
  elseif b.pause > 0 then
    b.pause = b.pause - 1
  else
    b.sender = CROWD[math.random(#CROWD)].name
    b.gift = GIFTS[math.random(#GIFTS)].name
    if s.phase == "play" then
      b.left = math.random(run_burst(s.level))
      b.pause = math.random(run_pause(s.level))
    else
      b.left = math.random(BURST_MIN, BURST_MAX)
      b.pause = math.random(PAUSE_MIN, PAUSE_MAX)
    end
  end
end

function game.set_crowd(on)
  local s = game.state
  if on == s.crowd then return end
  s.crowd = on
  if on then
    game.crowd_timer = arcade.every(CROWD_STEP, game.crowd_step)
  else
    game.crowd_timer:cancel()
    game.crowd_timer = false
    s.burst = { left = 0, pause = 0 }
  end
  game.show_crowd()
  game.show_queue()
end

---------------------------------------------------------------------------------------------
-- The run: requests, hearts, streak, level (GAMES.md, wave 4).
---------------------------------------------------------------------------------------------

function game.start_run()
  local s = game.state
  game.end_requests()
  game.set_crowd(false)
  game.clear_channels()
  s.phase, s.score, s.level, s.reason = "play", 0, 1, nil
  s.hearts, s.streak, s.filled, s.new_best = HEARTS, 0, 0, false
  s.requests = {}
  s.event = nil
  game.spawn_timer = arcade.after(FIRST_REQUEST, game.spawn_request)
  game.patience_timer = arcade.every(0.1, game.patience_tick)
  game.show_card()
  game.show_hud()
  game.show_queue()
  game.show_crowd()
end

function game.end_run(reason)
  local s = game.state
  s.phase, s.reason = "over", reason
  game.end_requests()
  game.set_crowd(false)
  local before = arcade.score.best() or 0
  arcade.score.submit(s.score)
  s.new_best = s.score > before
  s.best = math.max(before, s.score)
  arcade.sfx.play(s.new_best and "best" or "over")
  game.show_card()
  game.show_hud()
  game.show_queue()
  game.show_crowd()
end

-- The requests of a run and their timers go (a run ended, or a new one starts).
function game.end_requests()
  local s = game.state
  if game.spawn_timer then game.spawn_timer:cancel() end
  if game.patience_timer then game.patience_timer:cancel() end
  game.spawn_timer, game.patience_timer = false, false
  for _, r in ipairs(s.requests or {}) do game.drop_request_nodes(r.id) end
  s.requests = {}
end

function game.schedule_spawn()
  local s = game.state
  if s.phase == "play" and not game.spawn_timer and #s.requests < max_requests(s.level) then
    game.spawn_timer = arcade.after(spawn_gap(s.level), game.spawn_request)
  end
end

-- A viewer posts a request: a gift no open request asks for, a count, a patience bar.
function game.spawn_request()
  game.spawn_timer = false
  local s = game.state
  if s.phase ~= "play" then return end
  if #s.requests < max_requests(s.level) then
    local gifts, viewers = {}, {}
    for k = 1, #PAIRS do
      local taken = false
      for _, r in ipairs(s.requests) do taken = taken or r.gift == k end
      if not taken then gifts[#gifts + 1] = k end
    end
    for _, c in ipairs(CROWD) do
      local taken = false
      for _, r in ipairs(s.requests) do taken = taken or r.viewer == c.name end
      if not taken then viewers[#viewers + 1] = c.name end
    end
    local lo, hi = count_range(s.level)
    local patience = patience_of(s.level)
    s.next_id = s.next_id + 1
    local r = { id = s.next_id, viewer = viewers[math.random(#viewers)], gift = gifts[math.random(#gifts)],
                count = math.random(lo, hi), patience = patience, total = patience,
                deadline = arcade.time() + patience }
    s.requests[#s.requests + 1] = r
    game.make_request_nodes(r)
    game.place_requests()
    game.show_progress()
  end
  game.schedule_spawn()
end

-- The patience numbers in game.state follow the bars a few times a second.
function game.patience_tick()
  local now = arcade.time()
  for _, r in ipairs(game.state.requests) do
    r.patience = math.max(0, math.floor((r.deadline - now) * 10 + 0.5) / 10)
  end
end

local function request_index(id)
  for k, r in ipairs(game.state.requests) do
    if r.id == id then return k, r end
  end
end

-- A patience bar ran out: the viewer gives up, a heart goes, the streak breaks.
function game.timed_out(id)
  local s = game.state
  local k, r = request_index(id)
  if not k or s.phase ~= "play" then return end
  table.remove(s.requests, k)
  game.drop_request_nodes(id)
  s.hearts = s.hearts - 1
  s.streak = 0
  s.event = r.viewer .. " gave up waiting: a heart lost"
  -- the last heart's loss is the run's end, which has its own sound
  if s.hearts > 0 then arcade.sfx.play("heart", { channel = 4 }) end
  game.flash_hearts()
  if s.hearts <= 0 then
    game.end_run("the chat gave up")
    return
  end
  game.place_requests()
  game.schedule_spawn()
  game.show_hud()
  game.show_queue()
end

-- A combo of the player's left with `count`: it fills the request for exactly that, or
-- breaks the streak.
function game.combo_left(gift, count, i)
  local s = game.state
  local key = pair_of_gift(gift)
  for k, r in ipairs(s.requests) do
    if r.gift == key and r.count == count then
      s.streak = math.min(STREAK_MAX, s.streak + 1)
      local points = count * s.level * s.streak
      s.score = s.score + points
      s.filled = s.filled + 1
      s.event = "+" .. points .. " · " .. r.viewer .. " got " .. gift .. " x" .. count
      game.float_points(i, "+" .. points)
      arcade.sfx.play("fill", { channel = 3 })
      table.remove(s.requests, k)
      game.drop_request_nodes(r.id)
      if s.filled % FILLS_PER_LEVEL == 0 then
        s.level = s.level + 1
        s.event = s.event .. " · level " .. s.level .. "!"
        if s.level >= CROWD_FROM then game.set_crowd(true) end
      end
      game.place_requests()
      game.schedule_spawn()
      game.show_hud()
      game.show_queue()
      return
    end
  end
  s.streak = 0
  arcade.sfx.play("wrong", { channel = 3 })
  s.event = gift .. " x" .. count .. ": nobody asked for that · streak lost"
  game.show_hud()
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
  return arcade.fit_text(text, math.max(0, room))
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

-- Words wrapped to lines of at most `room` cells.
local function wrap(text, room)
  local lines, line = {}, ""
  for word in text:gmatch("%S+") do
    if line == "" then
      line = word
    elseif length(line) + 1 + length(word) <= room then
      line = line .. " " .. word
    else
      lines[#lines + 1] = line
      line = word
    end
  end
  if line ~= "" then lines[#lines + 1] = line end
  for k, l in ipairs(lines) do lines[k] = fit(l, room) end
  return lines
end

---------------------------------------------------------------------------------------------
-- The overlay: nodes, what they show, and where they sit.
---------------------------------------------------------------------------------------------

-- The channel's row shows its gift: avatar, name, "sent gift [name]" and the picture, each
-- cut to the room its card has.
function game.dress(i)
  local ch, n, L = game.state.channels[i], game.nodes.channels[i], game.layout
  if not ch.sender then return end
  local color = sender_color(ch.sender)
  n.avatar.fill = color
  n.initial.text = initial(ch.sender)
  n.name.text = fit(ch.sender, L.text_cols)
  n.name.color = color
  n.desc.text = longest_fitting({ "sent gift [" .. ch.gift .. "]", "sent [" .. ch.gift .. "]", "[" .. ch.gift .. "]" },
                                L.text_cols)
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
-- the order they arrived), as far as the width allows; on the right, what the crowd does
-- or, in a run, what just happened.
function game.show_queue()
  local s, L = game.state, game.layout
  local q, note = game.nodes.queue, game.nodes.note
  local room = L.cols - 2
  if s.phase == "play" and s.event then
    note.text = fit(s.event, math.max(8, L.cols - 24))
    note.color = s.event:sub(1, 1) == "+" and "#9ccc65" or "#ffb020"
    room = room - length(note.text) - 2
  elseif s.crowd then
    note.text = longest_fitting(CROWD_NOTES, math.max(8, L.cols // 2 - 2))
    note.color = "#9ccc65"
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

local function hearts_text(h)
  return string.rep("♥", math.max(0, h)) .. string.rep("♡", HEARTS - math.max(0, h))
end

-- The top row: LIVE, the run's numbers (or what to press), and the best, which keeps clear
-- of the top-right corner (the host's pause mark); from 40 rows the numbers in pixels.
function game.show_hud()
  local s, L, nodes = game.state, game.layout, game.nodes
  s.best = math.max(arcade.score.best() or 0, s.best or 0)
  nodes.best.text = "best " .. s.best
  nodes.best.x = L.cols - 4
  local room = L.cols - 4 - length(nodes.best.text) - 2 - 8
  if s.phase == "play" and not L.wide then
    nodes.hint.text = longest_fitting({
      "score " .. s.score .. " · level " .. s.level .. " · " .. hearts_text(s.hearts) .. " · streak x" .. s.streak
        .. " · 1-4 send N times, then stop",
      "score " .. s.score .. " · level " .. s.level .. " · " .. hearts_text(s.hearts) .. " · streak x" .. s.streak,
      "score " .. s.score .. " · lv " .. s.level .. " " .. hearts_text(s.hearts) .. " x" .. s.streak,
    }, room)
  elseif s.phase == "over" then
    nodes.hint.text = longest_fitting({
      "game over: " .. s.reason .. " · score " .. s.score .. " · space or click AGAIN",
      s.reason .. " · score " .. s.score .. " · space: again",
      s.reason .. " · score " .. s.score,
    }, room)
  else
    nodes.hint.text = longest_fitting(s.phase == "play" and HINTS.play or HINTS.idle, room)
  end
  if L.wide then
    local h = nodes.hud
    h.score.text = "SCORE " .. s.score
    h.level.text = "LEVEL " .. s.level
    h.streak.text = "STREAK x" .. s.streak
    for k, heart in ipairs(h.hearts) do heart.alpha = k <= s.hearts and 1 or 0.25 end
  end
end

function game.flash_hearts()
  if not game.layout.wide then return end
  local heart = game.nodes.hud.hearts[math.max(1, game.state.hearts + 1)]
  if heart then
    arcade.animate(heart, { property = "scale", values = { 1, 1.6, 1 }, duration = 0.4, fill = "removed" })
  end
end

function game.show_crowd()
  local s = game.state
  local e = game.nodes.palette[#PAIRS + 1]
  local text, color
  if s.phase == "play" then
    text = s.level >= CROWD_FROM and "joins in" or ("from lv " .. CROWD_FROM)
    color = s.level >= CROWD_FROM and "#ffb020" or "#8a83a8"
  else
    text = s.crowd and "on: sending" or "off"
    color = s.crowd and "#9ccc65" or "#8a83a8"
  end
  e.lines[1].text = fit(s.phase == "play" and "crowd" or "c crowd", game.layout.palette_text_room[#PAIRS + 1])
  e.lines[2].text = fit(text, game.layout.palette_text_room[#PAIRS + 1])
  e.lines[2].color = color
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

  -- from 40 rows: the run's numbers in the pixel font
  local hud = { group = arcade.scene.group{ z = 5 }, hearts = {} }
  hud.score = arcade.scene.label{ parent = hud.group, anchor_x = 0, anchor_y = 0, text = "", font = "large",
                                  color = "white", outline = "#d0203a" }
  hud.level = arcade.scene.label{ parent = hud.group, anchor_x = 0, anchor_y = 0, text = "", font = "large",
                                  color = "#ffd54f" }
  hud.streak = arcade.scene.label{ parent = hud.group, anchor_x = 0, anchor_y = 0, text = "", font = "large",
                                   color = "#9ccc65" }
  hud.hearts_word = text{ parent = hud.group, text = "hearts", color = "#c9c2e8" }
  for k = 1, HEARTS do
    hud.hearts[k] = arcade.scene.sprite{ parent = hud.group, image = game.images.Heart }
  end
  nodes.hud = hud

  for i = 1, CHANNELS do
    local slot = arcade.scene.group{ z = 2 }
    local row = arcade.scene.group{ parent = slot, alpha = 0 }
    local n = { slot = slot, row = row }
    n.pill = arcade.scene.rect{ parent = row, anchor_x = 0, anchor_y = 0, fill = CARD_FILL, z = 1 }
    n.cap = arcade.scene.circle{ parent = row, fill = CARD_FILL, z = 1 }
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

  -- the requests column, drawn over the counters' pops
  nodes.panel = arcade.scene.group{ z = 4 }
  nodes.panel_bg = arcade.scene.rect{ parent = nodes.panel, anchor_x = 0, anchor_y = 0, fill = PANEL_FILL }
  nodes.panel_title = text{ parent = nodes.panel, text = "", color = "#c9c2e8", z = 1 }
  game.req_nodes = {}

  -- the start and game-over card, in the requests column
  local card = { group = arcade.scene.group{ z = 7, visible = false }, lines = {} }
  card.bg = arcade.scene.rect{ parent = card.group, anchor_x = 0, anchor_y = 0, fill = "#2a2244",
                               stroke = "#6a5aa8", line_width = 1 }
  card.big = arcade.scene.label{ parent = card.group, anchor_x = 0.5, anchor_y = 0, text = "", font = "large",
                                 color = "white", outline = "#d0203a" }
  card.button = button.new{ text = "space  START", fill = "#d0203a", z = 2 }
  card.group:add(card.button.node)
  nodes.card = card

  for k = 1, #PAIRS + 1 do
    local pair = PAIRS[k]
    local e = { bg = arcade.scene.rect{ anchor_x = 0, anchor_y = 0, fill = PALETTE_FILL, z = 1 } }
    if pair then
      e.icon = arcade.scene.sprite{ image = game.icons[pair.gift], anchor_x = 0, anchor_y = 0, z = 2 }
      e.lines = { text{ text = "", color = pair.color, z = 3 }, text{ text = "", color = "#e8e4f8", z = 3 } }
    else
      e.lines = { text{ text = "", color = "#e8e4f8", z = 3 }, text{ text = "", z = 3 } }
    end
    nodes.palette[k] = e
  end
end

-- A request's card: the viewer, the gift and its key, the count, how far the player got,
-- and the patience bar (one native animation for its length and colour; its end is the
-- viewer giving up).
function game.make_request_nodes(r)
  local group = arcade.scene.group{ parent = game.nodes.panel, z = 2 }
  local p = GIFTS[r.gift]
  local n = { group = group }
  n.bg = arcade.scene.rect{ parent = group, anchor_x = 0, anchor_y = 0, fill = CARD_FILL }
  n.name = text{ parent = group, text = "", color = sender_color(r.viewer), z = 1 }
  n.want = text{ parent = group, text = "", color = p.color, z = 1 }
  n.count = text{ parent = group, anchor_x = 1, text = "x" .. r.count, color = "#ffd54f", z = 1 }
  n.progress = text{ parent = group, anchor_x = 1, text = "", color = "#8a83a8", z = 1 }
  n.picture = arcade.scene.sprite{ parent = group, image = game.images[p.name], anchor_x = 0, anchor_y = 0, z = 1 }
  n.big = arcade.scene.label{ parent = group, anchor_x = 0, anchor_y = 0.5, text = "x" .. r.count, font = "large",
                              color = "white", outline = "orange", z = 1 }
  n.track = arcade.scene.rect{ parent = group, anchor_x = 0, anchor_y = 0, fill = "#120e22", z = 1 }
  n.bar = arcade.scene.rect{ parent = group, anchor_x = 0, anchor_y = 0, fill = BAR_COLORS[1], z = 2 }
  game.req_nodes[r.id] = n
  local id = r.id
  arcade.animate(n.bar, { property = "scale_x", from = 1, to = 0, duration = r.total, timing = "linear" },
                 function(finished) if finished then game.timed_out(id) end end)
  arcade.animate(n.bar, { property = "color", values = BAR_COLORS, key_times = BAR_TIMES, duration = r.total,
                          timing = "linear" })
  game.dress_request(r, n)
end

function game.drop_request_nodes(id)
  local n = game.req_nodes[id]
  if n then
    n.group:remove()
    game.req_nodes[id] = nil
  end
end

function game.dress_request(r, n)
  local L = game.layout
  local room = L.panel_w - 3
  local p = PAIRS[r.gift]
  n.name.text = fit(r.viewer, room - 5)
  if L.req_big then
    n.want.text = fit(r.gift .. " " .. p.gift, room - 14 - n.big.width)
    n.count.text = ""
  else
    n.want.text = fit(r.gift .. " " .. p.gift, room - 10)
    n.count.text = "x" .. r.count
  end
end

-- A "+points" rising where the combo that filled a request leaves.
function game.float_points(i, words)
  local n = i and game.nodes.channels[i]
  if not n then return end
  local x, y = n.slot.x + game.layout.row_width + 2, n.slot.y + game.layout.ch // 2
  local f = text{ text = words, color = "#9ccc65", z = 3, x = x, y = y }
  arcade.animate(f, { group = { { property = "y", to = y - 6 }, { property = "alpha", to = 0 } },
                      duration = 0.9 }, function() f:remove() end)
end

-- Where the player got with each request: presses shown and waiting on its gift's channel
-- and queued, against the count asked.
function game.show_progress()
  local s = game.state
  for _, r in ipairs(s.requests or {}) do
    local n = game.req_nodes[r.id]
    if n then
      local pair = PAIRS[r.gift]
      local sent, leaving = 0, false
      for _, ch in ipairs(s.channels) do
        if ch.sender == pair.sender and ch.gift == pair.gift then
          if ch.state == "end_animating" then
            leaving = true
          else
            -- a row sliding in (no counter yet) holds the gift that brought it
            sent = sent + ch.count + ch.waiting + ((ch.state == "animating" and ch.count == 0) and 1 or 0)
          end
        end
      end
      for _, q in ipairs(s.queue) do
        if same(q, pair) then sent = sent + 1 end
      end
      if sent == 0 then
        n.progress.text, n.progress.color = "", "#8a83a8"
      elseif sent < r.count then
        n.progress.text, n.progress.color = sent .. " of " .. r.count, "#c9c2e8"
      elseif sent == r.count then
        n.progress.text, n.progress.color = "stop", "#3ddc5c"
      else
        n.progress.text, n.progress.color = "too many", "#ff3b3b"
      end
    end
  end
end

-- The requests column: cards oldest first, from the top.
function game.place_requests()
  local L, s = game.layout, game.state
  local boxes = {}
  for k, r in ipairs(s.requests or {}) do
    local n = game.req_nodes[r.id]
    if n then
      local top = L.req_top + (k - 1) * L.req_pitch
      n.group.x, n.group.y = L.panel_x, top
      local w, h = L.panel_w - 1, L.req_h
      n.bg:set{ x = 0, y = 0, width = w, height = h }
      n.name:set{ x = 1, y = 0 }
      n.track:set{ x = 1, y = h - 2, width = w - 2, height = 2 }
      n.bar:set{ x = 1, y = h - 2, width = w - 2, height = 2 }
      if L.req_big then
        n.picture.visible, n.big.visible = true, true
        n.picture:set{ x = 1, y = 2 }
        n.big:set{ x = 13, y = 7 }
        n.want:set{ x = 15 + n.big.width, y = 2 }
        n.progress:set{ anchor_x = 0, x = 15 + n.big.width, y = 8 }
        n.count:set{ x = w - 1, y = 0 }
      else
        n.picture.visible, n.big.visible = false, false
        n.want:set{ x = 1, y = 2 }
        n.count:set{ x = w - 1, y = 0 }
        n.progress:set{ anchor_x = 1, x = w - 1, y = 2 }
      end
      game.dress_request(r, n)
      boxes[k] = { x = L.panel_x, y = top, w = w, h = h }
    end
  end
  s.boxes.requests = boxes
  local titles = { "" }
  if #(s.requests or {}) > 0 then
    titles = { "requests, oldest first:", "requests:" }
  elseif s.phase == "play" then
    titles = { "waiting for requests...", "waiting..." }
  end
  game.nodes.panel_title.text = longest_fitting(titles, L.panel_w - 2)
end

-- The start card (ready) and the end card (over), in the requests column.
function game.show_card()
  local s, L, card = game.state, game.layout, game.nodes.card
  for _, l in ipairs(card.lines) do l:remove() end
  card.lines = {}
  if s.phase == "play" then
    card.group.visible = false
    s.boxes.button = nil
    return
  end
  card.group.visible = true
  local w = L.panel_w - 1
  local top = L.band_top
  local h = L.band_bottom - top
  card.group.x, card.group.y = L.panel_x, top
  card.bg:set{ x = 0, y = 0, width = w, height = h }
  local y = 2
  local lines
  local title
  if s.phase == "ready" then
    title = "FILL THE REQUESTS"
    card.big.text = L.wide and "READY" or ""
    lines = wrap("Viewers ask for a gift and a count N. Press its key N times, then stop: when the combo "
                 .. "leaves (3 s later) with exactly N, the request is filled. Too slow costs a heart.", w - 2)
    card.button.caption.text = "space/click: START"
  else
    title = "GAME OVER"
    card.big.text = L.wide and ("SCORE " .. s.score) or ""
    lines = { fit(s.reason or "", w - 2) }
    lines[2] = fit("score " .. s.score, w - 2)
    lines[3] = fit(s.new_best and "a new best!" or ("best " .. s.best), w - 2)
    lines[4] = fit("level " .. s.level .. " · " .. s.filled .. " filled", w - 2)
    card.button.caption.text = "space/click: AGAIN"
  end
  card.big.visible = card.big.text ~= ""
  if card.big.visible then
    card.big.font = "large"
    if card.big.width > w - 2 then card.big.font = "small" end
    card.big:set{ x = w // 2, y = y }
    y = y + 2 * ((card.big.height + 1) // 2) + 2
  end
  lines = { fit(title, w - 2), table.unpack(lines) }
  local bh = 6
  local room_rows = (h - y - bh - 2) // 2
  for k, l in ipairs(lines) do
    if k > room_rows then break end
    card.lines[k] = text{ parent = card.group, text = l, x = 1, y = y, z = 1,
                          color = k == 1 and "#ffd54f" or (s.phase == "over" and k == 2) and "#ff8a5c"
                            or (s.phase == "over" and k == 4 and s.new_best) and "#9ccc65" or "#e8e4f8" }
    y = y + 2
  end
  local cap = card.button.caption.text
  local bw = math.min(w - 2, length(cap) + 4)
  if bw < length(cap) + 2 then card.button.caption.text = fit(cap:gsub("^space/click: ", ""), bw - 2) end
  button.resize(card.button, bw, bh)
  local by = math.min(h - bh - 1, y + 1)
  button.place(card.button, (w - bw) // 2, by + (by % 2))
  s.boxes.button = { x = L.panel_x + card.button.box.x, y = top + card.button.box.y, w = bw, h = bh }
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
  local wide = rows >= 40
  local hud_rows = wide and 10 or 1
  local palette_rows = wide and PALETTE_ROWS_WIDE or PALETTE_ROWS
  local palette_row = rows - palette_rows
  local status_row = palette_row - 1
  local band_top, band_bottom = 2 * hud_rows, 2 * status_row
  local band = band_bottom - band_top
  local ch, counter = choose_cards(band)
  local gap = ch * CHANNEL_MARGIN // CHANNEL_HEIGHT
  local pitch = ch + gap
  local panel_w = math.max(PANEL_MIN, math.floor(w * PANEL_SHARE))
  local panel_x = w - panel_w
  local row_width = math.max(30, panel_x - 2 - counter.w * counter.scale - 2)

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
  local pic = math.max(1, (ch - 4) // 10)
  local half = 10 * pic / 2
  local r = ch / 2
  local inset = r * r > half * half and math.floor(math.sqrt(r * r - half * half)) or 0
  local pic_right = row_width - r + inset - 1
  local pic_left = pic_right - 2 * half
  local text_x = ch + 1

  -- the requests: up to four cards under a title row
  local band_rows = status_row - hud_rows
  local req_rows = math.min(wide and 9 or 5, (band_rows - 1) // 4)
  local L = { w = w, h = h, cols = cols, rows = rows, wide = wide, ch = ch, gap = gap, pitch = pitch, top = top,
              row_width = row_width, counter = counter, off = off, pic = pic,
              palette_rows = palette_rows, palette_row = palette_row, palette_top = 2 * palette_row,
              status_row = status_row, text_cols = pic_left - 1 - text_x,
              slide = row_width + 20, lift = ch // 4, band_top = band_top, band_bottom = band_bottom,
              panel_x = panel_x, panel_w = panel_w, req_top = band_top + 2, req_h = 2 * (req_rows - 1),
              req_pitch = 2 * req_rows, req_big = req_rows >= 8 }
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

  local nodes = game.nodes
  nodes.hint.x = 8
  nodes.queue.y = 2 * status_row
  nodes.note:set{ x = cols - 1, y = 2 * status_row }
  nodes.panel_bg:set{ x = panel_x, y = band_top, width = panel_w, height = band_bottom - band_top }
  nodes.panel_title:set{ x = panel_x + 1, y = band_top }

  -- the pixel-font HUD: score and hearts on one line, level and streak on the next
  local hud = nodes.hud
  hud.group.visible = wide
  if wide then
    local large = w >= 120
    local font = large and "large" or "small"
    for _, label in ipairs{ hud.score, hud.level, hud.streak } do label.font = font end
    hud.score:set{ x = 2, y = 2 }
    hud.level:set{ x = 2, y = large and 12 or 10 }
    local x2 = large and 70 or 46
    hud.hearts_word:set{ x = x2, y = 4 }
    for k, heart in ipairs(hud.hearts) do
      heart.image = large and game.images.Heart or game.icons.Heart
      heart:set{ x = x2 + 7 + (large and 12 or 7) * (k - 1) + heart.width // 2, y = large and 7 or 5 }
    end
    hud.streak:set{ x = x2, y = large and 12 or 10 }
  end

  local cell = w // (#PAIRS + 1)
  local big = palette_rows == PALETTE_ROWS_WIDE and cell >= 24
  L.palette_text_room = {}
  for k, e in ipairs(nodes.palette) do
    local x0 = (k - 1) * cell
    e.bg:set{ x = x0, y = L.palette_top, width = cell - 1, height = 2 * palette_rows }
    local tx = x0 + 2
    if e.icon then
      local pair = PAIRS[k]
      e.icon.image = big and game.images[pair.gift] or game.icons[pair.gift]
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
    end
  end
  game.palette_cell = cell

  -- the live channels: their texts cut again to the new room, their counters placed again
  for i, ch_state in ipairs(game.state.channels) do
    game.dress(i)
    game.show_count(i, math.max(1, ch_state.count))
    game.measure_channel(i)
  end
  local hud_list = {}
  for row = 0, hud_rows - 1 do hud_list[#hud_list + 1] = row end
  hud_list[#hud_list + 1] = status_row
  for row = palette_row, rows - 1 do hud_list[#hud_list + 1] = row end
  game.state.boxes.hud_rows = hud_list
  game.state.boxes.band = { top = band_top, bottom = band_bottom }
  game.state.boxes.status_row = status_row
  game.state.boxes.panel = { x = panel_x, y = band_top, w = panel_w, h = band_bottom - band_top }
  game.show_hud()
  game.show_queue()
  game.show_crowd()
  game.place_requests()
  game.show_card()
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
  -- a score is one run's now: a best kept under the old rules is forgotten once
  require("lib.scorerules").adopt(2)
  s.phase, s.score, s.level = "ready", 0, 1
  s.hearts, s.streak, s.filled, s.new_best = HEARTS, 0, 0, false
  s.best = arcade.score.best() or 0
  s.requests = {}
  s.next_id = 0
  s.channels = {}
  for i = 1, CHANNELS do
    s.channels[i] = { state = "idle", count = 0, waiting = 0, counter_shown = false, free = false }
  end
  s.queue = {}
  s.sent, s.shown, s.best_combo = 0, 0, 0
  s.crowd = false
  s.burst = { left = 0, pause = 0 }
  s.boxes = { channels = {}, palette = {}, hud_rows = {}, requests = {} }
  game.timers, game.gaps = {}, {}
  for i = 1, CHANNELS do game.timers[i], game.gaps[i] = false, false end
  game.crowd_timer, game.spawn_timer, game.patience_timer = false, false, false
  arcade.scene.background("#1b1530")
  game.build()
  game.lay_out(ctx.width, ctx.height)
end

-- A gift key or a click on the palette (or on a request: its gift).
function game.press(k)
  local s = game.state
  local pair = PAIRS[k]
  if pair then
    game.send(pair.sender, pair.gift)
  elseif s.phase ~= "play" then
    game.set_crowd(not s.crowd)
  else
    return
  end
  -- the pressed palette entry flashes, whichever way it was pressed
  local bg = game.nodes.palette[k].bg
  arcade.animate(bg, { property = "color", from = "#6a5aa8", to = PALETTE_FILL, duration = 0.3 })
end

function game.input(e)
  local s = game.state
  if e.type == "key" then
    local k = tonumber(e.key)
    if k and k >= 1 and k <= #PAIRS then
      game.press(k)
    elseif e.key == "c" and not e.is_repeat then
      game.press(#PAIRS + 1)
    elseif (e.key == "space" or e.key == "enter") and not e.is_repeat and s.phase ~= "play" then
      game.start_run()
    end
  elseif e.type == "mouse" then
    if e.action ~= "press" then return end
    if s.boxes.button and hitbox.hit(s.boxes.button, e) then
      game.start_run()
    elseif e.y >= game.layout.palette_top then
      local k = e.x // game.palette_cell + 1
      if k >= 1 and k <= #PAIRS + 1 then game.press(k) end
    else
      for k, box in ipairs(s.boxes.requests or {}) do
        if hitbox.hit(box, e) and s.requests[k] then game.press(s.requests[k].gift) end
      end
    end
  elseif e.type == "resize" then
    game.lay_out(e.width, e.height)
  end
end

function game.update(dt) end

return game
