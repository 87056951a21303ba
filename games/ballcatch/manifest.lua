-- Ball catch: the arcade reads this file as data only.
return {
  id = "ballcatch",
  title = "Ball Catch",
  description = "Balls rain into a physics box; bat them onto the scoring boxes before the gate opens.",
  author = "arcade",
  version = "1.0.0",
  api = 1,
  min_size = { 80, 24 },
}
