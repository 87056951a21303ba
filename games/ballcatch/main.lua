-- Ball catch: balls drop into a box whose edges are walls; obstacles and two scoring boxes
-- stand in the way, and a paddle in the lower half bats the balls about. The 50th drop opens
-- the gate: the edges go and the pile falls out.
--
-- A run (GAMES.md, wave 4: "aim, and keep the box from overflowing"):
-- - A bat is a paddle touch in which the paddle moved into the ball: the paddle's speed
--   towards the ball along the contact's normal is over BAT_SPEED. A ball landing on a still
--   paddle, or lying on a moving one, is not batted.
-- - A batted ball is live (tinted) until it scores, lands on the floor or LIVE_TIME passes.
--   It scores for the first scoring box it touches while live, and is banked: it pops, and
--   its "+5" / "+1" flies to the score.
-- - Round n drops a ball every 0.85^(n-1) s (never under 0.4 s); a round is one gate cycle.
-- - A line across the field marks what the box holds: when the balls resting on the floor's
--   pile reach past it, the run ends ("the box overflowed"). The faster the drops, the less
--   time the open gate has to let the pile out.
-- Every ball, wall and the paddle live in one native physics world: Lua drops balls, moves
-- the paddle and hears of the touches the world reports.

local hitbox = require("lib.hitbox")
local rgb = require("lib.rgb")

-- The article's screen, in points: positions scale x by W / 375 and y by H / 667.
local ARTICLE_W, ARTICLE_H = 375, 667  -- GAMES.md: the articles' iPhone screen, 375 x 667 pt
local GRAVITY = { 0, 1 }               -- ball-catch: UIKit's default gravity, 1000 pt/s² down
local BALLS_ACROSS = 20                -- GAMES.md §2: balls are 1/20 of the width across
local DROP_INTERVAL = 1                -- ball-catch: timerCount, one ball a second (round 1)
local DROP_SPEEDUP = 0.85              -- wave 4: each round drops x0.85 as far apart
local DROP_FASTEST = 0.4               -- wave 4: never under 0.4 s
local REMADE_STEPS = 12                -- after a resize, 0.2 s for the remade balls to settle
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

