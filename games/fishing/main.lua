-- Fishing: a hook swings above a pond; cast it (10 coins) when it points where the fish are.
-- While it waits in the water, each fish whose leading edge passes the hook rolls its bite
-- chance; caught fish rise to the hook, ride up with it and pay their coins.
--
-- Native work: fish cross the pond as one linear animation each; the cast, the reel-in, the
-- catch, the coins and the "+N" are animations; the wait is a one-second timer. A fish's bite
-- check is not a scan: when bites open (or a fish starts a crossing while they are open) the
-- step its leading edge reaches the hook is computed from its crossing, and one timer fires
-- at the earliest such step. Lua runs once per step only for the swing's angle, the article's
-- discrete recurrence, which no native curve reproduces.
--
-- Coordinates: the scene lives in a `world` group whose unit is the article's point (its
-- iPhone is 375 wide); the world is scaled so that 375 x 225 points fill an 80 x 24 terminal,
-- and wider or taller terminals show more pond.

local coinflight = require("lib.coinflight")

-- fishing article: the six kinds, size in points, crossingTime in seconds, biteChance in %,
-- coins won; population is GAMES.md's decided pond (8/6/4/3/2/1)
local FISH_KINDS = {
  { kind = "croaker", width = 35, height = 40, crossingTime = 6.0, biteChance = 80, coins = 2, population = 8 },
  { kind = "grouper", width = 50, height = 50, crossingTime = 7.0, biteChance = 50, coins = 5, population = 6 },
  { kind = "snapper", width = 50, height = 40, crossingTime = 8.0, biteChance = 30, coins = 10, population = 4 },
  { kind = "striped", width = 65, height = 53, crossingTime = 8.5, biteChance = 15, coins = 20, population = 3 },
  { kind = "coral", width = 55, height = 55, crossingTime = 9.0, biteChance = 5, coins = 50, population = 2 },
  { kind = "shark", width = 145, height = 90, crossingTime = 11.0, biteChance = 1, coins = 100, population = 1 },
}
local SWIM_LOOP = 1.0          -- fishing article: a fish's frame loop lasts 1 s while it swims
local CAUGHT_LOOP = 0.5        -- fishing article: and 0.5 s once caught
local TICK = 60                -- fishing article: the display link's 60 ticks a second
local OFFSET_Y_RANGE = 20      -- decided: a fish swims at least this far (points) below the surface

local SWING_LIMIT = math.pi / 180 * 45  -- fishing article: the hook swings between -45 and +45 degrees
local SWING_SPEED = 1.8        -- fishing article: angle -/+= 1.8 * cos(1.5 * angle) * 0.01 each tick
local SWING_BEND = 1.5
local SWING_STEP = 0.01

local HOOK_TOP = 5             -- fishing article: the hook view hangs from y = 5
local HOOK_VIEW = { width = 30, height = 85 }  -- fishing article: the hook view, line and hook
local HOOK = { width = 30, height = 35 }       -- fishing article: the hook at the view's bottom
local LINE_COLOR = "#9e664a"   -- fishing article: the line's brown
local LINE_WIDTH = 3           -- fishing article: the line's width (drawn at least a pixel wide)
local HOOK_DIP = 45            -- fishing article: the hook sinks 45 below the pond's surface
local POND_TOP = 100           -- decided: the surface, in points from the top, under the swinging hook
local lineLength = POND_TOP + HOOK_DIP - HOOK.height  -- fishing article: the cast line's fixed depth

local CAST_COST = 10           -- fishing article: a cast takes 10 coins when it starts
local CAST_TIME = 1.0          -- fishing article: the cast lasts 1 s,
local CAST_TIME_BANK = 0.5     -- or 0.5 s when the hook lands on the bank
local LINE_DRAW = { values = { 0, 0.8, 1 }, key_times = { 0, 0.6, 1 } }  -- fishing article: stroke end
local HOOK_DROP = { at = 0.8, key_times = { 0, 0.7, 1 } }  -- fishing article: top, 0.8 of the depth, end
local WAIT_MIN, WAIT_MAX = 3, 5  -- fishing article: the hook stays 3, 4 or 5 s,
local WAIT_BANK = 1            -- or 1 s on the bank
local COUNTDOWN = 1            -- fishing article: the wait counts down in one-second ticks
local BITE_CUTOFF = 1          -- fishing article: with one second left fish can no longer bite
local REEL_TIME = 1.0          -- fishing article: the reel-in takes 1 s,
local REEL_TIME_BANK = 0.5     -- or 0.5 s from the bank
local CATCH_RISE = 0.7         -- fishing article: a caught fish rises to the hook in 0.7 s
local SHALLOW = 60             -- fishing article: a fish shallower than this rises from under the surface
local CATCH_STACK = 8          -- fishing article: each further catch of a cast hangs 8 below the last
local HANG_OFFSET = 6          -- fishing article: a caught fish's top sits 6 above the hook's bottom
local REPLACE_DELAY = 3        -- decided: seconds before a new fish replaces a caught one

