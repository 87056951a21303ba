import ArcadeCore

/// The retained scene: a tree of nodes under ``root``, each reachable by its integer id.
///
/// The Lua layer holds ids, not nodes: a handle resolves through ``node(withID:)`` and goes
/// inert when its node is removed, because ids are never reused. The scene holds the only
/// strong references to its nodes (besides the caller's), so a removed node that nobody else
/// keeps is freed, and animations holding it weakly simply stop.
public final class Scene {
    /// The top of the tree, positioned at the canvas origin; id 1, never removed.
    public let root: GroupNode
    /// The colour behind everything.
    public var background: Color

    /// How deep nodes may nest: the root is at depth 0, its children at 1. Drawing, hit tests,
    /// layout and removal walk the tree recursively, and a cycle check on every add walks up
    /// from the new parent, so an unbounded chain (100,000 nodes, each the child of the last)
    /// would overflow the native stack and make building it quadratic. No scene needs more
    /// than a few levels; 256 is far beyond that and cheap for every walk.
    public static let maximumDepth = 256

    /// The size in pixels of the canvas last drawn into: the region of nodes that wrap round
    /// the canvas (``NodeWrap/canvas``).
    public private(set) var canvasSize = Size(0, 0)

    @exclusivity(unchecked) private var registry = NodeRegistry()
    /// The sprites drawing has gathered for the canvas's kernel and not drawn yet.
    private let kernelRun = KernelRun()
    /// False to draw every node in turn, as runs of sprites must draw: tests compare the two.
    var gathersKernelRuns = true
    /// How many sprites have been drawn in runs (for tests).
    var kernelRunsDrawn: Int { kernelRun.drawn }
    private var nextID = 1
    private var nextSequence = 0

    /// An empty scene.
    public init(background: Color = .black) {
        self.background = background
        root = GroupNode()
        register(root)
    }

    deinit {
        // Nodes outliving the scene read no scene (``Node/scene`` is not a weak reference).
        registry.forEach { $0.scene = nil }
    }

    /// The node with `id`, or nil when there is none (never was, or was removed).
    public func node(withID id: Int) -> Node? {
        registry.node(id)
    }

    /// How many nodes the scene holds, the root included.
    public var nodeCount: Int { registry.count }

    /// Adds `node` (with its subtree) as the last child of `parent` (the root by default) and
    /// returns it. A node already in this scene moves to the new parent and keeps its id; a
    /// node new to the scene, or one removed earlier, gets fresh ids for its whole subtree.
    @discardableResult
    public func add<N: Node>(_ node: N, to parent: Node? = nil) throws(SceneError) -> N {
        let parent = parent ?? root
        guard node !== root else { throw .rootCannotMove }
        guard parent.scene === self else { throw .parentNotInScene }
        if let other = node.scene, other !== self { throw .inAnotherScene }
        // One walk up from the parent (at most maximumDepth steps, as every node in the
        // scene is within the limit) finds both a cycle and the parent's depth.
        var parentDepth = 0
        var p: Node? = parent
        while let n = p {
            if n === node { throw .wouldContainItself }
            p = n.parent
            if p != nil { parentDepth += 1 }
        }
        let room = Scene.maximumDepth - parentDepth - 1
        guard room >= 0, Scene.height(of: node, limit: room) <= room else {
            throw .tooDeep(limit: Scene.maximumDepth)
        }
        if let old = node.parent {
            old.needsCompaction = true
            node.parent = nil
        }
        if node.scene == nil { register(node) }
        // A child removed from `parent` but not yet compacted away must go first, or the
        // re-added node would appear twice.
        if parent.needsCompaction { parent.prepareChildren() }
        append(node, to: parent)
        return node
    }

    /// Adds `nodes` to `parent` (the root when nil), in order, exactly as adding each with
    /// ``add(_:to:)`` does. Nodes new to every scene, with no parent and no children (a
    /// burst of particles), are added without the checks that for them depend only on
    /// `parent`, made once for all.
    public func add(_ nodes: [Node], to parent: Node? = nil) throws(SceneError) {
        let parent = parent ?? root
        guard parent.scene === self else { throw .parentNotInScene }
        var parentDepth = 0
        var p = parent.parent
        while let n = p {
            parentDepth += 1
            p = n.parent
        }
        let room = Scene.maximumDepth - parentDepth - 1
        for node in nodes {
            guard node.scene == nil, node.parentIdentity == nil, node.childStorage.isEmpty, room >= 0 else {
                try add(node, to: parent)
                continue
            }
            register(node)
            if parent.needsCompaction { parent.prepareChildren() }
            append(node, to: parent)
        }
    }

