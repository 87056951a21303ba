-- Gift combo: routing gifts to the two channels, the queue, will-end and the best combo.
-- Keys 1-4 send Mia's Rose, Leo's Heart, Ava's Rocket and Kai's Cake.

local function channel(g, i)
  return g:state().channels[i]
end

-- Steps until channel i is in `state`; returns the steps taken.
local function until_channel(g, i, state, limit)
  return g:step_until(function(s) return s.channels[i].state == state end, limit or 600)
end

test("the same gift twice is one channel counting x2; the other channel stays idle", function(t)
  local g = t:start{ seed = 1 }
  g:key("1"):step(5)
  g:key("1"):step()
  local ch = channel(g, 1)
  expect(ch.sender):to_equal("Mia")
  expect(ch.gift):to_equal("Rose")
  expect(channel(g, 2).state):to_equal("idle")
  until_channel(g, 1, "will_end")
  expect(channel(g, 1).count):to_equal(2)
  expect(g:text()):to_contain("[Rose]")
end)

test("a third gift waits, then takes a freed channel with its queued duplicates merged", function(t)
  local g = t:start{ seed = 1 }
  g:key("1"):key("2"):step()
  g:key("3"):key("3"):key("1"):step()
  local s = g:state()
  expect(s.channels[1].gift):to_equal("Rose")
  expect(s.channels[2].gift):to_equal("Heart")
  expect(#s.queue, "gifts queued"):to_equal(2)
  expect(s.queue[1]):to_equal({ sender = "Ava", gift = "Rocket" })
  expect(g:text()):to_contain("queue 2")

  -- both channels end their combos, wait 3 s, leave; the first to go idle takes the Rockets
  g:step_until(function(st) return st.channels[1].gift == "Rocket" or st.channels[2].gift == "Rocket" end, 600)
  s = g:state()
  expect(s.queue):to_have_length(0)
  expect(g:text()):to_contain("queue empty")
  local rocket = s.channels[1].gift == "Rocket" and 1 or 2
  until_channel(g, rocket, "will_end")
  expect(channel(g, rocket).count, "Rockets counted on one channel"):to_equal(2)
end)

test("one more of the same gift during will-end cancels the leaving", function(t)
  local g = t:start{ seed = 2 }
  g:key("2"):step()
  until_channel(g, 1, "will_end")
  g:wait(2)                       -- one second before it would leave
  expect(channel(g, 1).state):to_equal("will_end")
  g:key("2"):step()
  expect(channel(g, 1).state, "after one more"):to_equal("animating")
  until_channel(g, 1, "will_end")
  expect(channel(g, 1).count):to_equal(2)
  -- and now it leaves 3 s after its last tick: not before
  local waited = until_channel(g, 1, "end_animating")
  expect(waited, "steps of will-end"):to_be_between(179, 181)
  until_channel(g, 1, "idle", 30)
end)

-- GAMES.md (wave 4): the counter is honest. A press ticks at once when the counter shows and
-- its last tick is 0.08 s old; quicker presses wait and tick every 0.08 s, each with its pop.
test("each press ticks at once, or 0.08 s after the tick before it: the counter shows what was sent", function(t)
  local g = t:start{ seed = 3 }
  g:key("4"):step()
  until_channel(g, 1, "will_end")
  expect(channel(g, 1).count):to_equal(1)
  -- one press during will-end ticks in the same step
  g:key("4"):step()
  expect(channel(g, 1).count, "ticked at once"):to_equal(2)
  -- five presses in five steps: one ticks, the others wait and tick 0.08 s apart
  g:wait(0.2)
  local ticks = {}
  for k = 1, 5 do
    g:key("4"):step()
    local ch = channel(g, 1)
    expect(ch.count + ch.waiting, "sent so far"):to_equal(2 + k)
  end
  local last = channel(g, 1).count
  for _ = 1, 40 do
    g:step()
    local c = channel(g, 1).count
    if c ~= last then ticks[#ticks + 1] = g:frame() end
    last = c
  end
  expect(last, "all seven shown"):to_equal(7)
  for k = 2, #ticks do
    expect(ticks[k] - ticks[k - 1], "steps between two ticks"):to_be_between(4, 6)
  end
  expect(ticks[#ticks] - ticks[1], "four more ticks within a third of a second"):to_be_at_most(20)
  until_channel(g, 1, "will_end")
  expect(channel(g, 1).count):to_equal(7)
  expect(g:best() or 0, "practice outside a run never counts for the best"):to_equal(0)
end)

test("the crowd key sends gifts in bursts, none lost", function(t)
  local g = t:start{ seed = 4 }
  g:key("c"):wait(30)
  local s = g:state()
  expect(s.crowd):to_be(true)
  expect(s.sent, "gifts sent by the crowd in 30 s"):to_be_greater_than(20)
  g:key("c"):step()
  expect(g:state().crowd):to_be(false)
  -- every gift sent is shown as a tick once the channels and the queue run dry
  g:step_until(function(st)
    return #st.queue == 0 and st.channels[1].state == "idle" and st.channels[2].state == "idle"
  end, 60 * 120)
  s = g:state()
  expect(s.shown, "ticks shown"):to_equal(s.sent)
end)

test("golden frame: a combo at x3 mid-pop, with a second channel busy", function(t)
  local g = t:start{ seed = 1 }
  g:key("1"):key("2"):step()
  g:key("1"):key("1"):step()
  g:step_until(function(s) return s.channels[1].count == 3 end, 300)
  g:step(4):expect_golden("combo-x3")
end)

-- GAMES.md (Gift combo): the crowd's names in Chinese, Japanese and Korean and with emoji show
-- where the card says, each wide character in two cells, and the queue line names them too.
test("names in other scripts show on their card and in the queue, two cells a wide character", function(t)
  local g = t:start{ seed = 7 }
  g:key("c")
  g:step_until(function(s)
    for _, ch in ipairs(s.channels) do
      if ch.sender == "김지민" and ch.count >= 1 then return true end
    end
  end, 60 * 120)
  g:step(30)
  local s = g:state()
  local i = s.channels[1].sender == "김지민" and 1 or 2
  local name
  for _, part in ipairs(s.boxes.channels[i].parts) do
    if part.what == "name" then name = part end
  end
  expect(name.text):to_equal("김지민")
  expect(name.box.w, "three wide characters"):to_equal(6)
  local col, row = g:find("김지민")
  expect(col):to_equal(name.box.x)
  expect(row):to_equal(name.box.y // 2)
  expect(g:cell(col, row)):to_equal("김")
  expect(g:cell(col + 1, row)):to_equal("")
  expect(g:cell(col + 2, row)):to_equal("지")
  local cells = g:cells()
  for r, line in ipairs(cells) do expect(#line, "row " .. (r - 1) .. " in cells"):to_equal(80) end
  g:step_until(function(st) return st.queue[1] and st.queue[1].sender:find("[\128-\255]") end, 60 * 120)
  local first = g:state().queue[1].sender
  expect(g:lines()[s.boxes.hud_rows[2] + 1]):to_contain("next: " .. first)
end)
