-- Rocks: the arcade reads this file as data only.
return {
  id = "rocks",
  title = "Rocks",
  description = "Steer a ship around a wrap-around field and shoot the rocks; big rocks split in two.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "left / right", "turn" },
    { "up", "thrust" },
    { "space", "fire (start, or play again)" },
    { "click", "turn towards the click and fire" },
  },
}
