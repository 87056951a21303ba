import ArcadeCore
import ArcadeRender

/// `arcade.animate`, `arcade.cancel_animations` and the `arcade.Animation` handle: native
/// animations of scene-node properties, so nothing runs in Lua per object per frame.
///
/// Every animation the five games need, written with this API:
///
///     -- coin bank: a coin flies its quadratic curve to 20 px above the bank, squashed to
///     -- (s, s/2) and shrinking to s/2, easing out over the first half and in over the second
///     arcade.animate(coin, {
///       group = {
///         { path = { from = { fx, bottom }, control = { tx + (fx - tx) / 2, fy / 2 - ty }, to = { tx, ty } } },
///         { property = "scale_x", values = { s, s * 0.75, s / 2 }, timings = { "easeOut", "easeIn" } },
///         { property = "scale_y", values = { s / 2, s / 2, s / 2 } },
///       },
///       duration = 1,
///     }, function(finished) coin:remove() end)
///
///     -- coin bank: the bank shakes, -0.2 -> 0.2 rad, 0.1 s each way, three times, then rests
///     arcade.animate(bank, { property = "rotation", from = -0.2, to = 0.2, duration = 0.1,
///                            autoreverse = true, repeat_count = 3, fill = "removed" })
///
///     -- gift combo: the counter grows to 3x and shrinks to 0.7x in 0.25 s, then springs back
///     arcade.animate(counter, { property = "scale", values = { 1, 3, 0.7 }, duration = 0.25 }, function()
///       arcade.animate(counter, { property = "scale", from = 0.7, to = 1, duration = 0.25,
///                                 spring = { damping = 0.7, velocity = 10 } })
///     end)
///
///     -- fishing: the hook's cast (top, 0.8 of the depth, the end at 0, 0.7, 1) and the line
///     -- drawing itself (stroke end 0 -> 0.8 -> 1 at 0, 0.6, 1)
///     arcade.animate(hook, { property = "position", values = { top, at80, bottom }, key_times = { 0, 0.7, 1 },
///                            duration = 1 })
///     arcade.animate(line, { property = "stroke_end", values = { 0, 0.8, 1 }, key_times = { 0, 0.6, 1 },
///                            duration = 1 })
///
///     -- Last Circle: a circle pops in on a spring, and the right one blinks when the pick was wrong
///     arcade.animate(circle, { property = "scale", from = 0.1, to = 1, duration = 0.5, delay = d,
///                              spring = { damping = 0.5, velocity = 6 } })
///     arcade.animate(right, { property = "scale", from = 1, to = 1.5, duration = 0.2,
///                             autoreverse = true, repeat_count = 3, fill = "removed" })
///
///     -- Last Circle: a background circle fades in growing (0.5x -> 1x), then out growing to 2x
///     arcade.animate(bg, { group = {
///         { property = "alpha", values = { 0, 0.4, 0 } },
///         { property = "scale", values = { 0.5, 1, 2 } },
///       }, duration = 2 * t, delay = wait }, function() bg:remove(); start_next_circle() end)
///
///     -- Last Circle: the Start button's backing shape pulses forever
///     arcade.animate(shape, { property = "scale", from = 1, to = 1.5, duration = 1, timing = "easeInEaseOut",
///                             autoreverse = true, repeat_count = "forever" })
///
/// Spec fields: `property`; one of `to` (with optional `from`), `values` (with optional
/// `key_times` and per-segment `timings`), `path` (`from`, `control` or `control1`+`control2`,
/// `to`), `spring` (`damping`, `velocity`, with `to`) or `group` (a list of specs);
/// `duration`, `delay`, `speed`, `repeat_count` (a number or `"forever"`), `autoreverse`,
/// `fill` (`"forwards"`, the default, keeps the end value; `"removed"` snaps back),
/// `timing` (a curve name such as `"easeOut"` or `"easeInOutBack"`, or `{ x1, y1, x2, y2 }`),
/// `on_done` (or the third argument): called with `finished` (false when cancelled or replaced).
public final class AnimationModule {
    public static let animationClass = LuaClass("arcade.Animation")

    private unowned let vm: LuaVM
    private unowned let scenes: SceneModule
    public let animator = Animator()
    private var callbacks: [UInt64: LuaCallback] = [:]
    private var nextToken: UInt64 = 1

    /// How deep `group`s may nest. Specs are read (and animations compiled and evaluated)
    /// recursively, one level per group: a spec nested thousands deep would overflow the
    /// native stack. Real animations nest a group or two.
    public static let maximumGroupDepth = 32

