-- Gift combo's run (GAMES.md, wave 4: fill the requests): a run starts on a key or a click,
-- a combo that leaves with exactly N fills a request for N, patience running out costs a
-- heart, no hearts end the run, the level rises every 5 fills, the crowd joins from level 4
-- and never delays the player's gifts.
local players = require("support.players")

-- The frame's text with the blanks of filled text backgrounds as spaces again.
local function shown(g)
  return (g:text():gsub("█", " "))
end

local function start(t, opts)
  local g = t:start(opts or { seed = 1 })
  g:key("space"):step()
  return g
end

-- Steps until there is a request, and returns it.
local function first_request(g)
  g:step_until(function(s) return #s.requests > 0 end, 120)
  return g:state().requests[1]
end

local function has_request(s, viewer)
  for _, r in ipairs(s.requests) do
    if r.viewer == viewer then return true end
  end
  return false
end

-- Presses key k n times, one press every other step (a quick player).
local function press(g, k, n)
  for _ = 1, n do g:key(tostring(k)):step(2) end
end

-- Steps until no channel shows key k's gift: its combo has left.
local function until_left(g, k)
  local gift = players.PAIRS[k].gift
  g:step_until(function(s)
    for _, ch in ipairs(s.channels) do
      if ch.gift == gift then return false end
    end
    return true
  end, 600)
end

test("before a run: a start card; space starts it, the first request comes within a second", function(t)
  local g = t:start{ seed = 1 }
  local s = g:state()
  expect(s.phase):to_equal("ready")
  expect(s.level):to_equal(1)
  expect(s.hearts):to_equal(3)
  expect(shown(g)):to_contain("FILL THE REQUESTS")
  expect(shown(g)):to_contain("START")
  g:key("space"):step()
  s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.score):to_equal(0)
  expect(shown(g)).never:to_contain("START")
  g:wait(1)
  s = g:state()
  expect(#s.requests):to_equal(1)
  local r = s.requests[1]
  expect(r.gift):to_be_between(1, 4)
  expect(r.count):to_be_between(2, 5)
  expect(r.patience):to_be_between(11, 12)
  for _, p in ipairs(players.PAIRS) do expect(r.viewer).never:to_equal(p.sender) end
  expect(g:text(), "the viewer's name on the card"):to_contain(r.viewer)
  expect(g:text(), "the count asked"):to_contain("x" .. r.count)
  g:wait(3)
  expect(#g:state().requests, "two at once at level 1"):to_equal(2)
  g:wait(10)
  expect(#g:state().requests, "never more than two at level 1"):to_be_at_most(2)
end)

test("a click on START starts a run; a click on a request sends its gift", function(t)
  local g = t:start{ seed = 2 }
  local b = g:state().boxes.button
  g:click(b.x + b.w // 2, (b.y + b.h // 2) // 2):step()
  expect(g:state().phase):to_equal("play")
  local r = first_request(g)
  local box = g:state().boxes.requests[1]
  for _ = 1, r.count do g:click(box.x + 2, box.y // 2):step(2) end
  local s = g:state()
  local sent = 0
  for _, ch in ipairs(s.channels) do
    if ch.gift == players.PAIRS[r.gift].gift then sent = sent + ch.count + ch.waiting + (ch.count == 0 and 1 or 0) end
  end
  expect(sent, "the clicks sent the request's gift"):to_equal(r.count)
  until_left(g, r.gift)
  expect(g:state().score, "filled by mouse"):to_equal(r.count)
end)

test("a combo that leaves with exactly N fills a request for N: N x level x streak", function(t)
  local g = start(t, { seed = 3 })
  local r = first_request(g)
  press(g, r.gift, r.count)
  expect(shown(g), "the card says to stop"):to_contain("stop")
  -- nothing is filled while the combo is still on its channel
  g:wait(2)
  expect(has_request(g:state(), r.viewer)):to_be(true)
  until_left(g, r.gift)
  local s = g:state()
  expect(has_request(s, r.viewer), "filled"):to_be(false)
  expect(s.score):to_equal(r.count * 1 * 1)
  expect(s.streak):to_equal(1)
  expect(s.filled):to_equal(1)
  expect(s.hearts):to_equal(3)
  expect(g:lines()[1]):to_contain("score " .. s.score)
end)

test("N + 1 does not fill it, and breaks the streak", function(t)
  local g = start(t, { seed = 4 })
  local r = first_request(g)
  press(g, r.gift, r.count)
  until_left(g, r.gift)
  expect(g:state().streak):to_equal(1)
  g:step_until(function(s) return #s.requests > 0 end, 300)
  r = g:state().requests[1]
  press(g, r.gift, r.count + 1)
  expect(shown(g), "the card warns"):to_contain("too many")
  until_left(g, r.gift)
  local s = g:state()
  expect(has_request(s, r.viewer), "still waiting"):to_be(true)
  expect(s.streak, "streak broken"):to_equal(0)
  expect(s.filled):to_equal(1)
  expect(shown(g)):to_contain("nobody asked")
end)

test("patience running out costs a heart; no hearts end the run, with the reason and the best", function(t)
  local g = start(t, { seed = 5 })
  local r = first_request(g)
  g:step_until(function(s) return s.hearts < 3 end, 60 * 13)
  local s = g:state()
  expect(s.hearts):to_equal(2)
  expect(has_request(s, r.viewer), "the viewer left"):to_be(false)
  expect(shown(g)):to_contain("gave up waiting")
  g:step_until(function(st) return st.phase == "over" end, 60 * 40)
  s = g:state()
  expect(s.hearts):to_equal(0)
  expect(s.reason):to_equal("the chat gave up")
  expect(shown(g)):to_contain("the chat gave up")
  expect(shown(g)):to_contain("AGAIN")
  expect(#s.requests):to_equal(0)
  -- space starts again
  g:key("space"):step()
  s = g:state()
  expect(s.phase):to_equal("play")
  expect(s.hearts):to_equal(3)
  expect(s.reason):to_be(nil)
end)

test("the best is the best run's score, kept across sessions, and a new best says so", function(t)
  local s, g = players.play(t, "skilled", 1, { limit = 40 })
  expect(s.score):to_be_greater_than(0)
  -- lose the rest of the run by idling
  g:step_until(function(st) return st.phase == "over" end, 60 * 200)
  s = g:state()
  expect(g:best()):to_equal(s.score)
  expect(s.best):to_equal(s.score)
  expect(s.new_best):to_be(true)
  expect(shown(g)):to_contain("new best")
  g = g:restart()
  expect(g:state().best):to_equal(s.score)
  expect(g:lines()[1]):to_contain("best " .. s.score)
  -- an idle run does not lower it, and does not say "new best"
  g:key("space"):step()
  g:step_until(function(st) return st.phase == "over" end, 60 * 60)
  expect(g:best()):to_equal(s.score)
  expect(shown(g)).never:to_contain("new best")
end)

test("the level rises every 5 fills, fills score N x level x streak (at most x5), the crowd joins at 4", function(t)
  local checked, crowd_seen, order_ok = 0, false, true
  local last_filled, last_score, last_streak, last_level = 0, 0, 0, 1
  local s = players.play(t, "skilled", 2, { each = function(st)
    expect(st.level, "level"):to_equal(1 + st.filled // 5)
    expect(st.streak):to_be_at_most(5)
    if st.filled > last_filled then
      expect(st.filled - last_filled, "one fill at a time"):to_equal(1)
      local n = tonumber(st.event:match("x(%d+)"))
      local streak = math.min(5, last_streak + 1)
      expect(st.score - last_score, "points for " .. st.event):to_equal(n * last_level * streak)
      checked = checked + 1
    end
    if st.level >= 4 then crowd_seen = crowd_seen or st.crowd end
    if st.level < 4 then expect(st.crowd, "no crowd before level 4"):to_be(false) end
    -- the player's gifts always wait before the crowd's
    local crowd_before = false
    for _, q in ipairs(st.queue) do
      if q.crowd then crowd_before = true elseif crowd_before then order_ok = false end
    end
    last_filled, last_score, last_streak, last_level = st.filled, st.score, st.streak, st.level
  end })
  expect(checked):to_be_greater_than(15)
  expect(s.level):to_be_at_least(5)
  expect(crowd_seen, "the crowd joined"):to_be(true)
  expect(order_ok, "the player's gifts first in the queue"):to_be(true)
end)

test("the crowd never delays the player's gift: it goes before every crowd gift waiting", function(t)
  local g = t:start{ seed = 9 }
  g:key("c"):step()
  g:step_until(function(s)
    local crowd = 0
    for _, q in ipairs(s.queue) do if q.crowd then crowd = crowd + 1 end end
    return crowd >= 3
  end, 60 * 60)
  g:key("c"):step()
  local before = g:state().queue
  g:key("4"):key("4"):step()
  local s = g:state()
  expect(s.queue[1], "first in the queue"):to_equal({ sender = "Kai", gift = "Cake" })
  expect(s.queue[2]):to_equal({ sender = "Kai", gift = "Cake" })
  expect(#s.queue):to_equal(#before + 2)
  -- the next channel to go idle takes Kai's cakes, both on one count
  g:step_until(function(st)
    for _, ch in ipairs(st.channels) do if ch.sender == "Kai" then return true end end
  end, 600)
  for i, ch in ipairs(g:state().channels) do
    if ch.sender == "Kai" then
      g:step_until(function(st) return st.channels[i].state == "will_end" end, 600)
      expect(g:state().channels[i].count):to_equal(2)
    end
  end
end)

test("a resize in a run lays the requests out again, bars still running", function(t)
  local g = start(t, { seed = 6 })
  g:wait(4)
  local before = g:state()
  expect(#before.requests):to_equal(2)
  g:resize(160, 50):step()
  local s = g:state()
  local panel = s.boxes.panel
  for k, box in ipairs(s.boxes.requests) do
    expect(box.x, "request " .. k):to_be_at_least(panel.x)
    expect(box.x + box.w):to_be_at_most(panel.x + panel.w)
    expect(box.y + box.h, "request " .. k .. " in the band"):to_be_at_most(panel.y + panel.h)
  end
  expect(g:text()):to_contain(s.requests[1].viewer)
  g:resize(80, 24):wait(1)
  expect(g:text()):to_contain(s.requests[2].viewer)
  expect(g:state().requests[1].patience):to_be_less_than(before.requests[1].patience)
end)

test("nothing of a finished run stays: its requests, timers and crowd are gone", function(t)
  local g = t:start{ seed = 7 }
  g:step(2)
  local base = g:stats()
  g:key("space"):step()
  g:wait(5)
  expect(g:stats().nodes):to_be_greater_than(base.nodes)
  g:step_until(function(s) return s.phase == "over" end, 60 * 60)
  g:wait(1)
  local after = g:stats()
  expect(after.timers, "timers"):to_equal(base.timers)
  expect(after.animations, "animations"):to_be_at_most(base.animations)
  expect(after.nodes, "nodes"):to_be_at_most(base.nodes + 6)
end)

test("golden frames: a run in play and the game-over card, at 80x24 and 160x50", function(t)
  for _, size in ipairs{ { 80, 24 }, { 160, 50 } } do
    local at = size[1] .. "x" .. size[2]
    local _, g = players.play(t, "skilled", 3, { cols = size[1], rows = size[2], limit = 50 })
    g:expect_golden("run-" .. at)
    g:step_until(function(s) return s.phase == "over" end, 60 * 120)
    g:wait(1)
    g:expect_golden("over-" .. at)
  end
end)
