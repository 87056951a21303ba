-- Ball catch (wave 4): three players who see only what a player sees (support/players.lua)
-- over several seeds: the design's proof that skill pays and idling and mashing do not.

local players = require("support.players")

local SEEDS = { 1, 2, 3, 4, 5 }

local function run(t, policy, seed, cols, rows)
  local g = players.start(t, seed, cols, rows)
  local live_on_idle = 0
  if policy == "idle" then
    g:step_until(function(s)
      live_on_idle = math.max(live_on_idle, s.live)
      return s.phase == "over"
    end, players.LIMIT)
  elseif policy == "random" then
    players.random(g, seed)
  else
    players.skilled(g)
  end
  return g:state(), g, live_on_idle
end

test("over 5 seeds: skilled scores at least 2x random's run, random at least idle's, idle nothing", function(t)
  local sums = { idle = 0, random = 0, skilled = 0 }
  for _, seed in ipairs(SEEDS) do
    local line = {}
    for _, policy in ipairs{ "idle", "random", "skilled" } do
      local s, g, live = run(t, policy, seed)
      sums[policy] = sums[policy] + s.score
      line[#line + 1] = ("%s %d (round %d, %.0f s, %s)"):format(policy, s.score, s.round, g:time(),
                                                            s.phase == "over" and s.reason or "still going")
      if policy == "idle" then
        -- the idle player loses: the pile overflows in the first rounds, and never a ball is live
        expect(s.phase):to_equal("over")
        expect(s.reason):to_equal("the box overflowed")
        expect(s.round, "seed " .. seed):to_be_at_most(2)
        expect(s.score):to_equal(0)
        expect(live, "live balls while idle"):to_equal(0)
      end
    end
    print(("seed %d: %s"):format(seed, table.concat(line, ", ")))
  end
  local n = #SEEDS
  print(("means: idle %.1f, random %.1f, skilled %.1f"):format(sums.idle / n, sums.random / n, sums.skilled / n))
  expect(sums.random):to_be_at_least(sums.idle)
  expect(sums.skilled):to_be_at_least(2 * sums.random)
  expect(sums.skilled / n, "a skilled run's mean"):to_be_greater_than(100)
end)

test("at 160x50 too: skilled banks far more than random", function(t)
  local random_sum, skilled_sum = 0, 0
  for _, seed in ipairs{ 6, 7 } do
    random_sum = random_sum + run(t, "random", seed, 160, 50).score
    skilled_sum = skilled_sum + run(t, "skilled", seed, 160, 50).score
  end
  print(("160x50, seeds 6 and 7: random %d, skilled %d"):format(random_sum, skilled_sum))
  expect(skilled_sum):to_be_at_least(2 * random_sum)
  expect(skilled_sum):to_be_greater_than(0)
end)