    /// Makes `node` the last child of `parent`.
    @inline(__always) private func append(_ node: Node, to parent: Node) {
        node.attach(to: parent)
        node.sequence = nextSequence
        nextSequence += 1
        if let last = parent.childStorage.last, last.node.z > node.z { parent.needsChildSort = true }
        parent.childStorage.append(ChildEntry(node))
    }

    /// How many levels of descendants `node` has (0 for a leaf), walking no further than
    /// `limit + 1` levels: exact up to `limit`, and `limit + 1` for anything deeper.
    static func height(of node: Node, limit: Int) -> Int {
        guard !node.childStorage.isEmpty else { return 0 }
        var level: [Node] = [node]
        var next: [Node] = []
        var height = 0
        while height <= limit {
            next.removeAll(keepingCapacity: true)
            for n in level {
                for c in n.childStorage where c.node.parent === n { next.append(c.node) }
            }
            if next.isEmpty { return height }
            height += 1
            swap(&level, &next)
        }
        return height
    }

    /// Removes `node` and its whole subtree from the scene: their ids stop resolving and they
    /// are no longer drawn. The subtree stays attached to `node`, so adding `node` again
    /// brings it back (with new ids). Removing the root or a node of another scene does nothing.
    public func remove(_ node: Node) {
        guard node !== root, node.scene === self else { return }
        if let parent = node.parent {
            parent.needsCompaction = true
            node.parent = nil
        }
        unregister(node)
    }

    /// Removes every node but the root (leaving a game, for instance).
    public func removeAll() {
        for child in root.children { remove(child) }
    }

    private func register(_ node: Node) {
        node.id = nextID
        nextID += 1
        node.scene = self
        registry.insert(node, id: node.id)
        node.prepareChildren()
        for child in node.childStorage { register(child.node) }
    }

    private func unregister(_ node: Node) {
        registry.remove(node.id)
        node.scene = nil
        node.prepareChildren()
        for child in node.childStorage { unregister(child.node) }
    }

    // MARK: - Drawing

    /// Clears `canvas` to ``background`` and draws every visible node, parents before
    /// children, siblings by z then insertion order. `time` is the scene clock in seconds,
    /// which picks flipbook frames. Afterwards each drawn node's ``Node/composedTransform``
    /// and ``Node/composedAlpha`` hold what it was drawn with.
    public func draw(into canvas: Canvas, time: Double) {
        canvas.clear(to: background)
        canvasSize = Size(Double(canvas.width), Double(canvas.height))
        draw(root, parentTransform: .identity, parentIsIdentity: true, parentAlpha: 1, canvas: canvas, time: time)
    }

    /// Draws `node` and its subtree. `parentIsIdentity` says `parentTransform` is the
    /// identity (the children of an unmoved root: most nodes of most scenes), whose product
    /// with the node's own transform is that transform, so it is skipped.
    private func draw(_ node: Node, parentTransform: AffineTransform, parentIsIdentity: Bool, parentAlpha: Double,
                      canvas: Canvas, time: Double) {
        guard node.isVisible else { return }
        let alpha = parentAlpha * min(max(node.alpha, 0), 1)
        // Below half a step of 1/255 nothing would show, for this node or its descendants.
        guard alpha >= 0.5 / 255 else { return }
        let local = node.uncachedLocalTransform
        if node.isWrapping {
            let copies = wrapCopies(of: node, local: local)
            node.composedCopies = copies
            if copies != 0 {
                drawCopies(copies, of: node, local: local, parentTransform: parentTransform,
                           parentIsIdentity: parentIsIdentity, alpha: alpha, canvas: canvas, time: time)
            }
        }
        let transform = parentIsIdentity ? local : parentTransform * local
        drawSubtree(node, transform: transform, alpha: alpha, canvas: canvas, time: time)
    }

