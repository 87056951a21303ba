import ArcadeCore
import ArcadeRender

/// `arcade.scene.*`, `arcade.image*` and the `arcade.Node` / `arcade.Image` handles.
///
/// Lua creates nodes with an options table and then reads and writes their properties:
///
///     local coin = arcade.scene.sprite{ image = coin_image, x = 40, y = 90, z = 2 }
///     coin.rotation = 0.5
///     coin:remove()
///
/// Node handles are weak: once a node is removed, its handle is inert and using it raises
/// "this node was removed". Images are immutable values and live as long as the game.
public final class SceneModule {
    public static let nodeClass = LuaClass("arcade.Node")
    public static let imageClass = LuaClass("arcade.Image")

    private unowned let vm: LuaVM
    public let scene: Scene
    /// The game's folder, where `arcade.image_file` looks.
    public let assetRoot: String
    private var images: [Flipbook] = []
    /// Bytes charged for the images (they live as long as the game).
    private var imageBytes = 0
    /// Bytes charged for nodes' content beyond ``NativeCost/node`` (text, label pixels, line
    /// points), by node.
    private var contentCharges: [ObjectIdentifier: Int] = [:]
    private var contentBytes = 0
    /// The most text one text node (or one `gfx.text` call) takes: far beyond any screen,
    /// and small enough that walking it every frame stays cheap.
    public static let maximumTextBytes = 1 << 20

    /// What the scene and the images hold natively now (see ``NativeCost``).
    public var nativeBytes: Int {
        scene.nodeCount * NativeCost.node + contentBytes + imageBytes
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
        self.assetRoot = assetRoot
        syncNative()  // the root
        vm.defineClass(Self.nodeClass, methods: [
            ("remove", { s in
                let node = try self.node(s, 1)
                self.remove(node)
                return 0
            }),
            ("add", { s in
                let parent = try self.node(s, 1)
                let child = try self.node(s, 2)
                do { try self.scene.add(child, to: parent) } catch { throw LuaScriptError("\(error)") }
                return 0
            }),
            ("set", { s in
                let node = try self.node(s, 1)
                try s.checkTable(2)
                try self.apply(options: 2, to: node, s)
                s.setTop(1)
                return 1
            }),
            ("alive", { s in
                let id = try self.vm.checkHandle(s, at: 1, of: Self.nodeClass)
                s.push(self.scene.node(withID: Int(id)) != nil)
                return 1
            }),
            ("children", { s in
                let node = try self.node(s, 1)
                let kids = node.children
                s.pushTable(array: Int32(kids.count))
                for (i, k) in kids.enumerated() {
                    self.vm.pushHandle(s, UInt64(k.id), of: Self.nodeClass)
                    s.setIndex(i + 1, in: -2)
                }
                return 1
            }),
            ("contains", { s in
                let node = try self.node(s, 1)
                let p = Vec2(try s.checkNumber(2), try s.checkNumber(3))
                self.scene.updateLayout()
                s.push(self.scene.nodes(at: p).contains { $0 === node })
                return 1
            }),
        ], get: { s, id, key in
            try self.get(key, of: self.resolve(id), s)
        }, set: { s, id, key in
            try self.set(key, of: self.resolve(id), from: 3, s)
        }, describe: { id in
            guard let n = scene.node(withID: Int(id)) else { return "Node#\(id) (removed)" }
            return "\(n.kindName)#\(id)"
        })
        vm.defineClass(Self.imageClass, methods: [], get: { s, id, key in
            let book = self.images[Int(id)]
            switch key {
            case "width": s.push(book.frames[0].width)
            case "height": s.push(book.frames[0].height)
            case "frames": s.push(book.frames.count)
            case "frame_time": s.push(book.frameDuration)
            default: return 0
            }
            return 1
        }, describe: { id in "Image#\(id)" })

        func maker(_ kind: String, _ make: @escaping (LuaStack) throws -> Node) -> (String, LuaFunction) {
            (kind, { s in
                if s.isNoneOrNil(1) { s.setTop(0); s.pushTable() } else { try s.checkTable(1) }
                try self.vm.reserveNative(NativeCost.node, for: "a new \(kind) node")
                let node = try make(s)
                // content charged while the options were applied goes if the node never joins
                do {
                    var parent: Node? = nil
                    if let pid = try s.field("parent", of: 1, { _ in try self.vm.checkHandle(s, at: s.top, of: Self.nodeClass) }) {
                        parent = try self.resolve(pid)
                    }
                    try self.apply(options: 1, to: node, s, skip: ["parent"])
                    if let sprite = node as? SpriteNode { sprite.animationStart = self.time }
                    do { try self.scene.add(node, to: parent) } catch { throw LuaScriptError("\(error)") }
                } catch {
                    self.releaseContent(of: node)
                    self.syncNative()
                    throw error
                }
                self.syncNative()
                self.vm.pushHandle(s, UInt64(node.id), of: Self.nodeClass)
                return 1
            })
        }
        vm.register(in: "arcade.scene", [
            maker("group") { _ in GroupNode() },
            maker("rect") { s in
                RectNode(width: try s.numberField("width", of: 1) ?? 10, height: try s.numberField("height", of: 1) ?? 10)
            },
            maker("circle") { s in CircleNode(radius: try s.numberField("radius", of: 1) ?? 5) },
            maker("line") { _ in LineNode(points: []) },
            // their text is set (and charged) with the other options
            maker("text") { _ in TextNode(text: "") },
            maker("label") { _ in LabelNode(text: "") },
            maker("sprite") { s in
                guard let book = try s.field("image", of: 1, { i in try self.image(s, i) }) else {
                    throw LuaArgumentError(1, "field 'image' is required (an arcade.image)")
                }
                return SpriteNode(flipbook: book)
            },
            ("root", { s in
                self.vm.pushHandle(s, UInt64(self.scene.root.id), of: Self.nodeClass)
                return 1
            }),
            ("clear", { _ in
                for child in self.scene.root.children { self.remove(child) }
                return 0
            }),
            ("background", { s in
                if !s.isNoneOrNil(1) {
                    guard let c = s.color(at: 1) else { throw LuaArgumentError(1, "colour expected, got \(s.typeName(at: 1))") }
                    self.scene.background = c
                }
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
                self.vm.pushHandle(s, UInt64(top.id), of: Self.nodeClass)
                return 1
            }),
        ])
        vm.register(in: "arcade", [
            ("image", { s in try self.makeImage(s) }),
            ("image_file", { s in try self.loadImageFile(s) }),
        ])
    }

