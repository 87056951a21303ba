-- Last Circle: circles pop in one after another; pick the one that came last before the
-- countdown bar fills. Round n shows n + 2 circles. Every movement, fade, pulse and the bar
-- itself are native animations; Lua runs on input and when an animation ends (update only
-- reads the clock for `elapsed`).

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
local LAST_GAP = 3 / 60          -- (decided) the last circle starts at least 3 steps after the others, so it can be seen last
local CIRCLE_RADIUS = { 0.07, 0.11 }  -- (decided) radius range, as a share of the play area's shorter side
local CIRCLE_SPACING = 1         -- (decided) pixels kept free between two circles
local PLACE_TRIES = 200          -- placements tried for a circle before every radius shrinks
local PLACE_SHRINK = 0.85        -- how much the radii shrink when a round does not fit
local GROW_TIME = 0.5            -- (decided; the article leaves it out) the right pick fills the screen in 0.5 s
local BLINK_SCALE = 1.5          -- last-circle article, blink(): scale to 1.5 and back,
local BLINK_TIME = 0.2           -- 0.2 s each way,
local BLINK_REPEATS = 3          -- three times

-- Countdown (last-circle article, CountDownView; GAMES.md decides T)
local T = 5                      -- seconds a round may take
local BAR_DELAY = 0.3            -- the bar starts 0.3 s after the round begins
local BAR_COLORS = { "#00ff00", "#ffff00", "#ff0000" }  -- r = 2t/T, g = 1, then r = 1, g = 2 - 2t/T; b = 0
local BAR_HEIGHT = 2             -- pixels: one terminal row

-- Game over (the article: "GAME OVER" animates in; Retry pulses like Start)
local OVER_DROP_TIME = 0.8       -- (decided) the title drops in on a spring
local OVER_DAMPING = 0.5

local BUTTON_W, BUTTON_H = 13, 6 -- pixels: the buttons' backing shape at 1x
local LABEL_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"  -- what circles are picked by from the keyboard
local BACKGROUND = "#101522"

local game = {}

-- The play area below the bar: canvas width and height, the area's top and its shorter side.
local function play_area()
  local w, h = game.W, game.H
  local top = BAR_HEIGHT + 1
  return w, h, top, math.min(w, h - top)
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

local function pulse(shape)
  arcade.animate(shape, { property = "scale", from = 1, to = PULSE_SCALE, duration = PULSE_TIME,
                          timing = "easeInEaseOut", autoreverse = true, repeat_count = "forever" })
end

-- A button: a backing shape that pulses under a caption that does not.
local function make_button(caption, color)
  local shape = arcade.scene.rect{ width = BUTTON_W, height = BUTTON_H, fill = color, z = 60 }
  local text = arcade.scene.text{ text = caption, color = "white", anchor_x = 0.5, anchor_y = 0.5, z = 61 }
  pulse(shape)
  return { shape = shape, text = text }
end

local function place_button(b, x, y)
  y = 2 * math.floor(y / 2) + 1          -- a cell's middle, so the caption sits in the middle row
  b.shape.x, b.shape.y = x, y
  b.text.x, b.text.y = x, y
end

local function on_button(b, x, y)
  return b ~= nil and math.abs(x - b.shape.x) <= BUTTON_W / 2 and math.abs(y - b.shape.y) <= BUTTON_H / 2
end

local function remove_button(b)
  if b then
    b.shape:remove()
    b.text:remove()
  end
end

---------------------------------------------------------------------------------------------
-- Start screen: seven independent loops of background circles

