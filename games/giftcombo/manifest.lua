-- Gift combo: the arcade reads this file as data only.
return {
  id = "giftcombo",
  title = "Gift Combo",
  description = "Fill the viewers' requests: send a gift exactly N times on a stream's two combo channels before their patience runs out.",
  author = "arcade",
  version = "2.0.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "space / enter", "start a run; again after it ends" },
    { "click START/AGAIN", "start a run" },
    { "1 2 3 4", "send a gift: N presses fill a request N" },
    { "click a gift", "send that gift" },
    { "click a request", "send the gift it asks for" },
    { "c", "crowd demo on/off (outside a run)" },
    { "click crowd", "crowd demo on/off (outside a run)" },
  },
}