    // MARK: Handles

    private func resolve(_ id: UInt64) throws -> Node {
        guard let n = scene.node(withID: Int(id)) else { throw LuaScriptError("this node was removed") }
        return n
    }

    private func node(_ s: LuaStack, _ index: Int32) throws -> Node {
        try resolve(vm.checkHandle(s, at: index, of: Self.nodeClass))
    }

    /// Removes `node` and its subtree: each node, children before their parent, is handed to
    /// ``onRemove`` and its content charge is released. Walked with a stack of its own.
    private func remove(_ node: Node) {
        guard node !== scene.root else { return }
        var pending: [(node: Node, children: [Node], next: Int)] = [(node, node.children, 0)]
        while let top = pending.last {
            if top.next < top.children.count {
                pending[pending.count - 1].next += 1
                let child = top.children[top.next]
                pending.append((child, child.children, 0))
                continue
            }
            pending.removeLast()
            onRemove(top.node)
            releaseContent(of: top.node)
        }
        scene.remove(node)
        syncNative()
    }

    // MARK: Memory

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

    /// Charges a label's content for showing `text` in `font` (outlined or not): its text and
    /// its rendered pixels, which must fit ``Sprite/maximumSide`` each way.
    private func chargeLabel(_ l: LabelNode, text: String, font: BlockFont, outlined: Bool) throws {
        guard text.utf8.count <= Self.maximumTextBytes else {
            throw LuaScriptError("label.text is \(text.utf8.count) bytes long; a label holds at most \(Self.maximumTextBytes) bytes")
        }
        let size = font.size(of: text, outlined: outlined)
        guard size.width <= Sprite.maximumSide, size.height <= Sprite.maximumSide else {
            throw LuaScriptError("label renders \(size.width) x \(size.height) pixels; a label is at most \(Sprite.maximumSide) x \(Sprite.maximumSide)")
        }
        let bytes = text.utf8.count * NativeCost.textByte + NativeCost.product(size.width, size.height, NativeCost.pixel)
        try chargeContent(of: l, bytes, for: "a label of \(size.width) x \(size.height) pixels")
    }

