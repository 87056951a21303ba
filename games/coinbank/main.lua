-- Coin bank: press "Show me the money" and coins arc up from below the screen into the
-- piggy bank, shrinking as they fly and vanishing behind it; when the last one is in, the
-- bank shakes. Every coin's flight is one native animation: no Lua runs per coin per frame.

local COINS = 300              -- coins in a burst (the article's loop made 301; GAMES.md decides 300)
local STRESS_COINS = 10000     -- coins in the stress burst (key k); they are never banked
local LAUNCH_INTERVAL = 0.01   -- seconds between launches
local LAUNCHES = 300           -- launches a burst spans; a burst of more coins sends several per launch
local FLIGHT = 1.0             -- seconds a coin flies
local LIFT = 20 / 568          -- the article's "20 above the bank" on its 568 pt screen, as a share of the height
local SHAKE_ANGLE = 0.2        -- radians each way
local SHAKE_HALF = 0.1         -- seconds from one side to the other
local SHAKE_REPEATS = 3
local BANK_SHARE_W = 0.6       -- the shaken bank spans at most this share of the width,
local BANK_SHARE_H = 0.45      -- and of the height (the rest is sky for the coins)
local BUTTON_TEXT = "Show me the money"
local BUTTON_ROW = 0.6         -- the button's place, as a share of the height
local COIN_SIZE = 4            -- pixels: coins start this far below the bottom edge
local BACKGROUND = "#14182a"   -- the night behind the bank; the HUD text is set on it, so coins never hide it

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
local IDLE_HINT = "space / enter / click: show me the money · " .. STRESS_HINT
local BURST_HINT = grouped(COINS) .. " coins flying into the bank"
local BANKED_HINT = grouped(COINS) .. " coins banked"
local STRESS_BURST_HINT = "stress test: " .. grouped(STRESS_COINS) .. " coins, not banked"

-- What load builds lives in file-level locals declared without a value: a hot reload runs
-- this file again and gives every local it leaves nil its old value, so the running game
-- keeps its nodes, its coins in flight and its layout (a local given a value here, like the
-- constants above, takes the new one).
local game = {}
local W, H
local bank, money_button, counter, hint
local bank_image, gold, silver
local tx, ty                   -- where coins land
local stress_box               -- the hint's "k: 10,000 coins", clickable: { x, y, w, h }
local launcher                 -- the launch timer of the burst under way
-- Coins fly in a layer: a group whose children use the canvas coordinates of the layout
-- they were launched in. After a resize a new layer takes the new coins, and each older
-- layer is mapped onto the new canvas by its own transform, so the coins already in flight
-- keep flying into the bank wherever it now is. A layer goes when its last coin has landed.
local layers                   -- { node, w, h, tx, ty, flying }; the last one takes new coins

local function show_count()
  counter.text = "banked " .. game.state.banked
end

local function set_button(visible)
  button.show(money_button, visible)
  game.state.button_visible = visible
end

local function show_hint()
  local s = game.state
  if not s.bursting then
    hint.text = IDLE_HINT
  elseif s.burst_size == STRESS_COINS then
    hint.text = STRESS_BURST_HINT
  elseif s.shaking then
    hint.text = BANKED_HINT
  else
    hint.text = BURST_HINT
  end
end

-- The width and height the bank's sprite spans when the shake has turned it furthest.
local function shaken_reach()
  local iw, ih = bank_image.width, bank_image.height
  local c, s = math.cos(SHAKE_ANGLE), math.sin(SHAKE_ANGLE)
  return iw * c + ih * s, iw * s + ih * c
end

-- The bank's pixel scale for a w x h canvas: the largest whole number at which the shaken
-- bank stays within its shares of the width and the height (at least 1).
local function bank_scale(w, h)
  local reach_w, reach_h = shaken_reach()
  return pixelscale.fit(BANK_SHARE_W * w, BANK_SHARE_H * h, reach_w, reach_h)
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
local function layout(w, h)
  W, H = w, h
  local s = game.state
  local n = bank_scale(W, H)
  local iw, ih = bank_image.width * n, bank_image.height * n
  local _, reach_h = shaken_reach()
  -- top-left on whole pixels, low enough that the shaken bank stays on screen
  local left, top = (W - iw) // 2, math.ceil((reach_h * n - ih) / 2)
  s.bank = { x = left, y = top, w = iw, h = ih }
  bank.scale = n
  bank.x, bank.y = left + iw / 2, top + ih / 2
  tx, ty = bank.x, bank.y - LIFT * H
  button.place(money_button, math.floor((W - money_button.box.w) / 2), H * BUTTON_ROW)
  hint.y = H - 2
  stress_box.x = hint.x + utf8.len(IDLE_HINT) - utf8.len(STRESS_HINT)
  stress_box.y = hint.y
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
end

local function shake_done()
  local s = game.state
  s.shakes = s.shakes + 1
  s.shaking = false
  s.bursting = false
  set_button(true)
  show_hint()
end

local function finish()
  local s = game.state
  if s.burst_size ~= STRESS_COINS then
    -- only what the button banked counts: the lifetime total, kept and submitted as the best
    arcade.save.set("total", s.banked)
    arcade.score.submit(s.banked)
    s.best = arcade.score.best() or 0
  end
  s.shaking = true
  show_hint()
  arcade.animate(bank, { property = "rotation", from = -SHAKE_ANGLE, to = SHAKE_ANGLE, duration = SHAKE_HALF,
                         autoreverse = true, repeat_count = SHAKE_REPEATS, fill = "removed" }, shake_done)
end

local function arrive(coin, first, finished, layer)
  if not finished then return end
  local s = game.state
  if first then
    s.first.arrival = { x = coin.x, y = coin.y, scale_x = coin.scale_x, scale_y = coin.scale_y }
  end
  coin:remove()
  layer.flying = layer.flying - 1
  if layer.flying == 0 and layer ~= layers[#layers] then
    layer.node:remove()
    for i = 1, #layers do
      if layers[i] == layer then table.remove(layers, i) break end
    end
  end
  s.arrived = s.arrived + 1
  if s.burst_size ~= STRESS_COINS then
    s.banked = s.banked + 1
    show_count()
  end
  if s.arrived == s.burst_size then finish() end
end

local function launch()
  local s = game.state
  local n = s.launched + 1
  s.launched = n
  local layer = layers[#layers]
  local from_x = math.random() * W
  local from_y = math.random() * ty        -- the article's fromY, in [0, ty): how high the arc goes
  local scale = 1 + math.random(0, 9) * 0.1
  local from, to = { from_x, H + COIN_SIZE }, { tx, ty }
  local control = coinflight.control(from, to, from_y)
  local first = n == 1
  layer.flying = layer.flying + 1
  local coin = coinflight.launch({ image = (n % 2 == 1) and gold or silver, from = from, to = to, control = control,
                                   scale = scale, duration = FLIGHT, parent = layer.node },
                                 function(c, finished) arrive(c, first, finished, layer) end)
  if first then
    s.first = {
      node = coin.id, frame = arcade.frame(), scale = scale, from = from, control = control, to = to,
      start = { x = coin.x, y = coin.y, scale_x = coin.scale_x, scale_y = coin.scale_y },
    }
  end
end

local function burst(count)
  local s = game.state
  if s.bursting then return end
  s.bursting = true
  s.burst_size, s.launched, s.arrived, s.launches = count, 0, 0, 0
  set_button(false)
  show_hint()
  launcher = arcade.every(LAUNCH_INTERVAL, function()
    s.launches = s.launches + 1
    -- spread the coins evenly over the launches: one each for 300 coins
    local upto = count * s.launches // LAUNCHES
    while s.launched < upto do launch() end
    if s.launched >= count then launcher:cancel() end
  end)
end

function game.load(ctx)
  local s = game.state
  s.banked = arcade.save.get("total") or 0
  s.best = arcade.score.best() or 0
  s.launched, s.arrived, s.shakes, s.burst_size = 0, 0, 0, 0
  s.bursting, s.shaking = false, false
  arcade.scene.background(BACKGROUND)
  layers = {}
  stress_box = { x = 0, y = 0, w = #STRESS_HINT, h = 2 }
  bank_image = arcade.image_file("bank.sprite")
  gold = arcade.image_file("coin_gold.sprite")
  silver = arcade.image_file("coin_silver.sprite")
  -- the bank sits above the flying coins (z 2), which vanish behind it as they land
  bank = arcade.scene.sprite{ image = bank_image, z = 3 }
  money_button = button.new{ text = BUTTON_TEXT, fill = "#2c6e49", stroke = "#8fd694", z = 3 }
  -- the counter and the hint sit above the flying coins, placed by their top-left corner
  counter = arcade.scene.text{ x = 1, y = 0, anchor_x = 0, anchor_y = 0, z = 4, text = "", color = "gold",
                               background = BACKGROUND }
  hint = arcade.scene.text{ x = 1, y = 0, anchor_x = 0, anchor_y = 0, z = 4, text = "", color = "gray",
                            background = BACKGROUND }
  layout(ctx.width, ctx.height)
  set_button(true)
  show_count()
  show_hint()
end

function game.input(e)
  if e.type == "key" then
    if e.key == "enter" or e.key == "space" then
      burst(COINS)
    elseif e.key == "k" then
      burst(STRESS_COINS)
    end
  elseif e.type == "mouse" then
    if e.action == "press" and game.state.button_visible then
      if button.hit(money_button, e) then
        burst(COINS)
      elseif hitbox.hit(stress_box, e) then
        burst(STRESS_COINS)
      end
    end
  elseif e.type == "resize" then
    layout(e.width, e.height)
  end
end

function game.update(dt) end

return game
