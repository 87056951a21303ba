-- Three players for gift combo's runs, who see only what a player sees: the requests column
-- (game.state.requests: viewer, gift key, count, patience), the channels' cards and counters
-- (game.state.channels), the queue line (game.state.queue), the HUD numbers and the boxes of
-- what is drawn where (game.state.boxes). None of them reads the game's random draws.

local players = {}

-- What the palette shows: key k sends this sender's gift.
local PAIRS = {
  { sender = "Mia", gift = "Rose" },
  { sender = "Leo", gift = "Heart" },
  { sender = "Ava", gift = "Rocket" },
  { sender = "Kai", gift = "Cake" },
}
players.PAIRS = PAIRS

-- The test's own generator (a small LCG), never the game's math.random.
function players.lcg(seed)
  local x = seed * 7919 + 17
  return function(n)
    x = (x * 1103515245 + 12345) % 2147483648
    return (x >> 8) % n + 1
  end
end

-- How many of key k's gift the player has on its way: shown on a channel that is not leaving,
-- pressed and not ticked yet, and waiting in the queue line; and the count of one leaving.
function players.in_flight(s, k)
  local p = PAIRS[k]
  local n, leaving = 0, nil
  for _, ch in ipairs(s.channels) do
    if ch.sender == p.sender and ch.gift == p.gift then
      if ch.state == "end_animating" then
        leaving = ch.count
      else
        -- a row sliding in (no counter yet) holds the gift that brought it
        n = n + ch.count + ch.waiting + ((ch.state == "animating" and ch.count == 0) and 1 or 0)
      end
    end
  end
  for _, q in ipairs(s.queue) do
    if q.sender == p.sender and q.gift == p.gift then n = n + 1 end
  end
  return n, leaving
end

-- The skilled player: the oldest request first, pressed exactly its count, then the next
-- one (which the other channel, or the queue, takes). One press every `every` steps at most.
function players.skilled_press(s)
  for _, r in ipairs(s.requests) do
    local n = players.in_flight(s, r.gift)
    if n < r.count then return tostring(r.gift) end
  end
  return nil
end

-- Plays a run to its end (or `limit` seconds) and returns the state at the end.
-- policy: "idle", "random" or "skilled". The run is started with space.
function players.play(t, policy, seed, opts)
  opts = opts or {}
  local g = t:start{ seed = seed, cols = opts.cols or 80, rows = opts.rows or 24 }
  g:key("space"):step()
  local rnd = players.lcg(seed)
  local limit = (opts.limit or 600) * 60
  local keys = { "1", "2", "3", "4", "c", "space", "enter" }
  local cols, rows = g:size()
  local steps, last_press = 0, -100
  local s = g:state()
  while s.phase == "play" and steps < limit do
    if policy == "idle" then
      g:step(60)
      steps = steps + 60
    elseif policy == "random" then
      -- a key or a click at random about four times a second
      local pick = rnd(#keys + 1)
      if pick <= #keys then
        g:key(keys[pick])
      else
        g:click(rnd(cols) - 1, rnd(rows) - 1)
      end
      g:step(15)
      steps = steps + 15
    else
      local key = players.skilled_press(s)
      if key then g:key(key) end
      g:step(6)
      steps = steps + 6
    end
    s = g:state()
    if opts.each then opts.each(s, g) end
  end
  s.seconds = steps / 60
  return s, g
end

return players
