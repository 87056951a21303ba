// ArcadeLua
