-- Rocks: one wrap-around world does the work.

local function named(g, name)
  local found = {}
  for _, b in ipairs(g:balls()) do
    if b.name == name then found[#found + 1] = b end
  end
  return found
end

-- The rocks' kinetic energy (their masses go as radius squared).
local function rock_energy(g)
  local e = 0
  for _, r in ipairs(named(g, "rock")) do e = e + r.radius * r.radius * (r.vx * r.vx + r.vy * r.vy) end
  return e
end

test("space starts a run: a wave of three big rocks and the ship in the middle, in one world", function(t)
  local g = t:start{ seed = 1 }
  g:key("space"):step()
  local s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.rocks):to_equal(3)
  expect(#named(g, "rock")):to_equal(3)
  local ship = named(g, "ship")[1]
  expect(ship.x):to_be_near(40, 1e-9)
  expect(ship.y):to_be_near(24, 1e-9)
  expect(g:stats().worlds):to_equal(1)
end)

test("the field wraps: thrusting up, the ship leaves the top and comes back at the bottom", function(t)
  local g = t:start{ seed = 2 }
  g:key("space"):key("up"):step()
  local _, _, width, height = g:size()
  local wrapped = false
  local last = named(g, "ship")[1].y
  for _ = 1, 180 do
    g:step()
    local ship = named(g, "ship")[1]
    expect(ship.y >= 0 and ship.y < height and ship.x >= 0 and ship.x < width, "inside the canvas"):to_be(true)
    if ship.y - last > height / 2 then wrapped = true end
    last = ship.y
  end
  expect(wrapped, "came back at the bottom"):to_be(true)
end)

test("shots split rocks into smaller ones, and neither the split nor the bullets speed rocks up", function(t)
  local g = t:start{ seed = 3 }
  g:key("space"):step()
  local energy = rock_energy(g)
  local steps = 0
  while g:state().score == 0 and steps < 1200 do
    -- click on the first rock: the ship turns to it and fires
    local rock = named(g, "rock")[1]
    g:click(math.floor(rock.x), math.floor(rock.y / 2)):step()
    steps = steps + 1
    if g:state().score == 0 then
      -- bullets are sensors: they never shove a rock
      expect(rock_energy(g) <= energy * (1 + 1e-9), "no rock gains speed from a bullet"):to_be(true)
      energy = rock_energy(g)
    end
  end
  local s = g:state()
  expect(s.score):to_equal(20)
  expect(s.rocks):to_equal(4)
  local small = 0
  for _, r in ipairs(named(g, "rock")) do
    if r.radius < 6 then small = small + 1 end
  end
  expect(small):to_equal(2)
  -- the two pieces start on top of each other: they are pushed apart without gaining speed
  energy = rock_energy(g)
  for _ = 1, 30 do
    g:step()
    expect(rock_energy(g) <= energy * (1 + 1e-9), "the split pieces fly apart no faster than thrown"):to_be(true)
    energy = rock_energy(g)
  end
end)

test("a click turns the ship towards it and fires; bullets run out after a while", function(t)
  local g = t:start{ seed = 4 }
  g:key("space"):step()
  g:click(70, 12):step()
  expect(g:state().shots):to_equal(1)
  expect(#named(g, "bullet")):to_equal(1)
  local bullet = named(g, "bullet")[1]
  expect(bullet.vx > 0, "towards the click, to the right"):to_be(true)
  g:wait(1)
  expect(#named(g, "bullet")):to_equal(0)
end)
