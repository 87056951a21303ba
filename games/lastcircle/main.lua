-- Last Circle: a memory game. Two circles show at the start; each round every circle seen
-- so far comes back at its place and in its colour, and one new circle joins them. Pick the
-- new one before the countdown bar fills: 10 points, and up to 10 more for the time left on
-- the bar. Round n shows n + 2 circles (at most one per key: past that the oldest leaves as
-- the new one joins); from round 10 the bar runs 0.1 s faster a round, down to 3 s. Every
-- movement, fade, pulse and the bar itself are native animations; Lua runs on input and when
-- an animation ends (update only reads the clock for `elapsed`).
--
-- game.state: phase ("ready", "play", "over"), stage (the finer step: "start", "memorise",
-- "round", "won_round", "over"), score (points this run), best (best run's points), level
-- (= round once a run has begun), round, reason ("time's up" / "wrong circle" while over),
-- ending ("time" / "wrong"), time_limit (this round's T), elapsed (bar time used), bar_start,
-- last_points / last_bonus (the last right pick), picked (a wrong pick's index), card (the
-- end card is up), new_best, circles (in the order they joined, each { x, y, r, delay, key,
-- color }), palette (every colour a circle can take), background (start-screen circles).

-- Start screen (last-circle article: the Start button's scale view and the background circles)
local PULSE_SCALE = 1.5          -- the button's backing shape grows to 1.5x
local PULSE_TIME = 1             -- seconds each way, ease-in-ease-out, forever, autoreversing
local BACKGROUND_LOOPS = 7       -- the article called startBackgroundCircleAnimation 7 times
local BACKGROUND_WAIT = 1        -- a random 0..1 s wait before each circle
local BACKGROUND_MIN_TIME = 0.5  -- each half of a circle's life lasts a random 0.5..4.5 s
local BACKGROUND_MAX_TIME = 4.5
local BACKGROUND_ALPHA = 0.4     -- faded in to 0.4, then out to 0
local BACKGROUND_SCALES = { 0.5, 1, 2 }  -- grows 0.5x -> 1x while fading in, then to 2x
local BACKGROUND_RADIUS = { 0.06, 0.2 }  -- (decided) radius range, as a share of the shorter side

-- A round (last-circle article: the spring pop; GAMES.md decides the rules)
local EXTRA_CIRCLES = 2          -- GAMES.md: round n shows n + 2 circles
local POP_FROM = 0.1             -- each circle pops from 0.1x to 1x, alpha to 1
local POP_TIME = 0.5             -- seconds
local POP_MAX_DELAY = 0.3        -- after a random 0..0.3 s delay
local POP_DAMPING = 0.5          -- usingSpringWithDamping: 0.5
local POP_VELOCITY = 6           -- initialSpringVelocity: 6.0
local MEMORISE_TIME = 1.5        -- GAMES.md (revised): the first two circles stay 1.5 s once popped in,
local SHRINK_TIME = 0.3          -- (decided) then shrink away (back to 0.1x, alpha to 0) in 0.3 s
local CIRCLE_RADIUS = { 0.07, 0.11 }  -- (decided) radius range, as a share of the play area's shorter side
local CIRCLE_SPACING = 1         -- (decided) pixels kept free between two circles
local PLACE_TRIES = 200          -- places tried for a new circle before every radius shrinks
local PLACE_SHRINK = 0.85        -- how much the radii shrink when the new circle does not fit
local COLOR_TRIES = 16           -- colours drawn for a new circle: the one least like the others is kept
local GROW_TIME = 0.5            -- (decided; the article leaves it out) the right pick fills the screen in 0.5 s
local BLINK_SCALE = 1.5          -- last-circle article, blink(): scale to 1.5 and back,
local BLINK_TIME = 0.2           -- 0.2 s each way,
local BLINK_REPEATS = 3          -- three times
local DIM_ALPHA = 0.3            -- (decided) after a wrong pick the circles that are neither fade to this

-- Countdown (last-circle article, CountDownView; GAMES.md decides T)
local T_START = 5                -- seconds a round may take (GAMES.md, decided)
local T_SHRINK_FROM = 10         -- Wave 4: from round 10 T shrinks
local T_STEP = 0.1               -- by 0.1 s a round
local T_MIN = 3                  -- never under 3 s
local POINTS = 10                -- Wave 4: a right pick scores 10
local SPEED_BONUS = 10           -- plus up to 10 for the time left on the bar
local BAR_DELAY = 0.3            -- the bar starts 0.3 s after the round begins
local BAR_COLORS = { "#00ff00", "#ffff00", "#ff0000" }  -- r = 2t/T, g = 1, then r = 1, g = 2 - 2t/T; b = 0
local BAR_HEIGHT = 2             -- pixels: one terminal row
local CORNER = 4                 -- columns kept free at the top right (the host's pause mark and a gap)

-- Game over (the article: "GAME OVER" animates in; Retry pulses like Start)
local OVER_DROP_TIME = 0.8       -- (decided) the title drops in on a spring
local OVER_DAMPING = 0.5

local HUD_HEIGHT = 2             -- pixels: the bottom row holds the HUD and the hint
local BIG_ROWS = 40              -- from 40 rows the HUD's numbers are drawn in the pixel font
local BIG_HUD_HEIGHT = 10        -- pixels: a row of large labels over the hint row
local BUTTON_W, BUTTON_H = 13, 6 -- pixels: the buttons' backing shape at 1x, at 80x24
local UI_UNIT = { 80, 48 }       -- the canvas on which titles and buttons have their 1x size
local LABEL_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"  -- what circles are picked by from the keyboard
local MAX_CIRCLES = #LABEL_KEYS  -- one key each: past this the oldest circle leaves as a new one joins
local BACKGROUND = "#101522"
local REASONS = { time = "time's up", wrong = "wrong circle" }

-- The colours a circle can take: entries of the xterm colour cube (each shows as itself in
-- 256 colours, so no two circles on screen share a palette entry), bright and saturated
-- enough to read the dark key on them and to stand out from the background.
local PALETTE = {
  "#0087d7", "#0087ff", "#00afd7", "#00afff", "#00d700", "#00d75f", "#00d787", "#00d7af",
  "#00d7d7", "#00d7ff", "#00ff00", "#00ff5f", "#00ff87", "#00ffaf", "#00ffd7", "#00ffff",
  "#5f87d7", "#5f87ff", "#5fafd7", "#5fafff", "#5fd700", "#5fd75f", "#5fd787", "#5fd7af",
  "#5fd7d7", "#5fd7ff", "#5fff00", "#5fff5f", "#5fff87", "#5fffaf", "#5fffd7", "#5fffff",
  "#875fff", "#8787ff", "#87afff", "#87d700", "#87d75f", "#87d7ff", "#87ff00", "#87ff5f",
  "#87ff87", "#87ffaf", "#87ffd7", "#87ffff", "#af5fd7", "#af5fff", "#af87ff", "#afd700",
  "#afd75f", "#afff00", "#afff5f", "#afff87", "#d700ff", "#d75f00", "#d75f5f", "#d75f87",
  "#d75faf", "#d75fd7", "#d75fff", "#d78700", "#d7875f", "#d787ff", "#d7af00", "#d7af5f",
  "#d7d700", "#d7d75f", "#d7ff00", "#d7ff5f", "#d7ff87", "#ff0000", "#ff005f", "#ff0087",
  "#ff00af", "#ff00d7", "#ff00ff", "#ff5f00", "#ff5f5f", "#ff5f87", "#ff5faf", "#ff5fd7",
  "#ff5fff", "#ff8700", "#ff875f", "#ff8787", "#ff87af", "#ff87d7", "#ff87ff", "#ffaf00",
  "#ffaf5f", "#ffaf87", "#ffd700", "#ffd75f", "#ffd787", "#ffff00", "#ffff5f", "#ffff87",
}

local button = require("lib.button")
local pixelscale = require("lib.pixelscale")
local rgb = require("lib.rgb")

local game = {}

-- The play area between the bar and the HUD row: canvas width, its top and bottom, and the
-- shorter side of the area.
local function big()
  return game.H >= 2 * BIG_ROWS
end

local function hud_height()
  return big() and BIG_HUD_HEIGHT or HUD_HEIGHT
end

local function play_area()
  local w, h = game.W, game.H
  local top, bottom = BAR_HEIGHT + 1, h - hud_height()
  return w, top, bottom, math.min(w, bottom - top)
end

-- The bar's time for round n: 5 s, and from round 10 0.1 s less a round, never under 3 s.
local function time_limit(round)
  if round < T_SHRINK_FROM then return T_START end
  return math.max(T_MIN, T_START - T_STEP * (round - T_SHRINK_FROM + 1))
end

local function hsv(h, s, v)
  local i = math.floor(h * 6) % 6
  local f = h * 6 - math.floor(h * 6)
  local p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
  local r, g, b
  if i == 0 then r, g, b = v, t, p
  elseif i == 1 then r, g, b = q, v, p
  elseif i == 2 then r, g, b = p, v, t
  elseif i == 3 then r, g, b = p, q, v
  elseif i == 4 then r, g, b = t, p, v
  else r, g, b = v, p, q end
  return { math.floor(r * 255 + 0.5), math.floor(g * 255 + 0.5), math.floor(b * 255 + 0.5) }
end

local function random_color()
  return hsv(math.random(), 0.55 + 0.35 * math.random(), 1)
end

-- A colour for a new circle: a palette entry no circle on screen has (nor the one that just
-- left); of a few drawn, the one farthest from every circle's colour, so that each circle can
-- be told from the others by its colour too.
local function new_color()
  local used = {}
  for _, rel in ipairs(game.rel) do used[rel.color] = true end
  if game.retired_color then used[game.retired_color] = true end
  local free = {}
  for _, hex in ipairs(PALETTE) do
    if not used[hex] then free[#free + 1] = hex end
  end
  local best, best_d
  for _ = 1, COLOR_TRIES do
    local hex = free[math.random(#free)]
    local c = rgb.parse(hex)
    local d = math.huge
    for _, rel in ipairs(game.rel) do
      d = math.min(d, rgb.distance2(c, rgb.parse(rel.color)))
    end
    if not best_d or d > best_d then best, best_d = hex, d end
  end
  return best
end

local function pulse(shape)
  arcade.animate(shape, { property = "scale", from = 1, to = PULSE_SCALE, duration = PULSE_TIME,
                          timing = "easeInEaseOut", autoreverse = true, repeat_count = "forever" })
end

-- A button: a backing shape that pulses under a caption that does not.
local function make_button(caption, color)
  local b = button.new{ text = caption, fill = color, width = BUTTON_W, height = BUTTON_H, z = 60 }
  pulse(b.shape)
  return b
end

-- Titles and buttons grow with the canvas in whole steps: 2x from 160x50 on.
local function ui_scale()
  return pixelscale.fit(game.W, game.H, UI_UNIT[1], UI_UNIT[2])
end

-- The button's centre at x and in the middle of the cell holding y, where its caption sits.
local function place_button(b, x, y)
  button.resize(b, BUTTON_W * ui_scale(), BUTTON_H * ui_scale())
  button.center(b, x, y)
end

---------------------------------------------------------------------------------------------
-- Start screen: seven independent loops of background circles

local function spawn_background()
  local w, h = game.W, game.H
  local side = math.min(w, h)
  local k = BACKGROUND_RADIUS[1] + (BACKGROUND_RADIUS[2] - BACKGROUND_RADIUS[1]) * math.random()
  local u, v = math.random(), math.random()
  local node = arcade.scene.circle{ x = u * w, y = v * h, radius = k * side, fill = random_color(), z = 0,
                                    alpha = 0, scale = BACKGROUND_SCALES[1] }
  local wait = math.random() * BACKGROUND_WAIT
  local half = BACKGROUND_MIN_TIME + (BACKGROUND_MAX_TIME - BACKGROUND_MIN_TIME) * math.random()
  -- both halves in one group: fade in growing, then out growing more, over the same time each
  local anim = arcade.animate(node, {
    group = {
      { property = "alpha", values = { 0, BACKGROUND_ALPHA, 0 } },
      { property = "scale", values = BACKGROUND_SCALES },
    },
    duration = 2 * half, delay = wait, timing = "linear",
  }, game.background_done)
  return { node = node, anim = anim, u = u, v = v, k = k }
end

local function count_background()
  local n = 0
  for _, b in ipairs(game.bg) do
    if b.node:alive() then n = n + 1 end
  end
  game.state.background = n
end

-- A background circle has run its course: the article's fix removes it before its loop goes
-- on, so a finished circle never stays behind. The callback is told only that an animation
-- finished, so every loop whose animation is over is renewed (several may end in one step).
function game.background_done(finished)
  if not finished or game.state.stage ~= "start" then return end
  for slot, b in ipairs(game.bg) do
    if not b.anim:is_running() then
      b.node:remove()
      game.bg[slot] = spawn_background()
    end
  end
  count_background()
end

local function start_background()
  game.bg = {}
  for slot = 1, BACKGROUND_LOOPS do game.bg[slot] = spawn_background() end
  count_background()
end

local function stop_background()
  for _, b in ipairs(game.bg) do
    if b.node:alive() then b.node:remove() end
  end
  game.bg = {}
  game.state.background = 0
end

---------------------------------------------------------------------------------------------
-- The countdown bar

-- The bar waits BAR_DELAY inside its own animation: an animation started now counts from
-- arcade.time(), so the bar's start is known exactly, where a timer would fire a step late.
local function start_bar()
  local T = game.state.time_limit
  local bar = game.nodes.bar
  bar.scale_x = 0
  bar.fill = BAR_COLORS[1]
  bar.visible = true
  game.state.bar_start = arcade.time() + BAR_DELAY
  game.bar_anim = arcade.animate(bar, {
    group = {
      { property = "scale_x", from = 0, to = 1 },
      { property = "color", values = BAR_COLORS },
    },
    duration = T, delay = BAR_DELAY, timing = "linear",
  }, game.time_up)
end

local function stop_bar()
  if game.bar_anim then game.bar_anim:cancel() end
  game.bar_anim = nil
end

local function hide_bar()
  stop_bar()
  game.nodes.bar.visible = false
end

---------------------------------------------------------------------------------------------
-- The HUD: round, score and best on the left of the bottom row, what to do on its right

-- Below 40 rows one text row: round, score and best. From 40 rows round and score are large
-- labels over the text row, which keeps the best.
local function show_hud()
  local s, n = game.state, game.nodes
  local large = big()
  n.hud.visible = true
  n.hud_round.visible, n.hud_score.visible = large, large
  if large then
    n.hud.text = "best " .. s.best
    n.hud_round.text = "round " .. s.round
    n.hud_score.text = "score " .. s.score
  else
    n.hud.text = "round " .. s.round .. "   score " .. s.score .. "   best " .. s.best
  end
end

local function hide_hud()
  local n = game.nodes
  n.hud.visible, n.hud_round.visible, n.hud_score.visible = false, false, false
end

-- The hint: centred on the start and game-over screens, against the right edge during play.
local function set_hint(text, centred)
  local hint = game.nodes.hint
  hint.text = text
  hint.color = centred and "#8090a0" or "#c0c8d8"
  hint.anchor_x = centred and 0.5 or 1
  hint.x = centred and game.W / 2 or game.W - 1
end

---------------------------------------------------------------------------------------------
-- The circles: every circle of the game so far, in the order they joined. `game.rel[i]` keeps
-- circle i's place relative to the play area (u, v), its radius as a share of the area's
-- shorter side (k) and its colour; its pixels follow from the canvas size.

-- The largest factor (up to 1) the radii can take so that no two circles overlap and each
-- stays inside the play area: 1 where the circles were placed, less after a resize that
-- squeezes the field more one way than the other.
local function compute_fit()
  local w, top, bottom, side = play_area()
  local fit = 1
  local rel = game.rel
  for i, a in ipairs(rel) do
    local ax, ay, ar = a.u * w, top + a.v * (bottom - top), a.k * side
    fit = math.min(fit, ax / ar, (w - ax) / ar, (ay - top) / ar, (bottom - ay) / ar)
    for j = i + 1, #rel do
      local b = rel[j]
      local bx, by = b.u * w, top + b.v * (bottom - top)
      local d = math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)
      fit = math.min(fit, (d - CIRCLE_SPACING) / (ar + b.k * side))
    end
  end
  game.fit = math.max(fit, 0)
end

-- Where circle i sits on the current canvas.
local function circle_geometry(i)
  local w, top, bottom, side = play_area()
  local rel = game.rel[i]
  return rel.u * w, top + rel.v * (bottom - top), rel.k * side * game.fit
end

-- A circle's key sits in the middle of the cell holding its centre.
local function place_key(label, x, y)
  label.x, label.y = math.floor(x) + 0.5, 2 * math.floor(y / 2) + 1
end

-- The key as drawn: from 40 rows with a cell of the circle's colour either side, when the
-- circle is wide enough for it.
local function key_text(c, r)
  if not c.key then return "" end
  if big() and r >= 4 then return " " .. c.key .. " " end
  return c.key
end

local function place_circle(i)
  local c, entry = game.circles[i], game.state.circles[i]
  local x, y, r = circle_geometry(i)
  c.node.x, c.node.y, c.node.radius = x, y, r
  place_key(c.label, x, y)
  c.label.text = key_text(c, r)
  c.mark.x, c.mark.y = c.label.x, c.label.y
  entry.x, entry.y, entry.r = x, y, r
end

-- A free place for one more circle, fully inside the play area and clear of every circle
-- (the article's while loop, bounded): when none is found, every radius shrinks.
local function new_place()
  local w, top, bottom, side = play_area()
  while true do
    local k = game.shrink * (CIRCLE_RADIUS[1] + (CIRCLE_RADIUS[2] - CIRCLE_RADIUS[1]) * math.random())
    local r = k * side * game.fit
    for _ = 1, PLACE_TRIES do
      local x = r + (w - 2 * r) * math.random()
      local y = top + r + (bottom - top - 2 * r) * math.random()
      local free = true
      for i in ipairs(game.rel) do
        local px, py, pr = circle_geometry(i)
        if (px - x) ^ 2 + (py - y) ^ 2 < (pr + r + CIRCLE_SPACING) ^ 2 then
          free = false
          break
        end
      end
      if free then return { u = x / w, v = (y - top) / (bottom - top), k = k } end
    end
    for _, rel in ipairs(game.rel) do rel.k = rel.k * PLACE_SHRINK end
    game.shrink = game.shrink * PLACE_SHRINK
    compute_fit()
    for i in ipairs(game.circles) do place_circle(i) end
  end
end

-- One more circle joins: a new place, a new colour, its nodes hidden until it pops in.
local function add_circle()
  local rel = new_place()
  rel.color = new_color()
  local i = #game.rel + 1
  game.rel[i] = rel
  local node = arcade.scene.circle{ fill = rel.color, scale = POP_FROM, alpha = 0, z = 10 + i, name = "circle" }
  -- the key sits on a cell of the circle's colour, so it reads while the circle is still small
  local label = arcade.scene.text{ name = "key", text = "", color = "#101010", background = rel.color, anchor_x = 0.5,
                                   anchor_y = 0.5, alpha = 0, z = 50 }
  -- the mark a wrong pick leaves on its circle
  local mark = arcade.scene.text{ text = " X ", color = "#ffffff", background = "#c0182a",
                                  anchor_x = 0.5, anchor_y = 0.5, visible = false, z = 51 }
  game.circles[i] = { node = node, label = label, mark = mark }
  game.state.circles[i] = { x = 0, y = 0, r = 0, delay = 0, color = rel.color }
  place_circle(i)
end

-- The oldest circle leaves for good (a round never shows more circles than there are keys).
local function retire_oldest()
  local c = table.remove(game.circles, 1)
  c.node:remove()
  c.label:remove()
  c.mark:remove()
  game.retired_color = table.remove(game.rel, 1).color
  table.remove(game.state.circles, 1)
  compute_fit()
  for i in ipairs(game.circles) do place_circle(i) end
end

local function remove_circles()
  for _, c in ipairs(game.circles) do
    c.node:remove()
    c.label:remove()
    c.mark:remove()
  end
  game.circles, game.rel = {}, {}
  game.state.circles = {}
  game.fit, game.shrink, game.retired_color = 1, 1, nil
end

-- Every circle pops in from 0.1x, as the article's round does, after a random 0..0.3 s delay.
-- `keys[i]` (when given) is shown on circle i from the moment it starts to pop; `on_in` (when
-- given) is called when the last circle to start has popped in.
local function pop_all(keys, on_in)
  local s = game.state
  local spring = { damping = POP_DAMPING, velocity = POP_VELOCITY }
  local latest
  for i in ipairs(game.circles) do
    s.circles[i].delay = math.random() * POP_MAX_DELAY
    if not latest or s.circles[i].delay > s.circles[latest].delay then latest = i end
  end
  for i, c in ipairs(game.circles) do
    local node, label = c.node, c.label
    local delay = s.circles[i].delay
    arcade.cancel_animations(node)
    arcade.cancel_animations(label)
    node.scale, node.alpha, node.z = POP_FROM, 0, 10 + i
    c.mark.visible = false
    c.key = keys and keys[i] or nil
    s.circles[i].key = c.key
    label.text = key_text(c, node.radius)
    label.alpha = 0
    if c.key then
      arcade.animate(label, { property = "alpha", from = 1, to = 1, duration = 0, delay = delay })
    end
    -- UIKit springs the scale and the alpha together: one curve for both
    arcade.animate(node, { property = "scale", from = POP_FROM, to = 1, duration = POP_TIME,
                           delay = delay, spring = spring }, i == latest and on_in or nil)
    arcade.animate(node, { property = "alpha", from = 0, to = 1, duration = POP_TIME, delay = delay,
                           spring = spring })
  end
end

-- Keys for n circles, dealt afresh: the first n keys in a random order, so a key says nothing
-- about how long its circle has been in the game.
local function deal_keys(n)
  local keys = {}
  for i = 1, n do keys[i] = LABEL_KEYS:sub(i, i) end
  for i = n, 2, -1 do
    local j = math.random(i)
    keys[i], keys[j] = keys[j], keys[i]
  end
  return keys
end

---------------------------------------------------------------------------------------------
-- Screens

local function clear_over()
  local n = game.nodes
  if n.over_title then n.over_title:remove() end
  if n.over_reason then n.over_reason:remove() end
  if n.over_score then n.over_score:remove() end
  if n.over_big then n.over_big:remove() end
  button.remove(n.retry)
  n.over_title, n.over_reason, n.over_score, n.over_big, n.retry = nil, nil, nil, nil, nil
end

-- The end card's numbers: one text row below 40 rows; from 40 rows the score is a large label
-- and the best (and "new best!") a text row under it.
local function over_texts()
  local s, n = game.state, game.nodes
  local nb = (s.new_best and s.score > 0) and "     new best!" or ""
  if big() then
    n.over_big.visible = true
    n.over_big.text = "score " .. s.score
    n.over_score.text = "best " .. s.best .. nb
  else
    n.over_big.visible = false
    n.over_score.text = "score " .. s.score .. "     best " .. s.best .. nb
  end
end

local function layout(w, h)
  game.W, game.H = w, h
  local n = game.nodes
  n.bar.width = math.max(1, w - CORNER)
  n.title.x, n.title.y = w / 2, h * 0.24
  n.title.scale = ui_scale()
  n.rules.x, n.rules.y = w / 2, 2 * math.floor(h * 0.45 / 2) + 1
  n.hud.x, n.hud.y = 1, h
  n.hint.y = h
  n.hint.x = n.hint.anchor_x == 1 and w - 1 or w / 2
  n.hud_round.x, n.hud_round.y = 1, h - BIG_HUD_HEIGHT + 1
  n.hud_score.x, n.hud_score.y = w - 1, h - BIG_HUD_HEIGHT + 1
  if n.hud.visible then show_hud() end
  if n.start then place_button(n.start, w / 2, h * 0.62) end
  if n.over_title then
    n.over_title.x = w / 2
    n.over_title.scale = ui_scale()
    game.over_title_y = h * 0.25
    if not game.over_dropping then n.over_title.y = game.over_title_y end
  end
  if n.over_reason then n.over_reason.x, n.over_reason.y = w / 2, h * 0.42 end
  if n.over_score then
    over_texts()
    n.over_big.x, n.over_big.y = w / 2, h * 0.53
    n.over_score.x, n.over_score.y = w / 2, big() and h * 0.61 or h * 0.54
  end
  if n.retry then place_button(n.retry, w / 2, h * 0.74) end
  for _, b in ipairs(game.bg) do
    if b.node:alive() then
      b.node.x, b.node.y, b.node.radius = b.u * w, b.v * h, b.k * math.min(w, h)
    end
  end
  compute_fit()
  for i in ipairs(game.circles) do place_circle(i) end
end

local function show_start()
  local s = game.state
  s.phase, s.stage = "ready", "start"
  game.nodes.title.visible = true
  game.nodes.rules.visible = true
  hide_hud()
  set_hint("Enter or click: start     Esc: pause", true)
  game.nodes.start = make_button("Start", "#2c6e49")
  layout(game.W, game.H)
  start_background()
end

local function show_over()
  local s = game.state
  if game.nodes.over_title then return end
  if arcade.score.submit(s.score) then s.new_best = true end
  s.best = math.max(s.best, s.score)
  -- one sound for the end: a new best's fanfare, else the bar's run-out or the plain ending
  local ending = s.ending == "time" and "timeup" or "over"
  arcade.sfx.play((s.new_best and s.score > 0) and "best" or ending, { channel = 2 })
  s.card = true
  hide_bar()
  remove_circles()
  hide_hud()
  local n = game.nodes
  n.over_title = arcade.scene.label{ text = "GAME OVER", font = "large", color = "#ff4d4d",
                                     anchor_x = 0.5, anchor_y = 0.5, z = 70 }
  n.over_reason = arcade.scene.text{ text = s.reason .. " in round " .. s.round, color = "#ffd166",
                                     anchor_x = 0.5, anchor_y = 0.5, z = 70 }
  n.over_big = arcade.scene.label{ text = "", font = "large", color = "white", anchor_x = 0.5,
                                   anchor_y = 0.5, z = 70, name = "over score" }
  n.over_score = arcade.scene.text{ text = "", color = "white", anchor_x = 0.5, anchor_y = 0.5, z = 70 }
  n.retry = make_button("Retry", "#8a3b12")
  set_hint("Enter or click: retry     Esc: pause", true)
  layout(game.W, game.H)
  game.over_dropping = true
  arcade.animate(n.over_title, { property = "y", from = -8 * ui_scale(), to = game.over_title_y, duration = OVER_DROP_TIME,
                                 spring = { damping = OVER_DAMPING, velocity = 0 } }, game.over_dropped)
end

function game.over_dropped()
  game.over_dropping = false
  if game.nodes.over_title then game.nodes.over_title.y = game.over_title_y end
end

---------------------------------------------------------------------------------------------
-- The game: the first two circles to remember, then rounds

local function start_round()
  local s = game.state
  s.stage = "round"
  s.level = s.round
  s.time_limit = time_limit(s.round)
  s.elapsed = 0
  s.bar_start = nil
  if #game.circles >= MAX_CIRCLES then retire_oldest() end
  add_circle()
  arcade.sfx.play("appear", { channel = 3 })
  pop_all(deal_keys(#game.circles))
  show_hud()
  set_hint("new circle? click it or press its key")
  start_bar()
end

-- The first two circles pop in; once the later of them is in, both stay MEMORISE_TIME, then
-- shrink away, and round 1 begins.
local function start_memorise()
  local s = game.state
  s.stage = "memorise"
  for _ = 1, EXTRA_CIRCLES do add_circle() end
  pop_all(nil, game.memorised)
  show_hud()
  set_hint("remember these circles")
end

-- The circles are all in: from now they stay MEMORISE_TIME, then shrink away.
function game.memorised(finished)
  local s = game.state
  if not finished or s.stage ~= "memorise" then return end
  for i, c in ipairs(game.circles) do
    arcade.cancel_animations(c.node)
    c.node.scale, c.node.alpha = 1, 1
    arcade.animate(c.node, {
      group = {
        { property = "scale", from = 1, to = POP_FROM },
        { property = "alpha", from = 1, to = 0 },
      },
      duration = SHRINK_TIME, delay = MEMORISE_TIME, timing = "easeIn",
    }, i == 1 and game.forgotten or nil)
  end
end

function game.forgotten(finished)
  if finished and game.state.stage == "memorise" then start_round() end
end

local function start_game()
  local s = game.state
  stop_background()
  button.remove(game.nodes.start)
  game.nodes.start = nil
  clear_over()
  remove_circles()
  game.nodes.title.visible = false
  game.nodes.rules.visible = false
  s.phase = "play"
  s.round, s.score, s.level = 1, 0, 1
  s.card, s.new_best, s.ending, s.reason, s.picked = false, false, nil, nil, nil
  s.last_points, s.last_bonus = nil, nil
  s.elapsed, s.bar_start, s.time_limit = 0, nil, time_limit(1)
  start_memorise()
end

-- The bar is full.
function game.time_up(finished)
  local s = game.state
  if not finished or s.stage ~= "round" then return end
  game.bar_anim = nil
  s.elapsed = s.time_limit
  s.phase, s.stage = "over", "over"
  s.ending, s.reason = "time", REASONS.time
  show_over()
end

function game.next_round(finished)
  local s = game.state
  if not finished or s.stage ~= "won_round" then return end
  s.round = s.round + 1
  start_round()
end

function game.blink_done()
  if game.state.stage == "over" then show_over() end
end

local function hide_keys()
  for _, c in ipairs(game.circles) do
    arcade.cancel_animations(c.label)
    c.label.alpha = 0
  end
end

-- The right pick grows to one radius past the canvas corner farthest from it, covering it all.
local function grow(answer, duration)
  local w, h = game.W, game.H
  local far = math.max(math.abs(answer.x), math.abs(w - answer.x)) ^ 2
    + math.max(math.abs(answer.y), math.abs(h - answer.y)) ^ 2
  arcade.animate(answer, { property = "scale", to = math.sqrt(far) / answer.radius + 1, duration = duration,
                           timing = "easeIn" }, game.next_round)
end

local function pick(i)
  local s = game.state
  if s.stage ~= "round" then return end
  if s.bar_start then
    s.elapsed = math.max(0, math.min(s.time_limit, arcade.time() - s.bar_start))
  end
  stop_bar()
  hide_keys()
  local answer = game.circles[#game.circles].node
  if i == #game.circles then
    -- 10 points, and up to 10 more for the share of the bar still to run
    local bonus = math.floor(SPEED_BONUS * (s.time_limit - s.elapsed) / s.time_limit + 0.5)
    s.last_bonus, s.last_points = bonus, POINTS + bonus
    s.score = s.score + POINTS + bonus
    s.stage = "won_round"
    arcade.sfx.play("right", { channel = 1 })
    show_hud()
    set_hint("right: +" .. POINTS .. " and +" .. bonus .. " for speed")
    answer.z = 90
    arcade.cancel_animations(answer)
    answer.alpha = 1
    game.grow_start = arcade.time()
    grow(answer, GROW_TIME)
  else
    s.phase, s.stage = "over", "over"
    s.ending, s.reason = "wrong", REASONS.wrong
    s.picked = i
    arcade.sfx.play("wrong", { channel = 1 })
    hide_bar()
    set_hint("wrong circle: the new one blinks")
    -- the others step back; the wrong pick keeps its colour and gets a mark
    for j, c in ipairs(game.circles) do
      if j ~= i and j ~= #game.circles then
        arcade.cancel_animations(c.node)
        c.node.scale = 1
        arcade.animate(c.node, { property = "alpha", to = DIM_ALPHA, duration = BLINK_TIME })
      end
    end
    game.circles[i].mark.visible = true
    -- the answer blinks from its full size even when it had not finished popping in
    arcade.cancel_animations(answer)
    answer.alpha = 1
    arcade.animate(answer, { property = "scale", from = 1, to = BLINK_SCALE, duration = BLINK_TIME,
                             autoreverse = true, repeat_count = BLINK_REPEATS, fill = "removed" }, game.blink_done)
  end
end

-- The circle under canvas point (x, y) as drawn now (its current scale), or nil.
local function circle_at(x, y)
  local best, best_d
  for i, c in ipairs(game.circles) do
    local node = c.node
    if node.alpha > 0 then
      local d = math.sqrt((node.x - x) ^ 2 + (node.y - y) ^ 2)
      -- a pixel (half a cell) of slack: a click names a whole cell, the circle is drawn in half-cells
      if d <= node.radius * node.scale_x + 1 and (not best_d or d < best_d) then best, best_d = i, d end
    end
  end
  return best
end

local function circle_for_key(key)
  for i, c in ipairs(game.circles) do
    if c.key == key and c.label.alpha > 0 then return i end
  end
  return nil
end

local function resize(w, h)
  layout(w, h)
  if game.state.stage == "won_round" then
    -- the growing circle aims at the new canvas's far corner in the time it has left
    local answer = game.circles[#game.circles].node
    grow(answer, math.max(0, GROW_TIME - (arcade.time() - game.grow_start)))
  end
end

---------------------------------------------------------------------------------------------
-- Callbacks

function game.load(ctx)
  local s = game.state
  -- a score is points now, not rounds: a best kept under the old rules is forgotten once
  require("lib.scorerules").adopt(2)
  s.phase, s.stage, s.round, s.score, s.level = "ready", "start", 0, 0, 1
  s.best = arcade.score.best() or 0
  s.palette = PALETTE
  s.time_limit = T_START
  s.circles, s.elapsed, s.background = {}, 0, 0
  s.card, s.new_best = false, false
  game.W, game.H = ctx.width, ctx.height
  game.circles, game.rel, game.bg, game.fit, game.shrink = {}, {}, {}, 1, 1
  arcade.scene.background(BACKGROUND)
  game.nodes = {
    bar = arcade.scene.rect{ x = 0, y = 0, anchor_x = 0, anchor_y = 0, width = ctx.width - CORNER,
                             height = BAR_HEIGHT, fill = BAR_COLORS[1], scale_x = 0, z = 80 },
    title = arcade.scene.label{ text = "LAST CIRCLE", font = "large", color = "#f2f2f2",
                                anchor_x = 0.5, anchor_y = 0.5, z = 61 },
    rules = arcade.scene.text{ text = "Remember the circles: each round they come back and one new one joins.\n"
                                 .. "Pick the new one before the bar fills: click it or press its key.\n"
                                 .. "10 points a pick, and up to 10 more the faster you are.",
                               color = "#c0c8d8", anchor_x = 0.5, anchor_y = 0.5, z = 61 },
    hud = arcade.scene.text{ text = "", color = "#e8ecf4", background = BACKGROUND, anchor_x = 0, anchor_y = 1,
                             visible = false, z = 95 },
    hint = arcade.scene.text{ text = "", color = "#8090a0", background = BACKGROUND, anchor_x = 0.5,
                              anchor_y = 1, z = 95 },
    hud_round = arcade.scene.label{ text = "", font = "large", color = "#e8ecf4", anchor_x = 0, anchor_y = 0,
                                    visible = false, z = 95, name = "hud round" },
    hud_score = arcade.scene.label{ text = "", font = "large", color = "#ffd166", anchor_x = 1, anchor_y = 0,
                                    visible = false, z = 95, name = "hud score" },
  }
  show_start()
end

function game.input(e)
  local s = game.state
  if e.type == "resize" then
    resize(e.width, e.height)
  elseif e.type == "key" then
    local confirm = e.key == "enter" or e.key == "space"
    if s.stage == "start" and confirm then
      start_game()
    elseif s.stage == "over" and s.card and confirm then
      start_game()
    elseif s.stage == "round" then
      local i = circle_for_key(e.key)
      if i then pick(i) end
    end
  elseif e.type == "mouse" and e.action == "press" then
    if s.stage == "start" and button.hit(game.nodes.start, e) then
      start_game()
    elseif s.stage == "over" and s.card and button.hit(game.nodes.retry, e) then
      start_game()
    elseif s.stage == "round" then
      local i = circle_at(e.x + 0.5, e.y + 1)      -- the middle of the clicked cell
      if i then pick(i) end
    end
  end
end

-- After this step the bar's animation has run up to arcade.time(): the time it has used is
-- read off the same clock, so state and bar agree whenever state is read.
function game.update()
  local s = game.state
  if s.stage == "round" and s.bar_start then
    s.elapsed = math.max(0, math.min(s.time_limit, arcade.time() - s.bar_start))
  end
end

return game