local WALLET_START = 200       -- decided: a new wallet holds 200 coins,
local REFILL = 200             -- and an empty one is refilled to 200
local COIN_FLIGHT = 0.8        -- decided: coins fly to the wallet while the hook comes up
local COIN_STAGGER = 0.01      -- decided: one coin leaves every 0.01 s, as in the coin bank
local COINS_SHOWN = 20         -- decided: at most this many coins fly for one win
local WIN_RISE = 1.0           -- decided: the "+N" rises and fades over the reel-in

local WATER_HALF = 110         -- decided: the water's half-width (points) at the hook's depth
local SHORE_SLOPE = 1          -- decided: the shore widens by this per point of depth
local SHORE_DEPTH = 70         -- decided: how deep the banks reach into the pond
local SHORE_SLABS = 7
local DESIGN_W, DESIGN_H = 375, 225  -- decided: the points an 80 x 24 terminal shows
local MIN_PIXEL = 1            -- thin lines are drawn at least this many pixels wide

local COLORS = {
  sky = "#1b2838", water = "#1d4e7a", deep = "#163c60", grass = "#4f8a3a", earth = "#7a5a36",
  rod = "#a0703c", text = "#ffd23f", hint = "#8a96a6", warn = "#ff8a80", button = "#2c6e49",
  button_edge = "#8fd694", win = "#ffe066", win_outline = "#7a4a00",
}

local game = {}

-- Layout ------------------------------------------------------------------------------------

-- The numbers the scene is placed with, kept on the game table (plain data).
local function measure(w, h)
  local k = math.min(w / DESIGN_W, h / DESIGN_H)
  game.L = { w = w, h = h, k = k, wp = w / k, hp = h / k, cx = w / k / 2, pond_px = POND_TOP * k }
end

-- Where a fish of `kind` may swim: depths from OFFSET_Y_RANGE to the pond's floor (the
-- article's arc4random() % randomRange + offsetYRange).
local function random_depth(kind)
  local range = math.floor(game.L.hp - POND_TOP - kind.height - OFFSET_Y_RANGE)
  if range < 1 then return OFFSET_Y_RANGE end
  return math.random(0, range - 1) + OFFSET_Y_RANGE
end

local function thin(width)
  return math.max(width, MIN_PIXEL / game.L.k)
end