    /// What the animation engine holds natively now (see ``NativeCost``).
    public var nativeBytes: Int {
        engineBytes + callbacks.count * NativeCost.animationCallback
    }
    private var account = NativeAccount()

    /// Brings the VM's count of native memory up to date with ``nativeBytes``.
    private func syncNative() { account.report(nativeBytes, to: vm) }
    /// The engine's storage, measured when an animation starts (the only time it grows).
    private var engineBytes = 0

    /// What reading one spec builds, for the memory check before it is compiled.
    struct SpecCost {
        var nodes = 0
        var numbers = 0
        /// The description, the compile scratch and the engine's pools (whose blocks round
        /// up to a power of two) together, per node and per number.
        var bytes: Int { NativeCost.product(nodes, 256).addingSaturating(NativeCost.product(numbers, 48)) }
    }

    public init(vm: LuaVM, scenes: SceneModule) {
        self.vm = vm
        self.scenes = scenes
        engineBytes = animator.storageBytes
        syncNative()
        vm.defineClass(Self.animationClass, methods: [
            ("cancel", { s in
                let id = try self.vm.checkHandle(s, at: 1, of: Self.animationClass)
                s.push(self.animator.cancel(AnimationID(raw: id)))
                return 1
            }),
            ("is_running", { s in
                let id = try self.vm.checkHandle(s, at: 1, of: Self.animationClass)
                s.push(self.animator.isRunning(AnimationID(raw: id)))
                return 1
            }),
        ])
        vm.register(in: "arcade", [
            ("animate", { s in try self.animate(s) }),
            ("cancel_animations", { s in
                let node = try self.node(s, 1)
                s.push(self.animator.cancelAll(on: node))
                return 1
            }),
        ])
    }

    private func node(_ s: LuaStack, _ i: Int32) throws -> Node {
        let id = try vm.checkHandle(s, at: i, of: SceneModule.nodeClass)
        guard let n = scenes.scene.node(withID: Int(id)) else { throw LuaScriptError("this node was removed") }
        return n
    }

    private func animate(_ s: LuaStack) throws -> Int32 {
        let target = try node(s, 1)
        try s.checkTable(2)
        var cost = SpecCost()
        let animation = try spec(s, 2, depth: 1, cost: &cost)
        try checkMemory(cost)
        var token: UInt64 = 0
        let callbackIndex: Int32? = s.type(at: 3) == .function ? 3 : nil
        s.getField("on_done", in: 2)
        let hasField = s.type(at: -1) == .function
        if !hasField { s.pop() }
        if callbackIndex != nil || hasField {
            if !hasField { s.pushValue(at: 3) }
            token = nextToken
            nextToken += 1
            callbacks[token] = vm.callback(s, at: -1)
            s.pop()
        }
        do {
            let id = try animator.start(animation, on: target, token: token)
            engineBytes = animator.storageBytes
            syncNative()
            vm.pushHandle(s, id.raw, of: Self.animationClass)
            return 1
        } catch {
            callbacks[token] = nil
            throw LuaArgumentError(2, "\(error)")
        }
    }

    /// Refuses a spec whose description and engine storage would not fit the memory cap.
    private func checkMemory(_ cost: SpecCost) throws {
        try vm.reserveNative(cost.bytes, for: "an animation of \(cost.nodes) parts and \(cost.numbers) values")
    }