    /// Draws `node`'s content and children with `transform` (its local space to canvas pixels),
    /// recording it as what the node was drawn with.
    @inline(__always)
    private func drawSubtree(_ node: Node, transform: AffineTransform, alpha: Double, canvas: Canvas, time: Double) {
        // A still untinted sprite the kernel draws as it is (a coin) goes straight to it; the
        // kind draws anything else, and this too when the kernel declines (a turned sprite).
        if let sprite = node.kernelArt,
           canvas.blitUnturned(sprite.pointee, transform: transform, anchor: node.anchor, alpha: alpha) {
        } else {
            node.drawContent(in: canvas, transform: transform, alpha: alpha, time: time)
        }
        // Recorded after drawing, which never reads it: written before, the transform just
        // worked out went through the stack in pieces and back, and the CPU waited for it
        // at every node.
        node.composedTransform = transform
        node.composedAlpha = alpha
        // Children removed since the last frame are dropped as the children are drawn
        // (``drawChildren(of:transform:alpha:canvas:time:)``), unless they must be sorted first.
        if node.needsChildSort { node.prepareChildren() }
        if node.childStorage.isEmpty { return }
        if node.isClipping, let group = node as? GroupNode {
            let box = group.clipBox(transform)
            canvas.pushClip(minX: box.0, minY: box.1, maxX: box.2, maxY: box.3)
            defer { canvas.popClip() }
            drawChildren(of: node, transform: transform, alpha: alpha, canvas: canvas, time: time)
            return
        }
        drawChildren(of: node, transform: transform, alpha: alpha, canvas: canvas, time: time)
    }

    // MARK: - Wrapping

    /// The rectangle `node` wraps round, in its parent's space, or nil when it wraps round
    /// nothing (or round an empty one).
    private func wrapRegion(of node: Node) -> WrapRegion? {
        let region: WrapRegion
        switch node.wrap {
        case .none: return nil
        case .canvas: region = WrapRegion(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height)
        case .region(let r): region = r
        }
        guard region.width > 0, region.height > 0, region.width.isFinite, region.height.isFinite,
              region.x.isFinite, region.y.isFinite, region.wrapsX || region.wrapsY else { return nil }
        return region
    }

    /// The copies of a wrapping `node` (see ``Node/composedCopies``): those of the eight
    /// shifts by the region's width and height along its wrapping axes that bring the box
    /// around its drawing (in its parent's space, `local` placing it there) into the region.
    private func wrapCopies(of node: Node, local: AffineTransform) -> UInt16 {
        guard let region = wrapRegion(of: node) else { return 0 }
        var box = BoundingBox.empty
        Scene.subtreeBounds(node, local, &box)
        guard !box.isEmpty, box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite else { return 0 }
        var copies: UInt16 = 0
        for ky in -1...1 where ky == 0 || region.wrapsY {
            let dy = Double(ky) * region.height
            guard box.minY + dy < region.y + region.height, box.maxY + dy > region.y else { continue }
            for kx in -1...1 where (kx != 0 || ky != 0) && (kx == 0 || region.wrapsX) {
                let dx = Double(kx) * region.width
                guard box.minX + dx < region.x + region.width, box.maxX + dx > region.x else { continue }
                copies |= 1 << UInt16(3 * (ky + 1) + (kx + 1))
            }
        }
        return copies
    }

    /// The shift, in the parent's space, of the copy of bit `bit` (see ``Node/composedCopies``).
    private static func shift(_ bit: Int, _ region: WrapRegion) -> Vec2 {
        Vec2(Double(bit % 3 - 1) * region.width, Double(bit / 3 - 1) * region.height)
    }

    /// Grows `box` by the drawing of `node` and its visible descendants, `transform` mapping
    /// `node`'s local space to the space the box is in.
    private static func subtreeBounds(_ node: Node, _ transform: AffineTransform, _ box: inout BoundingBox) {
        guard node.isVisible else { return }
        box.formUnion(node.contentBounds().applying(transform))
        node.prepareChildren()
        for child in node.childStorage {
            subtreeBounds(child.node, transform * child.node.uncachedLocalTransform, &box)
        }
    }

