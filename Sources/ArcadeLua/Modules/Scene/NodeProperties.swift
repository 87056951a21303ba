import ArcadeCore
import ArcadeRender

/// The properties scripts read and write on scene nodes (`node.x`, `label.text`), one table
/// per kind of node: the only place that says which properties a kind has, how each is read
/// and how it is set. Handle access (`node.key`, `node.key = v`), the options of
/// `arcade.scene.<kind>{...}` and `node:set{...}` all go through these tables.
///
/// Adding a property: give the node class its stored property, add one line to its kind's
/// table here, and declare it in `games/arcade.d.lua`.
enum NodeProperties {
    /// The table for `node`'s kind.
    static func table(for node: Node) -> [String: NodeProperty] {
        byKind[ObjectIdentifier(type(of: node))] ?? commonTable
    }

    /// The names `node:set{...}` takes for `node`: its settable properties.
    static func settableNames(for node: Node) -> LuaOptionNames {
        settable[ObjectIdentifier(type(of: node))] ?? []
    }

    /// The names `arcade.scene.<kind>{...}` takes for nodes of class `type`: their settable
    /// properties and `parent`.
    static func optionNames(for type: Node.Type) -> LuaOptionNames {
        (settable[ObjectIdentifier(type)] ?? []).union(["parent"])
    }

    private static let common = Kind<Node>([
        "x": .number({ $0.x }, { $0.x = $1 }),
        "y": .number({ $0.y }, { $0.y = $1 }),
        "anchor_x": .number({ $0.anchor.x }, { $0.anchor.x = $1 }),
        "anchor_y": .number({ $0.anchor.y }, { $0.anchor.y = $1 }),
        "anchor": .writeOnly { s, v, node, _ in node.anchor = try s.readPoint(at: v) },
        "scale": .number({ $0.scaleX }, { $0.scale = $1 }),
        "scale_x": .number({ $0.scaleX }, { $0.scaleX = $1 }),
        "scale_y": .number({ $0.scaleY }, { $0.scaleY = $1 }),
        "rotation": .number({ $0.rotation }, { $0.rotation = $1 }),
        "alpha": .number({ $0.alpha }, { $0.alpha = $1 }),
        "z": .number({ $0.z }, { $0.z = $1 }),
        "visible": .flag({ $0.isVisible }, { $0.isVisible = $1 }),
        "wrap": Property(get: { s, node, _ in pushWrap(node.wrap, s) },
                         set: { s, v, node, _ in node.wrap = try readWrap(s, at: v) }),
        "name": Property(get: { s, node, _ in
            guard let name = node.name else { return false }
            s.push(name)
            return true
        }, set: { s, v, node, _ in node.name = s.isNoneOrNil(v) ? nil : try s.readName(at: v) }),
        "kind": .readOnly { s, node, _ in s.push(node.kindName); return true },
        "id": .readOnly { s, node, _ in s.push(node.id); return true },
        "parent": .readOnly { s, node, scene in
            guard let p = node.parent else { return false }
            scene.pushNode(p, s)
            return true
        },
    ])

    private static let group = Kind<GroupNode>([
        "clip": .flag({ $0.clipsChildren }, { $0.clipsChildren = $1 }),
        "width": .number({ $0.width }, { $0.width = max(0, $1) }),
        "height": .number({ $0.height }, { $0.height = max(0, $1) }),
    ])

    /// What rectangles and circles share.
    private static let shape: Kind<ShapeNode> = {
        let fill = Property<ShapeNode>.color({ $0.fill }, { $0.fill = $1 })
        return Kind([
            "fill": fill, "color": fill,
            "stroke": .color({ $0.stroke }, { $0.stroke = $1 }),
            "line_width": .number({ $0.lineWidth }, { $0.lineWidth = max(0, $1) }),
        ])
    }()

    private static let rect = Kind<RectNode>([
        "width": .number({ $0.width }, { $0.width = max(0, $1) }),
        "height": .number({ $0.height }, { $0.height = max(0, $1) }),
    ])

    private static let circle = Kind<CircleNode>([
        "radius": .number({ $0.radius }, { $0.radius = max(0, $1) }),
    ])

    private static let polygon = Kind<PolygonNode>([
        "points": Property(get: { s, polygon, _ in pushPoints(polygon.points, s); return true },
                           set: { s, v, polygon, scene in try scene.setPoints(of: polygon, from: v, s) }),
    ])

