-- Last Circle: the arcade reads this file as data only.
return {
  id = "lastcircle",
  title = "Last Circle",
  description = "Circles come back each round with one new: pick the new one before the bar fills.",
  author = "arcade",
  version = "1.1.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "space / enter", "start, or play again" },
    { "click the button", "start, or play again" },
    { "click a circle", "pick it (the one that is new)" },
    { "key drawn on it", "pick that circle" },
  },
}
