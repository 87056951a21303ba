local game = {}

function game.load()
  game.state.alive = true
  arcade.after(0.25, function()
    local t = nil
    return t.field -- line 7: index a nil value inside a timer callback
  end)
end

function game.update(dt) end

return game
