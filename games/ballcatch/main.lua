-- Ball catch: a ball drops every second into a box whose edges are walls; obstacles and two
-- scoring boxes stand in the way, and a paddle in the lower half bats the balls about. The
-- 50th drop opens the gate: the edges go and the pile falls out.
-- Rounds (GAMES.md, revised after a play test): a round is one gate cycle. It ends when the
-- 50th drop opens the gate, a banner sums it up while the pile falls out, and the next drop
-- starts the next round at 0. The best round is the best result. Only what the player
-- earned counts toward a round (decided): a box hit scores for the round when the ball was
-- batted, that is touched by the paddle after the player had moved it since that ball
-- dropped. Left alone, balls still hit the boxes (the box flashes and `score`, the field's
-- total, counts it, as in the article), and some land on the resting paddle, but the round
-- stays at 0: idling earns no best.
-- Every ball, wall and the paddle live in one native physics world: Lua only drops balls,
-- counts the contacts it is told about and moves the paddle.

local hitbox = require("lib.hitbox")
local rgb = require("lib.rgb")

-- The article's screen, in points: positions scale x by W / 375 and y by H / 667.
local ARTICLE_W, ARTICLE_H = 375, 667  -- GAMES.md: the articles' iPhone screen, 375 x 667 pt
local GRAVITY = { 0, 1 }               -- ball-catch: UIKit's default gravity, 1000 pt/s² down
local BALLS_ACROSS = 20                -- GAMES.md §2: balls are 1/20 of the width across
local DROP_INTERVAL = 1                -- ball-catch: timerCount, one ball a second
local GATE_THRESHOLD = 50              -- ball-catch: maxCount, the 50th drop opens the gate
local ELASTICITY = 0.8                 -- ball-catch: ballE
local FRICTION = 1                     -- ball-catch: dyib.friction
local PADDLE_W, PADDLE_H = 100, 10     -- ball-catch: boardW x 10
local PADDLE_ROW = 0.75                -- ball-catch: the board starts at 3/4 of the height
local PADDLE_TOP = 0.5                 -- ball-catch: the board never goes above half the height
-- ball-catch: the plain boxes (makeBarrier box1, box2), centre and side in points
local PLAIN_BOXES = { { x = 150, y = 200, size = 25 }, { x = 300, y = 300, size = 30 } }
-- ball-catch: the pegs (makeBarrier box3..box6), centres in points. The last one, at x = 390,
-- is off the article's 375 pt screen; it is pulled in to touch the right edge (decided).
local PEGS = { { x = 70, y = 300 }, { x = 280, y = 160 }, { x = 100, y = 160 }, { x = 390, y = 250 } }
local PEG_SIZE = 10                    -- decided: the article's peg image has no stated size
-- ball-catch: makeScoreBarrier, box "score1" worth 5 and "score2" worth 1 per hit
local SCORE_BOXES = {
  { id = "score1", x = 145, y = 250, size = 25, points = 5, color = "#f2c14e" },
  { id = "score2", x = 330, y = 350, size = 20, points = 1, color = "#4ecdc4" },
}
-- UIKit has no rest threshold to port: the engine's, 100 px/s at full gravity, shrinks
-- with the gravity so that balls on a small canvas still bounce
local RESTITUTION_THRESHOLD = 100

-- Decided: the article moves the board with a finger only.
local KEY_SPEED = 1      -- canvas widths (across) or heights (up and down) a second, key held
local MAX_SPEED = 3      -- the paddle's fastest, same units: a fast drag catches up at this
-- Decided: a ball's random colour is drawn again while it lies this close (RGB distance) to a
-- scoring box's colour, so that no ball can pass for a box, or to the background, so that none
-- is lost against it
local COLOR_MARGINS = { { rgb.parse("#f2c14e"), 96 }, { rgb.parse("#4ecdc4"), 96 }, { rgb.parse("#1b2030"), 72 } }
local FLASH_TIME = 0.3   -- seconds a scoring box glows after a hit
local FLASH_COLOR = "#ffffff"
local POPUP_TIME = 0.6   -- seconds the "+5" over a hit box shows, rising a row
local RESTART_TEXT = "[r] new field"
local BANNER_TIME = 2.5  -- decided: seconds a round's summary shows, from the gate opening
local BANNER_TOP = 6     -- pixels: the banner's top, under the HUD's two rows
local HINT_TEXT = "arrows or drag: move the paddle · balls it bats score on +5 / +1"
-- The host's pause mark takes the last 3 columns of the top row: the HUD ends a column short
-- of them
local CORNER = 4
local GATE_WIDTH = #"gate opens in 50"

