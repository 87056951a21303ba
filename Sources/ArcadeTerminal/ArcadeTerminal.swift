import ArcadeCore