    /// Draws the copies of a wrapping node, before the node itself (so that what it was
    /// drawn with last, and what hit tests read, is its own place).
    @inline(never)
    private func drawCopies(_ copies: UInt16, of node: Node, local: AffineTransform, parentTransform: AffineTransform,
                            parentIsIdentity: Bool, alpha: Double, canvas: Canvas, time: Double) {
        guard let region = wrapRegion(of: node) else { return }
        for bit in 0..<9 where copies & (1 << UInt16(bit)) != 0 {
            let shift = Scene.shift(bit, region)
            var moved = local
            moved.tx += shift.x
            moved.ty += shift.y
            let transform = parentIsIdentity ? moved : parentTransform * moved
            drawSubtree(node, transform: transform, alpha: alpha, canvas: canvas, time: time)
        }
    }

    /// Draws the children of `node` in order. Drawing never changes the tree (nodes are only
    /// added, removed and reordered between frames), and `node` holds its children the whole
    /// time, so they are visited without taking a reference each: with ten thousand coins,
    /// two atomic reference count changes per node are a good part of a frame. Children
    /// removed since the last frame are dropped in the same pass.
    private func drawChildren(of node: Node, transform: AffineTransform, alpha: Double, canvas: Canvas, time: Double) {
        let isIdentity = transform == .identity
        if node.needsCompaction {
            node.compactChildren { child, block in
                drawChild(child, block: block, parentTransform: transform, parentIsIdentity: isIdentity,
                          parentAlpha: alpha, canvas: canvas, time: time)
            }
        } else {
            node.childStorage.withUnsafeBufferPointer { children in
                for i in children.indices {
                    Node.prefetch(children, after: i, nodes: false)
                    let block = children[i].block
                    Unmanaged.passUnretained(children[i].node)._withUnsafeGuaranteedRef { child in
                        drawChild(child, block: block, parentTransform: transform, parentIsIdentity: isIdentity,
                                  parentAlpha: alpha, canvas: canvas, time: time)
                    }
                }
            }
        }
        kernelRun.flush(into: canvas, time: time)
    }

    /// Draws `child` (whose block is `block`) of a node drawn with `parentTransform` and
    /// `parentAlpha`: an unturned, opaque still sprite the canvas's kernel draws as it is,
    /// with no children, joins ``kernelRun`` (recorded as drawn now, drawn with the run),
    /// read and recorded from its block alone; anything else is drawn now, after the run.
    @inline(__always)
    private func drawChild(_ child: Node, block: UnsafeMutablePointer<NodeBlock>, parentTransform: AffineTransform,
                           parentIsIdentity: Bool, parentAlpha: Double, canvas: Canvas, time: Double) {
        #if arch(x86_64)
        let flags = block.pointee.fields.ownerFlags
        let wanted = NodeFlags.visible.rawValue
        if let art = block.pointee.kernelArt,
           flags & (wanted | NodeFlags.wrapping.rawValue | NodeFlags.hasChildren.rawValue) == wanted,
           !canvas.hasText, gathersKernelRuns {
            let fields = block.pointee.fields
            let alpha = parentAlpha * min(max(fields.alpha, 0), 1)
            if alpha >= 1, fields.rotation == 0 {
                // ``Node/uncachedLocalTransform`` of an unturned node, worked out from the
                // fields whether or not they moved (its cached copy is equal when they did
                // not, and lies in the node).
                let local = Node.unturnedTransform(fields)
                let transform = parentIsIdentity ? local : parentTransform * local
                if transform.b == 0, transform.c == 0 {
                    block.drawLine.pointee.composedTransform = transform
                    // `alpha` is 1 here: both factors are at most 1.
                    block.pointee.fields.ownerFlags = flags | NodeFlags.composedAlphaIsOne.rawValue
                    kernelRun.append(child, art: art, transform: transform, anchor: block.drawLine.pointee.anchor,
                                     canvas: canvas, time: time)
                    return
                }
            }
        }
        #endif
        kernelRun.flush(into: canvas, time: time)
        draw(child, parentTransform: parentTransform, parentIsIdentity: parentIsIdentity, parentAlpha: parentAlpha,
             canvas: canvas, time: time)
    }