local Z = { obstacle = 1, hint = 1.5, ball = 2, paddle = 3, hud = 10 }
local COLORS = {
  background = "#1b2030", box = "#a0703c", peg = "#9aa0a6", paddle = "#e0413a",
  hud = "#e8e8e8", dim = "#8890a0", best = "#f2c14e",
}
local ARROWS = { left = { -1, 0 }, right = { 1, 0 }, up = { 0, -1 }, down = { 0, 1 } }
local ARROW_NAMES = { "left", "right", "up", "down" }

---@type arcade.Game
local game = {}

local function clamp(v, lo, hi)
  if v < lo then return lo elseif v > hi then return hi else return v end
end

-- Where the paddle's centre may be on the current canvas: anywhere in the lower half, up to
-- the side walls (a ball the paddle pinches against one is squeezed out along it).
local function paddle_limits()
  local L = game.layout
  local hw, hh = L.paddle_w / 2, L.paddle_h / 2
  return hw, L.W - hw, math.max(L.H * PADDLE_TOP, hh), L.H - hh
end

local function clamp_paddle(x, y)
  local x0, x1, y0, y1 = paddle_limits()
  return clamp(x, x0, x1), clamp(y, y0, y1)
end

local function show_score()
  local s = game.state
  game.nodes.score.text = "round " .. s.round .. ": " .. s.round_score .. " points  best round " .. s.best_round
end

-- "gate opens in N" while the gate is shut, "gate open" while it is open
local function show_gate()
  local s = game.state
  game.nodes.gate.text = s.gate_open and "gate open"
    or "gate opens in " .. (GATE_THRESHOLD - s.count % GATE_THRESHOLD)
end

-- The banner: its title in block letters, large where they take at most 3/4 of the width
-- (small at 80 columns, so that it hides less of the field), its lines of text under it.
local function place_banner()
  local L, title, lines = game.layout, game.nodes.banner_title, game.nodes.banner
  title.font = "large"
  if title.width > L.W * 0.75 then title.font = "small" end
  local top = BANNER_TOP
  title.x, title.y = math.floor(L.W / 2), top
  lines.x, lines.y = math.floor(L.W / 2), top + math.ceil((title.height + 1) / 2) * 2
end

-- Shows the banner: a title and lines of text, padded to one width so that the balls behind
-- them are hidden alike.
local function show_banner(title, lines, color)
  local width = 0
  for _, l in ipairs(lines) do width = math.max(width, utf8.len(l)) end
  local padded = {}
  for i, l in ipairs(lines) do
    local gap = width - utf8.len(l)
    local left = gap // 2
    padded[i] = " " .. string.rep(" ", left) .. l .. string.rep(" ", gap - left) .. " "
  end
  local n = game.nodes
  n.banner_title.text, n.banner_title.color, n.banner_title.visible = title, color, true
  n.banner.text, n.banner.visible = table.concat(padded, "\n"), true
  place_banner()
end

function game.hide_banner()
  game.nodes.banner_title.visible = false
  game.nodes.banner.visible = false
end

-- Forgets every ball in play (the world and the scene keep them: the caller removes them).
local function forget_balls()
  game.balls, game.entries = {}, {}
end

-- The canvas size and the scales every length is taken at. Sizes take one factor, the
-- geometric mean of the two axes' (each box keeps its share of the screen's area, and stays
-- square); positions take each axis's own, so the layout spans the canvas as the article's did.
local function measure(w, h)
  local sx, sy = w / ARTICLE_W, h / ARTICLE_H
  local u = math.sqrt(sx * sy)
  game.layout = {
    W = w, H = h, sx = sx, sy = sy, size = u,
    radius = w / BALLS_ACROSS / 2,
    -- the article's share of the width (boardW of 375 pt); its 10 pt height at the sizes' scale,
    -- in whole pixels and never under 2 (decided), so that it reads as a bar everywhere
    paddle_w = PADDLE_W * sx, paddle_h = math.max(2, math.floor(PADDLE_H * u + 0.5)),
  }
end

