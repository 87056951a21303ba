return {
  id = "tiny",
  title = "Tiny",
  description = "A test game: timers, input, state and randomness.",
  author = "arcade tests",
  version = "0.1.0",
  api = 1,
  controls = {
    { "any key", "counted, the last one shown" },
    { "r", "roll a number" },
  },
}