    /// Reads an animation spec table at `t`, `depth` groups deep (1 for the spec itself),
    /// adding what it builds to `cost` (checked against the memory cap as it grows).
    private func spec(_ s: LuaStack, _ t: Int32, depth: Int, cost: inout SpecCost) throws -> Animation {
        let t = s.absolute(t)
        // every level of nesting keeps a few values on the stack
        guard s.reserve(8) else { throw LuaScriptError("an animation spec nested too deeply") }
        cost.nodes += 1
        if cost.nodes % 1024 == 0 { try checkMemory(cost) }
        var timing = AnimationTiming(fill: .forwards)
        if let d = try s.numberField("duration", of: t) {
            guard d >= 0 else { throw LuaArgumentError(2, "field 'duration' must not be negative") }
            timing.duration = d
        }
        timing.delay = try s.numberField("delay", of: t) ?? 0
        timing.speed = try s.numberField("speed", of: t) ?? 1
        if let r = try s.field("repeat_count", of: t, { i -> Double? in
            if s.string(at: i) == "forever" { return AnimationTiming.forever }
            guard let n = s.number(at: i), n > 0 else {
                throw LuaArgumentError(2, "field 'repeat_count' must be a positive number or \"forever\"")
            }
            return n
        }) { timing.repeatCount = r }
        timing.autoreverses = try s.boolField("autoreverse", of: t) ?? false
        if let f = try s.stringField("fill", of: t) {
            guard let fill = AnimationFill(rawValue: f) else {
                throw LuaArgumentError(2, "field 'fill' must be \"forwards\", \"removed\", \"backwards\" or \"both\"")
            }
            timing.fill = fill
        }
        if let c = try s.field("timing", of: t, { i in try curve(s, i) }) { timing.curve = c }

        // group
        if s.getField("group", in: t) == .table {
            guard depth < Self.maximumGroupDepth else {
                throw LuaArgumentError(2, "groups nest at most \(Self.maximumGroupDepth) deep")
            }
            let g = s.top
            var children: [Animation] = []
            let n = s.rawLength(at: g)
            for i in stride(from: 1, through: n, by: 1) {
                s.getIndex(i, in: g)
                guard s.type(at: -1) == .table else { throw LuaArgumentError(2, "group[\(i)] must be an animation table") }
                children.append(try spec(s, s.top, depth: depth + 1, cost: &cost))
                s.pop()
            }
            s.pop()
            return Animation(.group(children), timing: timing)
        }
        s.pop()

        // path
        if s.getField("path", in: t) == .table {
            let p = s.top
            func pt(_ k: String) -> Vec2? {
                defer { s.pop() }
                s.getField(k, in: p)
                return s.point(at: -1)
            }
            guard let from = pt("from"), let to = pt("to") else {
                throw LuaArgumentError(2, "field 'path' needs from = { x, y } and to = { x, y }")
            }
            let path: BezierPath
            if let c = pt("control") {
                path = .quadratic(from: from, control: c, to: to)
            } else if let c1 = pt("control1"), let c2 = pt("control2") {
                path = .cubic(from: from, control1: c1, control2: c2, to: to)
            } else {
                path = BezierPath(start: from, segments: [.line(to: to)])
            }
            s.pop()
            let prop = try property(s, t) ?? .position
            cost.numbers += 8
            return Animation(.path(path, property: prop), timing: timing)
        }
        s.pop()

        guard let prop = try property(s, t) else {
            throw LuaArgumentError(2, "field 'property' is required (x, y, position, scale, scale_x, scale_y, rotation, alpha, color, outline, stroke_start, stroke_end)")
        }
        // keyframes
        if s.getField("values", in: t) == .table {
            let v = s.top
            let n = s.rawLength(at: v)
            // key times and curves too, at most; checked before anything is copied
            cost.numbers = cost.numbers.addingSaturating(NativeCost.product(n, 6))
            try checkMemory(cost)
            var values: [AnimatableValue] = []
            values.reserveCapacity(n)
            for i in stride(from: 1, through: n, by: 1) {
                s.getIndex(i, in: v)
                values.append(try value(s, s.top, for: prop, field: "values[\(i)]"))
                s.pop()
            }
            s.pop()
            guard values.count >= 1 else { throw LuaArgumentError(2, "field 'values' must not be empty") }
            if s.getField("key_times", in: t) == .table, s.rawLength(at: -1) != values.count {
                throw LuaArgumentError(2, "field 'key_times' has \(s.rawLength(at: -1)) times for \(values.count) values")
            }
            s.pop()
            let keyTimes = try numbers(s, t, "key_times")
            var curves: [TimingCurve]? = nil
            if s.getField("timings", in: t) == .table {
                let c = s.top
                curves = []
                // one per segment; any beyond those are not used
                for i in stride(from: 1, through: min(s.rawLength(at: c), values.count - 1), by: 1) {
                    s.getIndex(i, in: c)
                    curves!.append(try curve(s, s.top))
                    s.pop()
                }
            }
            s.pop()
            return Animation(.keyframes(prop, values: values, keyTimes: keyTimes, curves: curves), timing: timing)
        }
        s.pop()
        guard let to = try s.field("to", of: t, { i in try value(s, i, for: prop, field: "to") }) else {
            throw LuaArgumentError(2, "give 'to' (with optional 'from'), 'values', 'path', 'spring' or 'group'")
        }
        let from = try s.field("from", of: t, { i in try value(s, i, for: prop, field: "from") })
        if s.getField("spring", in: t) == .table {
            let damping = try s.numberField("damping", of: s.top) ?? 0.5
            let velocity = try s.numberField("velocity", of: s.top) ?? 0
            s.pop()
            guard damping > 0 else { throw LuaArgumentError(2, "spring damping must be positive") }
            cost.numbers += 8
            return Animation(.spring(prop, from: from, to: to, damping: damping, initialVelocity: velocity), timing: timing)
        }
        s.pop()
        cost.numbers += 8
        return Animation(.basic(prop, from: from, to: to), timing: timing)
    }