local function place_text()
  local L, n = game.L, game.nodes
  n.purse.x, n.purse.y = 1, 0
  n.wallet.x, n.wallet.y = 6, 0
  n.hint.x, n.hint.y = 1, L.h - 2
  n.message.x, n.message.y = math.floor((L.w - #n.message.text) / 2), 2 * math.floor(L.h * 0.2 / 2)
  local bw = #n.button_text.text + 4
  game.button = { x = math.floor((L.w - bw) / 2), y = n.message.y + 4, w = bw, h = 6 }
  n.button.x, n.button.y = game.button.x, game.button.y
end

local function layout(w, h)
  measure(w, h)
  local L, n = game.L, game.nodes
  n.world.scale = L.k
  n.water:set{ width = L.wp, height = L.hp - POND_TOP }
  n.deep:set{ y = POND_TOP + (L.hp - POND_TOP) / 2, width = L.wp, height = (L.hp - POND_TOP) / 2 }
  n.grass:set{ width = L.wp }
  n.earth:set{ width = L.wp }
  -- the banks: slabs reaching down into the pond at both sides, the water widening with depth
  local slab = SHORE_DEPTH / SHORE_SLABS
  for i, pair in ipairs(n.shore) do
    local depth = (i - 0.5) * slab
    local half = WATER_HALF + (depth - HOOK_DIP) * SHORE_SLOPE
    local side = math.max(0, L.cx - half)
    pair[1]:set{ y = POND_TOP + (i - 1) * slab, width = side, height = slab }
    pair[2]:set{ x = L.cx + half, y = POND_TOP + (i - 1) * slab, width = side, height = slab }
  end
  n.rod:set{ points = { { L.cx + 150, POND_TOP - 30 }, { L.cx, HOOK_TOP } }, line_width = thin(4) }
  n.rig.x = L.cx
  n.hook_line.width = thin(LINE_WIDTH)
  if game.line then game.line.line_width = thin(LINE_WIDTH) end
  place_text()
end

-- Wallet ------------------------------------------------------------------------------------

local function show_wallet()
  game.nodes.wallet.text = tostring(game.state.wallet)
end

local function set_wallet(n)
  local s = game.state
  s.wallet = n
  arcade.save.set("wallet", n)
  arcade.score.submit(n)  -- the best wallet ever is the game's score
  show_wallet()
end

local function show_refusal(on)
  game.state.refused = on
  game.nodes.message.visible = on
  game.nodes.button.visible = on
end

-- Fish --------------------------------------------------------------------------------------

local function sync_fish_state()
  local s, ids, kinds = game.state, {}, {}
  for i, f in ipairs(game.fish) do
    ids[i], kinds[i] = f.node.id, FISH_KINDS[f.kind].kind
  end
  s.fish = #game.fish
  s.pond_ids, s.pond_kinds = ids, kinds
  local hooked = {}
  for i, f in ipairs(game.hooked) do hooked[i] = f.node.id end
  s.hooked_ids = hooked
end

-- The step ("tick") whose positions the nodes show now. Input and load run before the next
-- step counts itself, animation callbacks after the step advanced: both show arcade.frame().
-- Timers run in a step before its animations advance: they show the step before.
local function shown_tick(in_timer)
  return arcade.frame() - (in_timer and 1 or 0)
end

-- The fish's leading edge at tick `m` of its crossing.
local function edge_at(f, m)
  return f.ref_edge + f.dir * f.c * (m - f.ref_tick)
end

-- Bite checks ------------------------------------------------------------------------------
-- game.bites_open holds the window: ticks strictly between `open` and `close` may bite.
-- game.queue lists { tick, fish } in order; game.bite_timer fires at the first tick.

local function arm_bites()
  if game.bite_timer then game.bite_timer:cancel() end
  game.bite_timer = nil
  local first = game.queue[1]
  if first then
    game.bite_timer = arcade.after((first.tick - arcade.frame()) / TICK, game.bite_due)
  end
end

-- Adds the ticks at which this crossing's leading edge is within half a tick's movement of
-- the hook (the article's rule); usually one, two only on an exact half.
local function plan_bite(f)
  local w = game.bites_open
  if not w then return end
  local n = (game.state.hook_x - f.ref_edge) * f.dir / f.c
  for k = math.ceil(n - 0.5), math.floor(n + 0.5) do
    local m = f.ref_tick + k
    if k >= 1 and m > w.open and m < w.close and m > arcade.frame()
        and math.abs(edge_at(f, m) - game.state.hook_x) <= f.c / 2 then
      game.queue[#game.queue + 1] = { tick = m, fish = f }
    end
  end
  table.sort(game.queue, function(a, b)
    if a.tick ~= b.tick then return a.tick < b.tick end
    return a.fish.serial < b.fish.serial
  end)
end

local function forget_bites(f)
  for i = #game.queue, 1, -1 do
    if game.queue[i].fish == f then table.remove(game.queue, i) end
  end
end

local function replan_bites()
  game.queue = {}
  for _, f in ipairs(game.fish) do plan_bite(f) end
  arm_bites()
end

-- Starts (or resumes at `progress`) a crossing: from off one side, the article's start offset
-- equal to the depth, to just off the other side, at (screen width + fish width) / crossingTime.
local function start_crossing(f, ref_tick, progress)
  local kind, L = FISH_KINDS[f.kind], game.L
  local fw = kind.width
  local v = (L.wp + fw) / kind.crossingTime
  f.c = v / TICK
  if f.dir < 0 then
    f.x0, f.x1 = L.wp + f.depth, -fw
  else
    f.x0, f.x1 = -fw - f.depth, L.wp
  end
  local from = f.x0 + (f.x1 - f.x0) * progress
  f.ref_tick = ref_tick
  f.ref_edge = f.dir < 0 and from or from + fw
  local node = f.node
  node.x, node.y = from + fw / 2, f.depth + kind.height / 2
  arcade.animate(node, { property = "x", to = f.x1 + fw / 2, timing = "linear",
                         duration = math.abs(f.x1 - from) / v },
                 function(finished) game.crossed(f, finished) end)
  if game.bites_open then
    forget_bites(f)
    plan_bite(f)
    arm_bites()
  end
end

local function new_fish(kind_index, dir)
  local kind = FISH_KINDS[kind_index]
  game.serial = game.serial + 1
  local node = arcade.scene.sprite{ image = game.images[kind_index], parent = game.nodes.pond, z = 1,
                                    loop_time = SWIM_LOOP }
  -- the art faces left; a fish swimming left to right is mirrored
  node.scale_x = kind.width / node.width * (dir > 0 and -1 or 1)
  node.scale_y = kind.height / node.height
  local f = { node = node, kind = kind_index, dir = dir, serial = game.serial, depth = random_depth(kind) }
  game.fish[#game.fish + 1] = f
  return f
end

function game.crossed(f, finished)
  if not finished then return end  -- replaced (a catch, a resize) or the game is leaving
  f.depth = random_depth(FISH_KINDS[f.kind])
  start_crossing(f, shown_tick(false), 0)
end

local function enter(kind_index, dir)
  local s = game.state
  s.incoming = s.incoming - 1
  start_crossing(new_fish(kind_index, dir), shown_tick(true), 0)
  sync_fish_state()
end

-- Catching ----------------------------------------------------------------------------------

function game.hang(f, finished)
  if not finished then return end
  local kind = FISH_KINDS[f.kind]
  local i = #game.hooked
  game.hooked[i + 1] = f
  game.nodes.hook:add(f.node)
  f.node.x = 0
  f.node.y = game.nodes.hook_sprite.y - HANG_OFFSET + kind.width / 2 + CATCH_STACK * i
  f.node.loop_time = CAUGHT_LOOP
  game.state.win = game.state.win + kind.coins
  sync_fish_state()
end

local function catch(f, tick)
  local kind, L = FISH_KINDS[f.kind], game.L
  for i, g in ipairs(game.fish) do
    if g == f then table.remove(game.fish, i) break end
  end
  forget_bites(f)
  arcade.cancel_animations(f.node)
  -- head up: a quarter turn, the mirrored ones the other way so their heads point up too
  f.node.rotation = f.dir > 0 and -math.pi / 2 or math.pi / 2
  game.nodes.rig:add(f.node)
  -- the article's rise: from the leading edge at its depth (just under the surface when
  -- shallower than 60; the shark, too long, only sideways) to the hook, centre 45 + width / 2 down
  local lead = edge_at(f, tick)
  local top = HOOK_DIP + kind.width / 2
  local from_y = (kind.kind == "shark" or f.depth < SHALLOW) and top or f.depth
  arcade.animate(f.node, { property = "position", duration = CATCH_RISE, timing = "linear",
                           from = { lead - L.cx, POND_TOP + from_y },
                           to = { game.state.hook_x - L.cx, POND_TOP + top } },
                 function(finished) game.hang(f, finished) end)
  local s = game.state
  s.incoming = s.incoming + 1
  local kind_index, dir = f.kind, f.dir
  arcade.after(REPLACE_DELAY, function() enter(kind_index, dir) end)
  sync_fish_state()
end

function game.bite_due()
  game.bite_timer = nil
  local now = arcade.frame()
  local s = game.state
  s.rolled, s.rolled_tick = {}, now
  while game.queue[1] and game.queue[1].tick <= now do
    local entry = table.remove(game.queue, 1)
    local f = entry.fish
    s.rolled[#s.rolled + 1] = f.node.id
    local kind = FISH_KINDS[f.kind]
    local roll = math.random(0, 99)  -- fishing article: arc4random() % 100, caught below the chance
    s.rolls[kind.kind] = s.rolls[kind.kind] + 1
    if roll < kind.biteChance then
      s.bites[kind.kind] = s.bites[kind.kind] + 1
      catch(f, entry.tick)
    end
  end
  arm_bites()
end

local function open_bites()
  local s = game.state
  local open = shown_tick(false)
  game.bites_open = { open = open, close = open + (s.wait - BITE_CUTOFF) * TICK }
  s.biting = true
  replan_bites()
end

local function close_bites()
  game.bites_open = nil
  game.state.biting = false
  game.queue = {}
  arm_bites()
end

-- The cast ----------------------------------------------------------------------------------

local function cast()
  local s, L, n = game.state, game.L, game.nodes
  if s.phase ~= "swinging" then return end
  if s.wallet < CAST_COST then
    show_refusal(true)
    return
  end
  show_refusal(false)
  set_wallet(s.wallet - CAST_COST)
  s.casts = s.casts + 1
  s.phase = "casting"
  s.win = 0
  local t = math.tan(s.hook_angle)
  local end_x = -lineLength * t                      -- the line's end, relative to the centre
  local bottom_x = -(lineLength + HOOK.height) * t   -- the hook's bottom
  s.line_end = { L.cx + end_x, lineLength }
  s.hook_x = L.cx + bottom_x
  s.on_bank = math.abs(bottom_x) > WATER_HALF
  local duration = s.on_bank and CAST_TIME_BANK or CAST_TIME
  game.end_x = end_x
  -- the cast line takes the place of the hook view's own: the hook hangs from the line's end,
  -- so its bottom lands where the article's formula puts it
  n.hook_line.visible = false
  n.hook_sprite.y = HOOK.height
  game.line = arcade.scene.line{ parent = n.rig, z = 1, points = { { 0, HOOK_TOP }, { end_x, lineLength } },
                                 color = LINE_COLOR, line_width = thin(LINE_WIDTH), stroke_end = 0 }
  arcade.animate(game.line, { property = "stroke_end", values = LINE_DRAW.values, key_times = LINE_DRAW.key_times,
                              duration = duration })
  local d = lineLength * HOOK_DROP.at
  arcade.animate(n.hook, { property = "position", duration = duration, key_times = HOOK_DROP.key_times,
                           values = { { 0, HOOK_TOP }, { -d * t, d }, { end_x, lineLength } } }, game.cast_done)
end

function game.cast_done(finished)
  if not finished then return end
  local s = game.state
  s.phase = "waiting"
  s.wait = s.on_bank and WAIT_BANK or math.random(WAIT_MIN, WAIT_MAX)
  s.left = s.wait
  if s.left > BITE_CUTOFF then open_bites() end
  game.countdown_timer = arcade.every(COUNTDOWN, game.countdown)
end

local function fly_coins(win)
  local s, L = game.state, game.L
  local to = { 3, 2 }  -- the wallet's coin
  local line = s.line_end
  for i = 1, math.min(win, COINS_SHOWN) do
    -- from a point along the line, in pixels
    local t = math.random()
    local from = { (L.cx + (line[1] - L.cx) * t) * L.k, (HOOK_TOP + (line[2] - HOOK_TOP) * t) * L.k }
    local control = coinflight.control(from, to, math.random() * to[2])
    coinflight.launch({ image = game.images.coin, from = from, to = to, control = control, scale = 1,
                        duration = COIN_FLIGHT, delay = (i - 1) * COIN_STAGGER, z = 8 }, game.coin_in)
  end
end

function game.coin_in(coin)
  coin:remove()
end

local function show_win(win)
  local L = game.L
  local label = arcade.scene.label{ text = "+" .. win, font = "small", color = COLORS.win,
                                    outline = COLORS.win_outline, anchor_x = 0.5, anchor_y = 1, z = 9,
                                    x = game.state.line_end[1] * L.k, y = L.pond_px }
  arcade.animate(label, { group = { { property = "y", to = L.pond_px - 8 },
                                    { property = "alpha", values = { 1, 1, 0 } } },
                          duration = WIN_RISE }, function() label:remove() end)
end

local function reel()
  local s, n = game.state, game.nodes
  s.phase = "reeling"
  local duration = s.on_bank and REEL_TIME_BANK or REEL_TIME
  -- the line erases from its far end towards the rod while the hook comes up
  game.line.points = { { game.end_x, lineLength }, { 0, HOOK_TOP } }
  game.line.stroke_end = 1
  arcade.animate(game.line, { property = "stroke_start", from = 0, to = 1, duration = duration })
  arcade.animate(n.hook, { property = "position", from = { game.end_x, lineLength }, to = { 0, HOOK_TOP },
                           duration = duration }, game.reel_done)
  if s.win > 0 then
    set_wallet(s.wallet + s.win)
    fly_coins(s.win)
    show_win(s.win)
  end
end

function game.countdown()
  local s = game.state
  s.left = s.left - 1
  if s.left == BITE_CUTOFF then close_bites() end
  if s.left <= 0 then
    game.countdown_timer:cancel()
    game.countdown_timer = nil
    close_bites()
    reel()
  end
end

function game.reel_done(finished)
  if not finished then return end
  local s = game.state
  for _, f in ipairs(game.hooked) do
    local kind = FISH_KINDS[f.kind].kind
    s.caught[kind] = s.caught[kind] + 1
    f.node:remove()
  end
  game.hooked = {}
  game.line:remove()
  game.line = nil
  game.nodes.hook_line.visible = true
  game.nodes.hook_sprite.y = HOOK_VIEW.height
  s.phase = "swinging"
  sync_fish_state()
end

local function refill()
  if game.state.wallet >= CAST_COST then return end
  set_wallet(REFILL)
  show_refusal(false)
end

-- Callbacks ---------------------------------------------------------------------------------

local function build()
  local n = {}
  game.nodes = n
  arcade.scene.background(COLORS.sky)
  n.world = arcade.scene.group{ x = 0, y = 0, z = 0 }
  n.water = arcade.scene.rect{ parent = n.world, anchor_x = 0, anchor_y = 0, x = 0, y = POND_TOP, z = 0,
                               fill = COLORS.water }
  n.deep = arcade.scene.rect{ parent = n.world, anchor_x = 0, anchor_y = 0, x = 0, z = 0, fill = COLORS.deep }
  n.pond = arcade.scene.group{ parent = n.world, x = 0, y = POND_TOP, z = 2 }
  n.grass = arcade.scene.rect{ parent = n.world, anchor_x = 0, anchor_y = 0, x = 0, y = POND_TOP - 12, z = 4,
                               height = 6, fill = COLORS.grass }
  n.earth = arcade.scene.rect{ parent = n.world, anchor_x = 0, anchor_y = 0, x = 0, y = POND_TOP - 6, z = 4,
                               height = 6, fill = COLORS.earth }
  n.shore = {}
  for i = 1, SHORE_SLABS do
    n.shore[i] = {
      arcade.scene.rect{ parent = n.world, anchor_x = 0, anchor_y = 0, x = 0, z = 4, fill = COLORS.earth },
      arcade.scene.rect{ parent = n.world, anchor_x = 0, anchor_y = 0, z = 4, fill = COLORS.earth },
    }
  end
  n.rod = arcade.scene.line{ parent = n.world, z = 5, points = { { 0, 0 }, { 0, 0 } }, color = COLORS.rod }
  n.rig = arcade.scene.group{ parent = n.world, x = 0, y = 0, z = 6 }
  -- the hook view: the line and the hook swing about the line's top
  n.hook = arcade.scene.group{ parent = n.rig, x = 0, y = HOOK_TOP, z = 2 }
  n.hook_line = arcade.scene.rect{ parent = n.hook, anchor_x = 0.5, anchor_y = 0, x = 0, y = 0,
                                   height = HOOK_VIEW.height - HOOK.height, fill = LINE_COLOR }
  n.hook_sprite = arcade.scene.sprite{ parent = n.hook, image = game.images.hook, anchor_x = 0.5, anchor_y = 1,
                                       x = 0, y = HOOK_VIEW.height, z = 1 }
  n.hook_sprite.scale_x = HOOK.width / n.hook_sprite.width
  n.hook_sprite.scale_y = HOOK.height / n.hook_sprite.height

  n.purse = arcade.scene.sprite{ image = game.images.coin, anchor_x = 0, anchor_y = 0, z = 9 }
  n.wallet = arcade.scene.text{ text = "", color = COLORS.text, anchor_x = 0, anchor_y = 0, z = 10 }
  n.hint = arcade.scene.text{ text = "space/click pond: cast (10 coins)", color = COLORS.hint, background = COLORS.deep,
                              anchor_x = 0, anchor_y = 0, z = 10 }
  n.message = arcade.scene.text{ text = "Not enough coins: a cast costs " .. CAST_COST .. ".",
                                 color = COLORS.warn, background = COLORS.sky, anchor_x = 0, anchor_y = 0, z = 10 }
  n.button = arcade.scene.group{ z = 11 }
  n.button_text = arcade.scene.text{ parent = n.button, x = 2, y = 2, text = "R: refill to " .. REFILL,
                                     color = "white", background = COLORS.button, anchor_x = 0, anchor_y = 0, z = 1 }
  arcade.scene.rect{ parent = n.button, x = 0, y = 0, anchor_x = 0, anchor_y = 0, width = #n.button_text.text + 4,
                     height = 6, fill = COLORS.button, stroke = COLORS.button_edge }
end

function game.load(ctx)
  local s = game.state
  s.wallet = arcade.save.get("wallet") or WALLET_START
  s.phase, s.hook_angle, s.casts = "swinging", 0, 0
  s.swinging_back = false
  s.rolls, s.bites, s.caught = {}, {}, {}
  for _, kind in ipairs(FISH_KINDS) do
    s.rolls[kind.kind], s.bites[kind.kind], s.caught[kind.kind] = 0, 0, 0
  end
  s.win, s.wait, s.left, s.incoming = 0, 0, 0, 0
  s.on_bank, s.refused, s.biting = false, false, false
  s.rolled, s.rolled_tick = {}, 0

  game.images = {}
  for i, kind in ipairs(FISH_KINDS) do game.images[i] = arcade.image_file(kind.kind .. ".sprite") end
  game.images.hook = arcade.image_file("hook.sprite")
  game.images.coin = arcade.image_file("coin.sprite")
  game.fish, game.hooked, game.queue = {}, {}, {}
  game.serial = 0
  build()
  layout(ctx.width, ctx.height)
  show_refusal(false)
  set_wallet(s.wallet)

  -- decided: the pond starts full, each fish somewhere along its first crossing; directions
  -- alternate within a kind, the first from the right as in the article's loop
  for i, kind in ipairs(FISH_KINDS) do
    for j = 1, kind.population do
      local f = new_fish(i, j % 2 == 1 and -1 or 1)
      start_crossing(f, shown_tick(false), math.random())
    end
  end
  sync_fish_state()
end

local function on_button(x, y)
  local b = game.button
  return x >= b.x and x < b.x + b.w and y >= b.y and y < b.y + b.h
end

local function resize(w, h)
  layout(w, h)
  -- every swimming fish resumes its crossing where it was, in the new pond
  for _, f in ipairs(game.fish) do
    local kind = FISH_KINDS[f.kind]
    local progress = (f.node.x - kind.width / 2 - f.x0) / (f.x1 - f.x0)
    local deepest = game.L.hp - POND_TOP - kind.height
    f.depth = math.max(OFFSET_Y_RANGE, math.min(f.depth, deepest))
    start_crossing(f, shown_tick(false), math.max(0, math.min(1, progress)))
  end
  local s = game.state
  if s.phase ~= "swinging" then
    -- the hook hangs from the rig, which moved with the centre: so did the bite point
    s.hook_x = game.L.cx - (lineLength + HOOK.height) * math.tan(s.hook_angle)
    s.line_end[1] = game.L.cx + game.end_x
  end
  if game.bites_open then replan_bites() end
end

function game.input(e)
  if e.type == "key" then
    if e.key == "space" or e.key == "enter" or e.key == "down" then
      cast()
    elseif e.key == "r" then
      refill()
    end
  elseif e.type == "mouse" then
    if e.action ~= "press" then return end
    if game.state.refused and on_button(e.x, e.y) then
      refill()
    elseif e.y >= game.L.pond_px then
      cast()
    end
  elseif e.type == "resize" then
    resize(e.width, e.height)
  end
end

-- The swing: the article's per-tick recurrence, one angle per step while the hook is up.
function game.update(dt)
  local s = game.state
  if s.phase ~= "swinging" then return end
  local a = s.hook_angle
  local delta = SWING_SPEED * math.cos(SWING_BEND * a) * SWING_STEP
  if s.swinging_back then
    a = a - delta
    if a < -SWING_LIMIT then s.swinging_back = false end
  else
    a = a + delta
    if a > SWING_LIMIT then s.swinging_back = true end
  end
  s.hook_angle = a
  game.nodes.hook.rotation = a
end

return game
