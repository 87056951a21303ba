-- Fishing: a day at the lake. A hook swings above a pond; a marker on the water shows where it
-- would land. Cast it (10 coins) when that point is on the way of fish worth catching: while
-- it waits in the water, each fish whose leading edge passes the hook rolls its bite chance;
-- caught fish rise to the hook, ride up with it and pay their coins. A day is 20 casts from a
-- wallet of 100 coins, or until the wallet cannot pay; the day's score is the wallet at its
-- end. A hook left swinging too long loses a cast and its coins (so an idle day ends with
-- nothing), and every 4 casts the level rises and that time shrinks: 15 s, 12, 10, 8, 7.
--
-- The economy is the same at every window size: a fish passes the hook about once per its
-- crossing time whatever the width (its speed follows the width), so the pond holds the same
-- fish at every size and the bites a second of waiting brings do not depend on the window.
-- Each kind swims as a school (its two fish the same way, one close behind the other; the
-- kinds take turns from the right and from the left), so the bites come in bunches: a cast
-- that meets a school of snappers or striped fish is worth far more than one at a random
-- moment, while the bites per second of waiting stay what they were.
--
-- Native work: fish cross the pond as one linear animation each; the cast, the reel-in, the
-- catch, the coins and the "+N" are animations; the wait is a one-second timer. A fish's bite
-- check is not a scan: when bites open (or a fish starts a crossing while they are open) the
-- step its leading edge reaches the hook is computed from its crossing, and one timer fires
-- at the earliest such step. Lua runs once per step for the swing's angle (the article's
-- discrete recurrence, which no native curve reproduces) and to write each swimming fish's
-- box into game.state (one multiply-add a fish: the state must be plain data).
--
-- Layout (landscape): a strip of sky with the wallet, the rod and the swinging hook; the bank
-- across the whole width, cut by a small bay where the hook goes in; below it the water,
-- across the whole width down to the pond's bed, where the hint line sits. Fish live only in
-- that water. Everything is sized from the water's depth: the shark is at most a third of it,
-- the other kinds and the hook keep the article's ratios to the shark, and the article's
-- points become pixels by one factor, `u`, which also places the rod, the hook and the line.
-- Sprites are pixel art drawn at those ratios in two sets (small ponds, large ponds) and
-- grow in whole-pixel steps.

local coinflight = require("lib.coinflight")
local button = require("lib.button")

-- fishing article: the six kinds, size in points, crossingTime in seconds, biteChance in %,
-- coins won; population is how many of the kind swim in the pond, at every size (wave 4: the
-- economy must not depend on the window), and color the kind's colour in the day's tally
local FISH_KINDS = {
  { kind = "croaker", width = 35, height = 40, crossingTime = 6.0, biteChance = 80, coins = 2, population = 2,
    color = "#f5c842" },
  { kind = "grouper", width = 50, height = 50, crossingTime = 7.0, biteChance = 50, coins = 5, population = 2,
    color = "#a0c060" },  -- olive, as its sprite: a tan was a salmon's twin to red-blind eyes
  { kind = "snapper", width = 50, height = 40, crossingTime = 8.0, biteChance = 30, coins = 10, population = 2,
    color = "#ff7070" },
  { kind = "striped", width = 65, height = 53, crossingTime = 8.5, biteChance = 15, coins = 20, population = 2,
    color = "#8fd0ff" },
  { kind = "coral", width = 55, height = 55, crossingTime = 9.0, biteChance = 5, coins = 50, population = 1,
    color = "#ff80c0" },
  { kind = "shark", width = 145, height = 90, crossingTime = 11.0, biteChance = 1, coins = 100, population = 1,
    color = "#d0d8e0" },
}
local SHARK = 6
local SWIM_LOOP = 1.0          -- fishing article: a fish's frame loop lasts 1 s while it swims
local CAUGHT_LOOP = 0.5        -- fishing article: and 0.5 s once caught
local TICK = 60                -- fishing article: the display link's 60 ticks a second

local SWING_LIMIT = math.pi / 180 * 45  -- fishing article: the hook swings between -45 and +45 degrees
local SWING_SPEED = 1.8        -- fishing article: angle -/+= 1.8 * cos(1.5 * angle) * 0.01 each tick
local SWING_BEND = 1.5
local SWING_STEP = 0.01

local HOOK_TOP = 5             -- fishing article: the hook view hangs from y = 5
local HOOK_VIEW = { width = 30, height = 85 }  -- fishing article: the hook view, line and hook
local HOOK = { width = 30, height = 35 }       -- fishing article: the hook at the view's bottom
local LINE_COLOR = "#e8f4ff"   -- decided (wave 4): the line has its own colour, pale against rod and water
local LINE_WIDTH = 3           -- fishing article: the line's width (drawn at least a pixel wide)
local HOOK_DIP = 45            -- fishing article: the hook sinks 45 below the pond's surface
local POND_TOP = 100           -- decided: the surface, in points from the top, under the swinging hook
local lineLength = POND_TOP + HOOK_DIP - HOOK.height  -- fishing article: the cast line's fixed depth
local HOOK_BOTTOM = lineLength + HOOK.height           -- where a cast hook's bottom lands

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
local HANG_GAP = 1             -- decided: pixels between caught fish, which hang side by side
local REPLACE_DELAY = 3        -- decided: seconds before a new fish replaces a caught one
local SCHOOL_GAP = 0.5         -- decided (wave 4): a fish follows its school's mate this many of its
                               -- lengths behind
local SPREAD_TRIES = 24        -- decided: depths a fish entering the pond chooses from

local DAY_WALLET = 100         -- decided (wave 4): a day starts with 100 coins
local DAY_CASTS = 20           -- decided (wave 4): and 20 casts
local LEVEL_CASTS = 4          -- decided: every 4 casts of the day the level rises
local PATIENCE = { 15, 12, 10, 8, 7 }  -- decided: seconds of swing each level allows before the
                               -- day takes a cast anyway ("too slow": the cast and its coins are lost)
local OVER_GUARD = 1.0         -- decided: seconds the end card ignores presses, so a late press does not skip it
local RIPPLE = { from = 2, to = 0.2, time = 0.5 }  -- decided: the ripple where the line enters the
                               -- water spreads from 2 pixels to a fifth of the width in 0.5 s, again and
                               -- again while the hook waits (at 160 columns, a pixel a step)
local MISS_TIME = 0.7          -- decided: a near miss's "!" rises and fades for this long
local COIN_FLIGHT = 0.8        -- decided: coins fly to the wallet while the hook comes up
local COIN_STAGGER = 0.01      -- decided: one coin leaves every 0.01 s, as in the coin bank
local COINS_SHOWN = 20         -- decided: at most this many coins fly for one win
local CHIME_GAP = 0.05         -- decided: the coins reaching the wallet chime at most this often
local WIN_RISE = 1.0           -- decided: the "+N" rises and fades over the reel-in