    private static let line: Kind<LineNode> = {
        let width = Property<LineNode>.number({ $0.lineWidth }, { $0.lineWidth = max(0, $1) })
        return Kind([
            // Unset (nil) by default: the points are relative to the position on that axis.
            "anchor_x": Property(get: { s, line, _ in
                guard line.anchorsX else { return false }
                s.push(line.anchor.x)
                return true
            }, set: { s, v, line, _ in
                let n = try anchorNumber(s, v)
                line.anchorsX = n != nil
                if let n { line.anchor.x = n }
            }),
            "anchor_y": Property(get: { s, line, _ in
                guard line.anchorsY else { return false }
                s.push(line.anchor.y)
                return true
            }, set: { s, v, line, _ in
                let n = try anchorNumber(s, v)
                line.anchorsY = n != nil
                if let n { line.anchor.y = n }
            }),
            "anchor": .writeOnly { s, v, line, _ in
                let anchored = !s.isNoneOrNil(v)
                if anchored { line.anchor = try s.readPoint(at: v) }
                (line.anchorsX, line.anchorsY) = (anchored, anchored)
            },
            "color": .color({ $0.color }, { $0.color = $1 }),
            "line_width": width, "width": width,
            "stroke_start": .number({ $0.strokeStart }, { $0.strokeStart = $1 }),
            "stroke_end": .number({ $0.strokeEnd }, { $0.strokeEnd = $1 }),
            "points": Property(get: { s, line, _ in pushPoints(line.points, s); return true },
                               set: { s, v, line, scene in try scene.setPoints(of: line, from: v, s) }),
        ])
    }()

    private static let text = Kind<TextNode>([
        "text": Property(get: { s, t, _ in s.push(t.text); return true },
                         set: { s, v, t, scene in try scene.setText(of: t, to: try s.readText(at: v)) }),
        "color": .color({ $0.color }, { $0.color = $1 }),
        "background": .color({ $0.background }, { $0.background = $1 }),
        "width": .number({ $0.size.width }),
        "height": .number({ $0.size.height }),
        "align": .align({ $0.align }, { $0.align = $1 }),
    ])

    private static let label = Kind<LabelNode>([
        "text": Property(get: { s, l, _ in s.push(l.text); return true },
                         set: { s, v, l, scene in try scene.setLabel(l, text: try s.readText(at: v)) }),
        "color": .color({ $0.color }, { $0.color = $1 }),
        "outline": Property(get: { s, l, _ in s.push(l.outline); return true },
                            set: { s, v, l, scene in try scene.setLabel(l, outline: try s.readColor(at: v)) }),
        "font": Property(get: { s, l, _ in s.push(l.font.name); return true },
                         set: { s, v, l, scene in
                             let names = [BlockFont.large.name, BlockFont.small.name]
                             try scene.setLabel(l, font: try s.readChoice(at: v, of: names, BlockFont.named))
                         }),
        "width": .number({ Double($0.sprite.width) }),
        "height": .number({ Double($0.sprite.height) }),
        "align": .align({ $0.align }, { $0.align = $1 }),
    ])

    private static let sprite: Kind<SpriteNode> = {
        let tint = Property<SpriteNode>.color({ $0.tint }, { $0.tint = $1 })
        return Kind([
            "image": .writeOnly { s, v, p, scene in p.flipbook = try scene.images.handles.read(s, at: v) },
            "width": .number({ Double($0.flipbook.frames[0].width) }),
            "height": .number({ Double($0.flipbook.frames[0].height) }),
            "frame_time": .number({ $0.frameDuration }, { $0.frameDuration = max(0.001, $1) }),
            "loop_time": .number({ $0.loopDuration }, { $0.loopDuration = max(0.001, $1) }),
            "playing": Property(get: { s, p, _ in s.push(p.isPlaying); return true },
                                set: { s, v, p, scene in
                                    p.isPlaying = s.truthy(at: v)
                                    if p.isPlaying { p.animationStart = scene.time }
                                }),
            "frame": Property(get: { s, p, scene in s.push(p.currentFrame(at: scene.time) + 1); return true },
                              set: { s, v, p, _ in
                                  p.frameIndex = try frameNumber(s, v) - 1
                                  p.isPlaying = false
                              }),
            "tint": tint, "color": tint,
        ])
    }()

    /// A frame number: any whole number is a frame (they wrap), but only this many fit an Int.
    private static func frameNumber(_ s: LuaStack, _ v: Int32) throws(LuaValueProblem) -> Int {
        let n = try s.readNumber(at: v).rounded(.towardZero)
        guard abs(n) <= 0x1p31 else {
            let got = s.isInteger(at: v) ? String(s.integer(at: v) ?? 0) : String(n)
            throw LuaValueProblem(expected: "frame number between -2^31 and 2^31", got: got)
        }
        return Int(n)
    }

