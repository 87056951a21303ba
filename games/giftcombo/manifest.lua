-- Gift combo: the arcade reads this file as data only.
return {
  id = "giftcombo",
  title = "Gift Combo",
  description = "A live-stream gift overlay: repeated gifts become a combo, two channels and a queue.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
}
