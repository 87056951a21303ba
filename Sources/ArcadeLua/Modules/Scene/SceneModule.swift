import ArcadeCore
import ArcadeRender

/// `arcade.scene.*` and the `arcade.Node` handle (images: ``ImageModule``; the properties of
/// each kind of node: ``NodeProperties``).
///
/// Lua creates nodes with an options table and then reads and writes their properties:
///
///     local coin = arcade.scene.sprite{ image = coin_image, x = 40, y = 90, z = 2 }
///     coin.rotation = 0.5
///     coin:remove()
///
/// Node handles are weak: once a node is removed, its handle is inert and using it raises
/// "this node was removed".
public final class SceneModule {
    public static let nodeClass = LuaClass("arcade.Node", gone: "this node was removed")

    private unowned let vm: LuaVM
    public let scene: Scene
    /// `arcade.image*` and the images the game made.
    public let images: ImageModule
    /// Node handles, shared by every binding that takes a node.
    public private(set) var nodes: LuaHandles<Node>!
    /// Bytes charged for nodes' content beyond ``NativeCost/node`` (text, label pixels, line
    /// points), by node.
    @exclusivity(unchecked) private var contentCharges: [ObjectIdentifier: Int] = [:]
    @exclusivity(unchecked) private var contentBytes = 0
    /// The most text one text node (or one `gfx.text` call) takes: far beyond any screen,
    /// and small enough that walking it every frame stays cheap.
    public static let maximumTextBytes = 1 << 20

    /// What the scene holds natively now (see ``NativeCost``); the images count apart.
    public var nativeBytes: Int {
        scene.nodeCount * NativeCost.node + contentBytes
    }
    private var account = NativeAccount()

    /// Brings the VM's count of native memory up to date with ``nativeBytes``.
    private func syncNative() { account.report(nativeBytes, to: vm) }
    /// Called when Lua removes a node (the host cancels its animations and bodies).
    public var onRemove: (Node) -> Void = { _ in }
    /// Scene time in seconds, for flipbook starts.
    public var time: Double = 0

    public init(vm: LuaVM, scene: Scene, assetRoot: String) {
        self.vm = vm
        self.scene = scene
        images = ImageModule(vm: vm, assetRoot: assetRoot)
        nodes = LuaHandles(Self.nodeClass) { [unowned scene] id in scene.node(withID: Int(id)) }
        syncNative()  // the root
        vm.defineClass(nodes, methods: [
            nodes.removeMethod { self.remove($0) },
            ("add", { s in
                let parent = try self.nodes.check(s, 1)
                try self.add(try self.nodes.check(s, 2), to: parent)
                return 0
            }),
            ("set", { s in
                let node = try self.nodes.check(s, 1)
                try self.apply(try s.checkOptions(2, known: NodeProperties.settableNames(for: node)), to: node)
                s.setTop(1)
                return 1
            }),
            nodes.aliveMethod,
            ("children", { s in
                let kids = try self.nodes.check(s, 1).children
                s.pushTable(array: Int32(kids.count))
                for (i, k) in kids.enumerated() {
                    self.pushNode(k, s)
                    s.setIndex(i + 1, in: -2)
                }
                return 1
            }),
            ("contains", { s in
                let node = try self.nodes.check(s, 1)
                let p = Vec2(try s.checkNumber(2), try s.checkNumber(3))
                self.scene.updateLayout()
                s.push(self.scene.nodes(at: p).contains { $0 === node })
                return 1
            }),
        ], get: { s, node, key in
            guard let property = NodeProperties.table(for: node)[key] else { return 0 }
            return property.get(s, node, self) ? 1 : 0
        }, set: { s, node, key in
            try self.set(key, of: node, s)
        }, describe: { id in
            guard let n = scene.node(withID: Int(id)) else { return "Node#\(id) (removed)" }
            return "\(n.kindName)#\(id)"
        })
        vm.register(in: "arcade.scene", [
            maker("group", GroupNode.self) { _ in GroupNode() },
            maker("rect", RectNode.self) { o in
                RectNode(width: try o.number("width") ?? 10, height: try o.number("height") ?? 10)
            },
            maker("circle", CircleNode.self) { o in CircleNode(radius: try o.number("radius") ?? 5) },
            maker("line", LineNode.self) { _ in LineNode(points: []) },
            // its points are checked (and charged) with the other options
            maker("polygon", PolygonNode.self) { o in
                if try o.field("points", { _ in true }) == nil {
                    throw o.fieldError("points", "\(Self.polygonPoints) expected, got nil")
                }
                return PolygonNode(points: [])
            },
            // their text is set (and charged) with the other options
            maker("text", TextNode.self) { _ in TextNode(text: "") },
            maker("label", LabelNode.self) { _ in LabelNode(text: "") },
            maker("sprite", SpriteNode.self) { o in
                let id = try o.required("image") { i throws(LuaValueProblem) in try self.images.handles.readID(o.stack, at: i) }
                return SpriteNode(flipbook: try self.images.handles.object(id))
            },
            ("root", { s in
                self.pushNode(self.scene.root, s)
                return 1
            }),
            ("clear", { _ in
                for child in self.scene.root.children { self.remove(child) }
                return 0
            }),
            ("background", { s in
                self.scene.background = try s.optColor(1, self.scene.background)
                s.push(self.scene.background)
                return 1
            }),
            ("count", { s in
                s.push(self.scene.nodeCount - 1)
                return 1
            }),
            ("hit", { s in
                let p = Vec2(try s.checkNumber(1), try s.checkNumber(2))
                self.scene.updateLayout()
                guard let top = self.scene.nodes(at: p).first else { return 0 }
                self.pushNode(top, s)
                return 1
            }),
        ])
    }