    private static func pushPoints(_ points: [Vec2], _ s: LuaStack) {
        s.reserve(3)
        s.pushTable(array: Int32(points.count))
        for (i, p) in points.enumerated() {
            s.pushTable(array: 2)
            s.push(p.x); s.setIndex(1, in: -2)
            s.push(p.y); s.setIndex(2, in: -2)
            s.setIndex(i + 1, in: -2)
        }
    }

    /// A line's `anchor_x` or `anchor_y`: a number, or nil for none.
    private static func anchorNumber(_ s: LuaStack, _ v: Int32) throws(LuaValueProblem) -> Double? {
        if s.isNoneOrNil(v) { return nil }
        guard s.type(at: v) == .number else { throw s.problem(expected: "number or nil", at: v) }
        return try s.readNumber(at: v)
    }

    /// `node.wrap` as scripts read it: nil, true (the canvas) or the region's table.
    private static func pushWrap(_ wrap: NodeWrap, _ s: LuaStack) -> Bool {
        switch wrap {
        case .none: return false
        case .canvas:
            s.push(true)
            return true
        case .region(let r):
            s.reserve(2)
            s.pushTable(array: 4, fields: 6)
            for (i, v) in [r.x, r.y, r.width, r.height].enumerated() {
                s.push(v); s.setIndex(i + 1, in: -2)
            }
            s.push(r.x); s.setField("x", in: -2)
            s.push(r.y); s.setField("y", in: -2)
            s.push(r.width); s.setField("width", in: -2)
            s.push(r.height); s.setField("height", in: -2)
            s.push(r.wrapsX); s.setField("wrap_x", in: -2)
            s.push(r.wrapsY); s.setField("wrap_y", in: -2)
            return true
        }
    }

    /// What `node.wrap = v` means: nil or false for none, true for the canvas, or a region
    /// `{ x, y, width, height }` (or with those names), optionally with `wrap_x = false` or
    /// `wrap_y = false` to keep one pair of edges apart.
    private static func readWrap(_ s: LuaStack, at v: Int32) throws(LuaValueProblem) -> NodeWrap {
        let region = "{ x, y, width, height }"
        switch s.type(at: v) {
        case .nil, .none: return .none
        case .boolean: return s.truthy(at: v) ? .canvas : .none
        case .table: break
        default: throw s.problem(expected: "\(region), true, false or nil", at: v)
        }
        let t = s.absolute(v)
        var numbers: [Double] = []
        for (i, name) in ["x", "y", "width", "height"].enumerated() {
            var type = s.getIndex(i + 1, in: t)
            if type == .nil {
                s.pop()
                type = s.getField(name, in: t)
            }
            defer { s.pop() }
            guard type == .number, let n = s.number(at: -1), n.isFinite else {
                let got = type == .number ? decimal(s.number(at: -1) ?? 0) : s.describeValue(at: -1)
                throw LuaValueProblem(expected: region, got: "a table whose \(name) is \(got)")
            }
            numbers.append(n)
        }
        guard numbers[2] > 0, numbers[3] > 0 else {
            throw LuaValueProblem(expected: "\(region) with a width and height above 0",
                                  got: "\(decimal(numbers[2])) x \(decimal(numbers[3]))")
        }
        func flag(_ name: String) throws(LuaValueProblem) -> Bool {
            let type = s.getField(name, in: t)
            defer { s.pop() }
            switch type {
            case .nil: return true
            case .boolean: return s.truthy(at: -1)
            default: throw LuaValueProblem(expected: "\(name) = true or false", got: s.describeValue(at: -1))
            }
        }
        return .region(WrapRegion(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3],
                                  wrapsX: try flag("wrap_x"), wrapsY: try flag("wrap_y")))
    }

    /// A number as a script would write it: `10`, not `10.0`.
    private static func decimal(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
    }

    private static let commonTable = common.erased
    private static let shapeTable = commonTable.merging(shape.erased) { $1 }

    /// Every kind's table (the common properties with its own), by node class.
    private static let byKind: [ObjectIdentifier: [String: NodeProperty]] = [
        ObjectIdentifier(GroupNode.self): commonTable.merging(group.erased) { $1 },
        ObjectIdentifier(RectNode.self): shapeTable.merging(rect.erased) { $1 },
        ObjectIdentifier(CircleNode.self): shapeTable.merging(circle.erased) { $1 },
        ObjectIdentifier(PolygonNode.self): shapeTable.merging(polygon.erased) { $1 },
        ObjectIdentifier(LineNode.self): commonTable.merging(line.erased) { $1 },
        ObjectIdentifier(TextNode.self): commonTable.merging(text.erased) { $1 },
        ObjectIdentifier(LabelNode.self): commonTable.merging(label.erased) { $1 },
        ObjectIdentifier(SpriteNode.self): commonTable.merging(sprite.erased) { $1 },
    ]

    private static let settable: [ObjectIdentifier: LuaOptionNames] = byKind.mapValues {
        LuaOptionNames($0.filter { $0.value.set != nil }.keys)
    }
}