-- A square wall and its node, centred on the article's (x, y).
local function add_box(id, x, y, size, color)
  local L = game.layout
  local side = size * L.size
  local cx = math.min(x * L.sx, L.W - side / 2)
  local cy = y * L.sy
  local wall = game.world:add_wall(id, { x = cx - side / 2, y = cy - side / 2, width = side, height = side })
  local node = arcade.scene.rect{ x = cx, y = cy, width = side, height = side, fill = color, z = Z.obstacle }
  game.walls[#game.walls + 1] = wall
  game.obstacles[#game.obstacles + 1] = node
  return node
end

-- Every obstacle for the current canvas, replacing those of the last one.
local function build_obstacles()
  for _, wall in ipairs(game.walls or {}) do wall:remove() end
  for _, node in ipairs(game.obstacles or {}) do node:remove() end
  game.walls, game.obstacles, game.score_nodes, game.popups = {}, {}, {}, {}
  for _, b in ipairs(PLAIN_BOXES) do add_box("box", b.x, b.y, b.size, COLORS.box) end
  for _, p in ipairs(PEGS) do add_box("peg", p.x, p.y, PEG_SIZE, COLORS.peg) end
  for _, b in ipairs(SCORE_BOXES) do
    local box = add_box(b.id, b.x, b.y, b.size, b.color)
    local mark = "+" .. b.points
    -- what the box is worth, beside it: on its right, or on its left where the right has no room
    local right = box.x + box.width / 2 + 1
    local beside = right + #mark <= game.layout.W
      and arcade.scene.text{ x = right, y = box.y, anchor_x = 0, z = Z.obstacle, color = b.color, text = mark }
      or arcade.scene.text{ x = box.x - box.width / 2 - 1, y = box.y, anchor_x = 1, z = Z.obstacle,
                            color = b.color, text = mark }
    local popup = arcade.scene.text{ x = box.x, y = box.y - box.height / 2 - 1, anchor_x = 0.5, anchor_y = 1,
                                     z = Z.hud, color = b.color, text = mark, alpha = 0 }
    game.score_nodes[b.id], game.popups[b.id] = box, popup
    game.obstacles[#game.obstacles + 1] = beside
    game.obstacles[#game.obstacles + 1] = popup
  end
end

-- The paddle wall at the state's paddle position, for the current canvas.
local function build_paddle()
  local L, p = game.layout, game.state.paddle
  if game.paddle then game.paddle:remove() end
  p.x, p.y = clamp_paddle(p.x, p.y)
  game.paddle = game.world:add_wall("paddle", {
    x = p.x - L.paddle_w / 2, y = p.y - L.paddle_h / 2, width = L.paddle_w, height = L.paddle_h,
  })
  local n = game.nodes.paddle
  n.x, n.y, n.width, n.height = p.x, p.y, L.paddle_w, L.paddle_h
  game.aim = { x = p.x, y = p.y }
end

-- The top row: the round on the left; the gate's count on the right, ending short of the
-- host's pause mark; the restart button between them. The hint under it, the banner above
-- the obstacles.
local function place_hud()
  local L, n = game.layout, game.nodes
  n.gate.x = L.W - CORNER
  n.restart.x = L.W - CORNER - GATE_WIDTH - 2
  n.hint.x = math.floor(L.W / 2)
  place_banner()
end

-- Every ball in play, moved and scaled with the field from an ow x oh canvas: the same place
-- and speed in the field's proportions, the new size. A ball's radius is fixed in the world,
-- so each is made again (in the same order, with its node and its mark); a ball past the
-- floor of a smaller canvas is put back on it while the gate is shut.
local function rescale_balls(ow, oh)
  local L, s = game.layout, game.state
  local fx, fy, r = L.W / ow, L.H / oh, L.radius
  for _, b in ipairs(game.balls) do
    local old = b.ball
    local x, y = clamp(old.x * fx, r, math.max(r, L.W - r)), old.y * fy
    if not s.gate_open then y = math.min(y, L.H - r) end
    local vx, vy, spin = old.vx * fx, old.vy * fy, old.spin
    game.entries[old] = nil
    old:remove()
    b.node.radius = r
    b.ball = game.world:add_ball{ x = x, y = y, radius = r, vx = vx, vy = vy, spin = spin,
                                  elasticity = ELASTICITY, friction = FRICTION, node = b.node }
    game.entries[b.ball] = b
    b.remade = true
  end
  -- the walls are new too: what lies on a box or on the paddle begins touching it again in the
  -- next physics step, which is no touch of the player's (see settle)
  game.remade = "waiting"
end

-- Lays everything out for a w x h pixel canvas, the balls in play and the paddle moved and
-- scaled with the field.
local function layout(w, h)
  local old = game.layout
  measure(w, h)
  local L = game.layout
  game.world.gravity = { GRAVITY[1] * L.sy, GRAVITY[2] * L.sy }
  game.world.restitution_threshold = RESTITUTION_THRESHOLD * L.sy
  if old then
    local p = game.state.paddle
    p.x, p.y = p.x * L.W / old.W, p.y * L.H / old.H
    rescale_balls(old.W, old.H)
  end
  build_obstacles()
  build_paddle()
  place_hud()
end

-- The scoring box named id (a contact's id may also be another ball, or nil for an edge).
local function scoring_box(id)
  for _, b in ipairs(SCORE_BOXES) do
    if b.id == id then return b end
  end
  return nil
end

-- The entry { ball, node, dropped, batted, remade } of a ball in play, or nil. (The host
-- gives the same handle for a ball every time, so the handle is the key.)
local function entry_of(ball)
  return game.entries[ball]
end

-- A random colour (the article's randomColor: three channels 0..255), drawn again while it is
-- too close to a colour a ball must not share.
local function ball_color()
  while true do
    local c = { math.random(0, 255), math.random(0, 255), math.random(0, 255) }
    local ok = true
    for _, m in ipairs(COLOR_MARGINS) do
      if rgb.distance2(c, m[1]) < m[2] * m[2] then ok = false break end
    end
    if ok then return c end
  end
end

-- The round just ended (the 50th drop opened the gate): it counts toward the best, and the
-- banner sums it up while the pile falls out.
local function end_round()
  local s = game.state
  local points = s.round_score
  local best = points > s.best_round
  if best then s.best_round = points end
  arcade.score.submit(points)
  local title = "round " .. s.round .. ": " .. points .. (points == 1 and " point" or " points")
  local verdict = best and "new best!"
    or points == 0 and "only balls your paddle bats score on +5 / +1"
    or "best round " .. s.best_round
  game.banner_text = { title = title, verdict = verdict, color = best and COLORS.best or COLORS.hud }
  show_banner(title, { verdict, "the gate is open: round " .. (s.round + 1) .. " starts with the next ball" },
              game.banner_text.color)
  if game.banner_timer then game.banner_timer:cancel() end
  game.banner_timer = arcade.after(BANNER_TIME, game.hide_banner)
  show_score()
end

-- The drop after the gate opened: the next round, at 0.
local function start_round()
  local s = game.state
  s.round, s.round_score = s.round + 1, 0
  local b = game.banner_text
  if game.nodes.banner.visible and b then
    show_banner(b.title, { b.verdict, "round " .. s.round .. " has begun" }, b.color)
  end
  show_score()
end

-- Drops a ball at the top, at x (random when nil); the article's makeBalls.
function game.drop(x)
  local s, L = game.state, game.layout
  local r = L.radius
  if s.gate_open then start_round() end
  x = x or (r + math.random() * (L.W - 2 * r))
  local node = arcade.scene.circle{ x = x, y = r, radius = r, fill = ball_color(), z = Z.ball }
  local ball = game.world:add_ball{ x = x, y = r, radius = r, elasticity = ELASTICITY, friction = FRICTION, node = node }
  local entry = { ball = ball, node = node, dropped = arcade.frame(), batted = false }
  game.balls[#game.balls + 1] = entry
  game.entries[ball] = entry
  s.dropped = s.dropped + 1
  s.count = s.count + 1
  -- the gate opens on the 50th drop and shuts on the next one, as the article's timer did
  if s.count == GATE_THRESHOLD then
    s.gate_open = true
    s.count = 0
  else
    s.gate_open = false
  end
  game.world.bounds_enabled = not s.gate_open
  s.balls = game.world:count()
  show_gate()
  if s.gate_open then end_round() end
end

-- A ball began touching something. The paddle bats it when the player has moved the paddle
-- since the ball dropped; a scoring box scores once per touch: always for the field's total,
-- and for the round when the ball was batted and the round is on (not while the gate is
-- open: that round is summed up).
function game.on_contact(ball, id)
  local box = scoring_box(id)
  if not box and id ~= "paddle" then return end
  local entry = entry_of(ball)
  if entry and entry.remade then return end
  if not box then
    if entry and game.moved >= entry.dropped then entry.batted = true end
    return
  end
  local s = game.state
  s.score = s.score + box.points
  s.hits[id] = s.hits[id] + 1
  local node, popup = game.score_nodes[id], game.popups[id]
  arcade.animate(node, { property = "color", values = { FLASH_COLOR, box.color }, duration = FLASH_TIME })
  if not (entry and entry.batted) or s.gate_open then return end
  s.round_score = s.round_score + box.points
  game.nodes.hint.visible = false
  show_score()
  local y = node.y - node.height / 2 - 1
  arcade.animate(popup, { group = { { property = "alpha", values = { 1, 1, 0 } },
                                    { property = "y", values = { y, y - 2 } } }, duration = POPUP_TIME })
end

-- The world removed a ball that left the canvas: its node goes with it.
function game.on_removed(ball)
  for i, b in ipairs(game.balls) do
    if b.ball == ball then
      b.node:remove()
      table.remove(game.balls, i)
      break
    end
  end
  game.entries[ball] = nil
  game.state.balls = game.world:count()
end

-- Empties the field and starts dropping again, the score back at 0.
function game.restart()
  local s = game.state
  for _, b in ipairs(game.balls) do
    b.ball:remove()
    b.node:remove()
  end
  forget_balls()
  game.moved = -1
  s.count, s.score, s.gate_open = 0, 0, false
  s.round, s.round_score = 1, 0
  s.hits = { score1 = 0, score2 = 0 }
  if game.banner_timer then game.banner_timer:cancel() end
  game.banner_timer = nil
  game.hide_banner()
  game.nodes.hint.visible = true
  local L = game.layout
  s.paddle = { x = L.W / 2, y = L.H * PADDLE_ROW }
  game.world.bounds_enabled = true
  game.held = { left = false, right = false, up = false, down = false }
  game.grab = nil
  build_paddle()
  show_score()
  if game.dropper then game.dropper:cancel() end
  game.dropper = arcade.every(DROP_INTERVAL, game.drop)
  game.drop()
end

-- A line of the head-up display: on the top row, over the balls, on its own background so
-- that the balls passing behind it do not break up the letters.
local function hud_text(opts)
  opts.y = opts.y or 0
  opts.anchor_y = 0
  opts.z = opts.z or Z.hud
  opts.background = COLORS.background
  opts.text = opts.text or ""
  return arcade.scene.text(opts)
end

function game.load(ctx)
  local s = game.state
  s.dropped, s.balls = 0, 0
  s.paddle = { x = 0, y = 0 }
  s.best_round = arcade.score.best() or 0
  s.round, s.round_score = 1, 0
  forget_balls()
  game.moved = -1
  arcade.scene.background(COLORS.background)
  game.world = arcade.physics.world{ gravity = GRAVITY, bounds = true, remove_outside = true }
  game.world:on_contact(game.on_contact)
  game.world:on_removed(game.on_removed)
  game.nodes = {
    paddle = arcade.scene.rect{ fill = COLORS.paddle, z = Z.paddle },
    score = hud_text{ x = 1, anchor_x = 0, color = COLORS.hud },
    gate = hud_text{ anchor_x = 1, color = COLORS.hud },
    restart = hud_text{ anchor_x = 1, color = COLORS.dim, text = RESTART_TEXT },
    -- under the balls: a ball just dropped shows over it
    hint = hud_text{ y = 2, anchor_x = 0.5, color = COLORS.dim, text = HINT_TEXT, z = Z.hint },
    banner_title = arcade.scene.label{ anchor_x = 0.5, anchor_y = 0, z = Z.hud, outline = COLORS.background,
                                       visible = false },
    banner = arcade.scene.text{ anchor_x = 0.5, anchor_y = 0, align = "center", z = Z.hud, color = COLORS.hud,
                                background = COLORS.background, visible = false },
  }
  layout(ctx.width, ctx.height)
  game.restart()
end

-- The restart text's cells, which a click restarts on: on the top row, ending before its x.
local function restart_box()
  local right = game.nodes.restart.x
  return { x = right - #RESTART_TEXT, y = 0, w = #RESTART_TEXT, h = 2 }
end

function game.input(e)
  if e.type == "key" then
    local d = ARROWS[e.key]
    if d then
      -- a press nudges; held (the terminal repeats it) it keeps moving until released
      if e.is_repeat then
        game.held[e.key] = true
      else
        local a, r = game.aim, 2 * game.layout.radius
        a.x, a.y = clamp_paddle(a.x + d[1] * r, a.y + d[2] * r)
      end
    elseif e.key == "r" then
      game.restart()
    end
  elseif e.type == "keyup" then
    if ARROWS[e.key] then game.held[e.key] = false end
  elseif e.type == "mouse" then
    if e.action == "press" then
      if hitbox.hit(restart_box(), e) then
        game.restart()
      else
        -- the article drags the board by the finger's movement, wherever the finger is
        local p = game.state.paddle
        game.grab = { dx = p.x - e.x, dy = p.y - e.y }
      end
    elseif e.action == "drag" and game.grab then
      local a = game.aim
      a.x, a.y = clamp_paddle(e.x + game.grab.dx, e.y + game.grab.dy)
    elseif e.action == "release" then
      game.grab = nil
    end
  elseif e.type == "resize" then
    layout(e.width, e.height)
  end
end

-- How far (at most dy) the paddle at (x, y) can go down before it presses on a ball. A
-- kinematic wall cannot be stopped: driven into the pile, it would squeeze balls out through
-- the floor. So it comes down onto the balls below, and no further.
local function room_below(x, y, dy)
  local L = game.layout
  local hw, bottom, reach = L.paddle_w / 2, y + L.paddle_h / 2, 2 * L.radius
  local room = dy
  for _, ball in ipairs(game.world:bodies_in(x - hw - reach, bottom - reach, L.paddle_w + 2 * reach, dy + 2 * reach)) do
    local r = ball.radius
    local dx = math.max(0, math.abs(ball.x - x) - hw)
    if dx < r then
      room = math.min(room, math.max(0, ball.y - math.sqrt(r * r - dx * dx) - bottom))
    end
  end
  return room
end

-- The balls lying on the paddle as the player moves it are batted too: they touched it
-- before, so the world reports no new touch when it lifts them.
local function bat_resting(x, y)
  local L = game.layout
  local w, h = L.paddle_w + 2, L.paddle_h + 2
  for _, ball in ipairs(game.world:bodies_in(x - w / 2, y - h / 2, w, h)) do
    local entry = entry_of(ball)
    if entry then entry.batted = true end
  end
end

-- After a resize: the first physics step finds the remade balls touching the new walls they
-- lay on (their touches are not counted); from the update after it, touches count again.
local function settle()
  if game.remade == "waiting" then
    game.remade = "stepping"
  elseif game.remade == "stepping" then
    for _, b in ipairs(game.balls) do b.remade = nil end
    game.remade = nil
  end
end

-- Only the paddle moves here: towards its aim, no faster than MAX_SPEED, as a kinematic
-- wall so that it pushes the balls it meets.
function game.update(dt)
  if game.remade then settle() end
  local L, a, held = game.layout, game.aim, game.held
  local hx, hy = 0, 0
  for _, name in ipairs(ARROW_NAMES) do
    if held[name] then hx, hy = hx + ARROWS[name][1], hy + ARROWS[name][2] end
  end
  if hx ~= 0 or hy ~= 0 then
    a.x, a.y = clamp_paddle(a.x + hx * KEY_SPEED * L.W * dt, a.y + hy * KEY_SPEED * L.H * dt)
  end
  local p = game.state.paddle
  if a.x == p.x and a.y == p.y then return end
  local mx, my = MAX_SPEED * L.W * dt, MAX_SPEED * L.H * dt
  p.x = p.x + clamp(a.x - p.x, -mx, mx)
  local dy = clamp(a.y - p.y, -my, my)
  if dy > 0 then
    local room = room_below(p.x, p.y, dy)
    if room < dy then a.y, dy = p.y + room, room end
  end
  p.y = p.y + dy
  game.world:move_wall(game.paddle, p.x, p.y)
  game.nodes.paddle.x, game.nodes.paddle.y = p.x, p.y
  game.moved = arcade.frame()
  bat_resting(p.x, p.y)
end

return game
