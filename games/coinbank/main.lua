-- Coin bank: feed the pig. The piggy bank walks to and fro along the top band; a press of
-- "Show me the money" sends the article's 300 coins arcing up from below the screen to a
-- fixed drop point (the ring, 20 above where the article's bank stands). A coin that arrives
-- while the pig is under the ring goes in (the pig counts it); one that arrives when it is
-- not there tumbles off and falls out of the bottom, lost. A coin flies 1 s and one is
-- launched every 0.01 s, so a burst lands over 3 s: the player's decision is *when* to press.
-- A level asks for a target within 5 bursts; running out of bursts ends the run.
-- Every coin's flight and tumble is one native animation: no Lua runs per coin per frame,
-- and each launch, of one coin or of the stress burst's dozens, is one native call.
--
-- game.state: phase ("ready", "play", "over"), score (coins banked this run), best (best
-- run), level, reason (while over), bursts_left, target, level_banked, drop { x, y },
-- bank { x, y, w, h, vx, hop } (the pig: its box, speed and whether it hops to turn),
-- banked (every coin the button ever banked), and of the burst under way: bursting,
-- burst_size, launched, arrived, burst_banked, lost, shaking, shakes, first (the first coin).

local COINS = 300              -- coins in a burst (the article's loop made 301; GAMES.md decides 300)
local STRESS_COINS = 10000     -- coins in the stress burst (key k); they are never banked
local LAUNCH_INTERVAL = 0.01   -- seconds between launches
local LAUNCHES = 300           -- launches a burst spans; a burst of more coins sends several per launch
local FLIGHT = 1.0             -- seconds a coin flies
local LIFT = 20 / 568          -- the article's "20 above the bank" on its 568 pt screen, as a share of the height
local SHAKE_ANGLE = 0.2        -- radians each way
local SHAKE_HALF = 0.1         -- seconds from one side to the other
local SHAKE_REPEATS = 3
local PIG_SHARE_W = 0.25       -- the shaken pig spans at most this share of the width,
local PIG_SHARE_H = 0.25       -- and of the height
local BUTTON_TEXT = "Show me the money"
local START_TEXT = "Start"
local AGAIN_TEXT = "Play again"
local BUTTON_ROW = 0.6         -- the button's place, as a share of the height
local COIN_SIZE = 4            -- pixels: coins start this far below the bottom edge
local BACKGROUND = "#14182a"   -- the night behind the pig; the HUD text is set on it, so coins never hide it
local LARGE_ROWS = 40          -- from this many rows the HUD's numbers are in the pixel font

-- The game (GAMES.md, wave 4: "feed the pig")
local BURSTS = 5               -- bursts a level gives
local TARGET_FIRST = 500       -- coins level 1 asks for
local TARGET_STEP = 100        -- each level asks this many more
local PASS_TIME = 7            -- seconds the pig takes from one edge to the other at level 1
local SPEEDUP = 1.1            -- each level the pig walks this much faster
local TURN_LEVEL = 3           -- from this level the pig sometimes turns mid-way
local TURN_CHANCE = 0.35       -- the chance a walk has a mid-way turn at level 3,
local TURN_CHANCE_STEP = 0.1   -- and this much more each level after (at most TURN_CHANCE_MAX)
local TURN_CHANCE_MAX = 0.7
local HOP_LEAD = 0.4           -- the hop that warns of a turn starts this many seconds before it
local HOP_TIME = 0.35          -- the hop's length
local HOP_HEIGHT = 2           -- pixels (times the pig's scale)
local CATCH_HALF = 7           -- sprite pixels either side of the pig's middle that take a coin (its body)
local TUMBLE_TIME = 0.9        -- seconds a missed coin takes to tumble out of the bottom
local WOBBLE_EVERY = 20        -- the pig's belly wobbles every this many coins banked
local LEVEL_BANNER = 1.6       -- seconds the "level n" banner stays
local OVER_GUARD = 0.6         -- seconds after a run ends before a press starts the next

local coinflight = require("lib.coinflight")  -- the flight itself: path, squash and shrink
local button = require("lib.button")
local hitbox = require("lib.hitbox")
local pixelscale = require("lib.pixelscale")

local function grouped(n)      -- 10000 -> "10,000"
  local s = tostring(n)
  local head = #s % 3
  local out = head > 0 and s:sub(1, head) or ""
  for i = head + 1, #s, 3 do out = out .. (out ~= "" and "," or "") .. s:sub(i, i + 2) end
  return out
end

local STRESS_HINT = "k: " .. grouped(STRESS_COINS) .. " coins"
local READY_HINT = "space / enter / click Start: play · " .. STRESS_HINT
local PLAY_HINT = "space / enter / click: show me the money"
local OVER_HINT = "space / enter / click: play again · " .. STRESS_HINT
local STRESS_BURST_HINT = "stress test: " .. grouped(STRESS_COINS) .. " coins, not banked"

-- What load builds lives in file-level locals declared without a value: a hot reload runs
-- this file again and gives every local it leaves nil its old value, so the running game
-- keeps its nodes, its coins in flight and its layout (a local given a value here, like the
-- constants above, takes the new one).
local game = {}
local W, H, ROWS
local pig, pig_sprite, ring, slot_mark, money_button, counter, hint, card, title, banner, banner_timer
local hud                      -- the large HUD: { caps = { text nodes }, nums = { labels } }
local bank_image, gold, silver
local tx, ty                   -- the drop point, where coins arrive
local pig_n                    -- the pig's pixel scale
local pig_u, pig_dir           -- where the pig is along its walk (0 left .. 1 right) and which way it goes
local turn_u                   -- where the pig turns mid-way on this walk, or nil
local turn_warned              -- the hop before that turn has started
local hop_anim, wobble_anim
local over_at                  -- game time the run ended
local chimed, thudded = -1, -1 -- game time of the last coin's chime and of the last miss's thud
local CHIME_GAP = 0.08         -- decided: a burst's coins chime at most this often, its misses thud at most
local THUD_GAP = 0.3           -- this often, so a burst of 300 stays a pleasant patter
local stress_box               -- the hint's "k: 10,000 coins", clickable: { x, y, w, h }
local launcher                 -- the launch timer of the burst under way
-- Coins fly in a layer: a group whose children use the canvas coordinates of the layout
-- they were launched in. After a resize a new layer takes the new coins, and each older
-- layer is mapped onto the new canvas by its own transform, so the coins already in flight
-- keep flying to the drop point wherever it now is. A layer goes when its last coin is gone.
local layers                   -- { node, w, h, tx, ty, flying }; the last one takes new coins

-- The pig's walk, in canvas pixels: its middle goes from lo to hi.
local function walk_range()
  local iw = bank_image.width * pig_n
  local lo = iw / 2 + 1
  return lo, W - iw / 2 - 1
end

local function pig_x()
  local lo, hi = walk_range()
  return lo + pig_u * (hi - lo)
end

-- Seconds the pig takes from edge to edge at this level.
local function pass_time()
  return PASS_TIME / SPEEDUP ^ ((game.state.level or 1) - 1)
end

local function walking()
  return game.state.phase == "play"
end

local function target_for(level)
  return TARGET_FIRST + TARGET_STEP * (level - 1)
end

local function show_hud()
  local s = game.state
  local large = ROWS >= LARGE_ROWS
  if s.phase == "ready" then
    counter.text = "best run " .. grouped(s.best) .. " · banked " .. grouped(s.banked) .. " in all"
  elseif large then
    counter.text = ""
  else
    counter.text = "score " .. grouped(s.score) .. " · level " .. s.level .. " · " .. s.level_banked .. "/" .. s.target
                   .. " coins · bursts " .. s.bursts_left .. " · best " .. grouped(s.best)
  end
  local show = large and s.phase ~= "ready"
  for _, n in ipairs(hud.caps) do n.visible = show end
  for _, n in ipairs(hud.nums) do n.visible = show end
  if show then
    hud.caps[1].text = "score (best " .. grouped(s.best) .. ")"
    hud.caps[2].text = "level " .. s.level .. ": coins in the pig"
    hud.caps[3].text = "bursts left"
    hud.nums[1].text = tostring(s.score)
    hud.nums[2].text = s.level_banked .. "/" .. s.target
    hud.nums[3].text = tostring(s.bursts_left)
    -- the pig's count sits in the middle of the room the other two leave
    local left = hud.nums[1].x + hud.nums[1].width
    local right = hud.nums[3].x - hud.nums[3].width
    hud.nums[2].x = math.floor((left + right) / 2)
    hud.caps[2].x = hud.nums[2].x - hud.nums[2].width // 2
  end
end

local function set_button(visible)
  local s = game.state
  local text = s.phase == "ready" and START_TEXT or s.phase == "over" and AGAIN_TEXT or BUTTON_TEXT
  if money_button.caption.text ~= text then
    money_button.caption.text = text
    button.resize(money_button, utf8.len(text) + 4, 6)
    button.place(money_button, math.floor((W - money_button.box.w) / 2), H * BUTTON_ROW)
  end
  button.show(money_button, visible)
  s.button_visible = visible
end

local function show_hint()
  local s = game.state
  if s.bursting and s.burst_size == STRESS_COINS then
    hint.text = STRESS_BURST_HINT
  elseif s.phase == "ready" then
    hint.text = READY_HINT
  elseif s.phase == "over" then
    hint.text = OVER_HINT
  elseif s.bursting then
    hint.text = s.burst_banked .. " coins in the pig, " .. s.lost .. " lost"
  elseif s.arrived > 0 then
    hint.text = "last burst: " .. s.burst_banked .. " in, " .. s.lost .. " lost · " .. PLAY_HINT
  else
    hint.text = PLAY_HINT
  end
  stress_box.visible = not s.bursting and s.phase ~= "play"
  stress_box.x = hint.x + utf8.len(hint.text) - utf8.len(STRESS_HINT)
end

local function show_card()
  local s = game.state
  local lines
  if s.phase == "ready" then
    lines = { "FEED THE PIG", "", "coins fly 1 s and land over 3 s at the ring;",
              "the pig must be under the ring when they land.",
              "level 1: " .. TARGET_FIRST .. " coins in " .. BURSTS .. " bursts" }
  elseif s.phase == "over" then
    lines = { string.upper(s.reason or ""), "",
              "score " .. grouped(s.score) .. " · level " .. s.level,
              s.new_best and "new best!" or ("best " .. grouped(s.best)) }
  end
  card.visible = lines ~= nil
  title.visible = false
  if not lines then return end
  if ROWS >= LARGE_ROWS then
    -- from 40 rows the title is in the pixel font, above the rest of the card
    title.text = lines[1]
    title.visible = true
    table.remove(lines, 1)
    table.remove(lines, 1)
    title.x, title.y = card.x, card.y - #lines - 5
  end
  card.text = table.concat(lines, "\n")
end

-- The pig's pixel scale for a w x h canvas: the largest whole number at which the shaken
-- pig stays within its shares of the width and the height (at least 1).
local function shaken_reach()
  local iw, ih = bank_image.width, bank_image.height
  local c, s = math.cos(SHAKE_ANGLE), math.sin(SHAKE_ANGLE)
  return iw * c + ih * s, iw * s + ih * c
end

local function place_pig()
  local s = game.state
  local iw, ih = bank_image.width * pig_n, bank_image.height * pig_n
  local x = pig_x()
  pig.x = x
  local left = x - iw / 2
  local vx = 0
  if walking() then
    local lo, hi = walk_range()
    vx = pig_dir * (hi - lo) / pass_time()
  end
  s.bank.x, s.bank.w, s.bank.h, s.bank.vx = left, iw, ih, vx
  s.bank.hop = hop_anim ~= nil
  pig_sprite.scale_x = pig_n * (pig_dir < 0 and -1 or 1)
end

local function new_layer()
  local layer = { node = arcade.scene.group{ x = 0, y = 0, z = 2 }, w = W, h = H, tx = tx, ty = ty, flying = 0 }
  layers[#layers + 1] = layer
  return layer
end

-- Maps a layer's coordinates onto the canvas as laid out now: across, its width onto the
-- width and its target onto the target; down, its launch line below the bottom edge onto
-- the new one and its target onto the target.
local function place_layer(layer)
  local sx = W / layer.w
  local sy = (H + COIN_SIZE - ty) / (layer.h + COIN_SIZE - layer.ty)
  layer.node:set{ x = tx - sx * layer.tx, y = ty - sy * layer.ty, scale_x = sx, scale_y = sy }
end

-- Places everything for a w x h pixel canvas (at load and on resize).
local function layout(w, h, rows)
  W, H, ROWS = w, h, rows
  local s = game.state
  local reach_w, reach_h = shaken_reach()
  pig_n = pixelscale.fit(PIG_SHARE_W * W, PIG_SHARE_H * H, reach_w, reach_h)
  local iw, ih = bank_image.width * pig_n, bank_image.height * pig_n
  local large = ROWS >= LARGE_ROWS
  local hud_h = large and 12 or 2
  -- room above the pig for its hop and for the corners of its shake
  local top = hud_h + math.max(HOP_HEIGHT * pig_n, math.ceil((reach_h * pig_n - ih) / 2)) + 1
  s.bank = s.bank or {}
  s.bank.y = top
  pig_sprite.scale_y = pig_n
  pig.y = top + ih / 2
  tx, ty = W / 2, pig.y - LIFT * H
  s.drop = { x = tx, y = ty }
  ring:set{ x = tx, y = ty, radius = 1.5 * pig_n }
  slot_mark:set{ x = math.floor(tx), y = hud_h, width = 1, height = top - hud_h - HOP_HEIGHT * pig_n + 1 }
  place_pig()
  button.place(money_button, math.floor((W - money_button.box.w) / 2), H * BUTTON_ROW)
  hint.y = H - 2
  stress_box.y = hint.y
  -- the card and the banner: between the pig's band and the button
  local band_bottom = top + ih + 2
  card.x, card.y = W // 2, math.floor(band_bottom + (money_button.box.y - band_bottom) * (ROWS >= LARGE_ROWS and 0.6 or 0.5))
  banner.x, banner.y = W // 2, card.y
  -- the large HUD: captions on the top row, numbers under them
  local font = W >= 120 and "large" or "small"
  for _, n in ipairs(hud.nums) do n.font = font end
  hud.caps[1].x, hud.nums[1].x = 1, 1
  hud.caps[3].x, hud.nums[3].x = W - 3, W - 3
  for i = 1, 3 do hud.nums[i].y = 3 end
  -- new coins go to a layer in the new layout: the last one, started over when it is
  -- empty, or else a new one; every older layer follows the new layout
  local current = layers[#layers]
  if not current or current.flying > 0 then
    new_layer()
  else
    current.w, current.h, current.tx, current.ty = W, H, tx, ty
    current.node:set{ x = 0, y = 0, scale_x = 1, scale_y = 1 }
  end
  for i = 1, #layers - 1 do place_layer(layers[i]) end
  show_hud()
end

-- A walk begins (at an edge or after a turn): from level 3 it may turn mid-way.
local function new_walk()
  turn_u, turn_warned = nil, false
  local s = game.state
  if s.level < TURN_LEVEL then return end
  local chance = math.min(TURN_CHANCE_MAX, TURN_CHANCE + TURN_CHANCE_STEP * (s.level - TURN_LEVEL))
  if math.random() >= chance then return end
  local room = pig_dir > 0 and 1 - pig_u or pig_u
  if room < 0.35 then return end
  turn_u = pig_u + pig_dir * room * (0.3 + 0.5 * math.random())
end

local function hop()
  hop_anim = arcade.animate(pig_sprite, { property = "y", values = { 0, -HOP_HEIGHT * pig_n, 0 },
                                          timings = { "easeOut", "easeIn" }, duration = HOP_TIME,
                                          fill = "removed" }, game.hopped)
end

function game.hopped()
  hop_anim = nil
end

local function wobble()
  if wobble_anim then return end
  wobble_anim = arcade.animate(pig_sprite, { property = "scale_y", values = { pig_n, pig_n * 1.2, pig_n * 0.9, pig_n },
                                             duration = 0.25, fill = "removed" }, game.wobbled)
end

function game.wobbled()
  wobble_anim = nil
end

local function end_run()
  local s = game.state
  s.phase = "over"
  s.reason = "out of bursts"
  over_at = arcade.time()
  local before = arcade.score.best()
  arcade.score.submit(s.score)
  s.new_best = s.score > 0 and (before == nil or s.score > before)
  s.best = arcade.score.best() or 0
  arcade.sfx.play(s.new_best and "best" or "over")
  arcade.save.set("total", s.banked)
  turn_u = nil
  set_button(true)
  show_card()
  show_hint()
  show_hud()
end

-- After a burst's last coin (and the shake, if the pig got any): the button comes back, or
-- the run ends when no bursts are left.
local function after_burst()
  local s = game.state
  s.shaking = false
  s.bursting = false
  if s.phase == "play" and s.bursts_left == 0 then
    end_run()
  else
    set_button(true)
    show_hint()
  end
end

function game.shake_done()
  game.state.shakes = game.state.shakes + 1
  after_burst()
end

local function finish()
  local s = game.state
  if s.burst_size ~= STRESS_COINS then
    arcade.save.set("total", s.banked)
  end
  if s.burst_size == STRESS_COINS or s.burst_banked > 0 then
    s.shaking = true
    arcade.animate(pig_sprite, { property = "rotation", from = -SHAKE_ANGLE, to = SHAKE_ANGLE, duration = SHAKE_HALF,
                                 autoreverse = true, repeat_count = SHAKE_REPEATS, fill = "removed" }, game.shake_done)
  else
    after_burst()
  end
end

function game.banner_done()
  banner.visible = false
  banner_timer = nil
end

local function level_up()
  local s = game.state
  s.level = s.level + 1
  s.target = target_for(s.level)
  s.level_banked = 0
  s.bursts_left = BURSTS
  arcade.sfx.play("levelup", { channel = 3 })
  banner.text = "level " .. s.level .. "! " .. s.target .. " coins in " .. BURSTS .. " bursts"
  banner.visible = true
  if banner_timer then banner_timer:cancel() end
  banner_timer = arcade.after(LEVEL_BANNER, game.banner_done)
  -- the pig walks faster from now on; a walk already under way may now turn
  if not turn_u then new_walk() end
  place_pig()
end

local function drop_layer(layer, count)
  layer.flying = layer.flying - (count or 1)
  if layer.flying == 0 and layer ~= layers[#layers] then
    layer.node:remove()
    for i = 1, #layers do
      if layers[i] == layer then table.remove(layers, i) break end
    end
  end
end

local function tumbled(coin, layer)
  coin:remove()
  drop_layer(layer)
end

-- A coin that found no pig: it bounces off the drop point and falls out of the bottom.
local function tumble(coin, layer)
  local side = math.random() < 0.5 and -1 or 1
  local from = { layer.tx, layer.ty }
  local reach = (6 + 10 * math.random()) * side
  local to = { layer.tx + reach * 2, layer.h + COIN_SIZE * 2 }
  local control = { layer.tx + reach, layer.ty - 6 - 4 * math.random() }
  arcade.animate(coin, {
    group = {
      { path = { from = from, control = control, to = to } },
      { property = "rotation", from = 0, to = side * 9 },
    },
    duration = TUMBLE_TIME,
    timing = "easeIn",
  }, function() tumbled(coin, layer) end)
end

local function arrive(coin, first, finished, layer)
  if not finished then return end
  local s = game.state
  if first then
    s.first.arrival = { x = coin.x, y = coin.y, scale_x = coin.scale_x, scale_y = coin.scale_y }
  end
  s.arrived = s.arrived + 1
  local counts = s.burst_size ~= STRESS_COINS
  if counts and math.abs(pig_x() - tx) > CATCH_HALF * pig_n then
    s.lost = s.lost + 1
    if arcade.time() - thudded >= THUD_GAP then
      thudded = arcade.time()
      arcade.sfx.play("lost", { channel = 2 })
    end
    tumble(coin, layer)
  else
    coin:remove()
    drop_layer(layer)
    if counts then
      s.banked = s.banked + 1
      s.score = s.score + 1
      s.level_banked = s.level_banked + 1
      s.burst_banked = s.burst_banked + 1
      -- the chime climbs a little as the burst fills the pig
      if arcade.time() - chimed >= CHIME_GAP then
        chimed = arcade.time()
        arcade.sfx.play("coin", { channel = 1, pitch = math.min(s.burst_banked // 10, 7) })
      end
      if s.burst_banked % WOBBLE_EVERY == 1 then wobble() end
      if s.level_banked >= s.target then level_up() end
    end
  end
  if counts then
    show_hud()
    show_hint()
  end
  if s.arrived == s.burst_size then finish() end
end

-- Stress coins that ended, `finished` of them at the drop point: they left the scene as
-- they ended and never count.
local function landed(finished, layer)
  local s = game.state
  s.arrived = s.arrived + finished
  drop_layer(layer, finished)
  if s.arrived == s.burst_size then finish() end
end

-- A launch's lists of numbers per coin, refilled by each launch: the native call copies
-- what it reads, so a stress burst's launches need not make three new lists each.
local from_x, arc_y, scales = {}, {}, {}
local random = math.random

-- Launches the burst's next `count` coins with one native call.
local function launch(count)
  local s = game.state
  local n = s.launched + 1
  s.launched = s.launched + count
  local layer = layers[#layers]
  for i = 1, count do
    from_x[i] = random() * W
    arc_y[i] = random() * ty           -- the article's fromY, in [0, ty): how high the arc goes
    scales[i] = 1 + random(0, 9) * 0.1
  end
  for i = count + 1, #from_x do from_x[i], arc_y[i], scales[i] = nil, nil, nil end
  local counts = s.burst_size ~= STRESS_COINS
  local first_id                       -- the burst's first coin, when this launch sends it
  layer.flying = layer.flying + count
  local coins = coinflight.launch_many({
    images = (n % 2 == 1) and { gold, silver } or { silver, gold }, from_x = from_x, from_y = H + COIN_SIZE,
    arc_y = arc_y, scale = scales, to = { tx, ty }, duration = FLIGHT, parent = layer.node,
    on_each = counts and function(c, finished) arrive(c, first_id ~= nil and finished and c.id == first_id, finished, layer) end
      or nil,
    on_done = not counts and function(finished) landed(finished, layer) end or nil,
    list = n == 1,                     -- only the burst's first coin is looked at
  })
  if n == 1 then
    local coin = coins[1]
    first_id = coin.id
    local from, to = { from_x[1], H + COIN_SIZE }, { tx, ty }
    s.first = {
      node = coin.id, frame = arcade.frame(), scale = scales[1], from = from,
      control = coinflight.control(from, to, arc_y[1]), to = to,
      start = { x = coin.x, y = coin.y, scale_x = coin.scale_x, scale_y = coin.scale_y },
    }
  end
end

local function burst(count)
  local s = game.state
  if s.bursting then return end
  s.bursting = true
  s.burst_size, s.launched, s.arrived, s.launches = count, 0, 0, 0
  s.burst_banked, s.lost = 0, 0
  if count ~= STRESS_COINS then s.bursts_left = s.bursts_left - 1 end
  set_button(false)
  show_hint()
  show_hud()
  launcher = arcade.every(LAUNCH_INTERVAL, function()
    s.launches = s.launches + 1
    -- spread the coins evenly over the launches: one each for 300 coins
    local upto = count * s.launches // LAUNCHES
    if s.launched < upto then launch(upto - s.launched) end
    if s.launched >= count then launcher:cancel() end
  end)
end

-- The stress burst: the article's scene, the pig still at the top centre; it never counts.
local function stress()
  local s = game.state
  if s.bursting or s.phase == "play" then return end
  pig_u, pig_dir = 0.5, 1
  place_pig()
  card.visible, title.visible = false, false
  burst(STRESS_COINS)
end

local function start_run()
  local s = game.state
  if s.bursting then return end
  s.phase = "play"
  s.score, s.level, s.level_banked = 0, 1, 0
  s.target = target_for(1)
  s.bursts_left = BURSTS
  s.reason, s.new_best = nil, false
  s.launched, s.arrived, s.burst_banked, s.lost = 0, 0, 0, 0
  pig_u = 0.5
  pig_dir = math.random() < 0.5 and -1 or 1
  new_walk()
  card.visible, title.visible = false, false
  set_button(true)
  show_hint()
  show_hud()
  place_pig()
end

-- What a press of space, enter or the button does now.
local function press()
  local s = game.state
  if s.phase == "ready" then
    start_run()
  elseif s.phase == "over" then
    if arcade.time() - over_at >= OVER_GUARD then start_run() end
  elseif s.button_visible and s.bursts_left > 0 then
    burst(COINS)
  end
end

function game.load(ctx)
  local s = game.state
  -- a score is one run's now: a best kept under the old rules is forgotten once
  require("lib.scorerules").adopt(2)
  s.banked = arcade.save.get("total") or 0
  s.best = arcade.score.best() or 0
  s.phase = "ready"
  s.score, s.level, s.level_banked, s.target, s.bursts_left = 0, 1, 0, target_for(1), BURSTS
  s.launched, s.arrived, s.shakes, s.burst_size, s.burst_banked, s.lost = 0, 0, 0, 0, 0, 0
  s.bursting, s.shaking, s.new_best = false, false, false
  arcade.scene.background(BACKGROUND)
  layers = {}
  pig_u, pig_dir = 0.5, 1
  over_at = 0
  stress_box = { x = 0, y = 0, w = #STRESS_HINT, h = 2, visible = true }
  bank_image = arcade.image_file("bank.sprite")
  gold = arcade.image_file("coin_gold.sprite")
  silver = arcade.image_file("coin_silver.sprite")
  -- the drop point: a ring under the coins (the pig covers it when it is there) and a slot
  -- mark from the HUD down to the pig's band, which nothing covers
  ring = arcade.scene.circle{ name = "ring", radius = 2, stroke = "#ffd23f", z = 1 }
  slot_mark = arcade.scene.rect{ name = "slot mark", anchor_x = 0.5, anchor_y = 0, fill = "#8a7a3a", z = 1 }
  -- the pig sits above the flying coins (z 2), which vanish behind it as they go in
  pig = arcade.scene.group{ name = "pig", z = 3 }
  pig_sprite = arcade.scene.sprite{ image = bank_image, parent = pig }
  money_button = button.new{ text = START_TEXT, fill = "#2c6e49", stroke = "#8fd694", z = 5 }
  -- the HUD, the card and the hint sit above the flying coins, on the night's colour
  counter = arcade.scene.text{ x = 1, y = 0, anchor_x = 0, anchor_y = 0, z = 4, text = "", color = "gold",
                               background = BACKGROUND }
  hint = arcade.scene.text{ x = 1, y = 0, anchor_x = 0, anchor_y = 0, z = 4, text = "", color = "gray",
                            background = BACKGROUND }
  card = arcade.scene.text{ name = "card", z = 4, text = "", color = "white", background = BACKGROUND, align = "center" }
  title = arcade.scene.label{ name = "title", z = 4, text = "", color = "gold", font = "large", visible = false }
  banner = arcade.scene.text{ name = "banner", z = 4, text = "", color = "#8fd694", background = BACKGROUND,
                              visible = false }
  hud = { caps = {}, nums = {} }
  for i = 1, 3 do
    local ax = i == 3 and 1 or 0
    hud.caps[i] = arcade.scene.text{ y = 0, anchor_x = ax, anchor_y = 0, z = 4, text = "", color = "gray",
                                     background = BACKGROUND }
    hud.nums[i] = arcade.scene.label{ name = ({ "score", "level count", "bursts" })[i], anchor_x = i == 2 and 0.5 or ax,
                                      anchor_y = 0, z = 4, text = "", color = "gold", font = "large" }
  end
  layout(ctx.width, ctx.height, ctx.rows)
  set_button(true)
  show_card()
  show_hint()
  show_hud()
end

function game.update(dt)
  local s = game.state
  if s.phase ~= "play" then
    if pig_u ~= 0.5 then
      -- between runs the pig walks back to the top centre and stands there
      local step = dt / PASS_TIME * 2
      if math.abs(pig_u - 0.5) <= step then pig_u, pig_dir = 0.5, 1
      else pig_dir = pig_u < 0.5 and 1 or -1; pig_u = pig_u + pig_dir * step end
    end
    place_pig()
    return
  end
  pig_u = pig_u + pig_dir * dt / pass_time()
  if pig_u >= 1 then
    pig_u, pig_dir = 2 - pig_u, -1
    new_walk()
  elseif pig_u <= 0 then
    pig_u, pig_dir = -pig_u, 1
    new_walk()
  elseif turn_u and (pig_u - turn_u) * pig_dir >= 0 then
    pig_dir = -pig_dir
    new_walk()
  end
  if turn_u and not turn_warned and (turn_u - pig_u) * pig_dir <= HOP_LEAD / pass_time() then
    turn_warned = true
    hop()
  end
  place_pig()
end

function game.input(e)
  if e.type == "key" then
    if e.key == "enter" or e.key == "space" then
      press()
    elseif e.key == "k" then
      stress()
    end
  elseif e.type == "mouse" then
    if e.action == "press" then
      if button.hit(money_button, e) then
        press()
      elseif stress_box.visible and hitbox.hit(stress_box, e) then
        stress()
      end
    end
  elseif e.type == "resize" then
    layout(e.width, e.height, e.rows)
    show_card()
  end
end

-- Leaving mid-burst keeps what had already gone into the pig.
function game.quit()
  local s = game.state
  arcade.save.set("total", s.banked)
  if s.phase == "play" and s.score > 0 then arcade.score.submit(s.score) end
end

return game