    // MARK: Images

    func image(_ s: LuaStack, _ index: Int32) throws -> Flipbook {
        let id = try vm.checkHandle(s, at: index, of: Self.imageClass)
        return images[Int(id)]
    }

    private func pushImage(_ book: Flipbook, bytes: Int, _ s: LuaStack) -> Int32 {
        images.append(book)
        imageBytes += bytes
        syncNative()
        vm.pushHandle(s, UInt64(images.count - 1), of: Self.imageClass)
        return 1
    }

    /// `arcade.image{ palette = { Y = "#ffcc00" }, rows = { ".YY." } }` or with
    /// `frames = { {rows...}, {rows...} }` and `frame_time`.
    private func makeImage(_ s: LuaStack) throws -> Int32 {
        try s.checkTable(1)
        var palette: [Character: Color] = [:]
        if s.getField("palette", in: 1) == .table {
            s.pushNil()
            while s.next(in: -2) {
                guard let k = s.string(at: -2), k.count == 1, let c = s.color(at: -1) else {
                    throw LuaArgumentError(1, "palette entries must be single characters mapped to colours")
                }
                palette[k.first!] = c
                s.pop()
            }
        } else if !s.isNoneOrNil(-1) {
            throw LuaArgumentError(1, "field 'palette' must be a table")
        }
        s.pop()
        // What the frames built so far take; each frame is checked against the cap before
        // its rows are copied out of Lua (a short string repeated a million times is cheap in
        // Lua and would not be here).
        var bytes = NativeCost.image
        func frame(at index: Int32) throws -> Sprite {
            let n = s.rawLength(at: index)
            guard n <= Sprite.maximumSide else {
                throw LuaArgumentError(1, "an image has at most \(Sprite.maximumSide) rows, got \(n)")
            }
            var longest = 0
            for i in stride(from: 1, through: n, by: 1) {
                s.getIndex(i, in: index)
                defer { s.pop() }
                guard s.type(at: -1) == .string else { throw LuaArgumentError(1, "image rows must be strings") }
                longest = max(longest, s.rawLength(at: -1))
            }
            guard n > 0 else { throw LuaArgumentError(1, "an image needs at least one row") }
            // a row holds at most one pixel per byte: this bounds both the copy and the pixels
            let bound = NativeCost.product(n, longest, 1 + NativeCost.pixel)
            try vm.reserveNative(bytes.addingSaturating(bound), for: "an image of up to \(min(longest, Sprite.maximumSide)) x \(n) pixels")
            var out: [String] = []
            out.reserveCapacity(n)
            for i in stride(from: 1, through: n, by: 1) {
                s.getIndex(i, in: index)
                out.append(s.string(at: -1) ?? "")
                s.pop()
            }
            let sprite = try Sprite(palette: palette, rows: out)
            bytes += NativeCost.frame + NativeCost.product(sprite.width, sprite.height, NativeCost.pixel)
            return sprite
        }
        var frames: [Sprite] = []
        do {
            if s.getField("frames", in: 1) == .table {
                let t = s.top
                for i in stride(from: 1, through: s.rawLength(at: t), by: 1) {
                    s.reserve(4)
                    s.getIndex(i, in: t)
                    guard s.type(at: -1) == .table else { throw LuaArgumentError(1, "each frame must be a table of rows") }
                    frames.append(try frame(at: s.top))
                    s.pop()
                }
            }
            s.pop()
            if frames.isEmpty {
                guard s.getField("rows", in: 1) == .table else {
                    throw LuaArgumentError(1, "field 'rows' (a list of strings) or 'frames' is required")
                }
                frames.append(try frame(at: s.top))
                s.pop()
            }
        } catch let e as SpriteError {
            throw LuaArgumentError(1, e.description)
        }
        let frameTime = try s.numberField("frame_time", of: 1) ?? SpriteFile.defaultFrameTime
        return pushImage(Flipbook(frames: frames, frameDuration: max(0.001, frameTime)), bytes: bytes, s)
    }

