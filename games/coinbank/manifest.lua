-- Coin bank: the arcade reads this file as data only.
return {
  id = "coinbank",
  title = "Coin Bank",
  description = "Feed the pig: time each burst of 300 coins so the walking pig is under the ring as they land.",
  author = "arcade",
  version = "2.0.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "space / enter", "start; send 300 coins; play again" },
    { "click the button", "start; send 300 coins; play again" },
    { "k", "10,000 coins (between runs, not banked)" },
    { 'click "k: 10,000"', "10,000 coins (between runs, not banked)" },
  },
}
