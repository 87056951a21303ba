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
    /// For each key down now, the step (a `frame` value, the one whose `update` follows the
    /// event) in which its last press came: a `key` event that is no repeat.
    public var keyPressFrames: [String: Int] = [:]
    /// The keys down now that have repeated (an `is_repeat` event) since their last press:
    /// held, not just not yet released (most terminals report no releases).
    public var keysRepeating: Set<String> = []

    public init(cols: Int, rows: Int, seed: UInt64) {
        self.cols = cols
        self.rows = rows
        self.seed = seed
    }

    /// Notes a key's press, repeat or release as it is delivered to the game, for
    /// `arcade.is_down` and `arcade.pressed`.
    public func note(_ event: InputEvent) {
        switch event {
        case .key(let k):
            keysDown.insert(k.key)
            if !k.isRepeat || keyPressFrames[k.key] == nil {
                keyPressFrames[k.key] = frame + 1
                keysRepeating.remove(k.key)
            }
            if k.isRepeat { keysRepeating.insert(k.key) }
        case .keyUp(let k):
            keysDown.remove(k.key)
            keyPressFrames[k.key] = nil
            keysRepeating.remove(k.key)
        case .mouse, .resize:
            break
        }
    }

    /// `arcade.pressed(key, hold, period)`: whether the step of `frame` is the one of `key`'s
    /// press, or, with `holdSteps` and `periodSteps` above 0 and the key held (repeating), one
    /// `holdSteps` after the press or a multiple of `periodSteps` after that.
    public func pressed(_ key: String, holdSteps: Int, periodSteps: Int) -> Bool {
        guard let press = keyPressFrames[key] else { return false }
        let elapsed = frame - press
        if elapsed == 0 { return true }
        guard holdSteps > 0, periodSteps > 0, elapsed >= holdSteps, keysRepeating.contains(key) else { return false }
        return (elapsed - holdSteps) % periodSteps == 0
    }

    /// Canvas width in pixels (one per column).
    public var width: Int { cols }
    /// Canvas height in pixels (two per row).
    public var height: Int { rows * 2 }
}

/// `arcade.time`, `arcade.frame`, `arcade.screen`, `arcade.seed`, `arcade.quit`, `arcade.log`,
/// `arcade.is_down`, `arcade.pressed`, and the text measures `arcade.text_width` and `arcade.fit_text`.
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
                s.push(context.keysDown.contains(try keyName(s, 1)))
                return 1
            }),
            ("pressed", { s in
                let name = try keyName(s, 1)
                var hold = 0, period = 0
                if !s.isNoneOrNil(2) || !s.isNoneOrNil(3) {
                    // seconds of game time, counted in whole steps (at least one)
                    hold = try steps(s, 2, "hold", dt: context.dt)
                    period = try steps(s, 3, "period", dt: context.dt)
                }
                s.push(context.pressed(name, holdSteps: hold, periodSteps: period))
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

    /// Argument `index`: a key name as events spell it; a typo is an error, not a key never down.
    private static func keyName(_ s: LuaStack, _ index: Int32) throws(LuaArgumentError) -> String {
        try s.argument(index) { i throws(LuaValueProblem) in
            guard let text = s.string(at: i) else { throw s.problem(expected: "key name", at: i) }
            guard let key = InputScript.parseKey(text), key.modifiers.isEmpty, key.key == text else {
                throw LuaValueProblem("unknown key name \"\(text)\" (names as events give them: \"left\", "
                                      + "\"space\", \"a\", \"f1\"...)")
            }
            return text
        }
    }

    /// Argument `index` of `arcade.pressed`: seconds above 0, as a whole number of steps of
    /// `dt` (at least one).
    private static func steps(_ s: LuaStack, _ index: Int32, _ what: String, dt: Double) throws(LuaArgumentError) -> Int {
        if s.isNoneOrNil(index) {
            throw LuaArgumentError(index, "\(what) missing: give both hold and period (seconds), or neither")
        }
        let seconds = try s.checkNumber(index)
        guard seconds > 0 else { throw LuaArgumentError(index, "\(what) must be above 0 seconds, got \(seconds)") }
        return max(1, Int((seconds / dt).rounded()))
    }
}
