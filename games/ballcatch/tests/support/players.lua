-- Ball catch: players for the tests, who see only what a player sees: the balls
-- (g:balls(): where they are and how they move), the paddle and the boxes on screen, and the
-- state fields the HUD shows.

local LIMIT = 60 * 120     -- steps: a run is cut at 120 s (a skilled run goes on longer)

-- The test's own generator (a small LCG), never the game's math.random.
local function lcg(seed)
  local x = seed * 7919 + 17
  return function(n)
    x = (x * 1103515245 + 12345) % 2147483648
    return x % n
  end
end

local function start(t, seed, cols, rows)
  local g = t:start{ seed = seed, cols = cols or 80, rows = rows or 24 }
  g:key("space"):step()
  return g
end


-- The random player: about 4 inputs a second: an arrow key or a mouse drag, uniformly.
local function random(g, seed, limit)
  limit = limit or LIMIT
  local rnd = lcg(seed)
  local cols, rows = g:size()
  local steps = 0
  while g:state().phase == "play" and steps < limit do
    local k = rnd(5)
    if k < 4 then
      g:key(({ "left", "right", "up", "down" })[k + 1]):step()
    else
      g:press(rnd(cols), 1 + rnd(rows - 1)):step()
      g:drag(rnd(cols), 1 + rnd(rows - 1)):step()
      g:release(rnd(cols), 1 + rnd(rows - 1))
    end
    g:step(13)
    steps = steps + 15
  end
end


-- Plays with purpose, with the mouse: picks the falling ball that comes down first within
-- reach, moves the paddle under where it will come down, and jabs up into it as it arrives,
-- pushing sideways towards the +5 box so that the batted ball rises under it.
local function skilled(g, limit, opts)
  limit = limit or LIMIT
  opts = opts or {}
  local _, _, W, H = g:size()
  local grav = 1000 * H / 667
  local r = W / 40
  local box = g:node("score1")
  local ph = g:node("paddle").height
  local home = H * (opts.home or 0.68)
  local jab = H * (opts.jab or 0.08)
  local lead = opts.lead or 0.1
  local steps = 0
  local p = g:state().paddle
  local gx, gy = math.floor(p.x), math.floor(p.y / 2)
  g:press(gx, gy):step()
  local dx, dy = p.x - gx, p.y - 2 * gy
  local function aim(x, y)
    g:drag(math.floor(x - dx + 0.5), math.floor((y - dy) / 2 + 0.5))
  end
  while g:state().phase == "play" and steps < limit do
    local s = g:state()
    p = s.paddle
    local top = home - ph / 2 - r
    local best, bt, bx
    for _, b in ipairs(g:balls()) do
      if b.y < top - 1 and (b.vy > 1 or b.y < H * 0.2) then
        -- when it comes down to the paddle's top: y + vy t + g t^2 / 2 = top
        local a, bb, c = grav / 2, b.vy, b.y - top
        local t = (-bb + math.sqrt(bb * bb - 4 * a * c)) / (2 * a)
        local x = b.x + b.vx * t
        if x > r and x < W - r and math.abs(x - p.x) < 3 * W * t + W * 0.1 and (not bt or t < bt) then
          best, bt, bx = b, t, x
        end
      end
    end
    if best then
      local side = box.x < bx and -1 or 1
      if bt < lead then
        aim(bx + side * W * (opts.push or 0.1), home - jab)
      else
        aim(bx - side * (opts.offset or 0) * W, home)
      end
    else
      aim(p.x, home)
    end
    g:step(2)
    steps = steps + 2
  end
end

-- Grabs the paddle with the mouse and returns a function that drags its centre to (x, y).
local function grab(g)
  local p = g:state().paddle
  local col, row = math.floor(p.x), math.floor(p.y / 2)
  g:press(col, row):step()
  local dx, dy = p.x - col, p.y - 2 * row
  return function(x, y)
    g:drag(math.floor(x - dx + 0.5), math.floor((y - dy) / 2 + 0.5))
  end
end

-- Waits for the newest ball to fall to just above the paddle, then drags the paddle under it
-- and lets go: the next step that moves the paddle up meets the ball.
local function under_next_ball(g)
  local paddle = g:node("paddle")
  g:step_until(function(_, h)
    local bs = h:balls()
    local b = bs[#bs]
    return #bs >= 2 and b.y > h:state().paddle.y - paddle.height / 2 - b.radius - 8 and b.vy > 0
  end, 300)
  local bs = g:balls()
  grab(g)(bs[#bs].x, g:state().paddle.y)
  g:step(4)
  g:release(0, 0)
end

return { lcg = lcg, start = start, random = random, skilled = skilled, LIMIT = LIMIT, grab = grab,
         under_next_ball = under_next_ball }