local WATER_HALF = 110         -- decided: the bay's half-width (points) at the hook's depth;
                               -- a hook landing farther out lands on the bank
local BAY_SLOPE = 0.5          -- decided: the bay widens by this per point above the hook's depth
local BANK_BOTTOM = 150        -- decided: the bank (and the bay) reach this deep; the open water,
                               -- where fish swim, starts there and spans the whole width
local GRASS_TOP = POND_TOP - 12  -- decided: the bank's grass, 6 points of it, then earth
local GRASS = 6
local ROD_FOOT = 150           -- decided: the rod stands on the bank this far right of the centre
local ROD_WIDTH = 4
local BED = 2                  -- decided: the pond's bed, one text row, holds the hint
local SHARK_SHARE = 3          -- decided (play test): the shark is at most a third of the depth
-- decided: the fish and the hook are pixel art in two sets drawn at the article's ratios to
-- the shark, whose height in pixels is given; the large set also grows 2x, 3x...
local ART_SETS = { { suffix = "-small", shark = 9 }, { suffix = "", shark = 20 } }
local MIN_PIXEL = 1            -- thin lines are drawn at least this many pixels wide

local COLORS = {
  sky = "#1b2838", water = "#1d4e7a", deep = "#163c60", grass = "#4f8a3a", earth = "#7a5a36",
  rod = "#a0703c", text = "#ffd23f", hint = "#f0e2c0", warn = "#ff8a80", button = "#2c6e49",
  button_edge = "#8fd694", win = "#ffe066", win_outline = "#7a4a00", marker = "#ffffff",
  marker_bank = "#ff8a80", miss = "#ffffff", card = "#10202c", card_edge = "#8fd694", title = "#ffe066",
  label = "#ffd23f", label_outline = "#4a3000", ripple = "#8fc0e8",
}

local game = {}
local place_text  -- the HUD's layout, below
local update_landing  -- the landing marker, below
local next_cast  -- after a cast, below

-- Layout ------------------------------------------------------------------------------------

-- The scene's numbers for a canvas of w x h pixels with art set `set` grown `grow` times:
-- `u` pixels per article point, and the bank, the bay and the water in whole pixels.
local function plan_for(w, h, set, grow)
  local u = ART_SETS[set].shark * grow / FISH_KINDS[SHARK].height
  local P = { w = w, h = h, set = set, grow = grow, u = u, wp = w / u, cx = w / u / 2 }
  P.bottom = h - BED
  P.surface = math.floor(POND_TOP * u + 0.5)
  P.grass_top = math.min(math.floor(GRASS_TOP * u + 0.5), P.surface - 1)
  P.grass = math.max(1, math.floor(GRASS * u + 0.5))
  P.top = math.ceil(BANK_BOTTOM * u)
  P.depth = P.bottom - P.top
  P.area = w * P.depth
  return P
end

-- The largest art that fits: the shark at most a third of the water's depth, and the rod's
-- foot on the screen.
local function plan(w, h)
  local best = plan_for(w, h, 1, 1)
  local set, grow = 2, 1
  while true do
    local P = plan_for(w, h, set, grow)
    if ART_SETS[set].shark * grow * SHARK_SHARE > P.depth or (ROD_FOOT + ROD_WIDTH) * P.u > w / 2 then break end
    best = P
    grow = grow + 1
  end
  return best
end

-- How many of each kind swim in a pond: the same at every size (wave 4). A fish passes the
-- hook about once per crossing time at any width, so the same fish bring the same bites.
local function populations()
  local out, total = {}, 0
  for i, kind in ipairs(FISH_KINDS) do
    out[i] = kind.population
    total = total + out[i]
  end
  return out, total
end

local function thin(width)
  return math.max(width, MIN_PIXEL / game.L.u)
end

-- A fish's (or the hook's) size in pixels in the current art.
local function art_size(image)
  return image.width * game.L.grow, image.height * game.L.grow
end

local function rect(parent, z, color)
  return arcade.scene.rect{ parent = parent, anchor_x = 0, anchor_y = 0, x = 0, y = 0, width = 0, height = 0,
                            z = z, fill = color }
end

