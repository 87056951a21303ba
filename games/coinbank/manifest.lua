-- Coin bank: the arcade reads this file as data only.
return {
  id = "coinbank",
  title = "Coin Bank",
  description = "Show me the money: 300 coins arc into a piggy bank, which shakes.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
  controls = {
    { "space / enter", "send 300 coins to the bank" },
    { "click the button", "send 300 coins to the bank" },
    { "k", "10,000 coins: a stress test, not banked" },
    { 'click "k: 10,000"', "10,000 coins: a stress test, not banked" },
  },
}
