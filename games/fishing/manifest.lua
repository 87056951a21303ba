-- Fishing: the arcade reads this file as data only.
return {
  id = "fishing",
  title = "Fishing",
  description = "Cast a swinging hook; six kinds of fish bite at their own odds.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
}
