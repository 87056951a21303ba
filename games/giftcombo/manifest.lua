-- Gift combo: the arcade reads this file as data only.
return {
  id = "giftcombo",
  title = "Gift Combo",
  description = "Live-stream gift overlay: repeated gifts become combos.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
}
