-- Rocks: an Asteroids-like example of one wrap-around physics world.
--
-- Everything that moves is a ball of one world with `wrap = true`: the ship, the rocks and the
-- bullets leave one edge and come back at the other, with no Lua looking at them each frame.
-- Collision filters keep the bullets from shoving the rocks (they are sensors that see only
-- rocks), and the rocks bounce off each other and off the ship, which is what costs a life.

local game = { state = {} }

-- Tuning -------------------------------------------------------------------------------------

local SHIP, ROCK, BULLET = 1, 2, 4   -- collision categories
local SHIP_RADIUS = 2
local TURN_SPEED = 4.0               -- radians a second
local THRUST = 60                    -- px/s² while up is held
local MAX_SPEED = 60                 -- px/s
local BULLET_SPEED = 70
local BULLET_LIFE = 0.8              -- seconds
local RELOAD = 0.15                  -- seconds between shots
local ROCK_SIZES = { 6, 3.5, 2 }     -- radius by size: a hit rock splits into two of the next
local ROCK_POINTS = { 20, 50, 100 }
local ROCK_SPEED = { 8, 14 }         -- px/s, slowest and fastest of a new wave
local LIVES = 3
local SAFE_TIME = 2                  -- seconds a new ship cannot be hit

local COLORS = {
  background = { 8, 10, 20 }, ship = { 240, 240, 255 }, rock = { 170, 160, 140 }, rock_fill = { 70, 62, 54 },
  bullet = { 255, 220, 90 }, hud = { 200, 200, 210 }, safe = { 120, 200, 255 },
}

-- Helpers ------------------------------------------------------------------------------------