    /// `arcade.image_file("fish.sprite")`: a `.sprite` file in the game's folder.
    private func loadImageFile(_ s: LuaStack) throws -> Int32 {
        let name = try s.checkString(1)
        guard !name.hasPrefix("/"), !name.split(separator: "/").contains(".."), !name.isEmpty else {
            throw LuaArgumentError(1, "'\(name)' is not a file inside the game's folder")
        }
        guard let bytes = FileBytes.read(assetRoot + "/" + name, within: assetRoot) else {
            throw LuaScriptError("image file '\(name)' not found in the game's folder (or not a regular file inside it)")
        }
        // the text and its rows are copied while parsing; the pixels must fit what is left
        let text = NativeCost.product(bytes.count, 3)
        try vm.reserveNative(text, for: "reading image file '\(name)' (\(bytes.count) bytes)")
        let room = (vm.availableMemory - text - vm.nativeHeadroom) / NativeCost.pixel
        let book: Flipbook
        do {
            book = try SpriteFile.parse(String(decoding: bytes, as: UTF8.self), pixelLimit: max(0, room))
        } catch where error.neededPixels != nil {
            let pixels = error.neededPixels ?? 0
            throw LuaMemoryLimitError("image file '\(name)' (\(pixels) pixels up to its line \(error.line))",
                                      bytes: NativeCost.product(pixels, NativeCost.pixel))
        } catch {
            throw LuaScriptError("\(name):\(error.line): \(error.message)")
        }
        var cost = NativeCost.image
        for f in book.frames { cost += NativeCost.frame + NativeCost.product(f.width, f.height, NativeCost.pixel) }
        return pushImage(book, bytes: cost, s)
    }

    // MARK: Properties

    private static let common: Set<String> = [
        "x", "y", "anchor_x", "anchor_y", "scale", "scale_x", "scale_y", "rotation", "alpha", "z", "visible",
    ]

    /// Sets every field of the options table at `index` on `node`.
    func apply(options index: Int32, to node: Node, _ s: LuaStack, skip: Set<String> = []) throws {
        let t = s.absolute(index)
        // ordered keys so errors and effects do not depend on Lua's hash order
        var keys: [String] = []
        s.pushNil()
        while s.next(in: t) {
            guard let k = s.string(at: -2) else {
                s.pop(2)
                throw LuaArgumentError(index, "option names must be strings")
            }
            keys.append(k)
            s.pop()
        }
        for key in keys.sorted() where !skip.contains(key) {
            if node is SpriteNode && key == "image" { continue }
            s.getField(key, in: t)
            try set(key, of: node, from: s.top, s)
            s.pop()
        }
    }

    private func get(_ key: String, of node: Node, _ s: LuaStack) throws -> Int32 {
        switch key {
        case "x": s.push(node.x)
        case "y": s.push(node.y)
        case "anchor_x": s.push(node.anchor.x)
        case "anchor_y": s.push(node.anchor.y)
        case "scale", "scale_x": s.push(node.scaleX)
        case "scale_y": s.push(node.scaleY)
        case "rotation": s.push(node.rotation)
        case "alpha": s.push(node.alpha)
        case "z": s.push(node.z)
        case "visible": s.push(node.isVisible)
        case "kind": s.push(node.kindName)
        case "id": s.push(node.id)
        case "parent":
            guard let p = node.parent else { return 0 }
            vm.pushHandle(s, UInt64(p.id), of: Self.nodeClass)
        default:
            return try getSpecific(key, of: node, s)
        }
        return 1
    }