local function spawn_background()
  local w, h = game.W, game.H
  local side = math.min(w, h)
  local r = side * (BACKGROUND_RADIUS[1] + (BACKGROUND_RADIUS[2] - BACKGROUND_RADIUS[1]) * math.random())
  local x, y = math.random() * w, math.random() * h
  local node = arcade.scene.circle{ x = x, y = y, radius = r, fill = random_color(), z = 0,
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
  return { node = node, anim = anim }
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
  if not finished or game.state.phase ~= "start" then return end
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
  local bar = game.nodes.bar
  bar.scale_x = 0
  bar.fill = BAR_COLORS[1]
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

---------------------------------------------------------------------------------------------
-- Screens

local function clear_over()
  local n = game.nodes
  if n.over_title then n.over_title:remove() end
  if n.over_score then n.over_score:remove() end
  remove_button(n.retry)
  n.over_title, n.over_score, n.retry = nil, nil, nil
end

local function clear_round()
  for _, c in ipairs(game.circles) do
    c.node:remove()
    c.label:remove()
  end
  game.circles = {}
  game.rel = {}
  game.state.circles = {}
  stop_bar()
end

-- A circle's key sits in the middle of the cell holding its centre.
local function place_key(label, x, y)
  label.x, label.y = math.floor(x) + 0.5, 2 * math.floor(y / 2) + 1
end

-- Where a circle of the round sits on the current canvas, from its place relative to the play area.
local function circle_geometry(rel)
  local w, h, top, side = play_area()
  return rel.u * w, top + rel.v * (h - top), rel.k * side
end

local function layout(w, h)
  game.W, game.H = w, h
  local n = game.nodes
  n.bar.width = w
  n.title.x, n.title.y = w / 2, h * 0.28
  n.rules.x, n.rules.y = w / 2, 2 * math.floor(h * 0.45 / 2) + 1
  n.hint.x, n.hint.y = w / 2, h
  if n.start then place_button(n.start, w / 2, h * 0.62) end
  if n.over_title then
    n.over_title.x = w / 2
    game.over_title_y = h * 0.25
    if not game.over_dropping then n.over_title.y = game.over_title_y end
  end
  if n.over_score then n.over_score.x, n.over_score.y = w / 2, h * 0.5 end
  if n.retry then place_button(n.retry, w / 2, h * 0.72) end
  for i, c in ipairs(game.circles) do
    local x, y, r = circle_geometry(game.rel[i])
    c.node.x, c.node.y, c.node.radius = x, y, r
    place_key(c.label, x, y)
    local c0 = game.state.circles[i]
    c0.x, c0.y, c0.r = x, y, r
  end
end

local function show_start()
  local s = game.state
  s.phase = "start"
  game.nodes.title.visible = true
  game.nodes.rules.visible = true
  game.nodes.hint.text = "Enter or click: start     Esc: pause"
  game.nodes.start = make_button("Start", "#2c6e49")
  layout(game.W, game.H)
  start_background()
end

local function show_over()
  local s = game.state
  if game.nodes.over_title then return end
  if arcade.score.submit(s.score) then s.new_best = true end
  s.best = math.max(s.best, s.score)
  s.card = true
  clear_round()
  local n = game.nodes
  n.over_title = arcade.scene.label{ text = "GAME OVER", font = "large", color = "#ff4d4d",
                                     anchor_x = 0.5, anchor_y = 0.5, z = 70 }
  n.over_score = arcade.scene.text{ text = "score " .. s.score .. "     best " .. s.best, color = "white",
                                    anchor_x = 0.5, anchor_y = 0.5, z = 70 }
  n.retry = make_button("Retry", "#8a3b12")
  n.hint.text = "Enter or click: retry     Esc: pause"
  layout(game.W, game.H)
  game.over_dropping = true
  arcade.animate(n.over_title, { property = "y", from = -8, to = game.over_title_y, duration = OVER_DROP_TIME,
                                 spring = { damping = OVER_DAMPING, velocity = 0 } }, game.over_dropped)
end

function game.over_dropped()
  game.over_dropping = false
  if game.nodes.over_title then game.nodes.over_title.y = game.over_title_y end
end

---------------------------------------------------------------------------------------------
-- A round

-- n circles that do not overlap, each fully inside the play area: the article's while loop,
-- bounded, shrinking every radius when a round does not fit.
local function place_circles(n)
  local w, h, top, side = play_area()
  local shrink = 1
  while true do
    local placed = {}
    for _ = 1, n do
      local r = side * shrink * (CIRCLE_RADIUS[1] + (CIRCLE_RADIUS[2] - CIRCLE_RADIUS[1]) * math.random())
      local spot
      for _ = 1, PLACE_TRIES do
        local x = r + (w - 2 * r) * math.random()
        local y = top + r + (h - top - 2 * r) * math.random()
        local free = true
        for _, p in ipairs(placed) do
          local dx, dy = p.x - x, p.y - y
          if dx * dx + dy * dy < (p.r + r + CIRCLE_SPACING) ^ 2 then
            free = false
            break
          end
        end
        if free then
          spot = { x = x, y = y, r = r }
          break
        end
      end
      if not spot then break end
      placed[#placed + 1] = spot
    end
    if #placed == n then
      -- the last placed had the least room: shuffled, so the order of appearance tells nothing
      for i = n, 2, -1 do
        local j = math.random(i)
        placed[i], placed[j] = placed[j], placed[i]
      end
      return placed
    end
    shrink = shrink * PLACE_SHRINK
  end
end

-- Random pop delays in 0..POP_MAX_DELAY, sorted: the circles appear in this order. The last
-- one is kept clear of the others so a sharp eye can tell it apart.
local function pop_delays(n)
  local delays
  repeat
    delays = {}
    for i = 1, n do delays[i] = math.random() * POP_MAX_DELAY end
    table.sort(delays)
  until n < 2 or delays[n] - delays[n - 1] >= LAST_GAP
  return delays
end

local function start_round()
  local s = game.state
  clear_round()
  s.phase = "round"
  s.elapsed = 0
  s.bar_start = nil
  local n = s.round + EXTRA_CIRCLES
  local spots = place_circles(n)
  local delays = pop_delays(n)
  local w, h, top, side = play_area()
  -- keys go by reading order, not by appearance, so a key never gives the answer away
  local reading = {}
  for i = 1, n do reading[i] = i end
  table.sort(reading, function(a, b)
    local pa, pb = spots[a], spots[b]
    if math.floor(pa.y / 2) ~= math.floor(pb.y / 2) then return pa.y < pb.y end
    return pa.x < pb.x
  end)
  local keys = {}
  for order, i in ipairs(reading) do keys[i] = LABEL_KEYS:sub(order, order) end
  for i, p in ipairs(spots) do
    game.rel[i] = { u = p.x / w, v = (p.y - top) / (h - top), k = p.r / side }
    s.circles[i] = { x = p.x, y = p.y, r = p.r, delay = delays[i] }
    local node = arcade.scene.circle{ x = p.x, y = p.y, radius = p.r, fill = random_color(),
                                      scale = POP_FROM, alpha = 0, z = 10 + i }
    local label = arcade.scene.text{ text = keys[i], color = "#101010", anchor_x = 0.5, anchor_y = 0.5,
                                     alpha = 0, z = 40 }
    place_key(label, p.x, p.y)
    -- UIKit springs the scale and the alpha together: one curve for both
    local spring = { damping = POP_DAMPING, velocity = POP_VELOCITY }
    arcade.animate(node, { property = "scale", from = POP_FROM, to = 1, duration = POP_TIME, delay = delays[i],
                           spring = spring })
    arcade.animate(node, { property = "alpha", from = 0, to = 1, duration = POP_TIME, delay = delays[i],
                           spring = spring })
    -- the key shows once the circle has popped in
    arcade.animate(label, { property = "alpha", from = 1, to = 1, duration = 0, delay = delays[i] + POP_TIME })
    game.circles[i] = { node = node, label = label, key = keys[i] }
  end
  start_bar()
end

local function start_game()
  local s = game.state
  stop_background()
  remove_button(game.nodes.start)
  game.nodes.start = nil
  clear_over()
  game.nodes.title.visible = false
  game.nodes.rules.visible = false
  game.nodes.hint.text = ""
  s.round, s.score = 1, 0
  s.card, s.new_best, s.ending, s.picked = false, false, nil, nil
  start_round()
end

-- The bar is full.
function game.time_up(finished)
  local s = game.state
  if not finished or s.phase ~= "round" then return end
  game.bar_anim = nil
  s.elapsed = T
  s.phase = "over"
  s.ending = "time"
  show_over()
end

function game.next_round(finished)
  local s = game.state
  if not finished or s.phase ~= "won_round" then return end
  s.round = s.round + 1
  start_round()
end

function game.blink_done()
  if game.state.phase == "over" then show_over() end
end

local function hide_keys()
  for _, c in ipairs(game.circles) do
    arcade.cancel_animations(c.label)
    c.label.alpha = 0
  end
end

local function pick(i)
  local s = game.state
  if s.phase ~= "round" then return end
  stop_bar()
  hide_keys()
  local answer = game.circles[#game.circles].node
  if i == #game.circles then
    s.score = s.score + 1
    s.phase = "won_round"
    local w, h = game.W, game.H
    local far = math.max(math.abs(answer.x), math.abs(w - answer.x)) ^ 2
      + math.max(math.abs(answer.y), math.abs(h - answer.y)) ^ 2
    answer.z = 90
    answer.alpha = 1
    arcade.cancel_animations(answer)
    -- to one radius past the farthest corner: the whole canvas is covered
    arcade.animate(answer, { property = "scale", to = math.sqrt(far) / answer.radius + 1, duration = GROW_TIME,
                             timing = "easeIn" }, game.next_round)
  else
    s.phase = "over"
    s.ending = "wrong"
    s.picked = i
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

---------------------------------------------------------------------------------------------
-- Callbacks

function game.load(ctx)
  local s = game.state
  s.phase, s.round, s.score = "start", 0, 0
  s.best = arcade.score.best() or 0
  s.circles, s.elapsed, s.background = {}, 0, 0
  s.card, s.new_best = false, false
  game.W, game.H = ctx.width, ctx.height
  game.circles, game.rel, game.bg = {}, {}, {}
  arcade.scene.background(BACKGROUND)
  game.nodes = {
    bar = arcade.scene.rect{ x = 0, y = 0, anchor_x = 0, anchor_y = 0, width = ctx.width, height = BAR_HEIGHT,
                             fill = BAR_COLORS[1], scale_x = 0, z = 80 },
    title = arcade.scene.label{ text = "LAST CIRCLE", font = "large", color = "#f2f2f2",
                                anchor_x = 0.5, anchor_y = 0.5, z = 61 },
    rules = arcade.scene.text{ text = "Pick the circle that popped in last: click it or press its key",
                               color = "#c0c8d8", anchor_x = 0.5, anchor_y = 0.5, z = 61 },
    hint = arcade.scene.text{ text = "", color = "#8090a0", anchor_x = 0.5, anchor_y = 1, z = 61 },
  }
  show_start()
end

function game.input(e)
  local s = game.state
  if e.type == "resize" then
    layout(e.width, e.height)
  elseif e.type == "key" then
    local confirm = e.key == "enter" or e.key == "space"
    if s.phase == "start" and confirm then
      start_game()
    elseif s.phase == "over" and s.card and confirm then
      start_game()
    elseif s.phase == "round" then
      local i = circle_for_key(e.key)
      if i then pick(i) end
    end
  elseif e.type == "mouse" and e.action == "press" then
    local x, y = e.x + 0.5, e.y + 1      -- the middle of the clicked cell
    if s.phase == "start" and on_button(game.nodes.start, x, y) then
      start_game()
    elseif s.phase == "over" and s.card and on_button(game.nodes.retry, x, y) then
      start_game()
    elseif s.phase == "round" then
      local i = circle_at(x, y)
      if i then pick(i) end
    end
  end
end

-- After this step the bar's animation has run up to arcade.time(): the time it has used is
-- read off the same clock, so state and bar agree whenever state is read.
function game.update()
  local s = game.state
  if s.phase == "round" and s.bar_start then
    s.elapsed = math.max(0, math.min(T, arcade.time() - s.bar_start))
  end
end

return game
