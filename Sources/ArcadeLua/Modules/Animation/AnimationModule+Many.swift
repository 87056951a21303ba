import ArcadeCore
import ArcadeRender
import CLua

/// `arcade.animate_many(targets, spec [, options])`: one call starts like animations on many
/// nodes (or on sprites it makes), each with numbers of its own, and reports them with at
/// most one callback per node and one for the whole batch: a burst of coins or sparks costs
/// one call into the host, not one per particle.
///
///     -- 34 coins, each from its own x over its own arc, shrinking from its own scale
///     local coins = arcade.animate_many(
///       { count = 34, images = { gold, silver }, parent = layer, x = "fx", y = bottom,
///         scale_x = "s", scale_y = "half" },
///       { group = {
///           { path = { from = { "fx", bottom }, control = { "cx", "cy" }, to = { tx, ty } } },
///           { property = "scale_x", values = { "s", "s3", "half" }, timings = { "easeOut", "easeIn" } },
///         }, duration = 1 },
///       { columns = { fx = fxs, cx = cxs, cy = cys, s = ss, s3 = s3s, half = halves },
///         on_done = function(finished) arrived = arrived + finished end })
///
/// `targets` is a list of nodes, or `{ count = n, image = i | images = { ... }, parent, x, y,
/// z, scale, scale_x, scale_y, rotation, alpha }`, which makes `n` sprites (node `k` shows
/// `images[(k - 1) % #images + 1]`). In the spec's values and path points, and in the sprite
/// fields, a string names a column of `options.columns`: a list with one number per node,
/// or `{ of = "c", minus = a, times = k, plus = b }`, worked out from column `c` per node.
/// Options: `columns`; `remove` (each node leaves the scene when its animation ends; the
/// default for sprites it makes); `on_each(node, finished)`; `on_done(finished_count)`, once
/// every animation of the batch has ended; `list` (false: return nothing, so no handle is
/// made per node). Returns the list of nodes.
extension AnimationModule {
    static let manyNames: LuaOptionNames = ["columns", "remove", "on_each", "on_done", "list"]
    /// A spec's names without `on_done` (the batch's options take callbacks).
    static let manySpecNames = specNames.subtracting(["on_done"])
    static let spawnNames: LuaOptionNames = [
        "count", "image", "images", "parent", "x", "y", "z", "scale", "scale_x", "scale_y", "rotation", "alpha",
    ]
    /// What one node of a batch costs the runtime beyond its animation.
    static let memberBytes = 48

