-- Fishing, wave 4: a day at the lake is a game and aiming pays. Three players who see only
-- what the screen shows (idle, a random masher, a skilled caster) over several seeds, and the
-- economy of a cast, which must not depend on the window.

local policy = require("support.policy")

-- a day's score swings with a coral or a shark on the hook: enough seeds to see through that
local SEEDS = { idle = 6, random = 10, skilled = 8 }
local COST = 10

local function mean(list)
  local sum = 0
  for _, v in ipairs(list) do sum = sum + v end
  return sum / #list
end

-- One day a seed with each player at the size; the scores, reasons and the expected coins a
-- charged cast returned (the bite chances times the coins of every fish that rolled).
local function days(t, size, name)
  local scores, reasons, casts, expected, won, steps = {}, {}, 0, 0, 0, 0
  for seed = 1, SEEDS[name] do
    local g = t:start{ seed = seed, cols = size[1], rows = size[2] }
    local r = policy.day(g, policy[name](seed * 31 + 7))
    scores[#scores + 1] = r.score
    reasons[r.reason] = (reasons[r.reason] or 0) + 1
    casts, expected, steps = casts + r.casts, expected + r.expected, steps + r.steps
    won = won + r.score - 100 + COST * (r.casts + r.lost)
    g:close()
  end
  return { scores = scores, mean = mean(scores), reasons = reasons, casts = casts,
           per_cast = casts > 0 and expected / casts or 0, won_per_cast = casts > 0 and won / casts or 0,
           seconds = steps / 60 / SEEDS[name] }
end

local function report(size, name, d)
  local reasons = {}
  for reason, n in pairs(d.reasons) do reasons[#reasons + 1] = reason .. " x" .. n end
  table.sort(reasons)
  print(string.format("%dx%d %-7s scores %s (mean %.1f), %s; %.0f s a day; a cast returns %.2f expected, %.2f won",
    size[1], size[2], name, table.concat(d.scores, " "), d.mean, table.concat(reasons, ", "), d.seconds,
    d.per_cast, d.won_per_cast))
end

-- Each player's days at a size, a test each (a test may run an hour of game time); the
-- last test of a size compares them.
for _, size in ipairs({ { 80, 24 }, { 160, 50 } }) do
  local seen = {}
  for _, name in ipairs({ "idle", "random", "skilled" }) do
    test(string.format("at %dx%d: the %s player's days", size[1], size[2], name), function(t)
      seen[name] = days(t, size, name)
      report(size, name, seen[name])
    end)
  end
  test(string.format("at %dx%d: idle scores about nothing, random at least that, skilled 1.5x random", size[1], size[2]),
    function()
    local idle, random, skilled = seen.idle, seen.random, seen.skilled
    expect(idle and random and skilled, "the three players played"):to_be_truthy()
    -- idle: the clock takes its casts and their coins; the day ends with the wallet empty
    expect(idle.reasons["out of coins"], "idle days end out of coins"):to_equal(SEEDS.idle)
    expect(idle.mean, "idle scores about nothing"):to_be_at_most(10)
    expect(random.mean, "random at least idle"):to_be_at_least(idle.mean)
    expect(skilled.mean, "skilled at least 1.5x random"):to_be_at_least(1.5 * random.mean)
    -- aimed casts win, on average: 120 % of their cost or more
    expect(skilled.per_cast, "expected return of an aimed cast"):to_be_at_least(1.2 * COST)
    -- a skilled day is a game of minutes
    expect(skilled.seconds):to_be_between(60, 300)
  end)
end

-- The economy at three sizes: a few hundred random-time casts (20 days) a size, in two tests
-- of 10 days (a test may run an hour of game time); the last compares the sizes.
local DAYS, HALVES = 10, 2
local tallies = {}
for _, size in ipairs({ { 80, 24 }, { 100, 30 }, { 160, 50 } }) do
  local label = size[1] .. "x" .. size[2]
  tallies[label] = { casts = 0, expected = 0, won = 0, halves = 0 }
  for half = 1, HALVES do
    test(string.format("at %s: random-time casts return 70-90 %% of their cost (days %d-%d)", label,
      (half - 1) * DAYS + 1, half * DAYS), function(t)
      local tally = tallies[label]
      for seed = (half - 1) * DAYS + 1, half * DAYS do
        local g = t:start{ seed = seed, cols = size[1], rows = size[2] }
        local r = policy.day(g, policy.random_time(seed))
        tally.casts, tally.expected = tally.casts + r.casts, tally.expected + r.expected
        tally.won = tally.won + r.score - 100 + COST * (r.casts + r.lost)
        g:close()
      end
      tally.halves = tally.halves + 1
      if tally.halves < HALVES then return end
      local per_cast = tally.expected / tally.casts
      print(string.format("%s: %d random-time casts return %.2f expected (%.0f %%), %.2f won", label,
        tally.casts, per_cast, per_cast * 10, tally.won / tally.casts))
      expect(tally.casts):to_be_at_least(300)
      expect(per_cast, label):to_be_between(0.7 * COST, 0.9 * COST)
    end)
  end
end

test("the return of a random-time cast is the same within 10 % at 80x24, 100x30 and 160x50", function()
  local returns = {}
  for _, tally in pairs(tallies) do
    if tally.halves == HALVES then returns[#returns + 1] = tally.expected / tally.casts end
  end
  expect(#returns, "the three sizes measured"):to_equal(3)
  local low, high = math.min(table.unpack(returns)), math.max(table.unpack(returns))
  expect(high / low, "the return of a cast does not depend on the window"):to_be_at_most(1.1)
end)
