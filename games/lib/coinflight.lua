-- Coin flight: the coin bank article's flight of one coin, shared by every game that pays out
-- coins. A coin flies a quadratic Bezier curve while it shrinks from (s, s/2) to s/2, easing
-- out over the first half and in over the second; the whole flight is one native animation.

local EASES = { "easeOut", "easeIn" }  -- coin bank article: the shrinking eases out, then in

local coinflight = {}

-- The article's control point: from the start `from` and the target `to`, with `arc_y` drawn
-- in [0, to[2]), so coins arc high before dropping in.
function coinflight.control(from, to, arc_y)
  return { to[1] + (from[1] - to[1]) / 2, arc_y / 2 - to[2] }
end

-- Starts one coin: `opts.image`, `opts.from` and `opts.to` ({ x, y }), `opts.control` (see
-- `coinflight.control`), `opts.scale`, `opts.duration` (seconds), optional `opts.z`,
-- `opts.parent` and `opts.delay`. `on_arrive(coin, finished)` runs when the flight ends; the
-- coin is the sprite node, still in the scene (the caller removes it). Returns the node.
function coinflight.launch(opts, on_arrive)
  local from, to, s = opts.from, opts.to, opts.scale
  -- squashed to half height from the start, which is also where the shrinking ends: the
  -- height never changes, so only the width is animated
  local coin = arcade.scene.sprite{ image = opts.image, x = from[1], y = from[2], z = opts.z, parent = opts.parent,
                                    scale_x = s, scale_y = s / 2 }
  arcade.animate(coin, {
    group = {
      { path = { from = from, control = opts.control, to = to } },
      { property = "scale_x", values = { s, s * 0.75, s / 2 }, timings = EASES },
    },
    duration = opts.duration,
    delay = opts.delay,
  }, function(finished) on_arrive(coin, finished) end)
  return coin
end

return coinflight
