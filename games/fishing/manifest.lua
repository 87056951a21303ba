-- Fishing: the arcade reads this file as data only.
return {
  id = "fishing",
  title = "Fishing",
  description = "A day at the lake: 20 casts from 100 coins; cast where the marker meets fish worth catching.",
  author = "arcade",
  version = "2.0.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "space/enter/down", "cast where the marker is (10 coins)" },
    { "click the pond", "cast where the marker is (10 coins)" },
    { "r / space", "a new day, on the end card" },
    { "click", "a new day, on the end card" },
  },
}
