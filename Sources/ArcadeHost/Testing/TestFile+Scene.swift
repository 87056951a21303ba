import ArcadeCore
import ArcadeLua
import ArcadeRender

/// What a test reads of what the player sees: the scene nodes and the physics balls the game
/// named (`name = "ball"`), as plain tables.
///
///     g:node("paddle")  --> { name, kind, x, y, width, height, visible, alpha [, text] } or nil
///     g:nodes("brick")  --> every node of that name, in drawing order
///     g:balls()         --> { { x, y, radius, vx, vy, name }, ... }
///
/// `x`, `y` are where the node's anchor is on the canvas (its parents' moves, turns and scales
/// applied); `width`, `height` its size there (its own size times its and its parents'
/// scale; a text node's glyphs do not scale); `visible` is true when it and every parent are
/// visible, `alpha` its opacity times theirs. Copies: changing them changes nothing in the game.
extension TestFile {
    func sceneMethods() -> [(String, LuaFunction)] {
        [
            ("node", { [unowned self] s in
                let name = try s.checkString(2)
                let found = try self.namedNodes(s, name, first: true)
                if let node = found.first { s.push(node) } else { s.pushNil() }
                return 1
            }),
            ("nodes", { [unowned self] s in
                let name = try s.checkString(2)
                s.push(LuaValue.array(try self.namedNodes(s, name, first: false)))
                return 1
            }),
            ("balls", { [unowned self] s in
                let (_, game) = try self.game(s)
                try self.stopIfFailed(game, s)
                s.push(LuaValue.array(game.session.physicsModule.runtime.ballViews().map { ball in
                    var fields: [String: LuaValue] = [
                        "x": .number(ball.x), "y": .number(ball.y), "radius": .number(ball.radius),
                        "vx": .number(ball.vx), "vy": .number(ball.vy),
                    ]
                    if let name = ball.name { fields["name"] = .string(name) }
                    return .table(fields)
                }))
                return 1
            }),
        ]
    }

    /// The nodes called `name` in the game of argument 1, in drawing order (parents before
    /// their children, siblings by z), as tables; only the first when `first`.
    private func namedNodes(_ s: LuaStack, _ name: String, first: Bool) throws -> [LuaValue] {
        let (_, game) = try game(s)
        try stopIfFailed(game, s)
        var found: [LuaValue] = []
        func walk(_ node: Node, visible: Bool, alpha: Double) -> Bool {
            let visible = visible && node.isVisible, alpha = alpha * node.alpha
            if node.name == name {
                found.append(Self.view(of: node, visible: visible, alpha: alpha))
                if first { return true }
            }
            for child in node.children where walk(child, visible: visible, alpha: alpha) { return true }
            return false
        }
        _ = walk(game.session.scene.root, visible: true, alpha: 1)
        return found
    }

    /// A node as a test reads it.
    private static func view(of node: Node, visible: Bool, alpha: Double) -> LuaValue {
        let t = node.transformToCanvas()
        var (sx, sy) = ((t.a * t.a + t.b * t.b).squareRoot(), (t.c * t.c + t.d * t.d).squareRoot())
        var fields: [String: LuaValue] = [
            "name": .string(node.name ?? ""), "kind": .string(node.kindName),
            "x": .number(t.tx), "y": .number(t.ty), "visible": .bool(visible), "alpha": .number(alpha),
        ]
        let size: (Double, Double)
        switch node {
        case let n as RectNode: size = (n.width, n.height)
        case let n as CircleNode: size = (2 * n.radius, 2 * n.radius)
        case let n as PolygonNode: size = (n.pointBounds.width, n.pointBounds.height)
        case let n as TextNode:
            size = n.size
            (sx, sy) = (1, 1)  // glyphs are drawn at their cells' size, whatever the scale
            fields["text"] = .string(n.text)
        case let n as LabelNode:
            size = (Double(n.sprite.width), Double(n.sprite.height))
            fields["text"] = .string(n.text)
        case let n as SpriteNode: size = (Double(n.flipbook.frames[0].width), Double(n.flipbook.frames[0].height))
        case let n as LineNode:
            let xs = n.points.map(\.x), ys = n.points.map(\.y)
            size = ((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
        case let n as GroupNode: size = (n.width, n.height)
        default: size = (0, 0)
        }
        fields["width"] = .number(size.0 * sx)
        fields["height"] = .number(size.1 * sy)
        return .table(fields)
    }
}
