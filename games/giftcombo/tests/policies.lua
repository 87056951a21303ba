-- GAMES.md (wave 4, gift combo): skill pays, idling and mashing do not. Over five seeds a
-- player who fills the oldest request exactly scores at least 3x one who presses keys and
-- clicks at random about four times a second, who loses the hearts; idling scores nothing.
local players = require("support.players")

local SEEDS = { 1, 2, 3, 4, 5 }

test("over five seeds: skilled scores at least 3x random, random loses its hearts, idle scores 0", function(t)
  local totals = { idle = 0, random = 0, skilled = 0 }
  local report = {}
  for _, seed in ipairs(SEEDS) do
    for _, policy in ipairs{ "idle", "random", "skilled" } do
      local s = players.play(t, policy, seed)
      totals[policy] = totals[policy] + s.score
      report[#report + 1] = ("%s seed %d: score %d, level %d, %d filled, %.0f s, %s"):format(
        policy, seed, s.score, s.level, s.filled, s.seconds, s.phase == "over" and s.reason or "still playing")
      if policy ~= "skilled" then
        expect(s.phase, policy .. " seed " .. seed .. " ran out of hearts"):to_equal("over")
        expect(s.hearts):to_equal(0)
      end
    end
  end
  for _, line in ipairs(report) do print(line) end
  print(("means: idle %.1f, random %.1f, skilled %.1f"):format(totals.idle / #SEEDS, totals.random / #SEEDS,
                                                              totals.skilled / #SEEDS))
  expect(totals.idle, "idle scores nothing"):to_equal(0)
  expect(totals.random, "random at least idle"):to_be_at_least(totals.idle)
  expect(totals.skilled, "skilled at least 3x random"):to_be_at_least(3 * totals.random)
  expect(totals.skilled, "skilled scores"):to_be_greater_than(0)
end)
