-- Score rules: when a game's score comes to mean something else (points where it counted
-- rounds, one run where it added up every run), the best kept under the old rules cannot be
-- compared with the new scores. `adopt(version)` forgets that best once, the first time the
-- game runs under rules `version`, and remembers it did in the game's own saves.

local scorerules = {}

local KEY = "score_rules"

function scorerules.adopt(version)
  if arcade.save.get(KEY) ~= version then
    arcade.score.reset()
    arcade.save.set(KEY, version)
  end
end

return scorerules
