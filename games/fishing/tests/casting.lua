-- Fishing: the swing, a cast's phases and cost, the winnings and the empty wallet.

-- The fishing article's coins per kind, restated so the game is checked against the article.
local COINS = { croaker = 2, grouper = 5, snapper = 10, striped = 20, coral = 50, shark = 100 }
-- The still scenery (sky, water, deep water, grass, earth): blank in the golden frames, so
-- the fish, the hook, the line and the text stand out.
local SCENERY = { "#1b2838", "#1d4e7a", "#163c60", "#4f8a3a", "#7a5a36" }

local function phase_is(name)
  return function(s) return s.phase == name end
end

test("the hook swings by the article's recurrence, turning past 45 degrees each way", function(t)
  local g = t:start{ seed = 1 }
  local limit = math.pi / 180 * 45
  local angle, back = 0, false
  local low, high = 0, 0
  for step = 1, 300 do
    local delta = 1.8 * math.cos(1.5 * angle) * 0.01
    if back then
      angle = angle - delta
      if angle < -limit then back = false end
    else
      angle = angle + delta
      if angle > limit then back = true end
    end
    g:step()
    expect(g:state().hook_angle, "the angle after step " .. step):to_be_near(angle, 1e-9)
    low, high = math.min(low, angle), math.max(high, angle)
  end
  expect(high):to_be_greater_than(limit)
  expect(low):to_be_less_than(-limit)
end)

test("a cast takes 10 coins, drops for 1 s, waits 3 to 5 s and reels in for 1 s", function(t)
  local g = t:start{ seed = 1 }
  g:step(20)
  expect(g:state().wallet):to_equal(200)
  g:key("space"):step()
  local s = g:state()
  expect(s.phase):to_equal("casting")
  expect(s.wallet, "taken when the cast starts"):to_equal(190)
  expect(g:text()):to_contain("190")
  g:key("space")  -- a press while the line is out does nothing
  expect(g:step_until(phase_is("waiting")), "steps of casting after the first"):to_equal(59)
  local wait = g:state().wait
  expect(wait):to_be_between(3, 5)
  expect(math.type(wait)):to_equal("integer")
  expect(g:step_until(phase_is("reeling")), "steps of waiting"):to_equal(wait * 60)
  expect(g:step_until(phase_is("swinging")), "steps of reeling after the first"):to_equal(59)
  expect(g:state().casts, "casts"):to_equal(1)
  expect(g:state().wallet):to_be_at_least(190)
end)

test("a catch pays the kind's coins when the reel-in starts", function(t)
  for seed = 1, 40 do
    local g = t:start{ seed = seed }
    g:step(30)
    g:key("enter"):step()
    g:step_until(phase_is("reeling"), 600)
    local s = g:state()
    local win = 0
    for kind, n in pairs(s.bites) do win = win + n * COINS[kind] end
    if win > 0 then
      expect(s.win, "the cast's winnings"):to_equal(win)
      expect(s.wallet, "paid at the start of the reel-in"):to_equal(200 - 10 + win)
      expect(g:save("wallet")):to_equal(s.wallet)
      g:step_until(phase_is("swinging"), 120)
      local caught = 0
      for _, n in pairs(g:state().caught) do caught = caught + n end
      expect(caught, "fish landed"):to_equal(#s.hooked_ids)
      expect(g:state().hooked_ids, "landed fish leave the hook"):to_equal({})
      return
    end
    g:close()
  end
  error("no seed in 1..40 caught a fish on the first cast")
end)

test("a cast on the bank is short and catches nothing", function(t)
  local g = t:start{ seed = 2 }
  g:step_until(function(s) return math.abs(s.hook_angle) > 0.75 end, 300)
  g:key("down"):step()
  local s = g:state()
  expect(s.on_bank):to_be(true)
  expect(g:step_until(phase_is("waiting"))):to_equal(29)
  expect(g:state().wait):to_equal(1)
  expect(g:state().biting, "no bites from the bank"):to_be(false)
  g:step_until(phase_is("swinging"), 200)
  expect(g:state().win):to_equal(0)
  expect(g:state().wallet):to_equal(190)
end)

test("with fewer than 10 coins a cast is refused, and r refills the wallet to 200", function(t)
  local g = t:start{ seed = 3, saves = { wallet = 5 } }
  g:step()
  expect(g:state().wallet):to_equal(5)
  g:key("space"):step()
  local s = g:state()
  expect(s.refused):to_be(true)
  expect(s.phase, "the hook keeps swinging"):to_equal("swinging")
  expect(s.casts):to_equal(0)
  expect(g:text()):to_contain("Not enough coins")
  g:blank(SCENERY):expect_golden("refused")
  g:key("r"):step()
  s = g:state()
  expect(s.wallet):to_equal(200)
  expect(s.refused):to_be(false)
  expect(g:text()).never:to_contain("Not enough coins")
  expect(g:save("wallet")):to_equal(200)
end)

test("golden frame: the hook swinging over the pond", function(t)
  local g = t:start{ seed = 1 }
  g:blank(SCENERY):step(40):expect_golden("swinging")
end)
