return {
  id = "crashy",
  title = "Crashy",
  description = "Fails on purpose after a timer fires.",
  author = "arcade tests",
  version = "0.1.0",
  api = 1,
}
