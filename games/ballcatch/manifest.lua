-- Ball catch: the arcade reads this file as data only.
return {
  id = "ballcatch",
  title = "Ball Catch",
  description = "Bat falling balls onto the +5 and +1 boxes; a round ends when the 50th ball opens the gate.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "arrows", "nudge the paddle (hold: keep moving)" },
    { "drag the mouse", "move the paddle" },
    { "r", "a new field: start afresh" },
    { "click new field", "a new field: start afresh" },
  },
}
