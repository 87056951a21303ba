-- Fishing's sounds: the cast and its splash, a bite, the coins of a catch reaching the wallet,
-- and the day's end, each started in the step where it happens.

local function swinging_over_water(s)
  return s.hook == "swinging" and not s.landing.bank
end

test("a cast whooshes in the step of the key, and the hook splashes into the water as it lands", function(t)
  local g = t:start{ seed = 1 }
  g:step()
  g:step_until(swinging_over_water, 600)
  g:key("space"):step()
  local cast = g:sounds("cast")
  expect(#cast):to_equal(1)
  expect(cast[1].step):to_equal(g:frame())
  expect(cast[1].channel):to_equal(1)
  expect(#g:sounds("splash")):to_equal(0)
  g:step_until(function(s) return s.hook == "waiting" end, 600)
  local splash = g:sounds("splash")
  expect(#splash):to_equal(1)
  expect(splash[1].step):to_equal(g:frame())
end)

test("a bite bloops in the step the fish takes the hook; its coins chime into the wallet", function(t)
  local g = t:start{ seed = 2 }
  g:step()
  local bite_at
  for _ = 1, 20 do
    g:step_until(swinging_over_water, 600)
    g:key("space"):step()
    g:step_until(function(s) return s.hook == "waiting" end, 600)
    while g:state().hook == "waiting" do
      local before = g:state().incoming
      g:step()
      if g:state().incoming > before then bite_at = g:frame() break end
    end
    if bite_at then break end
    g:step_until(function(s) return s.hook == "swinging" end, 600)
  end
  expect(bite_at, "a bite in 20 casts"):to_be_truthy()
  local bites = g:sounds("bite")
  expect(#bites):to_equal(1)
  expect(bites[1].step):to_equal(bite_at)
  expect(bites[1].channel):to_equal(2)
  -- the catch comes up with the hook; its coins fly to the wallet and chime, a few at most
  g:step_until(function(s) return s.hook == "swinging" end, 600)
  g:wait(2)
  local coins = g:sounds("coin")
  expect(#coins):to_be_between(1, 8)
  for i = 2, #coins do
    expect(coins[i].step - coins[i - 1].step, "chimes apart"):to_be_at_least(3)
  end
end)

test("the day's end plays the best's fanfare on the first day, the plain ending after", function(t)
  local g = t:start{ seed = 3 }
  g:step()
  local function play_day()
    while g:state().phase ~= "over" do
      local s = g:state()
      if swinging_over_water(s) then g:key("space") end
      g:step(swinging_over_water(s) and 1 or 10)
    end
  end
  play_day()
  local last = g:sounds()[#g:sounds()]
  expect(g:state().new_best):to_be(true)
  expect(last.name):to_equal("best")
  g:wait(1):key("r"):step()
  expect(g:state().phase):to_equal("play")
  play_day()
  last = g:sounds()[#g:sounds()]
  expect(last.name):to_equal(g:state().new_best and "best" or "over")
end)
