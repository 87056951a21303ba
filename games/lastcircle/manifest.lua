-- Last Circle: the arcade reads this file as data only.
return {
  id = "lastcircle",
  title = "Last Circle",
  description = "Circles pop in one by one: pick the last before the bar fills.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
}