/// A property of any node, as the tables hold it.
struct NodeProperty: Sendable {
    /// Pushes the value; false (nothing pushed) for nil.
    let get: @Sendable (LuaStack, Node, SceneModule) -> Bool
    /// Sets it from the value at the stack index; nil when the property is read-only.
    let set: (@Sendable (LuaStack, Int32, Node, SceneModule) throws -> Void)?
}

/// A property of nodes of class `N`. Setters throw a ``LuaValueProblem`` for a value of the
/// wrong kind; where the value came from (an option, an assignment) says how it is shown.
struct Property<N: Node>: Sendable {
    let get: @Sendable (LuaStack, N, SceneModule) -> Bool
    let set: (@Sendable (LuaStack, Int32, N, SceneModule) throws -> Void)?

    /// A finite number; read-only without `set`.
    static func number(_ get: @escaping @Sendable (N) -> Double, _ set: (@Sendable (N, Double) -> Void)? = nil) -> Self {
        let push: @Sendable (LuaStack, N, SceneModule) -> Bool = { s, n, _ in s.push(get(n)); return true }
        guard let set else { return Property(get: push, set: nil) }
        return Property(get: push, set: { s, v, n, _ in set(n, try s.readNumber(at: v)) })
    }

    /// A colour.
    static func color(_ get: @escaping @Sendable (N) -> Color, _ set: @escaping @Sendable (N, Color) -> Void) -> Self {
        Property(get: { s, n, _ in s.push(get(n)); return true },
                 set: { s, v, n, _ in set(n, try s.readColor(at: v)) })
    }

    /// A flag: any value, read as Lua reads a condition.
    static func flag(_ get: @escaping @Sendable (N) -> Bool, _ set: @escaping @Sendable (N, Bool) -> Void) -> Self {
        Property(get: { s, n, _ in s.push(get(n)); return true },
                 set: { s, v, n, _ in set(n, s.truthy(at: v)) })
    }

    /// A text alignment, nil for none.
    static func align(_ get: @escaping @Sendable (N) -> TextAlign?, _ set: @escaping @Sendable (N, TextAlign?) -> Void) -> Self {
        Property(get: { s, n, _ in
            guard let a = get(n) else { return false }
            s.push(a.rawValue)
            return true
        }, set: { s, v, n, _ in
            if s.isNoneOrNil(v) { return set(n, nil) }
            guard let a = s.string(at: v).flatMap(TextAlign.init(rawValue:)) else {
                throw LuaValueProblem(expected: "\"left\", \"center\", \"right\" or nil", got: s.describeQuoted(at: v))
            }
            set(n, a)
        })
    }

    /// Read by a function of its own.
    static func readOnly(_ get: @escaping @Sendable (LuaStack, N, SceneModule) -> Bool) -> Self {
        Property(get: get, set: nil)
    }

    /// Set by a function of its own; reads as nil.
    static func writeOnly(_ set: @escaping @Sendable (LuaStack, Int32, N, SceneModule) throws -> Void) -> Self {
        Property(get: { _, _, _ in false }, set: set)
    }
}

/// One kind's own properties.
struct Kind<N: Node>: Sendable {
    let properties: [String: Property<N>]

    init(_ properties: [String: Property<N>]) {
        self.properties = properties
    }

    /// The table as it works on any node (the tables are chosen by the node's class, so the
    /// node is always an `N`).
    var erased: [String: NodeProperty] {
        properties.mapValues { p in
            let get: @Sendable (LuaStack, Node, SceneModule) -> Bool = { s, node, scene in
                p.get(s, unsafeDowncast(node, to: N.self), scene)
            }
            guard let set = p.set else { return NodeProperty(get: get, set: nil) }
            return NodeProperty(get: get, set: { s, v, node, scene in try set(s, v, unsafeDowncast(node, to: N.self), scene) })
        }
    }
}