    func animateMany(_ s: LuaStack) throws -> Int32 {
        try s.checkTable(1)
        let options = try s.optOptions(3, known: Self.manyNames)
        let spawning = s.getField("count", in: 1) != .nil
        s.pop()
        let spawn = spawning ? try s.checkOptions(1, known: Self.spawnNames) : nil
        let given = spawning ? [] : try nodeList(s)
        let rows: Int
        if let spawn {
            rows = Int(try spawn.required("count") { i throws(LuaValueProblem) in
                try s.readInteger(at: i, "non-negative integer", where: { $0 >= 0 && $0 <= Int64(Int32.max) })
            })
        } else {
            rows = given.count
        }
        var columnTable: Int32 = 0
        if options.index != 0 {
            switch s.getField("columns", in: options.index) {
            case .nil: s.pop()
            case .table: columnTable = s.top
            default: throw options.fieldError("columns", s.problem(expected: "table of lists of numbers", at: -1).text)
            }
        }
        let columns = ValueColumns(stack: s, table: columnTable, rows: rows)
        self.columns = columns
        defer { self.columns = nil }

        let spec = try s.checkOptions(2, known: Self.manySpecNames)
        var cost = SpecCost()
        let template = try self.spec(spec, depth: 1, cost: &cost)
        let sprites = try spawn.map { try spriteFields($0) }
        let remove = try options.bool("remove") ?? spawning
        let list = try options.bool("list") ?? true
        let onEach = try callbackField(options, "on_each", kind: "animate_many on_each")
        let onDone = try callbackField(options, "on_done", kind: "animate_many on_done")
        let perNode = cost.bytes.addingSaturating(Self.memberBytes).addingSaturating(spawning ? NativeCost.node : 0)
        try vm.reserveNative(NativeCost.product(perNode, rows), for: "\(rows) animations")
        let varies = columns.count > 0
        // compiled once for every row (a batch of one costs what one start does), or taken
        // from the last call whose spec was identical (a burst's launches share theirs)
        var prepared: PreparedAnimation?

        let batch = runtime.beginBatch(onEach: onEach, onDone: onDone, remove: remove)
        var nodes: [Node] = []
        nodes.reserveCapacity(rows)
        do {
            for row in 0..<rows {
                let node: Node
                if let sprites {
                    if row == 0 {
                        nodes.append(try scenes.adopt(sprites.make(0, columns), under: sprites.parent))
                    } else if row == 1 {
                        // the first row has started (so whatever its start refuses is refused
                        // before more are made): the others join the scene at once
                        let rest = sprites.make(1..<rows, columns, first: nodes[0])
                        try scenes.adopt(rest, under: sprites.parent)
                        nodes.append(contentsOf: rest)
                    }
                    node = nodes[row]
                } else {
                    node = given[row]
                    nodes.append(node)
                }
                if rows == 1 {
                    let animation = varies ? template.mappingValues { columns.value($0, row: row) } : template
                    try runtime.startMember(animation, on: node, batch: batch)
                    continue
                }
                if prepared == nil { prepared = try preparedSpec(template, for: node) }
                try runtime.startMember(prepared!, on: node, batch: batch) { columns.value($0, row: row) }
            }
        } catch {
            runtime.abandon(batch)
            if spawning { for n in nodes { scenes.removeNative(n) } }
            scenes.syncNativeBytes()
            throw (error as? LuaScriptError) ?? LuaArgumentError(2, "\(error)")
        }
        runtime.seal(batch)
        scenes.syncNativeBytes()
        guard list else { return 0 }
        vm.pushHandles(s, nodes.lazy.map { UInt64($0.id) }, of: SceneModule.nodeClass)
        return 1
    }

    /// `template` compiled for targets like `node`: the last call's compiled form when its
    /// template was identical and compiled for targets of the same kind, else compiled now
    /// and kept. (What a compiled form holds of the target it was compiled for, its current
    /// values, each start replaces with its own target's.)
    private func preparedSpec(_ template: Animation, for node: Node) throws -> PreparedAnimation {
        if let last = lastPrepared, last.prepared.isCompiled(for: node), last.template.isIdentical(to: template) {
            return last.prepared
        }
        lastPrepared = nil
        let prepared = try runtime.animator.prepare(template, for: node)
        lastPrepared = (template, prepared)
        return prepared
    }

    /// A number, or (inside `arcade.animate_many`) the name of one of its columns.
    func number(_ s: LuaStack, _ i: Int32) throws(LuaValueProblem) -> Double {
        if let columns, s.type(at: i) == .string {
            return try columns.placeholder(at: s.absolute(i))
        }
        return try s.readNumber(at: i)
    }

    /// A point `{ x, y }`; inside `arcade.animate_many` either coordinate may name a column.
    func point(_ s: LuaStack, _ i: Int32) throws(LuaValueProblem) -> Vec2 {
        if columns != nil, s.type(at: i) == .table {
            let t = s.absolute(i)
            guard s.reserve(2) else { throw LuaValueProblem("no room on the Lua stack") }
            s.getIndex(1, in: t)
            s.getIndex(2, in: t)
            defer { s.pop(2) }
            if s.type(at: -2) == .string || s.type(at: -1) == .string {
                return Vec2(try number(s, s.top - 1), try number(s, s.top))
            }
        }
        return try s.readPoint(at: i)
    }