    private func getSpecific(_ key: String, of node: Node, _ s: LuaStack) throws -> Int32 {
        switch (node, key) {
        case (let r as RectNode, "width"): s.push(r.width)
        case (let r as RectNode, "height"): s.push(r.height)
        case (let r as RectNode, "fill"), (let r as RectNode, "color"): s.push(r.fill)
        case (let r as RectNode, "stroke"): s.push(r.stroke)
        case (let r as RectNode, "line_width"): s.push(r.lineWidth)
        case (let c as CircleNode, "radius"): s.push(c.radius)
        case (let c as CircleNode, "fill"), (let c as CircleNode, "color"): s.push(c.fill)
        case (let c as CircleNode, "stroke"): s.push(c.stroke)
        case (let c as CircleNode, "line_width"): s.push(c.lineWidth)
        case (let l as LineNode, "color"): s.push(l.color)
        case (let l as LineNode, "line_width"), (let l as LineNode, "width"): s.push(l.lineWidth)
        case (let l as LineNode, "stroke_start"): s.push(l.strokeStart)
        case (let l as LineNode, "stroke_end"): s.push(l.strokeEnd)
        case (let l as LineNode, "points"):
            s.pushTable(array: Int32(l.points.count))
            for (i, p) in l.points.enumerated() {
                s.pushTable(array: 2)
                s.push(p.x); s.setIndex(1, in: -2)
                s.push(p.y); s.setIndex(2, in: -2)
                s.setIndex(i + 1, in: -2)
            }
        case (let t as TextNode, "text"): s.push(t.text)
        case (let t as TextNode, "color"): s.push(t.color)
        case (let t as TextNode, "background"): s.push(t.background)
        case (let t as TextNode, "width"): s.push(t.size.width)
        case (let t as TextNode, "height"): s.push(t.size.height)
        case (let t as TextNode, "align"):
            guard let a = t.align else { return 0 }
            s.push(a.rawValue)
        case (let l as LabelNode, "align"):
            guard let a = l.align else { return 0 }
            s.push(a.rawValue)
        case (let g as GroupNode, "clip"): s.push(g.clipsChildren)
        case (let g as GroupNode, "width"): s.push(g.width)
        case (let g as GroupNode, "height"): s.push(g.height)
        case (let l as LabelNode, "text"): s.push(l.text)
        case (let l as LabelNode, "color"): s.push(l.color)
        case (let l as LabelNode, "outline"): s.push(l.outline)
        case (let l as LabelNode, "font"): s.push(l.font.name)
        case (let l as LabelNode, "width"): s.push(l.sprite.width)
        case (let l as LabelNode, "height"): s.push(l.sprite.height)
        case (let p as SpriteNode, "width"): s.push(p.flipbook.frames[0].width)
        case (let p as SpriteNode, "height"): s.push(p.flipbook.frames[0].height)
        case (let p as SpriteNode, "frame_time"): s.push(p.frameDuration)
        case (let p as SpriteNode, "loop_time"): s.push(p.loopDuration)
        case (let p as SpriteNode, "playing"): s.push(p.isPlaying)
        case (let p as SpriteNode, "frame"): s.push(p.currentFrame(at: time) + 1)
        case (let p as SpriteNode, "tint"), (let p as SpriteNode, "color"): s.push(p.tint)
        default:
            return 0
        }
        return 1
    }