    /// Pushes the handle of `node`.
    func pushNode(_ node: Node, _ s: LuaStack) {
        vm.pushHandle(s, UInt64(node.id), of: Self.nodeClass)
    }

    // MARK: Nodes

    /// `arcade.scene.<kind>{...}`: `make` builds the node from the options it needs first;
    /// the others (and `parent`) are applied to it before it joins the scene.
    private func maker<N: Node>(_ kind: String, _: N.Type, _ make: @escaping (LuaOptions) throws -> N) -> (String, LuaFunction) {
        let names = NodeProperties.optionNames(for: N.self)
        return (kind, { s in
            let options = try s.optOptions(1, known: names)
            try self.vm.reserveNative(NativeCost.node, for: "a new \(kind) node")
            let node = try make(options)
            // content charged while the options were applied goes if the node never joins
            do {
                let parent = try options.object("parent", self.nodes)
                try self.apply(options, to: node)
                if let sprite = node as? SpriteNode { sprite.animationStart = self.time }
                try self.add(node, to: parent)
            } catch {
                self.releaseContent(of: node)
                self.syncNative()
                throw error
            }
            self.syncNative()
            self.pushNode(node, s)
            return 1
        })
    }

    /// Adds `node`, made natively rather than from an options table, under `parent` (nil:
    /// the root); its charge is counted at the next ``syncNativeBytes()``.
    func adopt(_ node: Node, under parent: Node?) throws -> Node {
        if let sprite = node as? SpriteNode { sprite.animationStart = time }
        try add(node, to: parent)
        return node
    }

    /// ``adopt(_:under:)`` for each of `nodes`, in order.
    func adopt(_ nodes: [Node], under parent: Node?) throws {
        for node in nodes {
            if let sprite = node as? SpriteNode { sprite.animationStart = time }
        }
        do { try scene.add(nodes, to: parent) } catch { throw LuaScriptError("\(error)") }
    }

    /// Removes `node` and its subtree as `node:remove()` does.
    func removeNative(_ node: Node) { remove(node) }

    /// Brings the VM's count of the scene's native memory up to date.
    func syncNativeBytes() { syncNative() }

    private func add(_ child: Node, to parent: Node?) throws {
        do { try scene.add(child, to: parent) } catch { throw LuaScriptError("\(error)") }
    }

    /// Removes `node` and its subtree: each node, children before their parent, is handed to
    /// ``onRemove`` and its content charge is released. The nodes below `node` are walked
    /// with a stack of its own, which a leaf (a coin of a shower: dozens a frame) never needs.
    private func remove(_ node: Node) {
        guard node !== scene.root else { return }
        let children = node.children
        if !children.isEmpty {
            var pending: [(node: Node, children: [Node], next: Int)] = [(node, children, 0)]
            while let top = pending.last {
                if top.next < top.children.count {
                    pending[pending.count - 1].next += 1
                    let child = top.children[top.next]
                    pending.append((child, child.children, 0))
                    continue
                }
                pending.removeLast()
                if pending.isEmpty { break }  // `node` itself, below
                onRemove(top.node)
                releaseContent(of: top.node)
            }
        }
        onRemove(node)
        releaseContent(of: node)
        scene.remove(node)
        syncNative()
    }

    // MARK: Properties

    /// Sets every option on `node`, in name order (so that errors and effects do not depend
    /// on Lua's hash order); `parent` and a sprite's `image` were used to make it.
    func apply(_ options: LuaOptions, to node: Node) throws {
        guard options.index != 0 else { return }
        let s = options.stack
        let table = NodeProperties.table(for: node)
        var keys: [String] = []
        s.pushNil()
        while s.next(in: options.index) {
            if let k = s.string(at: -2), k != "parent", !(k == "image" && node is SpriteNode) { keys.append(k) }
            s.pop()
        }
        for key in keys.sorted() {
            guard let setter = table[key]?.set else { continue }  // the options were checked
            s.getField(key, in: options.index)
            do { try setter(s, s.top, node, self) } catch let p as LuaValueProblem { throw options.fieldError(key, p.text) }
            s.pop()
        }
    }