    /// The nodes of a list at argument 1.
    private func nodeList(_ s: LuaStack) throws -> [Node] {
        var out: [Node] = []
        let n = s.rawLength(at: 1)
        out.reserveCapacity(n)
        for k in stride(from: 1, through: n, by: 1) {
            s.getIndex(k, in: 1)
            defer { s.pop() }
            do {
                out.append(try scenes.nodes.object(try scenes.nodes.readID(s, at: s.top)))
            } catch let problem as LuaValueProblem {
                throw LuaArgumentError(1, "item [\(k)]: " + problem.text + " (a list of nodes or { count = n, ... })")
            }
        }
        return out
    }

    /// Field `key` of `o`: a function (named `kind` in error reports), or nil.
    private func callbackField(_ o: LuaOptions, _ key: String, kind: String) throws -> LuaCallback? {
        guard o.index != 0 else { return nil }
        let s = o.stack
        defer { s.pop() }
        switch s.getField(key, in: o.index) {
        case .nil: return nil
        case .function: return vm.callback(s, at: -1, kind: kind, registeredBy: "arcade.animate_many")
        default: throw o.fieldError(key, s.problem(expected: "function", at: -1).text)
        }
    }

    /// The sprite fields of a `{ count = n, ... }` target list.
    private func spriteFields(_ o: LuaOptions) throws -> SpriteFields {
        let s = o.stack
        var images: [Flipbook] = []
        if let id = try o.field("image", { i throws(LuaValueProblem) in try self.scenes.images.handles.readID(s, at: i) }) {
            images.append(try scenes.images.handles.object(id))
        }
        if let ids = try o.field("images", { i throws(LuaValueProblem) -> [UInt64] in
            guard s.type(at: i) == .table else { throw s.problem(expected: "list of images", at: i) }
            var ids: [UInt64] = []
            for k in stride(from: 1, through: s.rawLength(at: i), by: 1) {
                s.getIndex(k, in: i)
                defer { s.pop() }
                ids.append(try self.scenes.images.handles.readID(s, at: s.top))
            }
            return ids
        }) {
            for id in ids { images.append(try scenes.images.handles.object(id)) }
        }
        guard !images.isEmpty else { throw o.error("give 'image' or 'images' (a list of images)") }
        var f = SpriteFields(images: images, parent: try o.object("parent", scenes.nodes))
        f.x = try numberField(o, "x")
        f.y = try numberField(o, "y")
        f.z = try numberField(o, "z")
        f.scale = try numberField(o, "scale")
        f.scaleX = try numberField(o, "scale_x")
        f.scaleY = try numberField(o, "scale_y")
        f.rotation = try numberField(o, "rotation")
        f.alpha = try numberField(o, "alpha")
        return f
    }

    /// Field `key` of `o` read by ``number(_:_:)``.
    private func numberField(_ o: LuaOptions, _ key: String) throws(LuaArgumentError) -> Double? {
        try o.field(key) { i throws(LuaValueProblem) in try self.number(o.stack, i) }
    }
}

/// What `arcade.animate_many` gives each sprite it makes; a number may be a column's placeholder.
struct SpriteFields {
    var images: [Flipbook]
    var parent: Node?
    var x: Double?, y: Double?, z: Double?, scale: Double?, scaleX: Double?, scaleY: Double?
    var rotation: Double?, alpha: Double?

    /// The sprite of row `row`.
    func make(_ row: Int, _ c: ValueColumns) -> SpriteNode {
        place(SpriteNode(flipbook: images[row % images.count]), row, c)
    }

    /// The sprites of `rows` (after row 0, whose sprite is `first`): each image's frames
    /// are listed once, by the first sprite that shows it.
    func make(_ rows: Range<Int>, _ c: ValueColumns, first: Node) -> [Node] {
        var shows: [SpriteNode] = []
        if let first = first as? SpriteNode { shows.append(first) }
        var out: [Node] = []
        out.reserveCapacity(rows.count)
        for row in rows {
            let k = row % images.count
            let n: SpriteNode
            if k < shows.count {
                n = place(SpriteNode(framesOf: shows[k], x: 0, y: 0), row, c)
            } else {
                n = make(row, c)
                if k == shows.count { shows.append(n) }
            }
            out.append(n)
        }
        return out
    }

