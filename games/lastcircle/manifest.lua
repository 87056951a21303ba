-- Last Circle: the arcade reads this file as data only.
return {
  id = "lastcircle",
  title = "Last Circle",
  description = "Circles pop in one by one: pick the last before the bar fills.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "space / enter", "start, or play again" },
    { "click the button", "start, or play again" },
    { "click a circle", "pick it (the one that came last)" },
    { "key drawn on it", "pick that circle" },
  },
}
