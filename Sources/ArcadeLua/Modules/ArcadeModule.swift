import ArcadeCore
import ArcadeRender

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
    /// The keys down now, by name: from the `key` event the game was given to the `keyup`
    /// (the terminal's own, or the one the host infers for terminals that send none).
    public var keysDown: Set<String> = []

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

/// `arcade.time`, `arcade.frame`, `arcade.screen`, `arcade.seed`, `arcade.quit`, `arcade.log`,
/// `arcade.is_down`, and the text measures `arcade.text_width` and `arcade.fit_text`.
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
            ("is_down", { s in
                let name = try s.argument(1) { i throws(LuaValueProblem) in
                    // a key name as events spell it: a typo is an error, not a key never down
                    guard let text = s.string(at: i) else { throw s.problem(expected: "key name", at: i) }
                    guard let key = InputScript.parseKey(text), key.modifiers.isEmpty, key.key == text else {
                        throw LuaValueProblem("unknown key name \"\(text)\" (names as events give them: \"left\", "
                                              + "\"space\", \"a\", \"f1\"...)")
                    }
                    return text
                }
                s.push(context.keysDown.contains(name))
                return 1
            }),
            ("text_width", { s in
                // the cells the widest line takes on screen (a wide character two, a mark none)
                s.push(TextWidth.width(try s.checkString(1)))
                return 1
            }),
            ("fit_text", { s in
                let text = try s.checkString(1)
                let cells = try s.checkInteger(2)
                let ellipsis = try s.optString(3) ?? "…"
                s.push(TextWidth.fit(text, cells: Int(clamping: cells), ellipsis: ellipsis))
                return 1
            }),
            ("log", { [unowned vm] s in
                var parts: [String] = []
                for i in stride(from: 1, through: s.top, by: 1) {
                    // a table is shown as JSON up to a size a log line can take, else by its type
                    parts.append(s.string(at: i) ?? (try? s.value(at: i, maxBytes: 1 << 20)).map { $0.json() } ?? s.typeName(at: i))
                }
                vm.log(parts.joined(separator: "\t"))
                return 0
            }),
        ])
    }
}
