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

-- The spec and the derived columns of the last launch_many, kept while its start height, end
-- point and duration stay the same (every launch of a burst shares them), so a launch builds
-- only the tables that change.
local shared = {}

-- a == b, telling 0 from -0 (which a native column keeps apart)
local function same(a, b)
  return a == b and (a ~= 0 or 1 / a == 1 / b)
end

local function shared_for(from_y, tx, ty, duration)
  local c = shared
  if c.spec and same(c.from_y, from_y) and same(c.tx, tx) and same(c.ty, ty) and same(c.duration, duration) then
    return c
  end
  c = { from_y = from_y, tx = tx, ty = ty, duration = duration,
        spec = { group = {
            { path = { from = { "fx", from_y }, control = { "cx", "cy" }, to = { tx, ty } } },
            { property = "scale_x", values = { "s", "s3", "s2" }, timings = EASES },
          },
          duration = duration },
        -- coinflight.control and the shrinking of coinflight.launch, worked out natively per coin
        cx = { of = "fx", minus = tx, times = 0.5, plus = tx },  -- tx + (fx - tx) / 2
        cy = { of = "arc", times = 0.5, plus = -ty },            -- arc / 2 - ty
        s3 = { of = "s", times = 0.75 }, s2 = { of = "s", times = 0.5 } }
  shared = c
  return c
end

-- Starts many coins with one native call (no Lua runs per coin while they fly):
-- `opts.from_x`, `opts.arc_y` and `opts.scale` are lists with one entry per coin, `opts.from_y`
-- the start height they share, `opts.images` the images coin k cycles through
-- (`images[(k - 1) % #images + 1]`), with `opts.to`, `opts.duration` and optional `opts.z` and
-- `opts.parent` as in `coinflight.launch`. `opts.on_each(coin, finished)` runs as each coin
-- ends (the caller removes it); without it, each coin leaves the scene as it ends. Then
-- `opts.on_done(finished_count)` runs once, after the last. Returns the list of coins, or
-- nothing when `opts.list` is false (no handle is then made per coin).
function coinflight.launch_many(opts)
  local fx, to = opts.from_x, opts.to
  local c = shared_for(opts.from_y, to[1], to[2], opts.duration)
  return arcade.animate_many(
    { count = #fx, images = opts.images, parent = opts.parent, z = opts.z,
      x = "fx", y = opts.from_y, scale_x = "s", scale_y = "s2" },
    c.spec,
    { columns = { fx = fx, arc = opts.arc_y, s = opts.scale, cx = c.cx, cy = c.cy, s3 = c.s3, s2 = c.s2 },
      remove = opts.on_each == nil, on_each = opts.on_each, on_done = opts.on_done, list = opts.list })
end

return coinflight