    /// `node.key = value` (the value at index 3).
    private func set(_ key: String, of node: Node, _ s: LuaStack) throws {
        guard let property = NodeProperties.table(for: node)[key] else {
            throw LuaScriptError("a \(node.kindName) has no property '\(key)'")
        }
        guard let setter = property.set else { throw LuaScriptError("\(node.kindName).\(key) is read-only") }
        do { try setter(s, 3, node, self) } catch let p as LuaValueProblem {
            throw LuaScriptError("\(node.kindName).\(key): \(p.text)")
        }
    }

    // MARK: Content and its memory

    /// Makes `bytes` the charge for `node`'s content, checking first that an increase fits.
    private func chargeContent(of node: Node, _ bytes: Int, for what: @autoclosure () -> String) throws {
        let id = ObjectIdentifier(node)
        let old = contentCharges[id] ?? 0
        if bytes > old { try vm.reserveNative(bytes - old, for: what()) }
        contentCharges[id] = bytes > 0 ? bytes : nil
        contentBytes += bytes - old
        if bytes != old { syncNative() }
    }

    private func releaseContent(of node: Node) {
        if let old = contentCharges.removeValue(forKey: ObjectIdentifier(node)) { contentBytes -= old }
        // the caller measures again once it has released everything
    }

    /// `line.points = { {x, y}, ... }`, charged before the points are copied.
    func setPoints(of line: LineNode, from v: Int32, _ s: LuaStack) throws {
        guard s.type(at: v) == .table else { throw s.problem(expected: "list of { x, y }", at: v) }
        line.points = try readPoints(of: line, from: v, s)
    }

    /// What a polygon's points must be.
    static let polygonPoints = "list of 3 to \(PolygonNode.maximumPoints) points { x, y }"

    /// `polygon.points = { {x, y}, ... }`: 3 to ``PolygonNode/maximumPoints`` of them, charged
    /// before they are copied.
    func setPoints(of polygon: PolygonNode, from v: Int32, _ s: LuaStack) throws {
        guard s.type(at: v) == .table else { throw s.problem(expected: Self.polygonPoints, at: v) }
        let n = s.rawLength(at: v)
        guard n >= 3, n <= PolygonNode.maximumPoints else {
            throw LuaValueProblem(expected: Self.polygonPoints, got: n == 1 ? "1 point" : "\(n) points")
        }
        polygon.points = try readPoints(of: polygon, from: v, s)
    }

    /// The points of the list at `v`, charged to `node` first.
    private func readPoints(of node: Node, from v: Int32, _ s: LuaStack) throws -> [Vec2] {
        let n = s.rawLength(at: v)
        try chargeContent(of: node, NativeCost.product(n, NativeCost.point), for: "a \(node.kindName) of \(n) points")
        var points: [Vec2] = []
        points.reserveCapacity(n)
        for i in stride(from: 1, through: n, by: 1) {
            s.getIndex(i, in: v)
            defer { s.pop() }
            guard let p = s.point(at: -1) else {
                throw LuaValueProblem("{ x, y } expected at item \(i), got \(s.describeValue(at: -1))")
            }
            points.append(p)
        }
        return points
    }

    /// `text.text = ...`, charged by its length.
    func setText(of node: TextNode, to text: String) throws {
        let bytes = text.utf8.count
        guard bytes <= Self.maximumTextBytes else {
            throw LuaScriptError("text.text is \(bytes) bytes long; a text node holds at most \(Self.maximumTextBytes) bytes")
        }
        try chargeContent(of: node, bytes * NativeCost.textByte, for: "a text of \(bytes) bytes")
        node.text = text
    }

    /// Sets a label's text, outline or font, charged for what it then renders.
    func setLabel(_ l: LabelNode, text: String? = nil, outline: Color? = nil, font: BlockFont? = nil) throws {
        let text = text ?? l.text, outline = outline ?? l.outline, font = font ?? l.font
        guard text.utf8.count <= Self.maximumTextBytes else {
            throw LuaScriptError("label.text is \(text.utf8.count) bytes long; a label holds at most \(Self.maximumTextBytes) bytes")
        }
        // measured only up to the largest a label may be, and stopped at the step's deadline
        let size: (width: Int, height: Int)
        switch font.measure(text, outlined: outline.a != 0, limit: Sprite.maximumSide, stop: { vm.isOverdue }) {
        case .size(let width, let height):
            size = (width, height)
        case .tooLarge(let width, _):
            let side = width > Sprite.maximumSide ? "wide" : "tall"
            throw LuaScriptError("label renders more than \(Sprite.maximumSide) pixels \(side); a label is at most \(Sprite.maximumSide) x \(Sprite.maximumSide)")
        case .stopped:
            throw LuaBudgetStop()
        }
        let bytes = text.utf8.count * NativeCost.textByte + NativeCost.product(size.width, size.height, NativeCost.pixel)
        try chargeContent(of: l, bytes, for: "a label of \(size.width) x \(size.height) pixels")
        (l.text, l.outline, l.font) = (text, outline, font)
    }
}
