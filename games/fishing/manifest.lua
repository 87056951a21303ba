-- Fishing: the arcade reads this file as data only.
return {
  id = "fishing",
  title = "Fishing",
  description = "Cast a swinging hook; six kinds of fish bite at their own odds.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "space/enter/down", "cast the hook (10 coins)" },
    { "click the pond", "cast the hook (10 coins)" },
    { "r", "refill an empty wallet" },
    { "click refill", "refill an empty wallet" },
  },
}