-- The bank, the bay and the water, in canvas pixels.
local function lay_scenery()
  local L, n = game.L, game.nodes
  local cx = L.w / 2
  n.water:set{ y = L.top, width = L.w, height = L.depth }
  local half = math.floor(L.depth / 2)
  n.deep:set{ y = L.top + half, width = L.w, height = L.depth - half }
  n.bed:set{ y = L.bottom, width = L.w, height = L.h - L.bottom }
  n.grass:set{ y = L.grass_top, width = L.w, height = L.grass }
  n.earth:set{ y = L.grass_top + L.grass, width = L.w, height = L.top - L.grass_top - L.grass }
  -- the bay: one rect a pixel row, from the surface down to the open water, as wide as the
  -- article's reach at the hook's depth and a little wider above it
  for _, r in ipairs(n.bay) do r:remove() end
  n.bay = {}
  local gap
  for row = L.surface, L.top - 1 do
    local y = (row + 0.5) / L.u
    local half_w = (WATER_HALF + math.max(0, HOOK_BOTTOM - y) * BAY_SLOPE) * L.u
    local x0, x1 = math.floor(cx - half_w + 0.5), math.floor(cx + half_w + 0.5)
    local r = rect(n.land, 2, COLORS.water)
    r:set{ x = x0, y = row, width = x1 - x0, height = 1 }
    n.bay[#n.bay + 1] = r
    gap = gap or { x0, x1 }
  end
  -- above the bay's surface the bank is cut away: sky
  local r = rect(n.land, 2, COLORS.sky)
  r:set{ x = gap[1], y = L.grass_top, width = gap[2] - gap[1], height = L.surface - L.grass_top }
  n.bay[#n.bay + 1] = r
  -- the water, and the part of it a cast can reach (beyond it the hook lands on the bank)
  game.state.water = { top = L.top, bottom = L.bottom, reach_left = (L.w / L.u / 2 - WATER_HALF) * L.u,
                       reach_right = (L.w / L.u / 2 + WATER_HALF) * L.u }
end

local function layout(w, h)
  local L = plan(w, h)
  game.L = L
  local n = game.nodes
  game.art = game.art_sets[L.set]
  n.pond.scale, n.world.scale = L.u, L.u
  lay_scenery()
  n.rod:set{ points = { { L.cx + ROD_FOOT, L.grass_top / L.u }, { L.cx, HOOK_TOP } }, line_width = thin(ROD_WIDTH) }
  n.rig.x = L.cx
  -- the hook view: its line down to the hook's top, the hook pixel art below
  local _, hh = art_size(game.art.hook)
  game.hook_h = hh / L.u
  n.hook_sprite.image = game.art.hook
  n.hook_sprite.scale = L.grow / L.u
  n.hook_line.width = thin(LINE_WIDTH)
  if game.line then game.line.line_width = thin(LINE_WIDTH) end
  for _, d in ipairs(game.droppers or {}) do d.line_width = thin(1) end
  place_text()
end

-- Where the hook sprite's top sits below the line's end: its bottom on the article's hook
-- bottom when the art is at least that tall, else right at the line's end.
local function hook_sprite_top()
  return math.min(0, HOOK.height - game.hook_h)
end

local function hang_hook_view()
  local n = game.nodes
  n.hook_line.visible = true
  n.hook_line.height = HOOK_VIEW.height - HOOK.height
  n.hook_sprite.y = HOOK_VIEW.height - HOOK.height + hook_sprite_top()
end

-- HUD ---------------------------------------------------------------------------------------

local function big()
  return game.L.h >= 80
end

local function cast_cost()
  return CAST_COST
end

local function show_wallet()
  local n = game.nodes
  n.wallet.text = big() and "coins" or "coins " .. game.shown
  n.wallet_big.text = tostring(game.shown)
  n.wallet_big.visible = big()
  if big() then n.wallet.x = n.wallet_big.x + n.wallet_big.width + 2 end
end

local function show_day()
  local s, n = game.state, game.nodes
  n.casts.text = big() and "casts left" or "casts left " .. s.casts_left
  n.casts_big.text = tostring(s.casts_left)
  n.casts_big.visible = big()
  if big() then n.casts.x = n.casts_big.x + n.casts_big.width + 2 end
  n.level.text = "level " .. s.level .. ": " .. PATIENCE[s.level] .. " s to cast"
  n.level.color = s.level > 1 and COLORS.warn or COLORS.hint
  if big() then n.level.x = n.casts.x end
  for i, kind in ipairs(FISH_KINDS) do
    local got = s.today[kind.kind]
    local t = n.tally[i]
    if i == SHARK and got > 0 then
      t.text = "SHARK! x" .. got
      t.color = COLORS.title
    else
      t.text = kind.kind .. " " .. got
      t.color = got > 0 and kind.color or COLORS.hint
    end
  end
end

local function show_hint()
  local s = game.state
  local text
  if s.phase == "over" then
    text = "space / r / click: a new day"
  elseif s.hook == "swinging" then
    if s.landing and s.landing.bank then
      text = "the marker is on the bank: a cast there is free but catches nothing"
    else
      text = "space / click the pond: cast for " .. cast_cost() .. " coins"
      if s.phase == "play" then text = text .. " (" .. s.cast_in .. " s)" end
    end
  elseif s.hook == "reeling" then
    text = "reeling in"
  elseif s.on_bank then
    text = "on the bank: not charged, no bites there"
  else
    text = "waiting for a bite"
  end
  if #text > game.L.w - 2 then text = text:sub(1, game.L.w - 2) end
  if game.nodes.hint.text ~= text then game.nodes.hint.text = text end
end

local function set_wallet(n, shown)
  local s = game.state
  s.wallet = n
  s.score = n
  if shown ~= false then
    game.shown, game.paying = n, nil
    show_wallet()
  end
end

-- The cards: the start card before a day and the end card after it, over the pond.

local function clear_card()
  local n = game.nodes
  for _, node in ipairs(n.card_nodes or {}) do node:remove() end
  n.card_nodes = {}
  button.show(n.button, false)
end

local function show_card()
  clear_card()
  local s, L, n = game.state, game.L, game.nodes
  local lines
  if s.phase == "ready" then
    lines = {
      { "A DAY AT THE LAKE", COLORS.title },
      { DAY_CASTS .. " casts from " .. DAY_WALLET .. " coins: end the day rich.", COLORS.hint },
      { "Cast when the marker is on the way", COLORS.hint },
      { "of a fish worth catching.", COLORS.hint },
      { "Be quick: a slow cast is lost, coins too.", COLORS.hint },
      { "space / click the pond: cast", COLORS.text },
    }
  elseif s.phase == "over" then
    local caught = {}
    for _, kind in ipairs(FISH_KINDS) do
      local got = s.today[kind.kind]
      if got > 0 then caught[#caught + 1] = got .. " " .. kind.kind end
    end
    lines = {
      { string.upper(s.reason), COLORS.title },
      { "the day's coins: " .. s.score .. " (from " .. s.day_start .. ")", COLORS.text },
      { s.new_best and ("NEW BEST! best day: " .. s.best) or ("best day: " .. s.best), s.new_best and COLORS.title or COLORS.hint },
      { #caught > 0 and ("caught " .. table.concat(caught, ", ")) or "caught nothing", COLORS.hint },
      { "space / r / click: a new day", COLORS.text },
    }
  else
    return
  end
  local width = 0
  for _, l in ipairs(lines) do
    if #l[1] > L.w - 4 then l[1] = l[1]:sub(1, L.w - 4) end
    width = math.max(width, #l[1])
  end
  -- from 40 rows the day's coins stand in the pixel font under the end card's title
  local score_rows = (s.phase == "over" and big()) and 6 or 0
  local rows = #lines + score_rows + (s.phase == "over" and 4 or 0)
  local w = math.min(L.w, width + 6)
  local x0 = math.floor((L.w - w) / 2)
  local y0 = 2 * math.floor((L.top + 2) / 2)
  local h = 2 * rows + 4
  local bg = arcade.scene.rect{ anchor_x = 0, anchor_y = 0, x = x0, y = y0, width = w, height = h,
                                fill = COLORS.card, stroke = COLORS.card_edge, z = 20 }
  n.card_nodes[#n.card_nodes + 1] = bg
  for i, l in ipairs(lines) do
    local t = arcade.scene.text{ text = l[1], color = l[2], anchor_x = 0.5, anchor_y = 0, z = 21,
                                 x = math.floor(L.w / 2), y = y0 + 2 * (i + (i > 1 and score_rows or 0)) }
    n.card_nodes[#n.card_nodes + 1] = t
  end
  if score_rows > 0 then
    local label = arcade.scene.label{ text = tostring(s.score), font = "large", color = COLORS.label,
                                      outline = COLORS.label_outline, anchor_x = 0.5, anchor_y = 0, z = 21,
                                      x = math.floor(L.w / 2), y = y0 + 6 }
    n.card_nodes[#n.card_nodes + 1] = label
  end
  if s.phase == "over" then
    button.place(n.button, math.floor((L.w - n.button.box.w) / 2), y0 + 2 * (#lines + score_rows + 1) + 2)
    button.show(n.button, true)
  end
end

function place_text()
  local L, n = game.L, game.nodes
  n.purse.x, n.purse.y = 1, 0
  n.wallet_big.x, n.wallet_big.y = 11, 1
  n.casts_big.x, n.casts_big.y = 11, 11
  if big() then
    n.purse.scale, n.purse.y = 2, 1
    n.wallet.x, n.wallet.y = 32, 4
    n.casts.x, n.casts.y = 32, 12
    n.level.x, n.level.y = 32, 16
  else
    n.purse.scale = 1
    n.wallet.x, n.wallet.y = 6, 0
    n.casts.x, n.casts.y = 6, 2
    n.level.x, n.level.y = 6, 4
  end
  for i, t in ipairs(n.tally) do
    if big() then
      t.x, t.y = L.w - 22, 2 * i
    else
      t.x, t.y = L.w - (i % 2 == 1 and 22 or 11), 2 * ((i + 1) // 2)
    end
  end
  n.hint.x, n.hint.y = 1, L.h - 2
  show_wallet()
  show_day()
  show_card()
end

-- Fish --------------------------------------------------------------------------------------

local function sync_fish_state()
  local s, ids, kinds, boxes = game.state, {}, {}, {}
  for i, f in ipairs(game.fish) do
    ids[i], kinds[i], boxes[i] = f.node.id, FISH_KINDS[f.kind].kind, f.box
  end
  s.fish = #game.fish
  s.pond_ids, s.pond_kinds, s.swimming = ids, kinds, boxes
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

-- The part of [lo, hi] where a < p + r * t < b.
local function clip(lo, hi, p, r, a, b)
  if r == 0 then
    if p > a and p < b then return lo, hi end
    return 0, 0
  end
  local t1, t2 = (a - p) / r, (b - p) / r
  if t1 > t2 then t1, t2 = t2, t1 end
  return math.max(lo, t1), math.min(hi, t2)
end

-- Where a crossing starts and ends (left edges, points): from off one side, the article's
-- start offset equal to the depth, to just off the other side.
local function crossing_ends(dir, depth, fw)
  local wp = game.L.wp
  if dir < 0 then return wp + depth, -fw end
  return -fw - depth, wp
end

-- A new depth for a fish about to cross from `progress` at tick `ref_tick`: the article's
-- random depth, but the fish looks at up to SPREAD_TRIES depths, evenly spaced from a random
-- one, and takes the first where it would overlap the other fish least on screen (overlap
-- time times the rows shared, over what is known of their crossings), so fish spread over
-- the depth and rarely overlap.
local function choose_top(f, ref_tick, progress, fixed_from)
  local L = game.L
  local wpx, hpx = art_size(game.art[f.kind])
  local fw = wpx / L.u
  local c = (L.wp + fw) / FISH_KINDS[f.kind].crossingTime / TICK
  local va = f.dir * c
  local free = math.max(0, L.depth - hpx)
  local tries = math.min(free + 1, SPREAD_TRIES)
  local start, spacing = math.random(0, free), (free + 1) / tries
  local best, best_cost
  for i = 0, tries - 1 do
    local top = L.top + (start + math.floor(i * spacing)) % (free + 1)
    local x0, x1 = crossing_ends(f.dir, (top - L.surface) / L.u, fw)
    local from = fixed_from or x0 + (x1 - x0) * progress
    local a_end = math.abs(x1 - from) / c
    local cost = 0
    for _, g in ipairs(game.fish) do
      local rows = g ~= f and g.c and math.min(top + hpx, g.top + g.box.h) - math.max(top, g.top) or 0
      if rows > 0 then
        local vb = g.dir * g.c
        local g_left = g.ref_left + vb * (ref_tick - g.ref_tick)
        local g_end = g.ref_tick + math.abs(g.x1 - g.ref_left) / g.c - ref_tick
        local lo, hi = clip(0, math.min(a_end, g_end), from, va, -fw, L.wp)
        lo, hi = clip(lo, hi, from - g_left, va - vb, -fw, g.fw)
        if hi > lo then cost = cost + (hi - lo) * rows end
      end
    end
    if not best_cost or cost < best_cost then best, best_cost = top, cost end
  end
  return best
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

-- Starts (or resumes at `progress`) a crossing at the fish's depth (a new one when
-- `new_depth`), at the article's (screen width + fish width) / crossingTime.
-- Where a fish starting a crossing now would swim to keep up with its school: a length and a
-- half behind the mate of its kind swimming its way, when that mate is in the first half of
-- its own crossing (else nil: the fish leads, and the mate will follow it). The follower
-- swims at the same speed, so the two pass the hook a moment apart.
local function school_from(f, ref_tick, always)
  for _, g in ipairs(game.fish) do
    if g ~= f and g.kind == f.kind and g.dir == f.dir and g.c then
      local left = g.ref_left + g.dir * g.c * (ref_tick - g.ref_tick)
      if always or (left - g.x0) / (g.x1 - g.x0) < 0.5 then
        local gap = g.fw * SCHOOL_GAP
        return f.dir < 0 and left + g.fw + gap or left - gap - g.fw
      end
    end
  end
end

local function start_crossing(f, ref_tick, progress, new_depth, from_at)
  local kind, L = FISH_KINDS[f.kind], game.L
  if new_depth then f.top = choose_top(f, ref_tick, progress, from_at) end
  local wpx, hpx = art_size(game.art[f.kind])
  local fw = wpx / L.u
  local v = (L.wp + fw) / kind.crossingTime
  f.c = v / TICK
  f.fw = fw
  f.depth = (f.top - L.surface) / L.u  -- points below the surface, the article's offsetY
  f.x0, f.x1 = crossing_ends(f.dir, f.depth, fw)
  local from = from_at or f.x0 + (f.x1 - f.x0) * progress
  f.ref_tick = ref_tick
  f.ref_left = from
  f.ref_edge = f.dir < 0 and from or from + fw
  local node = f.node
  node.image = game.art[f.kind]
  -- the art faces left; a fish swimming left to right is mirrored
  node.scale_x = L.grow / L.u * (f.dir > 0 and -1 or 1)
  node.scale_y = L.grow / L.u
  node.x, node.y = from + fw / 2, (f.top + hpx / 2) / L.u
  local box = f.box
  box.x, box.y, box.w, box.h = from * L.u, f.top, wpx, hpx
  box.dir, box.vx = f.dir, f.dir * v * L.u  -- which way it swims, and how fast (pixels a second)
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
  game.serial = game.serial + 1
  local node = arcade.scene.sprite{ image = game.art[kind_index], parent = game.nodes.pond, z = 1,
                                    loop_time = SWIM_LOOP }
  local f = { node = node, kind = kind_index, dir = dir, serial = game.serial,
              box = { kind = FISH_KINDS[kind_index].kind, x = 0, y = 0, w = 0, h = 0 } }
  game.fish[#game.fish + 1] = f
  return f
end

function game.crossed(f, finished)
  if not finished then return end  -- replaced (a catch, a resize) or the game is leaving
  local tick = shown_tick(false)
  start_crossing(f, tick, 0, true, school_from(f, tick))
end

local function count_kind(kind_index)
  local n = 0
  for _, f in ipairs(game.fish) do
    if f.kind == kind_index then n = n + 1 end
  end
  return n
end

-- A newcomer replacing a caught fish, unless a resize made the pond smaller meanwhile.
local function enter(kind_index, dir)
  local s = game.state
  s.incoming = s.incoming - 1
  game.incoming[kind_index] = game.incoming[kind_index] - 1
  if count_kind(kind_index) < game.populations[kind_index] then
    local f, tick = new_fish(kind_index, dir), shown_tick(true)
    start_crossing(f, tick, 0, true, school_from(f, tick))
  end
  sync_fish_state()
end

-- Catching ----------------------------------------------------------------------------------
-- Caught fish hang head up from the hook's bottom, side by side so each stays readable: the
-- first under the hook, the next ones alternately right and left of it, each further catch
-- of the cast 8 points lower than the last (the article's stack). Fish beside the hook hang
-- on a short line of their own.

-- Places each hooked (or rising) fish's slot: `dx`, and the centre's `dy` below the hook's
-- bottom, in points.
local function place_slots(list)
  local L = game.L
  local right, left = 0, 0
  for i, f in ipairs(list) do
    local wpx, hpx = art_size(game.art[f.kind])
    local across = hpx / L.u  -- head up, the fish's height lies across
    if i == 1 then
      f.dx = 0
      right, left = across / 2, across / 2
    elseif i % 2 == 0 then
      f.dx = right + HANG_GAP / L.u + across / 2
      right = f.dx + across / 2
    else
      f.dx = -(left + HANG_GAP / L.u + across / 2)
      left = -f.dx + across / 2
    end
    f.dy = -HANG_OFFSET + CATCH_STACK * (i - 1) + wpx / L.u / 2
  end
end

-- The hook's bottom in the rig while the hook view sits at `x, y` (its line's end): the hook
-- keeps the swing's tilt.
local function hook_bottom_from(x, y)
  local a = game.state.hook_angle
  return x - HOOK.height * math.sin(a), y + HOOK.height * math.cos(a)
end

local function dress(f)
  local L = game.L
  f.node.image = game.art[f.kind]
  f.node.scale_x = L.grow / L.u * (f.dir > 0 and -1 or 1)
  f.node.scale_y = L.grow / L.u
end

local function hang_all()
  local n = game.nodes
  for _, d in ipairs(game.droppers) do d:remove() end
  game.droppers = {}
  for i, f in ipairs(game.hooked) do
    f.node.x, f.node.y = f.dx, f.dy
    if i > 1 then
      local wpx = art_size(game.art[f.kind])
      local d = arcade.scene.line{ parent = n.catch, z = 0, color = LINE_COLOR, line_width = thin(1),
                                   points = { { 0, 0 }, { f.dx, f.dy - wpx / game.L.u / 2 } } }
      game.droppers[#game.droppers + 1] = d
    end
  end
end

function game.hang(f, finished)
  if not finished then return end
  for i, g in ipairs(game.rising) do
    if g == f then table.remove(game.rising, i) break end
  end
  local kind = FISH_KINDS[f.kind]
  game.hooked[#game.hooked + 1] = f
  game.nodes.catch:add(f.node)
  f.node.loop_time = CAUGHT_LOOP
  hang_all()
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
  game.rising[#game.rising + 1] = f
  local slots = {}
  for _, g in ipairs(game.hooked) do slots[#slots + 1] = g end
  for _, g in ipairs(game.rising) do slots[#slots + 1] = g end
  place_slots(slots)
  -- the article's rise: from the leading edge at its depth (just under the surface when
  -- shallower than 60; the shark, too long, only sideways) to its place on the hook
  local bx, by = hook_bottom_from(game.end_x, lineLength)
  local to = { bx + f.dx, by + f.dy }
  local lead = edge_at(f, tick) - L.cx
  local from_y = (f.kind == SHARK or f.depth < SHALLOW) and to[2] or f.node.y
  arcade.animate(f.node, { property = "position", duration = CATCH_RISE, timing = "linear",
                           from = { lead, from_y }, to = to },
                 function(finished) game.hang(f, finished) end)
  local s = game.state
  arcade.sfx.play("bite", { channel = 2 })
  s.incoming = s.incoming + 1
  game.incoming[f.kind] = game.incoming[f.kind] + 1
  local kind_index, dir = f.kind, f.dir
  arcade.after(REPLACE_DELAY, function() enter(kind_index, dir) end)
  sync_fish_state()
end

-- A near miss: a "!" over the fish's head, rising and fading.
local function near_miss(f, tick)
  local L = game.L
  local label = arcade.scene.label{ text = "!", font = "small", color = COLORS.miss, outline = COLORS.card,
                                    name = "near miss",
                                    anchor_x = 0.5, anchor_y = 1, z = 9, x = edge_at(f, tick) * L.u,
                                    y = math.max(L.top + 5, f.top) }
  game.marks[label] = true
  arcade.sfx.play("miss", { channel = 3 })
  arcade.animate(label, { group = { { property = "y", to = label.y - 3 }, { property = "alpha", values = { 1, 1, 0 } } },
                          duration = MISS_TIME },
                 function() game.marks[label] = nil label:remove() end)
  game.state.near_misses = game.state.near_misses + 1
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
    else
      near_miss(f, entry.tick)
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

-- Where the hook would land if cast now: the marker on the water (with a faint line down
-- through the pond: fish crossing it pass the hook) and game.state.landing, in canvas pixels.
function update_landing()
  local s, L, n = game.state, game.L, game.nodes
  local bottom_x = -(lineLength + HOOK.height) * math.tan(s.hook_angle)
  local bank = math.abs(bottom_x) > WATER_HALF
  local x = L.cx + bottom_x
  s.landing = { x = x * L.u, y = HOOK_BOTTOM * L.u, bank = bank }
  local shown = s.hook == "swinging" and s.phase ~= "over"
  n.marker.visible = shown
  if shown then
    n.marker.x = x
    local color = bank and COLORS.marker_bank or COLORS.marker
    if n.marker_h.fill ~= color then
      n.marker_h.fill, n.marker_v.fill = color, color
    end
    n.marker_way.visible = not bank
  end
end

local function start_day()
  local s = game.state
  s.phase, s.reason, s.new_best = "play", nil, false
  s.casts_left, s.day_start, s.level = DAY_CASTS, DAY_WALLET, 1
  s.day_casts, s.lost = 0, 0
  game.patience = PATIENCE[1]
  s.cast_in = PATIENCE[1]
  for _, kind in ipairs(FISH_KINDS) do s.today[kind.kind] = 0 end
  set_wallet(DAY_WALLET)
  clear_card()
  show_day()
  show_hint()
end

local function end_day(reason)
  local s = game.state
  s.phase, s.reason = "over", reason
  s.score = s.wallet
  s.new_best = arcade.score.submit(s.score) and true or false
  s.best = arcade.score.best() or s.score
  s.days = s.days + 1
  arcade.sfx.play(s.new_best and "best" or "over")
  game.over_at = arcade.time()
  show_card()
  show_hint()
end

local function cast()
  local s, L, n = game.state, game.L, game.nodes
  if s.phase == "over" or s.hook ~= "swinging" then return end
  if s.phase == "ready" then start_day() end
  local t = math.tan(s.hook_angle)
  local end_x = -lineLength * t                      -- the line's end, relative to the centre
  local bottom_x = -(lineLength + HOOK.height) * t   -- the hook's bottom
  s.on_bank = math.abs(bottom_x) > WATER_HALF
  s.win = 0
  if not s.on_bank then
    -- a cast into the water is charged and counts; one on the bank is free (no fish bite there)
    set_wallet(s.wallet - cast_cost())
    s.casts = s.casts + 1
    s.day_casts = s.day_casts + 1
    s.casts_left = s.casts_left - 1
    show_day()
  end
  s.hook = "casting"
  arcade.sfx.play("cast", { channel = 1 })
  s.cast_x = s.landing.x  -- where the marker was: where the hook lands
  s.line_end = { L.cx + end_x, lineLength }
  s.hook_x = L.cx + bottom_x
  n.marker.visible = false
  local duration = s.on_bank and CAST_TIME_BANK or CAST_TIME
  game.end_x = end_x
  -- the cast line takes the place of the hook view's own: the hook hangs from the line's end,
  -- so its bottom lands where the article's formula puts it
  n.hook_line.visible = false
  n.hook_sprite.y = hook_sprite_top()
  game.line = arcade.scene.line{ parent = n.rig, z = 1, points = { { 0, HOOK_TOP }, { end_x, lineLength } },
                                 color = LINE_COLOR, line_width = thin(LINE_WIDTH), stroke_end = 0 }
  arcade.animate(game.line, { property = "stroke_end", values = LINE_DRAW.values, key_times = LINE_DRAW.key_times,
                              duration = duration })
  local d = lineLength * HOOK_DROP.at
  arcade.animate(n.hook, { property = "position", duration = duration, key_times = HOOK_DROP.key_times,
                           values = { { 0, HOOK_TOP }, { -d * t, d }, { end_x, lineLength } } }, game.cast_done)
  n.catch.x, n.catch.y = hook_bottom_from(end_x, lineLength)
  show_hint()
end

-- The ripple where the line enters the water while the hook waits: it spreads a pixel a step.
local function start_ripple()
  local L = game.L
  local x = game.end_x * (POND_TOP - HOOK_TOP) / (lineLength - HOOK_TOP)
  local to = math.floor(L.w * RIPPLE.to)
  game.ripple = arcade.scene.rect{ parent = game.nodes.world, x = L.cx + x, y = POND_TOP + 0.5 / L.u, z = 3,
                                   height = 1 / L.u, width = to / L.u, fill = COLORS.ripple, alpha = 0.7 }
  arcade.animate(game.ripple, { property = "scale_x", from = RIPPLE.from / to, to = 1,
                                duration = RIPPLE.time, repeat_count = "forever" })
end

local function stop_ripple()
  if game.ripple then
    arcade.cancel_animations(game.ripple)
    game.ripple:remove()
    game.ripple = nil
  end
end

function game.cast_done(finished)
  if not finished then return end
  local s = game.state
  if not s.on_bank then
    start_ripple()
    arcade.sfx.play("splash", { channel = 1 })
  end
  s.hook = "waiting"
  s.wait = s.on_bank and WAIT_BANK or math.random(WAIT_MIN, WAIT_MAX)
  s.left = s.wait
  if s.left > BITE_CUTOFF then open_bites() end
  game.countdown_timer = arcade.every(COUNTDOWN, game.countdown)
  show_hint()
end

-- The wallet counts up as the coins land: each landing shows its share of the win, the last
-- one the new total.
local function fly_coins(win, before)
  local s, L = game.state, game.L
  local purse = game.nodes.purse
  local to = { purse.x + purse.width / 2, purse.y + purse.height / 2 }  -- the wallet's coin
  local line = s.line_end
  local count = math.min(win, COINS_SHOWN)
  game.paying = { before = before, win = win, count = count, landed = 0 }
  for i = 1, count do
    -- from a point along the line, in pixels
    local t = math.random()
    local from = { (L.cx + (line[1] - L.cx) * t) * L.u, (HOOK_TOP + (line[2] - HOOK_TOP) * t) * L.u }
    local control = coinflight.control(from, to, math.random() * to[2])
    coinflight.launch({ image = game.images.coin, from = from, to = to, control = control, scale = 1,
                        duration = COIN_FLIGHT, delay = (i - 1) * COIN_STAGGER, z = 8 }, game.coin_in)
  end
end

function game.coin_in(coin)
  coin:remove()
  local p = game.paying
  if not p then return end
  p.landed = p.landed + 1
  if arcade.time() - (p.chimed or -1) >= CHIME_GAP then
    p.chimed = arcade.time()
    arcade.sfx.play("coin", { channel = 4, pitch = math.min(p.landed // 4, 5) })
  end
  game.shown = p.before + p.win * p.landed // p.count
  if p.landed >= p.count then game.paying = nil end
  show_wallet()
end

-- The "+N" rises in the pond beside the catch (right of it when it fits), so the catch coming
-- up stays in view.
local function show_win(win)
  local L = game.L
  local left, right = 0, 0
  for _, f in ipairs(game.hooked) do
    local _, hpx = art_size(game.art[f.kind])
    local across = hpx / L.u
    left, right = math.min(left, f.dx - across / 2), math.max(right, f.dx + across / 2)
  end
  local at = game.nodes.catch.x + L.cx
  local label = arcade.scene.label{ text = "+" .. win, font = "small", color = COLORS.win, name = "win",
                                    outline = COLORS.win_outline, anchor_x = 0, anchor_y = 1, z = 9,
                                    x = (at + right) * L.u + 2, y = L.top + 10 }
  if label.x + label.width > L.w then
    label.anchor_x, label.x = 1, (at + left) * L.u - 2
  end
  arcade.animate(label, { group = { { property = "y", to = L.top + 2 },
                                    { property = "alpha", values = { 1, 1, 0 } } },
                          duration = WIN_RISE }, function() label:remove() end)
end

local function reel()
  local s, n = game.state, game.nodes
  stop_ripple()
  s.hook = "reeling"
  local duration = s.on_bank and REEL_TIME_BANK or REEL_TIME
  -- the line erases from its far end towards the rod while the hook comes up
  game.line.points = { { game.end_x, lineLength }, { 0, HOOK_TOP } }
  game.line.stroke_end = 1
  arcade.animate(game.line, { property = "stroke_start", from = 0, to = 1, duration = duration })
  arcade.animate(n.hook, { property = "position", from = { game.end_x, lineLength }, to = { 0, HOOK_TOP },
                           duration = duration }, game.reel_done)
  -- the catch rides up with the hook's bottom
  local fx, fy = hook_bottom_from(game.end_x, lineLength)
  local tx, ty = hook_bottom_from(0, HOOK_TOP)
  arcade.animate(n.catch, { property = "position", from = { fx, fy }, to = { tx, ty }, duration = duration })
  if s.win > 0 then
    local before = s.wallet
    set_wallet(s.wallet + s.win, false)
    fly_coins(s.win, before)
    show_win(s.win)
  end
  show_hint()
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
    if s.phase == "play" then s.today[kind] = s.today[kind] + 1 end
    f.node:remove()
  end
  game.hooked = {}
  for _, d in ipairs(game.droppers) do d:remove() end
  game.droppers = {}
  game.line:remove()
  game.line = nil
  hang_hook_view()
  s.hook = "swinging"
  if s.phase == "play" and not s.on_bank then
    game.shown, game.paying = s.wallet, nil
    show_wallet()
    next_cast()
  end
  show_day()
  sync_fish_state()
  update_landing()
  show_hint()
end

-- After a cast (or one lost to the clock): the level for the casts to come, a fresh clock, or
-- the day's end.
function next_cast()
  local s = game.state
  s.level = math.min(#PATIENCE, 1 + s.day_casts // LEVEL_CASTS)
  game.patience = PATIENCE[s.level]
  s.cast_in = PATIENCE[s.level]
  if s.casts_left <= 0 then
    end_day("out of casts")
  elseif s.wallet < cast_cost() then
    end_day("out of coins")
  end
  show_day()
end

-- The clock ran out while the hook swung: the cast is lost, and its coins.
local function too_slow()
  local s, L = game.state, game.L
  set_wallet(s.wallet - cast_cost())
  s.casts_left = s.casts_left - 1
  s.day_casts = s.day_casts + 1
  s.lost = s.lost + 1
  arcade.sfx.play("miss", { channel = 3 })
  local label = arcade.scene.label{ text = "too slow -" .. cast_cost(), font = "small", color = COLORS.warn,
                                    outline = COLORS.card, anchor_x = 0.5, anchor_y = 0, z = 9,
                                    x = s.landing.x, y = L.top + 2 }
  arcade.animate(label, { group = { { property = "y", to = L.top + 10 }, { property = "alpha", values = { 1, 1, 0 } } },
                          duration = WIN_RISE * 1.5 }, function() label:remove() end)
  next_cast()
end

-- A new day, from the end card.
local function new_day()
  local s = game.state
  if s.phase ~= "over" or arcade.time() - game.over_at < OVER_GUARD then return end
  start_day()
end

-- The pond's population -----------------------------------------------------------------------

-- Makes the pond hold the populations for its size: new fish join somewhere along a
-- crossing, surplus fish leave (the newest first).
local function populate(ref_tick)
  game.populations = populations()
  for i, kind in ipairs(FISH_KINDS) do
    local have = count_kind(i) + game.incoming[i]
    for _ = count_kind(i) + 1, game.populations[i] - game.incoming[i] do
      -- a kind swims as one school: the first from the right, the next kind from the left, and
      -- so on (the article's alternating directions, a school at a time); a second fish of the
      -- kind follows the first
      local f = new_fish(i, i % 2 == 1 and -1 or 1)
      local from = school_from(f, ref_tick, true)
      start_crossing(f, ref_tick, from and 0 or math.random(), true, from)
    end
    for k = #game.fish, 1, -1 do
      if have <= game.populations[i] then break end
      local f = game.fish[k]
      if f.kind == i then
        table.remove(game.fish, k)
        forget_bites(f)
        f.node:remove()
        have = have - 1
      end
    end
  end
end

-- Callbacks ---------------------------------------------------------------------------------

local function build()
  local n = {}
  game.nodes = n
  arcade.scene.background(COLORS.sky)
  n.waters = arcade.scene.group{ x = 0, y = 0, z = 0 }
  n.water = rect(n.waters, 0, COLORS.water)
  n.deep = rect(n.waters, 1, COLORS.deep)
  n.pond = arcade.scene.group{ x = 0, y = 0, z = 2 }
  n.land = arcade.scene.group{ x = 0, y = 0, z = 4 }
  n.grass = rect(n.land, 0, COLORS.grass)
  n.earth = rect(n.land, 1, COLORS.earth)
  n.bed = rect(n.land, 1, COLORS.earth)
  n.bay = {}
  n.world = arcade.scene.group{ x = 0, y = 0, z = 5 }
  n.rod = arcade.scene.line{ parent = n.world, z = 5, points = { { 0, 0 }, { 0, 0 } }, color = COLORS.rod }
  n.rig = arcade.scene.group{ parent = n.world, x = 0, y = 0, z = 6 }
  -- the hook view: the line and the hook swing about the line's top
  n.hook = arcade.scene.group{ parent = n.rig, x = 0, y = HOOK_TOP, z = 2 }
  n.hook_line = arcade.scene.rect{ parent = n.hook, anchor_x = 0.5, anchor_y = 0, x = 0, y = 0,
                                   height = HOOK_VIEW.height - HOOK.height, fill = LINE_COLOR }
  n.hook_sprite = arcade.scene.sprite{ parent = n.hook, image = game.images.hook, anchor_x = 0.5, anchor_y = 0,
                                       x = 0, y = 0, z = 1, name = "hook" }
  -- the catch: upright, at the hook's bottom
  n.catch = arcade.scene.group{ parent = n.rig, x = 0, y = 0, z = 3 }
  -- the landing marker: a cross where the hook would land, and its way down through the pond
  n.marker = arcade.scene.group{ parent = n.world, x = 0, y = HOOK_BOTTOM, z = 4 }
  n.marker_h = arcade.scene.rect{ parent = n.marker, fill = COLORS.marker, z = 1, name = "marker" }
  n.marker_v = arcade.scene.rect{ parent = n.marker, fill = COLORS.marker, z = 1 }
  n.marker_way = arcade.scene.rect{ parent = n.marker, fill = COLORS.marker, alpha = 0.3, anchor_y = 0 }

  n.purse = arcade.scene.sprite{ image = game.images.coin, anchor_x = 0, anchor_y = 0, z = 9 }
  n.wallet = arcade.scene.text{ text = "", color = COLORS.text, anchor_x = 0, anchor_y = 0, z = 10 }
  n.wallet_big = arcade.scene.label{ text = "", font = "large", color = COLORS.label, outline = COLORS.label_outline,
                                     anchor_x = 0, anchor_y = 0, z = 10 }
  n.casts = arcade.scene.text{ text = "", color = COLORS.hint, anchor_x = 0, anchor_y = 0, z = 10 }
  n.casts_big = arcade.scene.label{ text = "", font = "large", color = COLORS.hint, outline = COLORS.card,
                                    anchor_x = 0, anchor_y = 0, z = 10 }
  n.level = arcade.scene.text{ text = "", color = COLORS.hint, anchor_x = 0, anchor_y = 0, z = 10 }
  n.tally = {}
  for i in ipairs(FISH_KINDS) do
    n.tally[i] = arcade.scene.text{ text = "", color = COLORS.hint, anchor_x = 0, anchor_y = 0, z = 10 }
  end
  n.hint = arcade.scene.text{ text = "", color = COLORS.hint, background = COLORS.earth,
                              anchor_x = 0, anchor_y = 0, z = 10 }
  n.button = button.new{ text = "new day", fill = COLORS.button, stroke = COLORS.button_edge, z = 22 }
  n.card_nodes = {}
end

-- The marker's parts for the layout: a cross 3 pixels wide, and the way down to the bed.
local function lay_marker()
  local L, n = game.L, game.nodes
  local px = 1 / L.u
  n.marker_h.width, n.marker_h.height = 3 * px, px
  n.marker_v.width, n.marker_v.height = px, 3 * px
  n.marker_way.width, n.marker_way.height = px, (L.bottom - HOOK_BOTTOM * L.u - 2) * px
  n.marker_way.y = 2 * px
end

function game.load(ctx)
  local s = game.state
  -- a score is one day's wallet now: a best kept under the old rules is forgotten once
  require("lib.scorerules").adopt(2)
  s.phase, s.score, s.level = "ready", 0, 1
  s.best = arcade.score.best() or 0
  s.new_best, s.days, s.lost, s.cast_in = false, 0, 0, PATIENCE[1]
  s.wallet, s.casts_left, s.day_start, s.day_casts = DAY_WALLET, DAY_CASTS, DAY_WALLET, 0
  s.hook, s.hook_angle, s.casts = "swinging", 0, 0
  s.swinging_back = false
  s.rolls, s.bites, s.caught, s.today = {}, {}, {}, {}
  for _, kind in ipairs(FISH_KINDS) do
    s.rolls[kind.kind], s.bites[kind.kind], s.caught[kind.kind], s.today[kind.kind] = 0, 0, 0, 0
  end
  s.win, s.wait, s.left, s.incoming, s.near_misses = 0, 0, 0, 0, 0
  s.on_bank, s.biting = false, false
  s.rolled, s.rolled_tick = {}, 0

  game.art_sets = {}
  for i, set in ipairs(ART_SETS) do
    local art = {}
    for k, kind in ipairs(FISH_KINDS) do art[k] = arcade.image_file(kind.kind .. set.suffix .. ".sprite") end
    art.hook = arcade.image_file("hook" .. set.suffix .. ".sprite")
    game.art_sets[i] = art
  end
  game.images = { coin = arcade.image_file("coin.sprite"), hook = game.art_sets[1].hook }
  game.fish, game.hooked, game.rising, game.queue, game.droppers = {}, {}, {}, {}, {}
  game.incoming, game.marks = {}, {}
  for i in ipairs(FISH_KINDS) do game.incoming[i] = 0 end
  game.serial = 0
  game.shown = s.wallet
  game.over_at = 0
  build()
  layout(ctx.width, ctx.height)
  lay_marker()
  hang_hook_view()
  set_wallet(s.wallet)
  s.score = 0  -- no day yet
  update_landing()
  show_hint()

  -- decided: the pond starts full, each fish somewhere along its first crossing
  populate(shown_tick(false))
  sync_fish_state()
end

local function resize(w, h)
  local old = game.L
  layout(w, h)
  lay_marker()
  local L = game.L
  -- every swimming fish resumes its crossing where it was, at the same share of the new depth
  for _, f in ipairs(game.fish) do
    local progress = (f.node.x - f.fw / 2 - f.x0) / (f.x1 - f.x0)
    local _, h_old = f.box.w, f.box.h
    local _, h_new = art_size(game.art[f.kind])
    local share = (f.top - old.top) / math.max(1, old.depth - h_old)
    f.top = L.top + math.floor(math.max(0, math.min(1, share)) * math.max(0, L.depth - h_new) + 0.5)
    arcade.cancel_animations(f.node)
    start_crossing(f, shown_tick(false), math.max(0, math.min(1, progress)))
  end
  populate(shown_tick(false))
  -- fish on their way up land on the hook at once; the catch is laid out again in the new art
  local rising = game.rising
  game.rising = {}
  for _, f in ipairs(rising) do
    arcade.cancel_animations(f.node)
    game.hooked[#game.hooked + 1] = f
    game.nodes.catch:add(f.node)
    f.node.loop_time = CAUGHT_LOOP
    game.state.win = game.state.win + FISH_KINDS[f.kind].coins
  end
  for _, f in ipairs(game.hooked) do dress(f) end
  place_slots(game.hooked)
  hang_all()
  -- near misses in flight go: their fish moved
  local marks = {}
  for label in pairs(game.marks) do marks[#marks + 1] = label end
  for _, label in ipairs(marks) do arcade.cancel_animations(label) end  -- each removes itself
  local s = game.state
  if s.hook ~= "swinging" then
    -- the hook hangs from the rig, which moved with the centre: so did the bite point
    s.hook_x = L.cx - (lineLength + HOOK.height) * math.tan(s.hook_angle)
    s.line_end[1] = L.cx + game.end_x
    game.nodes.hook_sprite.y = hook_sprite_top()
  else
    hang_hook_view()
  end
  if game.bites_open then replan_bites() end
  if game.ripple then
    stop_ripple()
    start_ripple()
  end
  update_landing()
  show_hint()
  sync_fish_state()
end

function game.input(e)
  local s = game.state
  if e.type == "key" then
    if e.key == "space" or e.key == "enter" or e.key == "down" then
      if s.phase == "over" then new_day() else cast() end
    elseif e.key == "r" then
      if s.phase == "over" then new_day() end
    end
  elseif e.type == "mouse" then
    if e.action ~= "press" then return end
    if s.phase == "over" then
      new_day()  -- anywhere, the button included
    elseif e.y >= game.L.surface then
      cast()
    end
  elseif e.type == "resize" then
    resize(e.width, e.height)
  end
end

-- Each step: the swing (the article's per-tick recurrence, one angle a step while the hook is
-- up), and the swimming fish's boxes at the positions this step's animations will show.
function game.update(dt)
  local s = game.state
  local m, u = arcade.frame(), game.L.u
  for _, f in ipairs(game.fish) do
    f.box.x = (f.ref_left + f.dir * f.c * (m - f.ref_tick)) * u
  end
  if s.hook ~= "swinging" then return end
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
  local was_bank, was_in = s.landing and s.landing.bank, s.cast_in
  update_landing()
  if s.phase == "play" then
    -- the clock runs while the hook swings (not while a free cast is on the bank)
    game.patience = game.patience - 1 / TICK
    s.cast_in = math.max(0, math.ceil(game.patience - 1e-9))
    if game.patience <= 1e-9 then too_slow() end
  end
  if s.landing.bank ~= was_bank or s.cast_in ~= was_in then show_hint() end
end

return game
