-- Gift combo: the arcade reads this file as data only.
return {
  id = "giftcombo",
  title = "Gift Combo",
  description = "Live-stream gift overlay: repeated gifts become combos.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "1 2 3 4", "send that gift (again: a combo)" },
    { "click the palette", "send the gift clicked" },
    { "c", "a crowd sends bursts, on or off" },
    { "click crowd", "a crowd sends bursts, on or off" },
  },
}
