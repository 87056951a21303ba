-- tiny: exercises timers, input, state and randomness for the host tests.
local helpers = require("helpers")
local shared = require("lib.shared")

local game = {}

function game.load(ctx)
  local s = game.state
  s.ticks = 0
  s.keys = {}
  s.clicks = {}
  s.once = 0
  s.repeats = 0
  s.rolls = {}
  s.size = { ctx.width, ctx.height }
  s.greeting = shared.greet("tiny")
  game.label = arcade.scene.text{ x = 2, y = 2, anchor_x = 0, anchor_y = 0, text = "tiny: no keys yet", color = "white" }
  arcade.after(0.5, function() s.once = s.once + 1 end)
  s.pulse = 0
  game.pulse = arcade.every(0.1, function()
    s.repeats = s.repeats + 1
    if s.repeats == 5 then game.pulse:cancel() end
  end)
end

function game.input(e)
  local s = game.state
  if e.type == "key" then
    s.keys[#s.keys + 1] = helpers.describe_key(e)
    game.label.text = "tiny: " .. #s.keys .. " keys, last " .. s.keys[#s.keys]
    if e.key == "r" then s.rolls[#s.rolls + 1] = math.random(1, 1000) end
  elseif e.type == "mouse" and e.action == "press" then
    s.clicks[#s.clicks + 1] = { e.x, e.y }
  elseif e.type == "resize" then
    s.size = { e.width, e.height }
  end
end

function game.update(dt)
  game.state.ticks = game.state.ticks + 1
  game.state.time = arcade.time()
end

return game