    /// Brings every node's ``Node/composedTransform`` and ``Node/composedAlpha`` up to date
    /// without drawing, so hit tests made between frames see where nodes are now (game rules
    /// must not depend on when frames happen to be drawn).
    public func updateLayout() {
        layout(root, parentTransform: .identity, parentAlpha: 1)
    }

    private func layout(_ node: Node, parentTransform: AffineTransform, parentAlpha: Double) {
        let transform = parentTransform * node.localTransform
        node.composedTransform = transform
        node.composedAlpha = parentAlpha * min(max(node.alpha, 0), 1)
        if node.isWrapping { node.composedCopies = wrapCopies(of: node, local: node.localTransform) }
        node.prepareChildren()
        for child in node.childStorage {
            layout(child.node, parentTransform: transform, parentAlpha: node.composedAlpha)
        }
    }

    // MARK: - Hit testing

    /// The nodes whose content covers canvas point `point`, topmost first, as of the last
    /// ``draw(into:time:)``. Groups and lines have no content and are never hit; hidden and
    /// fully transparent nodes neither, nor the children of a clipping group outside its box.
    /// The copies of a wrapping node are hit like the node (each node is listed once).
    public func nodes(at point: Vec2) -> [Node] {
        var hits: [Node] = []
        collectHits(root, point, &hits)
        return hits
    }

    private func collectHits(_ node: Node, _ point: Vec2, _ hits: inout [Node]) {
        guard node.isVisible, node.alpha > 0 else { return }
        guard node.isWrapping, node.composedCopies != 0, let region = wrapRegion(of: node) else {
            return collectOwnHits(node, point, &hits)
        }
        // The node was drawn last, over its copies; a copy is hit where the node would be at
        // the point shifted back.
        let start = hits.count
        collectOwnHits(node, point, &hits)
        let parent = node.parent?.composedTransform ?? .identity
        for bit in (0..<9).reversed() where node.composedCopies & (1 << UInt16(bit)) != 0 {
            collectOwnHits(node, point - parent.applyToVector(Scene.shift(bit, region)), &hits)
        }
        guard hits.count - start > 1 else { return }
        let found = Array(hits[start...])
        hits.removeSubrange(start...)
        for n in found where !hits[start...].contains(where: { $0 === n }) { hits.append(n) }
    }

    /// ``collectHits(_:_:_:)`` for `node` where it was drawn itself.
    private func collectOwnHits(_ node: Node, _ point: Vec2, _ hits: inout [Node]) {
        if node.isClipping, let group = node as? GroupNode {
            // The pixel under the point must be one the clip lets through.
            let box = group.clipBox(group.composedTransform)
            let px = Int(max(-1e9, min(1e9, point.x.rounded(.down))))
            let py = Int(max(-1e9, min(1e9, point.y.rounded(.down))))
            guard Canvas.pixelRange(box.0, box.2, min: px, max: px, exact: true) != nil,
                  Canvas.pixelRange(box.1, box.3, min: py, max: py, exact: true) != nil else { return }
        }
        node.prepareChildren()
        for child in node.childStorage.reversed() { collectHits(child.node, point, &hits) }
        if let inverse = node.composedTransform.inverted(), node.contentContains(inverse.apply(point)) {
            hits.append(node)
        }
    }
}

/// Why a node could not be added to a scene.
public enum SceneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The intended parent is not in this scene (never added, or removed).
    case parentNotInScene
    /// The node belongs to a different scene.
    case inAnotherScene
    /// The intended parent is the node itself or one of its descendants.
    case wouldContainItself
    /// The root cannot be added anywhere.
    case rootCannotMove
    /// The node (with its subtree) would end up deeper than ``Scene/maximumDepth``.
    case tooDeep(limit: Int)

    /// The message, for the game author.
    public var description: String {
        switch self {
        case .parentNotInScene: "the parent node is not in the scene (it was removed or never added)"
        case .inAnotherScene: "the node belongs to another scene"
        case .wouldContainItself: "a node cannot be added inside itself or its own descendants"
        case .rootCannotMove: "the root node cannot be added to another node"
        case .tooDeep(let limit): "nodes nest at most \(limit) levels deep (the root's children are at level 1)"
        }
    }
}
