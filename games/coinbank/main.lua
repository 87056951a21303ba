-- Coin bank: press "Show me the money" and coins arc up from below the screen into the
-- piggy bank, shrinking as they fly; when the last one is in, the bank shakes.
-- Every coin's flight is one native animation: no Lua runs per coin per frame.

local COINS = 300              -- coins in a burst (the article's loop made 301; GAMES.md decides 300)
local STRESS_COINS = 10000     -- coins in the stress burst (key k)
local LAUNCH_INTERVAL = 0.01   -- seconds between launches
local LAUNCHES = 300           -- launches a burst spans; a burst of more coins sends several per launch
local FLIGHT = 1.0             -- seconds a coin flies
local LIFT = 20 / 568          -- the article's "20 above the bank" on its 568 pt screen, as a share of the height
local SHAKE_ANGLE = 0.2        -- radians each way
local SHAKE_HALF = 0.1         -- seconds from one side to the other
local SHAKE_REPEATS = 3
local BANK_TOP = 1             -- pixels between the top edge and the bank
local BUTTON_TEXT = "Show me the money"
local BUTTON_ROW = 0.6         -- the button's place, as a share of the height
local COIN_SIZE = 4            -- pixels: coins start this far below the bottom edge

local coinflight = require("lib.coinflight")  -- the flight itself: path, squash and shrink

local game = {}
local W, H
local bank, button, button_text, counter, hint
local bank_image, gold, silver
local tx, ty                   -- where coins land
local button_box = { x = 0, y = 0, w = 0, h = 6 }
local launcher                 -- the launch timer of the burst under way

local function show_count()
  counter.text = "banked " .. game.state.banked
end

local function set_button(visible)
  button.visible = visible
  game.state.button_visible = visible
end

-- Places everything for a w x h pixel canvas (at load and on resize).
local function layout(w, h)
  W, H = w, h
  bank.x = W / 2
  bank.y = BANK_TOP + bank_image.height / 2
  tx, ty = bank.x, bank.y - LIFT * H
  local bw = #BUTTON_TEXT + 4
  button_box.w = bw
  button_box.x = math.floor((W - bw) / 2)
  button_box.y = 2 * math.floor(H * BUTTON_ROW / 2)  -- on a cell boundary, so the text sits in the middle row
  button.x, button.y = button_box.x, button_box.y
  hint.y = H - 2
end

local function on_button(x, y)
  local b = button_box
  return x >= b.x and x < b.x + b.w and y >= b.y and y < b.y + b.h
end

local function shake_done()
  local s = game.state
  s.shakes = s.shakes + 1
  s.shaking = false
  s.bursting = false
  set_button(true)
end

local function finish()
  local s = game.state
  arcade.save.set("total", s.banked)
  arcade.score.submit(s.banked)  -- the best score is the lifetime total of coins banked
  s.shaking = true
  arcade.animate(bank, { property = "rotation", from = -SHAKE_ANGLE, to = SHAKE_ANGLE, duration = SHAKE_HALF,
                         autoreverse = true, repeat_count = SHAKE_REPEATS, fill = "removed" }, shake_done)
end

local function arrive(coin, first, finished)
  if not finished then return end
  local s = game.state
  if first then
    s.first.arrival = { x = coin.x, y = coin.y, scale_x = coin.scale_x, scale_y = coin.scale_y }
  end
  coin:remove()
  s.arrived = s.arrived + 1
  s.banked = s.banked + 1
  show_count()
  if s.arrived == s.burst_size then finish() end
end

local function launch()
  local s = game.state
  local n = s.launched + 1
  s.launched = n
  local from_x = math.random() * W
  local from_y = math.random() * ty        -- the article's fromY, in [0, ty): how high the arc goes
  local scale = 1 + math.random(0, 9) * 0.1
  local from, to = { from_x, H + COIN_SIZE }, { tx, ty }
  local control = coinflight.control(from, to, from_y)
  local first = n == 1
  local coin = coinflight.launch({ image = (n % 2 == 1) and gold or silver, from = from, to = to, control = control,
                                   scale = scale, duration = FLIGHT, z = 2 },
                                 function(c, finished) arrive(c, first, finished) end)
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
  s.launched, s.arrived, s.shakes, s.burst_size = 0, 0, 0, 0
  s.bursting, s.shaking = false, false
  arcade.scene.background("#14182a")
  bank_image = arcade.image_file("bank.sprite")
  gold = arcade.image_file("coin_gold.sprite")
  silver = arcade.image_file("coin_silver.sprite")
  bank = arcade.scene.sprite{ image = bank_image, z = 1 }
  button = arcade.scene.group{ z = 3 }
  local bw = #BUTTON_TEXT + 4
  arcade.scene.rect{ parent = button, x = 0, y = 0, anchor_x = 0, anchor_y = 0, width = bw, height = 6,
                     fill = "#2c6e49", stroke = "#8fd694" }
  button_text = arcade.scene.text{ parent = button, x = 2, y = 2, anchor_x = 0, anchor_y = 0,
                                   text = BUTTON_TEXT, color = "white" }
  -- the counter and the hint sit above the flying coins (z 2), placed by their top-left corner
  counter = arcade.scene.text{ x = 1, y = 0, anchor_x = 0, anchor_y = 0, z = 4, text = "", color = "gold" }
  hint = arcade.scene.text{ x = 1, y = 0, anchor_x = 0, anchor_y = 0, z = 4,
                            text = "k: " .. STRESS_COINS .. " coins", color = "gray" }
  layout(ctx.width, ctx.height)
  set_button(true)
  show_count()
end

function game.input(e)
  if e.type == "key" then
    if e.key == "enter" or e.key == "space" then
      burst(COINS)
    elseif e.key == "k" then
      burst(STRESS_COINS)
    end
  elseif e.type == "mouse" then
    if e.action == "press" and button.visible and on_button(e.x, e.y) then burst(COINS) end
  elseif e.type == "resize" then
    layout(e.width, e.height)
  end
end

function game.update(dt) end

return game
