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

    unowned let vm: LuaVM
    unowned let scenes: SceneModule
    /// The running animations and their callbacks: what this binding drives.
    public let runtime: Animations

    /// How deep `group`s may nest. Specs are read (and animations compiled and evaluated)
    /// recursively, one level per group: a spec nested thousands deep would overflow the
    /// native stack. Real animations nest a group or two.
    public static let maximumGroupDepth = 32

    /// While `arcade.animate_many` reads its spec: the columns its numbers may name.
    @exclusivity(unchecked) var columns: ValueColumns?
    /// The last spec `arcade.animate_many` compiled for many targets, and what it compiled to.
    @exclusivity(unchecked) var lastPrepared: (template: Animation, prepared: PreparedAnimation)?

    /// The engine (for tests and counters).
    public var animator: Animator { runtime.animator }
    /// What the animations hold natively now.
    public var nativeBytes: Int { runtime.nativeBytes }
    /// Animations started and not yet ended.
    public var runningCount: Int { runtime.animator.runningCount }
    /// Advances every animation by `dt`, then calls completion callbacks in the engine's order.
    public func step(_ dt: Double) throws(LuaError) { try runtime.step(dt) }
    /// Advances every animation by `dt`; their completions wait for ``deliverCompletions()``.
    public func advance(_ dt: Double) { runtime.animator.advance(by: dt) }
    /// Calls the completion callbacks waiting, in the engine's order.
    public func deliverCompletions() throws(LuaError) { try runtime.deliverCompletions() }
    /// Cancels the animations of a node being removed (their callbacks see finished = false).
    public func nodeRemoved(_ node: Node) { _ = runtime.animator.cancelAll(on: node) }
    /// Stops everything (the game is leaving); callbacks are released without being called.
    public func cancelAll() { runtime.cancelAll() }

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
        let runtime = Animations(vm: vm)
        self.runtime = runtime
        runtime.pushNode = { [unowned vm] s, id in vm.pushHandle(s, id, of: SceneModule.nodeClass) }
        runtime.removeNode = { [unowned scenes] id in
            if let node = scenes.scene.node(withID: Int(id)) { scenes.removeNative(node) }
        }
        vm.defineClass(Self.animationClass, methods: [
            ("cancel", { s in
                s.push(runtime.animator.cancel(AnimationID(raw: try s.checkHandle(1, of: Self.animationClass))))
                return 1
            }),
            ("is_running", { s in
                s.push(runtime.animator.isRunning(AnimationID(raw: try s.checkHandle(1, of: Self.animationClass))))
                return 1
            }),
        ])
        vm.register(in: "arcade", [
            ("animate", { s in try self.animate(s) }),
            ("animate_many", { s in try self.animateMany(s) }),
            ("cancel_animations", { s in
                s.push(runtime.animator.cancelAll(on: try self.scenes.nodes.check(s, 1)))
                return 1
            }),
        ])
    }

    /// The names of a spec (a group's items take all but `on_done`).
    static let specNames: LuaOptionNames = [
        "property", "to", "from", "values", "key_times", "timings", "path", "spring", "group",
        "duration", "delay", "speed", "repeat_count", "autoreverse", "fill", "timing", "on_done",
    ]
    private static let groupItemNames = specNames.subtracting(["on_done"])
    static let pathNames: LuaOptionNames = ["from", "control", "control1", "control2", "to"]
    static let springNames: LuaOptionNames = ["damping", "velocity"]

    /// `arcade.animate(node, spec [, on_done])`. A third argument that is not a function, or
    /// an `on_done` field that is not one, is ignored; the field wins over the argument.
    private func animate(_ s: LuaStack) throws -> Int32 {
        let target = try scenes.nodes.check(s, 1)
        let options = try s.checkOptions(2, known: Self.specNames)
        var cost = SpecCost()
        let animation = try spec(options, depth: 1, cost: &cost)
        try checkMemory(cost)
        if s.getField("on_done", in: 2) != .function {
            s.pop()
            s.pushValue(at: 3)
        }
        let onDone = s.type(at: -1) == .function
            ? vm.callback(s, at: -1, kind: "animation on_done", registeredBy: "arcade.animate") : nil
        s.pop()
        do {
            let id = try runtime.start(animation, on: target, onDone: onDone)
            vm.pushHandle(s, id.raw, of: Self.animationClass)
            return 1
        } catch {
            throw LuaArgumentError(2, "\(error)")
        }
    }

    /// Refuses a spec whose description and engine storage would not fit the memory cap.
    func checkMemory(_ cost: SpecCost) throws {
        try vm.reserveNative(cost.bytes, for: "an animation of \(cost.nodes) parts and \(cost.numbers) values")
    }

    /// Reads an animation spec, `depth` groups deep (1 for the spec itself), adding what it
    /// builds to `cost` (checked against the memory cap as it grows).
    func spec(_ o: LuaOptions, depth: Int, cost: inout SpecCost) throws -> Animation {
        // every level of nesting keeps a few values on the stack
        guard o.stack.reserve(8) else { throw LuaScriptError("an animation spec nested too deeply") }
        cost.nodes += 1
        if cost.nodes % 1024 == 0 { try checkMemory(cost) }
        let timing = try self.timing(o)
        if let g = try group(o, depth: depth, cost: &cost) { return Animation(.group(g), timing: timing) }
        if let path = try path(o) {
            cost.numbers += 8
            return Animation(.path(path, property: try property(o) ?? .position), timing: timing)
        }
        let prop = try o.required("property") { i throws(LuaValueProblem) in try Self.property(o.stack, i) }
        if let (values, keyTimes, curves) = try keyframes(o, prop, cost: &cost) {
            return Animation(.keyframes(prop, values: values, keyTimes: keyTimes, curves: curves), timing: timing)
        }
        guard let to = try o.field("to", { i throws(LuaValueProblem) in try self.value(o.stack, i, for: prop) }) else {
            throw o.error("give 'to' (with optional 'from'), 'values', 'path', 'spring' or 'group'")
        }
        let from = try o.field("from") { i throws(LuaValueProblem) in try self.value(o.stack, i, for: prop) }
        cost.numbers += 8
        let spring = try o.options("spring", known: Self.springNames) { spring in
            (damping: try spring.number("damping", "positive number", where: { $0 > 0 }) ?? 0.5,
             velocity: try spring.number("velocity") ?? 0)
        }
        if let spring {
            return Animation(.spring(prop, from: from, to: to, damping: spring.damping, initialVelocity: spring.velocity),
                             timing: timing)
        }
        return Animation(.basic(prop, from: from, to: to), timing: timing)
    }

    /// `duration`, `delay`, `speed`, `repeat_count`, `autoreverse`, `fill` and `timing`.
    private func timing(_ o: LuaOptions) throws -> AnimationTiming {
        let s = o.stack
        var timing = AnimationTiming(fill: .forwards)
        if let d = try o.number("duration", "non-negative number", where: { $0 >= 0 }) { timing.duration = d }
        timing.delay = try o.number("delay") ?? 0
        timing.speed = try o.number("speed") ?? 1
        if let r = try o.field("repeat_count", { i throws(LuaValueProblem) -> Double in
            if s.string(at: i) == "forever" { return AnimationTiming.forever }
            guard let n = s.number(at: i), n > 0 else {
                throw LuaValueProblem(expected: "positive number or \"forever\"", got: s.describeNumber(at: i))
            }
            return n
        }) { timing.repeatCount = r }
        timing.autoreverses = try o.bool("autoreverse") ?? false
        if let fill = try o.field("fill", { i throws(LuaValueProblem) in try s.readName(AnimationFill.self, at: i) }) {
            timing.fill = fill
        }
        if let c = try o.field("timing", { i throws(LuaValueProblem) in try Self.curve(s, i) }) { timing.curve = c }
        return timing
    }

    /// The items of `group`, each a spec; nil when there is no group.
    private func group(_ o: LuaOptions, depth: Int, cost: inout SpecCost) throws -> [Animation]? {
        let s = o.stack
        guard s.getField("group", in: o.index) == .table else {
            s.pop()
            return nil
        }
        defer { s.pop() }
        guard depth < Self.maximumGroupDepth else {
            throw LuaArgumentError(o.argument, "groups nest at most \(Self.maximumGroupDepth) deep")
        }
        let g = s.top
        var children: [Animation] = []
        for i in stride(from: 1, through: s.rawLength(at: g), by: 1) {
            s.getIndex(i, in: g)
            defer { s.pop() }
            guard s.type(at: -1) == .table else { throw o.fieldError("group[\(i)]", s.problem(expected: "table", at: -1).text) }
            let item = try s.options(at: s.top, argument: o.argument, path: o.path + "group[\(i)]", known: Self.groupItemNames)
            children.append(try spec(item, depth: depth + 1, cost: &cost))
        }
        return children
    }

    /// The curve in `path` (`from`, `to`, and `control` or `control1` and `control2`); nil
    /// when there is none.
    private func path(_ o: LuaOptions) throws -> BezierPath? {
        try o.options("path", known: Self.pathNames) { p in
            // a local function, passed without escaping, needs no closure context per call
            func read(_ i: Int32) throws(LuaValueProblem) -> Vec2 { try self.point(p.stack, i) }
            let from = try p.required("from", read), to = try p.required("to", read)
            if let c = try p.field("control", read) { return .quadratic(from: from, control: c, to: to) }
            if let c1 = try p.field("control1", read), let c2 = try p.field("control2", read) {
                return .cubic(from: from, control1: c1, control2: c2, to: to)
            }
            return BezierPath(start: from, segments: [.line(to: to)])
        }
    }

    /// `values` with their optional `key_times` and per-segment `timings`; nil without values.
    private func keyframes(_ o: LuaOptions, _ prop: AnimatableProperty, cost: inout SpecCost) throws
        -> ([AnimatableValue], [Double]?, [TimingCurve]?)? {
        let s = o.stack
        guard s.getField("values", in: o.index) == .table else {
            s.pop()
            return nil
        }
        let v = s.top
        let n = s.rawLength(at: v)
        // key times and curves too, at most; checked before anything is copied
        cost.numbers = cost.numbers.addingSaturating(NativeCost.product(n, 6))
        try checkMemory(cost)
        var values: [AnimatableValue] = []
        values.reserveCapacity(n)
        for i in stride(from: 1, through: n, by: 1) {
            s.getIndex(i, in: v)
            defer { s.pop() }
            do { values.append(try self.value(s, s.top, for: prop)) } catch { throw o.fieldError("values[\(i)]", error.text) }
        }
        s.pop()
        guard !values.isEmpty else { throw o.fieldError("values", "at least one value expected, got none") }
        let keyTimes = try o.field("key_times") { i throws(LuaValueProblem) in try Self.numbers(s, i) }
        if let keyTimes, keyTimes.count != values.count {
            throw o.fieldError("key_times", "\(values.count) times (one per value) expected, got \(keyTimes.count)")
        }
        // one curve per segment; any beyond those are not used
        let curves = try o.field("timings") { i throws(LuaValueProblem) -> [TimingCurve] in
            guard s.type(at: i) == .table else { throw s.problem(expected: "list of timing curves", at: i) }
            var out: [TimingCurve] = []
            for k in stride(from: 1, through: min(s.rawLength(at: i), values.count - 1), by: 1) {
                s.getIndex(k, in: i)
                defer { s.pop() }
                out.append(try Self.curve(s, s.top))
            }
            return out
        }
        return (values, keyTimes, curves)
    }

    /// The `property` field: optional for a path (which moves `position` by default).
    private func property(_ o: LuaOptions) throws -> AnimatableProperty? {
        try o.field("property") { i throws(LuaValueProblem) in try Self.property(o.stack, i) }
    }

    private static func property(_ s: LuaStack, _ i: Int32) throws(LuaValueProblem) -> AnimatableProperty {
        if let p = s.string(at: i).flatMap(AnimatableProperty.init(name:)) { return p }
        throw LuaValueProblem(
            expected: "animatable property (x, y, position, scale, scale_x, scale_y, rotation, alpha, color, outline, stroke_start, stroke_end)",
            got: s.describeQuoted(at: i))
    }

    /// A value of `prop`: a point for `position`, a colour for colours, else a number.
    private func value(_ s: LuaStack, _ i: Int32, for prop: AnimatableProperty) throws(LuaValueProblem) -> AnimatableValue {
        switch prop {
        case .position: .vector(try point(s, i))
        case .color: .color(try s.readColor(at: i))
        default: .scalar(try number(s, i))
        }
    }

    /// A timing curve: a name (`"easeOut"`, `"easeInOutBack"`...) or `{ x1, y1, x2, y2 }`.
    private static func curve(_ s: LuaStack, _ i: Int32) throws(LuaValueProblem) -> TimingCurve {
        if let name = s.string(at: i), let c = TimingCurve(named: name) { return c }
        if s.type(at: i) == .table, s.rawLength(at: i) == 4 {
            let n = try numbers(s, i)
            if n.count == 4 { return .cubicBezier(n[0], n[1], n[2], n[3]) }
        }
        throw LuaValueProblem(
            expected: "timing curve (linear, easeIn, easeOut, easeInEaseOut, easeOutQuad, easeInOutBack... or { x1, y1, x2, y2 })",
            got: s.describeQuoted(at: i))
    }

    /// A list of finite numbers.
    private static func numbers(_ s: LuaStack, _ i: Int32) throws(LuaValueProblem) -> [Double] {
        guard s.type(at: i) == .table else { throw s.problem(expected: "list of numbers", at: i) }
        var out: [Double] = []
        for k in stride(from: 1, through: s.rawLength(at: i), by: 1) {
            s.getIndex(k, in: i)
            defer { s.pop() }
            guard let n = s.number(at: -1), n.isFinite else {
                throw LuaValueProblem("finite number expected at item \(k), got \(s.describeNumber(at: -1))")
            }
            out.append(n)
        }
        return out
    }
}
