-- The design's proof (GAMES.md, wave 4): over five seeds a player who does nothing banks
-- nothing, one who mashes keys and clicks at random at a human rate banks little, and one
-- who presses so that the pig reaches the ring as the coins do banks at least twice as much.

local policies = require("support.policies")
local SEEDS = { 1, 2, 3, 4, 5 }

test("idle, random and skilled over five seeds: skilled banks at least 2x random", function(t)
  local totals = { idle = 0, random = 0, skilled = 0 }
  local lines = {}
  for _, seed in ipairs(SEEDS) do
    local idle = policies.play(t, "idle", seed, { limit = 30 })
    expect(idle.score, "idle score"):to_equal(0)
    local random, rt = policies.play(t, "random", seed)
    local skilled, st = policies.play(t, "skilled", seed)
    expect(random.phase, "the masher's run ended"):to_equal("over")
    expect(skilled.phase, "the skilled run ended"):to_equal("over")
    totals.idle = totals.idle + idle.score
    totals.random = totals.random + random.score
    totals.skilled = totals.skilled + skilled.score
    lines[#lines + 1] = string.format("seed %d: random %d (level %d, %.0f s), skilled %d (level %d, %.0f s)",
      seed, random.score, random.level, rt, skilled.score, skilled.level, st)
  end
  print(table.concat(lines, "\n"))
  print(string.format("means: idle %.0f, random %.0f, skilled %.0f, ratio %.2f", totals.idle / #SEEDS,
    totals.random / #SEEDS, totals.skilled / #SEEDS, totals.skilled / math.max(1, totals.random)))
  expect(totals.random, "random vs idle"):to_be_at_least(totals.idle)
  expect(totals.skilled, "skilled vs 2x random"):to_be_at_least(2 * totals.random)
end)
