-- Last Circle: the arcade reads this file as data only.
return {
  id = "lastcircle",
  title = "Last Circle",
  description = "A memory race: each round one new circle joins the ones you saw; pick it fast for points.",
  author = "arcade",
  version = "2.0.0",
  api = 1,
  min_size = { 80, 24 },
  hide_on_pause = true,          -- a memory game: the pause card covers the board
  controls = {
    { "space / enter", "start, or play again" },
    { "click the button", "start, or play again" },
    { "click a circle", "pick it (the one that is new)" },
    { "key drawn on it", "pick that circle" },
  },
}
