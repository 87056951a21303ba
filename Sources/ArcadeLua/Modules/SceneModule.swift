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
    /// Called when Lua removes a node (the host cancels its animations and bodies).
    public var onRemove: (Node) -> Void = { _ in }
    /// Scene time in seconds, for flipbook starts.
    public var time: Double = 0

    public init(vm: LuaVM, scene: Scene, assetRoot: String) {
        self.vm = vm
        self.scene = scene
        self.assetRoot = assetRoot
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
                let node = try make(s)
                var parent: Node? = nil
                if let pid = try s.field("parent", of: 1, { _ in try self.vm.checkHandle(s, at: s.top, of: Self.nodeClass) }) {
                    parent = try self.resolve(pid)
                }
                try self.apply(options: 1, to: node, s, skip: ["parent"])
                if let sprite = node as? SpriteNode { sprite.animationStart = self.time }
                do { try self.scene.add(node, to: parent) } catch { throw LuaScriptError("\(error)") }
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
            maker("text") { s in TextNode(text: try s.stringField("text", of: 1) ?? "") },
            maker("label") { s in LabelNode(text: try s.stringField("text", of: 1) ?? "") },
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

    private func remove(_ node: Node) {
        guard node !== scene.root else { return }
        func visit(_ n: Node) {
            for c in n.children { visit(c) }
            onRemove(n)
        }
        visit(node)
        scene.remove(node)
    }

    // MARK: Images

    func image(_ s: LuaStack, _ index: Int32) throws -> Flipbook {
        let id = try vm.checkHandle(s, at: index, of: Self.imageClass)
        return images[Int(id)]
    }

    private func pushImage(_ book: Flipbook, _ s: LuaStack) -> Int32 {
        images.append(book)
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
        func rows(at index: Int32) throws -> [String] {
            var out: [String] = []
            let n = s.rawLength(at: index)
            for i in stride(from: 1, through: n, by: 1) {
                s.getIndex(i, in: index)
                guard let row = s.string(at: -1) else { throw LuaArgumentError(1, "image rows must be strings") }
                out.append(row)
                s.pop()
            }
            guard !out.isEmpty else { throw LuaArgumentError(1, "an image needs at least one row") }
            return out
        }
        var frames: [Sprite] = []
        do {
            if s.getField("frames", in: 1) == .table {
                let t = s.top
                for i in stride(from: 1, through: s.rawLength(at: t), by: 1) {
                    s.getIndex(i, in: t)
                    guard s.type(at: -1) == .table else { throw LuaArgumentError(1, "each frame must be a table of rows") }
                    frames.append(try Sprite(palette: palette, rows: try rows(at: s.top)))
                    s.pop()
                }
            }
            s.pop()
            if frames.isEmpty {
                guard s.getField("rows", in: 1) == .table else {
                    throw LuaArgumentError(1, "field 'rows' (a list of strings) or 'frames' is required")
                }
                frames.append(try Sprite(palette: palette, rows: try rows(at: s.top)))
                s.pop()
            }
        } catch let e as SpriteError {
            throw LuaArgumentError(1, e.description)
        }
        let frameTime = try s.numberField("frame_time", of: 1) ?? SpriteFile.defaultFrameTime
        return pushImage(Flipbook(frames: frames, frameDuration: max(0.001, frameTime)), s)
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
        do {
            return pushImage(try SpriteFile.parse(String(decoding: bytes, as: UTF8.self)), s)
        } catch {
            throw LuaScriptError("\(name):\(error.line): \(error.message)")
        }
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
            if let d = s.number(at: v) { return s.isInteger(at: v) ? String(Int64(d)) : String(d) }
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
                var pts: [Vec2] = []
                for i in stride(from: 1, through: s.rawLength(at: v), by: 1) {
                    s.getIndex(i, in: v)
                    guard let p = s.point(at: -1) else {
                        s.pop()
                        throw LuaScriptError("line.points[\(i)] must be { x, y }")
                    }
                    pts.append(p)
                    s.pop()
                }
                l.points = pts
            case (let t as TextNode, "text"): t.text = try string()
            case (let t as TextNode, "color"): t.color = try color()
            case (let t as TextNode, "background"): t.background = try color()
            case (let t as TextNode, "align"): t.align = try align()
            case (let l as LabelNode, "align"): l.align = try align()
            case (let g as GroupNode, "clip"): g.clipsChildren = s.truthy(at: v)
            case (let g as GroupNode, "width"): g.width = max(0, try number())
            case (let g as GroupNode, "height"): g.height = max(0, try number())
            case (let l as LabelNode, "text"): l.text = try string()
            case (let l as LabelNode, "color"): l.color = try color()
            case (let l as LabelNode, "outline"): l.outline = try color()
            case (let l as LabelNode, "font"):
                let name = try string()
                guard let f = BlockFont.named(name) else {
                    throw LuaScriptError("label.font must be \"large\" or \"small\", got \"\(name)\"")
                }
                l.font = f
            case (let p as SpriteNode, "image"): p.flipbook = try image(s, v)
            case (let p as SpriteNode, "frame_time"): p.frameDuration = max(0.001, try number())
            case (let p as SpriteNode, "loop_time"): p.loopDuration = max(0.001, try number())
            case (let p as SpriteNode, "playing"):
                p.isPlaying = s.truthy(at: v)
                if p.isPlaying { p.animationStart = time }
            case (let p as SpriteNode, "frame"):
                p.frameIndex = Int(try number()) - 1
                p.isPlaying = false
            case (let p as SpriteNode, "tint"), (let p as SpriteNode, "color"): p.tint = try color()
            default:
                throw LuaScriptError("a \(node.kindName) has no property '\(key)'")
            }
        }
    }
}