    /// `n` with row `row`'s fields.
    private func place(_ n: SpriteNode, _ row: Int, _ c: ValueColumns) -> SpriteNode {
        if let x { n.x = c.value(x, row: row) }
        if let y { n.y = c.value(y, row: row) }
        if let z { n.z = c.value(z, row: row) }
        if let scale { n.scale = c.value(scale, row: row) }
        if let scaleX { n.scaleX = c.value(scaleX, row: row) }
        if let scaleY { n.scaleY = c.value(scaleY, row: row) }
        if let rotation { n.rotation = c.value(rotation, row: row) }
        if let alpha { n.alpha = c.value(alpha, row: row) }
        return n
    }
}

/// The columns of one `arcade.animate_many` call: lists of one number per node, read from
/// its `columns` table the first time a spec names them. A number that names a column is
/// read as a placeholder (a NaN carrying the column's index, which no finite number can be)
/// and replaced per node by ``value(_:row:)``.
final class ValueColumns {
    // Stored properties marked `@exclusivity(unchecked)`: read once per number of every node
    // of a batch, on the game's one thread.
    private let stack: LuaStack
    private let table: Int32
    let rows: Int
    /// The columns read so far, by name, in the order the specs first named them: few, so
    /// a name is found by comparing its bytes, with no Swift string made of it.
    @exclusivity(unchecked) private var names: [String] = []
    /// Whether each of them is derived from another (``derive(_:from:)``).
    @exclusivity(unchecked) private var derived: [Bool] = []
    /// Their numbers, `rows` per column, one column after another.
    @exclusivity(unchecked) private var data: [Double] = []
    private static let tag: UInt64 = 0x7FF4_0000_0000_0000
    private static let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000

    init(stack: LuaStack, table: Int32, rows: Int) {
        self.stack = stack
        self.table = table
        self.rows = rows
    }

    /// How many columns the specs used.
    var count: Int { names.count }

    /// The placeholder of the column named by the string at absolute stack index `at`,
    /// reading the column the first time.
    func placeholder(at index: Int32) throws(LuaValueProblem) -> Double {
        let s = stack
        let known = s.withBytes(at: index) { bytes -> Int? in
            for (k, name) in names.enumerated() where name.utf8.elementsEqual(bytes) { return k }
            return nil
        } ?? nil
        if let known { return Double(bitPattern: Self.tag | UInt64(known)) }
        let name = s.string(at: index) ?? ""
        if table != 0 {
            s.pushValue(at: index)
            if s.rawGet(in: table) == .nil { s.pop() } else { return try read(name) }
        }
        throw LuaValueProblem("number or the name of a column expected, got \"\(name)\" (options.columns has no '\(name)')")
    }

    /// The names a derived column's table may hold.
    static let derivedNames: Set<String> = ["of", "minus", "times", "plus"]