    private func set(_ key: String, of node: Node, from v: Int32, _ s: LuaStack) throws {
        func number() throws -> Double {
            guard let d = s.number(at: v), d.isFinite else {
                throw LuaScriptError("\(node.kindName).\(key) must be \(s.numberProblem(at: v))")
            }
            return d
        }
        func color() throws -> Color {
            guard let c = s.color(at: v) else {
                throw LuaScriptError("\(node.kindName).\(key) must be a colour like \"#ff8800\", got \(s.typeName(at: v))")
            }
            return c
        }
        func string() throws -> String {
            if let str = s.string(at: v) { return str }
            if let i = s.integer(at: v), s.isInteger(at: v) { return String(i) }
            if let d = s.number(at: v) { return String(d) }
            throw LuaScriptError("\(node.kindName).\(key) must be a string, got \(s.typeName(at: v))")
        }
        func align() throws -> TextAlign? {
            if s.isNoneOrNil(v) { return nil }
            guard let name = s.string(at: v), let a = TextAlign(rawValue: name) else {
                let got = s.string(at: v).map { "\"\($0)\"" } ?? s.typeName(at: v)
                throw LuaScriptError("\(node.kindName).align must be \"left\", \"center\", \"right\" or nil, got \(got)")
            }
            return a
        }
        switch key {
        case "x": node.x = try number()
        case "y": node.y = try number()
        case "anchor_x": node.anchor.x = try number()
        case "anchor_y": node.anchor.y = try number()
        case "anchor":
            guard let p = s.point(at: v) else { throw LuaScriptError("\(node.kindName).anchor must be { ax, ay }") }
            node.anchor = p
        case "scale": node.scale = try number()
        case "scale_x": node.scaleX = try number()
        case "scale_y": node.scaleY = try number()
        case "rotation": node.rotation = try number()
        case "alpha": node.alpha = try number()
        case "z": node.z = try number()
        case "visible": node.isVisible = s.truthy(at: v)
        default:
            switch (node, key) {
            case (let r as RectNode, "width"): r.width = max(0, try number())
            case (let r as RectNode, "height"): r.height = max(0, try number())
            case (let r as RectNode, "fill"), (let r as RectNode, "color"): r.fill = try color()
            case (let r as RectNode, "stroke"): r.stroke = try color()
            case (let r as RectNode, "line_width"): r.lineWidth = max(0, try number())
            case (let c as CircleNode, "radius"): c.radius = max(0, try number())
            case (let c as CircleNode, "fill"), (let c as CircleNode, "color"): c.fill = try color()
            case (let c as CircleNode, "stroke"): c.stroke = try color()
            case (let c as CircleNode, "line_width"): c.lineWidth = max(0, try number())
            case (let l as LineNode, "color"): l.color = try color()
            case (let l as LineNode, "line_width"), (let l as LineNode, "width"): l.lineWidth = max(0, try number())
            case (let l as LineNode, "stroke_start"): l.strokeStart = try number()
            case (let l as LineNode, "stroke_end"): l.strokeEnd = try number()
            case (let l as LineNode, "points"):
                guard s.type(at: v) == .table else { throw LuaScriptError("line.points must be a list of { x, y }") }
                let n = s.rawLength(at: v)
                try chargeContent(of: l, NativeCost.product(n, NativeCost.point), for: "a line of \(n) points")
                var pts: [Vec2] = []
                pts.reserveCapacity(n)
                for i in stride(from: 1, through: n, by: 1) {
                    s.getIndex(i, in: v)
                    guard let p = s.point(at: -1) else {
                        s.pop()
                        throw LuaScriptError("line.points[\(i)] must be { x, y }")
                    }
                    pts.append(p)
                    s.pop()
                }
                l.points = pts
            case (let t as TextNode, "text"):
                let text = try string()
                let bytes = text.utf8.count
                guard bytes <= Self.maximumTextBytes else {
                    throw LuaScriptError("text.text is \(bytes) bytes long; a text node holds at most \(Self.maximumTextBytes) bytes")
                }
                try chargeContent(of: t, bytes * NativeCost.textByte, for: "a text of \(bytes) bytes")
                t.text = text
            case (let t as TextNode, "color"): t.color = try color()
            case (let t as TextNode, "background"): t.background = try color()
            case (let t as TextNode, "align"): t.align = try align()
            case (let l as LabelNode, "align"): l.align = try align()
            case (let g as GroupNode, "clip"): g.clipsChildren = s.truthy(at: v)
            case (let g as GroupNode, "width"): g.width = max(0, try number())
            case (let g as GroupNode, "height"): g.height = max(0, try number())
            case (let l as LabelNode, "text"):
                let text = try string()
                try chargeLabel(l, text: text, font: l.font, outlined: l.outline.a != 0)
                l.text = text
            case (let l as LabelNode, "color"): l.color = try color()
            case (let l as LabelNode, "outline"):
                let c = try color()
                try chargeLabel(l, text: l.text, font: l.font, outlined: c.a != 0)
                l.outline = c
            case (let l as LabelNode, "font"):
                let name = try string()
                guard let f = BlockFont.named(name) else {
                    throw LuaScriptError("label.font must be \"large\" or \"small\", got \"\(name)\"")
                }
                try chargeLabel(l, text: l.text, font: f, outlined: l.outline.a != 0)
                l.font = f
            case (let p as SpriteNode, "image"): p.flipbook = try image(s, v)
            case (let p as SpriteNode, "frame_time"): p.frameDuration = max(0.001, try number())
            case (let p as SpriteNode, "loop_time"): p.loopDuration = max(0.001, try number())
            case (let p as SpriteNode, "playing"):
                p.isPlaying = s.truthy(at: v)
                if p.isPlaying { p.animationStart = time }
            case (let p as SpriteNode, "frame"):
                // any whole number of frames is a frame (they wrap), but only this many fit an Int
                let n = try number().rounded(.towardZero)
                guard abs(n) <= 0x1p31 else {
                    throw LuaScriptError("sprite.frame must be a frame number between -2^31 and 2^31, got \(s.isInteger(at: v) ? String(s.integer(at: v) ?? 0) : String(n))")
                }
                p.frameIndex = Int(n) - 1
                p.isPlaying = false
            case (let p as SpriteNode, "tint"), (let p as SpriteNode, "color"): p.tint = try color()
            default:
                throw LuaScriptError("a \(node.kindName) has no property '\(key)'")
            }
        }
    }
}