    private func property(_ s: LuaStack, _ t: Int32) throws -> AnimatableProperty? {
        guard let name = try s.stringField("property", of: t) else { return nil }
        guard let p = AnimatableProperty(name: name) else {
            throw LuaArgumentError(2, "'\(name)' is not an animatable property")
        }
        return p
    }

    private func value(_ s: LuaStack, _ i: Int32, for prop: AnimatableProperty, field: String) throws -> AnimatableValue {
        switch prop {
        case .position:
            guard let p = s.point(at: i) else { throw LuaArgumentError(2, "field '\(field)' must be { x, y }") }
            return .vector(p)
        case .color:
            guard let c = s.color(at: i) else { throw LuaArgumentError(2, "field '\(field)' must be a colour") }
            return .color(c)
        default:
            guard let n = s.number(at: i), n.isFinite else {
                throw LuaArgumentError(2, "field '\(field)' must be \(s.numberProblem(at: i))")
            }
            return .scalar(n)
        }
    }

    private func curve(_ s: LuaStack, _ i: Int32) throws -> TimingCurve {
        if let name = s.string(at: i) {
            guard let c = TimingCurve(named: name) else {
                throw LuaArgumentError(2, "unknown timing curve '\(name)' (try linear, easeIn, easeOut, easeInEaseOut, easeOutQuad, easeInOutBack...)")
            }
            return c
        }
        guard s.type(at: i) == .table, s.rawLength(at: i) == 4, let n = try numbers(s, i), n.count == 4 else {
            throw LuaArgumentError(2, "a custom timing curve is { x1, y1, x2, y2 }")
        }
        return .cubicBezier(n[0], n[1], n[2], n[3])
    }

    private func numbers(_ s: LuaStack, _ t: Int32, _ key: String) throws -> [Double]? {
        s.getField(key, in: t)
        defer { s.pop() }
        if s.isNoneOrNil(-1) { return nil }
        return try numbers(s, s.top)
    }

    private func numbers(_ s: LuaStack, _ i: Int32) throws -> [Double]? {
        guard s.type(at: i) == .table else { return nil }
        var out: [Double] = []
        for k in stride(from: 1, through: s.rawLength(at: i), by: 1) {
            s.getIndex(k, in: i)
            guard let n = s.number(at: -1), n.isFinite else {
                let problem = s.numberProblem(at: -1)
                s.pop()
                throw LuaArgumentError(2, "expected a list of numbers: item \(k) must be \(problem)")
            }
            out.append(n)
            s.pop()
        }
        return out
    }

    // MARK: The host's side

    /// Advances every animation by `dt`, then calls completion callbacks in the engine's order.
    public func step(_ dt: Double) throws(LuaError) {
        advance(dt)
        try deliverCompletions()
    }

    /// Advances every animation by `dt`; their completions wait for ``deliverCompletions()``.
    public func advance(_ dt: Double) {
        animator.advance(by: dt)
    }

    /// Calls the completion callbacks waiting, in the engine's order.
    ///
    /// - Throws: the first callback error; the completions after it stay queued for the next call.
    public func deliverCompletions() throws(LuaError) {
        var delivered = false
        defer { if delivered { syncNative() } }  // delivered callbacks are credited
        while let done = animator.nextCompletion() {
            delivered = true
            guard done.token != 0, let cb = callbacks.removeValue(forKey: done.token) else { continue }
            try vm.protectedCall(label: "animation callback") { s in
                self.vm.push(cb)
                s.push(done.finished)
                return 1
            }
        }
    }

    /// Animations started and not yet ended.
    public var runningCount: Int { animator.runningCount }

    /// Cancels the animations of a node being removed (their callbacks see finished = false).
    public func nodeRemoved(_ node: Node) {
        _ = animator.cancelAll(on: node)
    }

    /// Stops everything (the game is leaving); callbacks are released without being called.
    public func cancelAll() {
        _ = animator.cancelAll()
        while animator.nextCompletion() != nil {}
        callbacks.removeAll()
        syncNative()
    }
}
