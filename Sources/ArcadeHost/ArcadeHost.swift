// ArcadeHost
