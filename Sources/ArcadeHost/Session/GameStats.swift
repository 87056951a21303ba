/// Counts of what a running game holds, for leak checks: ``GameSession/stats`` and the
/// headless `--stats` line.
public struct GameStats: Equatable, Sendable {
    /// Scene nodes, the root not counted (what `arcade.scene.count()` returns).
    public var nodes: Int
    /// Animations started and not yet ended.
    public var animations: Int
    /// Timers pending (`arcade.after` / `arcade.every` not yet done or cancelled).
    public var timers: Int
    /// Live physics worlds.
    public var worlds: Int
    /// Balls in all live worlds.
    public var bodies: Int
    /// Walls in all live worlds (their bounds not counted).
    public var walls: Int
    /// Bytes the game's Lua heap holds, garbage not yet collected included.
    public var luaBytes: Int
    /// Bytes charged for the game's native objects (nodes, images, animations, timers,
    /// physics); with ``luaBytes`` what counts against the memory cap.
    public var nativeBytes: Int
    /// Steps run so far.
    public var frame: Int

    public init(nodes: Int, animations: Int, timers: Int, worlds: Int, bodies: Int, walls: Int,
                luaBytes: Int, nativeBytes: Int = 0, frame: Int) {
        self.nodes = nodes
        self.animations = animations
        self.timers = timers
        self.worlds = worlds
        self.bodies = bodies
        self.walls = walls
        self.luaBytes = luaBytes
        self.nativeBytes = nativeBytes
        self.frame = frame
    }

    /// The Lua heap in KiB, rounded up.
    public var luaKiB: Int { (luaBytes + 1023) / 1024 }
    /// The native objects' charge in KiB, rounded up.
    public var nativeKiB: Int { (nativeBytes + 1023) / 1024 }

    /// One line of JSON: `{"nodes":N,"animations":N,"timers":N,"bodies":N,"lua_kib":N,
    /// "native_kib":N,"worlds":N,"walls":N,"frame":N}` (what `--stats` prints).
    public var json: String {
        "{\"nodes\":\(nodes),\"animations\":\(animations),\"timers\":\(timers),\"bodies\":\(bodies),"
            + "\"lua_kib\":\(luaKiB),\"native_kib\":\(nativeKiB),\"worlds\":\(worlds),\"walls\":\(walls),\"frame\":\(frame)}"
    }
}