    /// Reads the column on top of the stack (popped) as column `name`: a list, or (unless
    /// `listOnly`) a column derived from one.
    private func read(_ name: String, listOnly: Bool = false) throws(LuaValueProblem) -> Double {
        let s = stack
        defer { s.pop() }
        guard s.type(at: -1) == .table else {
            throw LuaValueProblem("column '\(name)': list of \(rows) numbers expected, got \(s.describeValue(at: -1))")
        }
        let isDerived = s.getField("of", in: -1) != .nil
        s.pop()
        if isDerived && !listOnly { return try derive(name, from: s.top) }
        let n = s.rawLength(at: -1)
        guard n == rows, !isDerived else {
            throw LuaValueProblem("column '\(name)': \(rows) numbers (one per node) expected, got \(n)"
                + (isDerived ? " (a column is derived from a list, not from another derived column)" : ""))
        }
        let t = s.top
        let start = data.count
        if n > 0 {
            guard s.reserve(1) else { throw LuaValueProblem("no room on the Lua stack") }
            data.append(contentsOf: repeatElement(0, count: n))
            let bad = data.withUnsafeMutableBufferPointer { all in
                arcade_read_numbers(s.L, t, lua_Integer(n), all.baseAddress! + start)
            }
            if bad != 0 {
                data.removeSubrange(start...)
                s.getIndex(Int(bad), in: t)
                defer { s.pop() }
                throw LuaValueProblem("column '\(name)': finite number expected at item \(bad), got \(s.describeNumber(at: -1))")
            }
        }
        let i = names.count
        names.append(name)
        derived.append(false)
        return Double(bitPattern: Self.tag | UInt64(i))
    }

    /// Reads the derived column `name` whose table is at absolute index `t`:
    /// `{ of = "c", minus = a, times = k, plus = b }` is `((c - a) * k) + b` row by row, each
    /// step taken only when given, so it gives exactly what the same arithmetic in Lua does.
    private func derive(_ name: String, from t: Int32) throws(LuaValueProblem) -> Double {
        let s = stack
        guard s.reserve(3) else { throw LuaValueProblem("no room on the Lua stack") }
        s.pushNil()
        while s.next(in: t) {
            let key = s.type(at: -2) == .string ? s.string(at: -2) : nil
            s.pop()
            guard let key, Self.derivedNames.contains(key) else {
                let what = key.map { "'\($0)'" } ?? s.describeValue(at: -1)
                s.pop()
                throw LuaValueProblem("column '\(name)': a derived column takes of, minus, times and plus, not \(what)")
            }
        }
        func factor(_ key: String) throws(LuaValueProblem) -> Double? {
            defer { s.pop() }
            if s.getField(key, in: t) == .nil { return nil }
            do { return try s.readNumber(at: -1) } catch {
                throw LuaValueProblem("column '\(name)': \(key): \(error.text)")
            }
        }
        let minus = try factor("minus"), times = try factor("times"), plus = try factor("plus")
        s.getField("of", in: t)
        guard s.type(at: -1) == .string, let source = s.string(at: -1) else {
            defer { s.pop() }
            throw LuaValueProblem("column '\(name)': of: the name of a column expected, got \(s.describeValue(at: -1))")
        }
        // the column it is derived from: a list read already, or read now (refused when it is
        // derived itself, whether or not a spec named it first)
        var index = names.firstIndex(of: source)
        if let k = index, derived[k] { index = nil }
        if index == nil {
            s.rawGet(in: table)  // pops the name
            guard s.type(at: -1) != .nil else {
                s.pop()
                throw LuaValueProblem("column '\(name)': of: options.columns has no '\(source)'")
            }
            index = Int(Self.index(of: try read(source, listOnly: true)))
        } else {
            s.pop()
        }
        let from = index! &* rows
        let start = data.count
        data.reserveCapacity(start + rows)
        for r in 0..<rows {
            var v = data[from + r]
            if let minus { v = v - minus }
            if let times { v = v * times }
            if let plus { v = v + plus }
            data.append(v)
        }
        let i = names.count
        names.append(name)
        derived.append(true)
        return Double(bitPattern: Self.tag | UInt64(i))
    }

    /// The column a placeholder names.
    private static func index(of placeholder: Double) -> UInt64 { placeholder.bitPattern & 0xFFFF_FFFF }

    /// `v`, or row `row` of the column `v` is the placeholder of.
    @inline(__always) func value(_ v: Double, row: Int) -> Double {
        let bits = v.bitPattern
        guard bits & Self.tagMask == Self.tag else { return v }
        return data[Int(bits & 0xFFFF_FFFF) &* rows &+ row]
    }
}
