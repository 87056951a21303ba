-- Ball catch: the arcade reads this file as data only.
return {
  id = "ballcatch",
  title = "Ball Catch",
  description = "Bat falling balls up onto the +5 and +1 boxes before the pile overflows its line; "
    .. "each round drops them faster.",
  author = "arcade",
  version = "2.0.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "space / enter", "start a run; play again after the end" },
    { "click", "start a run; play again after the end" },
    { "arrows", "move the paddle (hold: glide)" },
    { "tap up", "jab up: bats a falling ball" },
    { "drag the mouse", "move the paddle; flick up to bat" },
    { "r", "a new run" },
  },
}
