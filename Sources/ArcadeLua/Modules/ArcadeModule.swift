import ArcadeCore

/// What the host tells a running game about itself: time, step, screen size, seed.
public final class GameContext {
    /// Game time in seconds (step * dt).
    public var time: Double = 0
    /// Steps taken since `load`.
    public var frame: Int = 0
    /// Seconds per step.
    public var dt: Double = 1.0 / 60
    public var cols: Int
    public var rows: Int
    public let seed: UInt64
    /// Set when the game calls `arcade.quit()`.
    public var quitRequested = false

    public init(cols: Int, rows: Int, seed: UInt64) {
        self.cols = cols
        self.rows = rows
        self.seed = seed
    }

    /// Canvas width in pixels (one per column).
    public var width: Int { cols }
    /// Canvas height in pixels (two per row).
    public var height: Int { rows * 2 }
}

/// `arcade.time`, `arcade.frame`, `arcade.screen`, `arcade.seed`, `arcade.quit`, `arcade.log`.
public enum ArcadeModule {
    /// Registers the functions on `vm`, reading from `context`.
    public static func install(in vm: LuaVM, context: GameContext) {
        vm.register(in: "arcade", [
            ("time", { s in
                s.push(context.time)
                return 1
            }),
            ("frame", { s in
                s.push(context.frame)
                return 1
            }),
            ("screen", { s in
                s.push(context.width)
                s.push(context.height)
                s.push(context.cols)
                s.push(context.rows)
                return 4
            }),
            ("seed", { s in
                s.push(Int64(bitPattern: context.seed))
                return 1
            }),
            ("quit", { _ in
                context.quitRequested = true
                return 0
            }),
            ("log", { [unowned vm] s in
                var parts: [String] = []
                for i in stride(from: 1, through: s.top, by: 1) {
                    parts.append(s.string(at: i) ?? (try? s.value(at: i)).map { $0.json() } ?? s.typeName(at: i))
                }
                vm.log(parts.joined(separator: "\t"))
                return 0
            }),
        ])
    }
}