-- A rock's outline: a ring of points at jittered distances, filled by a polygon node.
local function rock_outline(radius)
  local points, n = {}, 9
  for i = 0, n - 1 do
    local a = i / n * 2 * math.pi
    local r = radius * (0.8 + 0.2 * math.random())
    points[#points + 1] = { math.cos(a) * r, math.sin(a) * r }
  end
  return points
end

local function show_hud()
  local s = game.state
  local text = "score " .. s.score .. "  lives " .. s.lives .. "  wave " .. s.wave
  if s.phase == "ready" then text = "ROCKS  ·  space or click: start" end
  if s.phase == "over" then text = "game over  ·  score " .. s.score .. "  ·  space or click: play again" end
  game.hud.text = text
end

-- Rocks ----------------------------------------------------------------------------------------

local function add_rock(x, y, size, vx, vy)
  local radius = ROCK_SIZES[size]
  local node = arcade.scene.polygon{ name = "rock", points = rock_outline(radius), fill = COLORS.rock_fill,
                                     stroke = COLORS.rock, z = 1 }
  local ball = game.world:add_ball{ x = x, y = y, radius = radius, vx = vx, vy = vy, elasticity = 1,
                                    category = ROCK, mask = SHIP | ROCK | BULLET, rotates = false, node = node,
                                    name = "rock" }
  game.rocks[ball] = { node = node, size = size }
  game.state.rocks = game.state.rocks + 1
end

local function remove_rock(ball)
  local rock = game.rocks[ball]
  game.rocks[ball] = nil
  rock.node:remove()
  ball:remove()
  game.state.rocks = game.state.rocks - 1
  return rock
end

-- A wave of big rocks at the edges, away from the ship in the middle.
local function spawn_wave()
  local s = game.state
  s.wave = s.wave + 1
  local w, h = game.width, game.height
  for i = 1, 2 + s.wave do
    local x, y = math.random() * w, 0
    if i % 2 == 0 then x, y = 0, math.random() * h end
    local a = math.random() * 2 * math.pi
    local speed = ROCK_SPEED[1] + math.random() * (ROCK_SPEED[2] - ROCK_SPEED[1])
    add_rock(x, y, 1, math.cos(a) * speed, math.sin(a) * speed)
  end
  show_hud()
end

-- A bullet hit a rock: both go, the rock splits into two smaller ones in the same place (the
-- world pushes the pieces apart without adding speed), and the score grows.
local function hit(bullet, rock_ball)
  local s = game.state
  game.remove_bullet(bullet)
  local x, y, vx, vy = rock_ball.x, rock_ball.y, rock_ball.vx, rock_ball.vy
  local rock = remove_rock(rock_ball)
  s.score = s.score + ROCK_POINTS[rock.size]
  if rock.size < #ROCK_SIZES then
    local a = math.random() * 2 * math.pi
    local kick = ROCK_SPEED[2] * 0.6
    for sign = -1, 1, 2 do
      add_rock(x, y, rock.size + 1, vx + sign * math.cos(a) * kick, vy + sign * math.sin(a) * kick)
    end
  end
  if s.rocks == 0 then spawn_wave() end
  show_hud()
end

-- The ship and its bullets -------------------------------------------------------------------------

local function place_ship()
  local ship = game.ship
  ship.x, ship.y, ship.vx, ship.vy = game.width / 2, game.height / 2, 0, 0
  game.heading = -math.pi / 2
  game.ship_node.rotation = game.heading
  -- safe for a while: the ship's mask takes no rocks, so they pass through it
  ship.mask = 0
  game.ship_node.color = COLORS.safe
  if game.safe_timer then game.safe_timer:cancel() end
  game.safe_timer = arcade.after(SAFE_TIME, function()
    game.safe_timer = nil
    ship.mask = ROCK
    game.ship_node.color = COLORS.ship
  end)
end

function game.remove_bullet(ball)
  local bullet = game.bullets[ball]
  if not bullet then return end
  game.bullets[ball] = nil
  bullet.timer:cancel()
  bullet.node:remove()
  ball:remove()
  game.state.bullets = game.state.bullets - 1
end

local function fire()
  local s = game.state
  if s.phase ~= "play" or game.clock < game.reload_at then return end
  game.reload_at = game.clock + RELOAD
  local ship, h = game.ship, game.heading
  local dx, dy = math.cos(h), math.sin(h)
  local node = arcade.scene.circle{ name = "bullet", radius = 0.5, fill = COLORS.bullet, z = 2 }
  local ball = game.world:add_ball{ x = ship.x + dx * (SHIP_RADIUS + 1), y = ship.y + dy * (SHIP_RADIUS + 1),
                                    radius = 0.5, vx = ship.vx + dx * BULLET_SPEED, vy = ship.vy + dy * BULLET_SPEED,
                                    sensor = true, category = BULLET, mask = ROCK, node = node, name = "bullet" }
  game.bullets[ball] = { node = node, timer = arcade.after(BULLET_LIFE, function() game.remove_bullet(ball) end) }
  s.bullets = s.bullets + 1
  s.shots = s.shots + 1
end

-- A rock hit the ship.
local function crash()
  local s = game.state
  s.lives = s.lives - 1
  if s.lives <= 0 then
    s.phase = "over"
    arcade.score.submit(s.score)
    game.ship_node.visible = false
    game.ship.mask = 0
  else
    place_ship()
  end
  show_hud()
end

-- Contacts: a bullet (a sensor) reports the rocks it overlaps; the ship reports the rocks that
-- hit it. Rocks bouncing off each other need no Lua at all.
function game.on_contact(ball, other)
  if game.state.phase ~= "play" then return end
  local a, b = ball, other
  if game.bullets[b] then a, b = b, a end
  if game.bullets[a] and game.rocks[b] then return hit(a, b) end
  if (a == game.ship and game.rocks[b]) or (b == game.ship and game.rocks[a]) then crash() end
end

-- The run --------------------------------------------------------------------------------------

local function clear_field()
  for ball in pairs(game.bullets) do game.remove_bullet(ball) end
  for ball in pairs(game.rocks) do remove_rock(ball) end
end

local function start_run()
  local s = game.state
  clear_field()
  s.phase, s.score, s.lives, s.wave, s.shots = "play", 0, LIVES, 0, 0
  game.ship_node.visible = true
  place_ship()
  spawn_wave()
end

function game.load(ctx)
  game.width, game.height = ctx.width, ctx.height
  game.state = { phase = "ready", score = 0, lives = LIVES, wave = 0, rocks = 0, bullets = 0, shots = 0 }
  game.clock, game.reload_at, game.heading = 0, 0, -math.pi / 2
  game.held = {}
  game.rocks, game.bullets = {}, {}
  arcade.scene.background(COLORS.background)
  -- one world for everything: no gravity, no walls, the canvas wraps around
  game.world = arcade.physics.world{ gravity = { 0, 0 }, bounds = false, wrap = true, restitution_threshold = 1 }
  game.world:on_contact(game.on_contact)
  game.ship_node = arcade.scene.polygon{ name = "ship", fill = COLORS.ship, z = 3,
                                         points = { { 3, 0 }, { -2, -2 }, { -1, 0 }, { -2, 2 } } }
  game.ship = game.world:add_ball{ x = game.width / 2, y = game.height / 2, radius = SHIP_RADIUS, rotates = false,
                                   category = SHIP, mask = 0, node = game.ship_node, name = "ship" }
  game.ship_node.rotation = game.heading
  game.hud = arcade.scene.text{ x = 1, y = 0, anchor_x = 0, anchor_y = 0, color = COLORS.hud, z = 4 }
  show_hud()
end

function game.input(e)
  local s = game.state
  if e.type == "key" then
    game.held[e.key] = true
    if e.key == "space" or e.key == "enter" then
      if s.phase == "play" then fire() else start_run() end
    end
  elseif e.type == "keyup" then
    game.held[e.key] = nil
  elseif e.type == "mouse" and e.action == "press" then
    if s.phase ~= "play" then return start_run() end
    -- turn towards the click (the nearest way across the wrapping field) and fire
    local dx, dy = e.x - game.ship.x, e.y - game.ship.y
    local w, h = game.width, game.height
    dx = dx - w * math.floor(dx / w + 0.5)
    dy = dy - h * math.floor(dy / h + 0.5)
    game.heading = math.atan(dy, dx)
    game.ship_node.rotation = game.heading
    fire()
  elseif e.type == "resize" then
    game.width, game.height = e.width, e.height
  end
end

-- Only the ship is steered from Lua, one object a step; the world moves everything else.
function game.update(dt)
  game.clock = game.clock + dt
  if game.state.phase ~= "play" then return end
  local held, ship = game.held, game.ship
  local turn = (held.right and 1 or 0) - (held.left and 1 or 0)
  if turn ~= 0 then
    game.heading = game.heading + turn * TURN_SPEED * dt
    game.ship_node.rotation = game.heading
  end
  if held.up then
    local vx = ship.vx + math.cos(game.heading) * THRUST * dt
    local vy = ship.vy + math.sin(game.heading) * THRUST * dt
    local speed = math.sqrt(vx * vx + vy * vy)
    if speed > MAX_SPEED then vx, vy = vx / speed * MAX_SPEED, vy / speed * MAX_SPEED end
    ship.vx, ship.vy = vx, vy
  end
end

return game