-- Wave 4, decided values
-- canvas heights a second: the paddle's least speed into a ball that bats it. A held arrow
-- glides the paddle at KEY_SPEED, under it: a ball hopping on a gliding paddle is carried,
-- not batted; a tap, or a quick drag, bats.
local BAT_SPEED = 1.5
local LIVE_TIME = 3        -- wave 4: a batted ball stays live 3 s at most
local LIVE_COLOR = "#ffffff"
local LINE_SHARE = 0.28    -- the line's height over the floor, a share of the canvas height
local PILE_CHECK = 0.25    -- seconds between two looks at the pile
local REST_SPEED = 0.15    -- canvas heights a second: a ball slower than this is at rest
local OVERFLOW_LOOKS = 4   -- looks in a row the pile must be past the line to end the run
local RETRY_DELAY = 0.8    -- seconds after the end before a click starts again (a drag's release)
local DASH, GAP = 3, 2     -- pixels: the line's dashes and the gaps between them
local LARGE_ROWS = 40      -- wave 4: from 40 rows the main numbers are in the pixel font

-- Decided: the article moves the board with a finger only.
local KEY_SPEED = 1      -- canvas widths (across) or heights (up and down) a second, key held
local MAX_SPEED = 3      -- the paddle's fastest, same units: a fast drag catches up at this
local JAB = 1.5          -- a press of up or down moves the paddle this many ball widths
-- Decided: a ball's random colour is drawn again while it lies this close (RGB distance) to a
-- scoring box's colour, so that no ball can pass for a box, to the live tint, or to the
-- background, so that none is lost against it
local COLOR_MARGINS = {
  { rgb.parse("#f2c14e"), 96 }, { rgb.parse("#4ecdc4"), 96 }, { rgb.parse(LIVE_COLOR), 110 },
  { rgb.parse("#1b2030"), 72 },
}
local FLASH_TIME = 0.3   -- seconds a scoring box glows after a hit
local FLASH_COLOR = "#ffffff"
local POP_TIME = 0.25    -- seconds a banked ball takes to pop
local FLY_TIME = 0.6     -- seconds a banked "+5" takes to fly to the score
local BANNER_TIME = 2.5  -- decided: seconds a round's summary shows, from the gate opening
local HINT_TEXT = "jab up into a falling ball: bat it onto +5 / +1 · keep the pile under the line"
local READY_LINES = {
  "jab the paddle up into a falling ball to bat it: it glows,",
  "and banks on the first +5 or +1 box it hits.",
  "keep the pile under the dashed line: each round drops faster",
  "arrows: move, tap up: jab · drag: move, flick up: jab",
  "",
  "space or click: start",
}
local REASON = "the box overflowed"
-- The host's pause mark takes the last 3 columns of the top row: the HUD ends a column short
-- of them
local CORNER = 4

local Z = { line = 0.5, obstacle = 1, hint = 1.5, ball = 2, paddle = 3, fx = 4, hud = 10, fx_mark = 10.5, card = 11 }
local COLORS = {
  background = "#1b2030", box = "#a0703c", peg = "#9aa0a6", paddle = "#e0413a",
  hud = "#e8e8e8", dim = "#8890a0", best = "#f2c14e", line = "#7a3040", line_near = "#ff5050",
}
local ARROWS = { left = { -1, 0 }, right = { 1, 0 }, up = { 0, -1 }, down = { 0, 1 } }
local ARROW_NAMES = { "left", "right", "up", "down" }

---@type arcade.Game
local game = {}

local function clamp(v, lo, hi)
  if v < lo then return lo elseif v > hi then return hi else return v end
end

-- The seconds between two drops in round n.
local function drop_interval(n)
  return math.max(DROP_FASTEST, DROP_INTERVAL * DROP_SPEEDUP ^ (n - 1))
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

local function large()
  return game.layout.rows >= LARGE_ROWS
end

-- The HUD's words: score and round (large from 40 rows), best, the pile, the gate.
local function show_hud()
  local s, n = game.state, game.nodes
  local pile = math.floor(s.pile * 100 + 0.5) .. "%"
  if large() then
    n.score_big.text = "SCORE " .. s.score
    n.round_big.text = "ROUND " .. s.round
    n.score.text = "best " .. s.best .. "  ·  round " .. s.round .. ": " .. s.round_score .. "  ·  pile " .. pile
  else
    n.score.text = "score " .. s.score .. "  round " .. s.round .. "  best " .. s.best .. "  pile " .. pile
  end
  n.gate.text = s.gate_open and "gate open" or "gate opens in " .. (GATE_THRESHOLD - s.count % GATE_THRESHOLD)
end

-- Where the score shows, for the banked "+5" to fly to.
local function score_spot()
  local n = game.nodes
  if large() then return n.score_big.x + 8, n.score_big.y + 4 end
  return n.score.x + 7, n.score.y + 1
end

-- The card (ready, round over, run over): its title in block letters, large where they take
-- at most 3/4 of the width, its lines of text under it.
local function place_banner()
  local L, title, lines = game.layout, game.nodes.banner_title, game.nodes.banner
  title.font = "large"
  if title.width > L.W - 8 then title.font = "small" end
  local top = game.layout.hud_bottom + 2
  title.x, title.y = math.floor(L.W / 2), top
  lines.x, lines.y = math.floor(L.W / 2), top + math.ceil((title.height + 1) / 2) * 2
end

-- Shows the card: a title and lines of text, padded to one width so that the balls behind
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

-- The canvas size and the scales every length is taken at. Sizes take one factor, the
-- geometric mean of the two axes' (each box keeps its share of the screen's area, and stays
-- square); positions take each axis's own, so the layout spans the canvas as the article's did.
local function measure(w, h)
  local sx, sy = w / ARTICLE_W, h / ARTICLE_H
  local u = math.sqrt(sx * sy)
  local rows = h // 2
  game.layout = {
    W = w, H = h, sx = sx, sy = sy, size = u, rows = rows,
    radius = w / BALLS_ACROSS / 2,
    -- the article's share of the width (boardW of 375 pt); its 10 pt height at the sizes' scale,
    -- in whole pixels and never under 2 (decided), so that it reads as a bar everywhere
    paddle_w = PADDLE_W * sx, paddle_h = math.max(2, math.floor(PADDLE_H * u + 0.5)),
    -- the line: on a whole pixel, LINE_SHARE of the height over the floor
    line_y = h - math.floor(h * LINE_SHARE + 0.5),
    hud_bottom = rows >= LARGE_ROWS and 12 or 4,
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
  game.walls, game.obstacles, game.score_nodes = {}, {}, {}
  for _, b in ipairs(PLAIN_BOXES) do add_box("box", b.x, b.y, b.size, COLORS.box) end
  for _, p in ipairs(PEGS) do add_box("peg", p.x, p.y, PEG_SIZE, COLORS.peg) end
  for _, b in ipairs(SCORE_BOXES) do
    local box = add_box(b.id, b.x, b.y, b.size, b.color)
    box.name = b.id
    local mark = "+" .. b.points
    -- what the box is worth, beside it: on its right, or on its left where the right has no room
    local right = box.x + box.width / 2 + 1
    local beside = right + #mark <= game.layout.W
      and arcade.scene.text{ x = right, y = box.y, anchor_x = 0, z = Z.obstacle, color = b.color, text = mark }
      or arcade.scene.text{ x = box.x - box.width / 2 - 1, y = box.y, anchor_x = 1, z = Z.obstacle,
                            color = b.color, text = mark }
    game.score_nodes[b.id] = box
    game.obstacles[#game.obstacles + 1] = beside
  end
  -- the line the pile must stay under: dashes a pixel tall, right over the line's pixel row
  local L = game.layout
  game.line = {}
  for x = 0, L.W - 1, DASH + GAP do
    local dash = arcade.scene.rect{ x = x, y = L.line_y - 1, anchor_x = 0, anchor_y = 0, width = math.min(DASH, L.W - x),
                                    height = 1, fill = COLORS.line, z = Z.line }
    game.obstacles[#game.obstacles + 1] = dash
    game.line[#game.line + 1] = dash
  end
  game.line_color = nil
end

-- The line's colour: brighter once the pile comes near it.
local function color_line(pile)
  local c = pile >= 0.75 and COLORS.line_near or COLORS.line
  if c == game.line_color then return end
  game.line_color = c
  for _, d in ipairs(game.line) do d.fill = c end
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
  game.pv = { 0, 0 }
end

-- The HUD: small, one row of text (the score's words on the left, the gate's count on the
-- right, ending short of the host's pause mark); from 40 rows the score and the round in
-- the pixel font over that row.
local function place_hud()
  local L, n = game.layout, game.nodes
  local big = large()
  n.score_big.visible, n.round_big.visible = big, big
  n.score_big.x, n.score_big.y = 1, 1
  n.round_big.x, n.round_big.y = L.W - CORNER, 1
  local row = big and 10 or 0
  n.score.y, n.gate.y = row, row
  n.gate.x = L.W - CORNER
  n.hint.x, n.hint.y = math.floor(L.W / 2), row + 2
  show_hud()
  place_banner()
end

-- Every ball in play, moved and scaled with the field from an ow x oh canvas: the same place
-- and speed in the field's proportions, the new size. A ball's radius is fixed in the world,
-- so each is made again (in the same order, with its node); a ball past the floor of a
-- smaller canvas is put back on it while the gate is shut.
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
  -- the walls are new too: what lies on a box or on the paddle begins touching it again, and a
  -- ball the new scale sinks into a wall is pushed out over the next few steps; none of that
  -- is a touch of the player's (see settle)
  game.remade = REMADE_STEPS
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

-- Live balls: batted, glowing, worth a box's points until they land, score or time out.
local function set_live(entry, on)
  -- a live ball's time runs on a native timer, so no Lua looks at the balls each frame
  if entry.expiry then
    entry.expiry:cancel()
    entry.expiry = nil
  end
  if on then
    if not entry.live then game.live_count = game.live_count + 1 end
    entry.live = game.clock + LIVE_TIME
    entry.node.fill, entry.node.name = LIVE_COLOR, "live ball"
    entry.expiry = arcade.after(LIVE_TIME, function()
      entry.expiry = nil
      set_live(entry, false)
    end)
  elseif entry.live then
    entry.live = nil
    game.live_count = game.live_count - 1
    if entry.node:alive() then entry.node.fill, entry.node.name = entry.color, "ball" end
  end
  game.state.live = game.live_count
end

game.set_live = set_live

-- Takes a ball out of the lists (the caller removes the ball and its node).
local function forget(entry)
  set_live(entry, false)
  game.lying[entry] = nil
  for i, b in ipairs(game.balls) do
    if b == entry then table.remove(game.balls, i) break end
  end
  game.entries[entry.ball] = nil
end

-- Removes every ball, pop and flying mark: an empty field.
local function clear_field()
  for _, b in ipairs(game.balls or {}) do
    b.ball:remove()
    b.node:remove()
  end
  for _, n in pairs(game.effects or {}) do
    if n:alive() then n:remove() end
  end
  game.balls, game.entries, game.effects, game.lying = {}, {}, {}, {}
  game.live_count = 0
  game.state.live, game.state.balls = 0, 0
end

local function stop_timers()
  for _, k in ipairs{ "dropper", "pile_timer", "banner_timer" } do
    if game[k] then game[k]:cancel() end
    game[k] = nil
  end
end

-- The round just ended (the 50th drop opened the gate): the banner sums it up while the
-- pile falls out.
local function end_round()
  local s = game.state
  local points = s.round_score
  local best = points > s.best_round
  if best then
    s.best_round = points
    arcade.save.set("best_round", points)
  end
  local title = "round " .. s.round .. ": " .. points .. (points == 1 and " point" or " points")
  local verdict = best and "best round yet!" or "best round " .. s.best_round
  arcade.sfx.play("round", { channel = 3 })
  game.banner_text = { title = title, verdict = verdict, color = best and COLORS.best or COLORS.hud }
  show_banner(title, { verdict, "the gate is open: round " .. (s.round + 1) .. " drops faster" },
              game.banner_text.color)
  if game.banner_timer then game.banner_timer:cancel() end
  game.banner_timer = arcade.after(BANNER_TIME, game.hide_banner)
end

-- The drop after the gate opened: the next round, at 0, dropping faster.
local function start_round()
  local s = game.state
  s.round, s.round_score = s.round + 1, 0
  s.level = s.round
  s.interval = drop_interval(s.round)
  if game.dropper then game.dropper:cancel() end
  game.dropper = arcade.every(s.interval, game.drop)
  local b = game.banner_text
  if game.nodes.banner.visible and b then
    show_banner(b.title, { b.verdict, "round " .. s.round .. " has begun: a ball every " ..
      string.format("%.2f", s.interval) .. " s" }, b.color)
  end
end

-- Drops a ball at the top, at x (random when nil); the article's makeBalls.
function game.drop(x)
  local s, L = game.state, game.layout
  if s.phase ~= "play" then return end
  local r = L.radius
  if s.gate_open then start_round() end
  x = x or (r + math.random() * (L.W - 2 * r))
  local color = ball_color()
  local node = arcade.scene.circle{ name = "ball", x = x, y = r, radius = r, fill = color, z = Z.ball }
  local ball = game.world:add_ball{ x = x, y = r, radius = r, elasticity = ELASTICITY, friction = FRICTION,
                                    node = node, name = "ball" }
  local entry = { ball = ball, node = node, color = color }
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
  if s.gate_open then end_round() end
  show_hud()
end

-- A banked ball: it pops where it is, and its points fly from the box to the score.
local function bank(entry, box)
  local s = game.state
  arcade.sfx.play("score", { channel = 2, pitch = math.min(box.points - 1, 7) })
  s.score = s.score + box.points
  s.round_score = s.round_score + box.points
  s.hits[box.id] = s.hits[box.id] + 1
  game.nodes.hint.visible = false
  local node = entry.node
  forget(entry)
  entry.ball:remove()
  s.balls = game.world:count()
  local fx = game.effects
  fx[#fx + 1] = node
  node.z, node.name = Z.fx, "pop"
  arcade.animate(node, { group = { { property = "scale", values = { 1, 2.2 } },
                                   { property = "alpha", values = { 1, 0 } } }, duration = POP_TIME },
                 function() if node:alive() then node:remove() end end)
  local from = game.score_nodes[box.id]
  local mark = arcade.scene.text{ name = "banked", x = from.x, y = from.y, z = Z.fx_mark, color = box.color,
                                  text = "+" .. box.points }
  fx[#fx + 1] = mark
  local tx, ty = score_spot()
  arcade.animate(mark, { property = "position", to = { tx, ty }, duration = FLY_TIME, timing = "easeIn" },
                 function() if mark:alive() then mark:remove() end end)
  show_hud()
end

-- A ball began touching something. The paddle bats it when it moved into the ball; a
-- scoring box banks a live ball; the floor ends its life.
function game.on_contact(ball, id, cx, cy)
  local entry = game.entries[ball]
  if not entry or entry.remade then return end
  local s = game.state
  local box = scoring_box(id)
  if box then
    local node = game.score_nodes[id]
    arcade.animate(node, { property = "color", values = { FLASH_COLOR, box.color }, duration = FLASH_TIME })
    if entry.live and s.phase == "play" then bank(entry, box) end
  elseif id == "paddle" then
    -- the contact's normal, from the paddle to the ball's centre, and the paddle's speed along it
    local nx, ny = ball.x - cx, ball.y - cy
    local len = math.sqrt(nx * nx + ny * ny)
    if len < 1e-9 then nx, ny, len = 0, -1, 1 end
    local into = (game.pv[1] * nx + game.pv[2] * ny) / len
    -- a bat makes it live (again, for LIVE_TIME); a ball that was lying on the paddle (the
    -- world may report a new touch when the paddle jolts it) is not batted, and a live ball
    -- that lands on the paddle unbatted is done, as on the floor: what lies on the paddle is
    -- never live
    local bat = into > BAT_SPEED * game.layout.H and s.phase == "play" and not game.lying[entry]
    set_live(entry, bat)
    if bat then arcade.sfx.play("bat", { channel = 1 }) end
    game.lying[entry] = not bat or nil
  elseif id == nil and entry.live and cy >= game.layout.H - 1 then
    set_live(entry, false)
  end
end

-- The world removed a ball that left the canvas: its node goes with it.
function game.on_removed(ball)
  local entry = game.entries[ball]
  if entry then
    forget(entry)
    entry.node:remove()
  end
  game.state.balls = game.world:count()
end

-- How high the pile reaches: the resting balls held up by the floor, or by balls the floor
-- holds up, as a share of the line's height over the floor (balls on the paddle or on an
-- obstacle are not the pile).
local function measure_pile()
  local L = game.layout
  local rest2 = (REST_SPEED * L.H) ^ 2
  local resting = {}
  for _, b in ipairs(game.balls) do
    local ball = b.ball
    if ball.vx * ball.vx + ball.vy * ball.vy < rest2 then resting[#resting + 1] = ball end
  end
  local inpile, queue = {}, {}
  for i, ball in ipairs(resting) do
    if ball.y + ball.radius >= L.H - 0.5 then inpile[i] = true queue[#queue + 1] = i end
  end
  local top = L.H
  local k = 1
  while k <= #queue do
    local a = resting[queue[k]]
    k = k + 1
    top = math.min(top, a.y - a.radius)
    for j, b in ipairs(resting) do
      if not inpile[j] then
        local reach = a.radius + b.radius + 0.5
        local dx, dy = a.x - b.x, a.y - b.y
        if dx * dx + dy * dy <= reach * reach then inpile[j] = true queue[#queue + 1] = j end
      end
    end
  end
  return (L.H - top) / (L.H - L.line_y)
end

-- The end of the run: the reason, the score, the best, and how to go again.
local function game_over()
  local s = game.state
  s.phase, s.reason = "over", REASON
  stop_timers()
  for _, b in ipairs(game.balls) do set_live(b, false) end
  game.grab = nil
  local new_best = s.score > 0 and s.score > s.best
  arcade.score.submit(s.score)
  s.best = math.max(s.best, s.score)
  s.new_best = new_best
  arcade.sfx.play(new_best and "best" or "over")
  game.over_at = game.clock
  game.nodes.hint.visible = false
  show_banner("GAME OVER", {
    REASON .. " in round " .. s.round,
    "score " .. s.score,
    new_best and "new best!" or "best " .. s.best,
    "",
    "space or click: play again",
  }, new_best and COLORS.best or COLORS.line_near)
  show_hud()
end

-- A look at the pile, a few times a second: the HUD's share, the line's colour, the end.
function game.check_pile()
  local s = game.state
  if s.phase ~= "play" then return end
  local pile = s.gate_open and 0 or measure_pile()
  s.pile = math.min(1, math.floor(pile * 100 + 0.5) / 100)
  color_line(pile)
  if pile > 1 then
    game.overflow = game.overflow + 1
    if game.overflow >= OVERFLOW_LOOKS then return game_over() end
  else
    game.overflow = 0
  end
  show_hud()
end

-- The paddle back at its place, nothing held.
local function reset_paddle()
  local L = game.layout
  game.state.paddle = { x = L.W / 2, y = L.H * PADDLE_ROW }
  game.held = { left = false, right = false, up = false, down = false }
  game.grab = nil
  build_paddle()
  game.nodes.paddle.x, game.nodes.paddle.y = game.state.paddle.x, game.state.paddle.y
end

-- Starts a run: an empty field, round 1, a ball a second.
function game.restart()
  local s = game.state
  -- a run left half-way (r) still counts what it banked toward the best
  if s.phase == "play" and s.score > 0 then
    arcade.score.submit(s.score)
    s.best = math.max(s.best, s.score)
  end
  stop_timers()
  clear_field()
  s.phase, s.reason, s.new_best = "play", nil, false
  s.count, s.score, s.gate_open, s.dropped = 0, 0, false, 0
  s.round, s.round_score, s.level, s.pile = 1, 0, 1, 0
  s.interval = drop_interval(1)
  s.hits = { score1 = 0, score2 = 0 }
  game.overflow = 0
  game.world.bounds_enabled = true
  color_line(0)
  game.hide_banner()
  game.nodes.hint.visible = true
  reset_paddle()
  game.dropper = arcade.every(s.interval, game.drop)
  game.pile_timer = arcade.every(PILE_CHECK, game.check_pile)
  game.drop()
end

-- A line of the head-up display, on its own background so that the balls passing behind it
-- do not break up the letters.
local function hud_text(opts)
  opts.y = opts.y or 0
  opts.anchor_y = 0
  opts.z = opts.z or Z.hud
  opts.background = COLORS.background
  opts.text = opts.text or ""
  return arcade.scene.text(opts)
end

-- The start card, before the first run.
local function show_ready()
  show_banner("BALL CATCH", READY_LINES, COLORS.hud)
end

function game.load(ctx)
  local s = game.state
  -- a score is one run's now: a best kept under the old rules is forgotten once
  require("lib.scorerules").adopt(2)
  s.phase = "ready"
  s.dropped, s.balls, s.count, s.gate_open = 0, 0, 0, false
  s.score, s.round, s.round_score, s.level, s.pile, s.live = 0, 1, 0, 1, 0, 0
  s.interval = drop_interval(1)
  s.hits = { score1 = 0, score2 = 0 }
  s.paddle = { x = ctx.width / 2, y = ctx.height * PADDLE_ROW }
  s.best = arcade.score.best() or 0
  s.best_round = arcade.save.get("best_round") or 0
  game.clock = 0
  game.balls, game.entries, game.effects, game.lying, game.live_count = {}, {}, {}, {}, 0
  game.held = { left = false, right = false, up = false, down = false }
  arcade.scene.background(COLORS.background)
  game.world = arcade.physics.world{ gravity = GRAVITY, bounds = true, remove_outside = true }
  game.world:on_contact(game.on_contact)
  game.world:on_removed(game.on_removed)
  game.nodes = {
    paddle = arcade.scene.rect{ name = "paddle", fill = COLORS.paddle, z = Z.paddle },
    score = hud_text{ x = 1, anchor_x = 0, color = COLORS.hud },
    gate = hud_text{ anchor_x = 1, color = COLORS.hud },
    score_big = arcade.scene.label{ name = "score label", anchor_x = 0, anchor_y = 0, z = Z.hud, font = "large", color = COLORS.hud,
                                    outline = COLORS.background },
    round_big = arcade.scene.label{ name = "round label", anchor_x = 1, anchor_y = 0, z = Z.hud, font = "large", color = COLORS.hud,
                                    outline = COLORS.background },
    -- under the balls: a ball just dropped shows over it
    hint = hud_text{ anchor_x = 0.5, color = COLORS.dim, text = HINT_TEXT, z = Z.hint, visible = false },
    banner_title = arcade.scene.label{ name = "card title", anchor_x = 0.5, anchor_y = 0, z = Z.card, outline = COLORS.background,
                                       visible = false },
    banner = arcade.scene.text{ anchor_x = 0.5, anchor_y = 0, align = "center", z = Z.card, color = COLORS.hud,
                                background = COLORS.background, visible = false },
  }
  layout(ctx.width, ctx.height)
  show_ready()
end

-- Starts a run from the start card or the end card.
local function start_key(key)
  return key == "space" or key == "enter" or key == "r"
end

function game.input(e)
  local s = game.state
  if e.type == "resize" then
    layout(e.width, e.height)
    return
  end
  if s.phase ~= "play" then
    if e.type == "key" and not e.is_repeat and start_key(e.key) then
      game.restart()
    elseif e.type == "mouse" and e.action == "press"
        and (s.phase == "ready" or game.clock - game.over_at >= RETRY_DELAY) then
      game.restart()
    end
    return
  end
  if e.type == "key" then
    local d = ARROWS[e.key]
    if d then
      -- a press nudges (a ball's width across, a ball and a half up or down: a jab long enough
      -- to meet a ball on its way); held (the terminal repeats it) it keeps moving until released
      if e.is_repeat then
        game.held[e.key] = true
      else
        local a, r = game.aim, 2 * game.layout.radius
        a.x, a.y = clamp_paddle(a.x + d[1] * r, a.y + d[2] * r * JAB)
      end
    elseif e.key == "r" then
      game.restart()
    end
  elseif e.type == "keyup" then
    if ARROWS[e.key] then game.held[e.key] = false end
  elseif e.type == "mouse" then
    if e.action == "press" then
      -- the article drags the board by the finger's movement, wherever the finger is
      local p = s.paddle
      game.grab = { dx = p.x - e.x, dy = p.y - e.y }
    elseif e.action == "drag" and game.grab then
      local a = game.aim
      a.x, a.y = clamp_paddle(e.x + game.grab.dx, e.y + game.grab.dy)
    elseif e.action == "release" then
      game.grab = nil
    end
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

-- After a resize: for REMADE_STEPS steps the remade balls settle on the new walls they lay
-- on (their touches are not counted); from then on, touches count again.
local function settle()
  game.remade = game.remade - 1
  if game.remade <= 0 then
    for _, b in ipairs(game.balls) do b.remade = nil end
    game.remade = nil
  end
end

-- The balls that landed on the paddle unbatted and still lie on it (a few at most): one that
-- has left it (above it by more than a pixel, or off its ends) is no longer lying there.
local function check_lying()
  local L, p = game.layout, game.state.paddle
  local top, hw = p.y - L.paddle_h / 2, L.paddle_w / 2
  for entry in pairs(game.lying) do
    local b = entry.ball
    if b.y + b.radius < top - 1 or math.abs(b.x - p.x) > hw + b.radius then game.lying[entry] = nil end
  end
end

-- The paddle moves towards its aim, no faster than MAX_SPEED, as a kinematic wall so that it
-- pushes the balls it meets; its speed this step is what a touch is judged by.
function game.update(dt)
  game.clock = game.clock + dt
  if game.remade then settle() end
  if next(game.lying) then check_lying() end
  game.pv[1], game.pv[2] = 0, 0
  if game.state.phase ~= "play" then return end
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
  local dx = clamp(a.x - p.x, -mx, mx)
  local dy = clamp(a.y - p.y, -my, my)
  if dy > 0 then
    local room = room_below(p.x + dx, p.y, dy)
    if room < dy then a.y, dy = p.y + room, room end
  end
  p.x, p.y = p.x + dx, p.y + dy
  if dt > 0 then game.pv[1], game.pv[2] = dx / dt, dy / dt end
  game.world:move_wall(game.paddle, p.x, p.y)
  game.nodes.paddle.x, game.nodes.paddle.y = p.x, p.y
end

return game
