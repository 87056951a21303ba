local game = {}

function game.load(ctx)
  game.state.ready = true

return game
