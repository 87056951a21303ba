import ArcadeCore
import CRaster

/// A node of the retained scene: something with a place, a size factor, a turn and an
/// opacity, drawn every frame until it is removed, with children that follow it.
///
/// A child's `x`, `y` are relative to its parent's position, and the parent's rotation,
/// scale (mirroring included) and alpha apply to it: a caught fish added to the hook swings
/// with the hook. The `anchor` only places a node's own content (its sprite, rectangle,
/// circle, polygon or text) around its position; children are always relative to the
/// position itself.
///
/// Nodes are created standalone and become part of a ``Scene`` with ``Scene/add(_:to:)``,
/// which gives them their ``id``. Concrete kinds: ``GroupNode``, ``SpriteNode``,
/// ``TextNode``, ``LabelNode``, ``RectNode``, ``CircleNode``, ``PolygonNode``, ``LineNode``.
public class Node: Animatable {
    // Stored properties marked `@exclusivity(unchecked)`: nodes belong to one thread and are
    // never accessed overlappingly, and the frame's traversal reads these for every node, where
    // the runtime's dynamic exclusivity checks cost more than the drawing itself.
    //
    // What drawing reads and writes of every node lives outside the object, in a
    // ``NodeBlock`` the node allocates for its life and its parent keeps a pointer to beside
    // the node (``ChildEntry``): the position, scale, turn and opacity (which the animation
    // engine writes in place, raising one flag, with no call through the node's type and no
    // observer per value), the drawing flags, the kernel's art, the anchor and the composed
    // transform. A still sprite is drawn from its block's two lines alone.

    /// The node's drawing block.
    @exclusivity(unchecked) let block: UnsafeMutablePointer<NodeBlock>
    /// Children in storage order, each beside its block; may hold removed ones until the next
    /// compaction.
    @exclusivity(unchecked) var childStorage: [ChildEntry] = [] {
        // Only appending and compaction change how many there are; both are in place.
        didSet { setFlag(.hasChildren, !childStorage.isEmpty) }
    }
    /// Which node ``parent`` is, kept beside it: dropping removed children compares this
    /// instead of loading every child's parent (a coin shower removes dozens of coins from
    /// thousands of siblings every frame). While the parent is alive, equal identities mean
    /// the same node.
    @exclusivity(unchecked) var parentIdentity: ObjectIdentifier?
    /// True for a group that clips its children (see ``GroupNode/clipsChildren``); a stored
    /// flag so the frame's traversal need not ask every node its kind.
    @exclusivity(unchecked) var isClipping = false
    /// Set when a child's z changed or a child was added out of order.
    @exclusivity(unchecked) var needsChildSort = false
    /// Set when a child was removed: the array still holds it until compaction.
    @exclusivity(unchecked) var needsCompaction = false

    /// What ``x`` to ``alpha`` read and write, and the flag that says the transform changed.
    final var fields: UnsafeMutablePointer<AnimatableFields> {
        @inline(__always) get { UnsafeMutableRawPointer(block).assumingMemoryBound(to: AnimatableFields.self) }
    }

    /// Set when a position, scale or turn changed since ``localTransform`` was last worked out.
    var localDirty: Bool {
        @inline(__always) get { fields.pointee.moved }
        @inline(__always) set { fields.pointee.moved = newValue }
    }

    /// One of the drawing flags kept in the block.
    @inline(__always) final func flag(_ flag: NodeFlags) -> Bool {
        block.pointee.fields.ownerFlags & flag.rawValue != 0
    }

    /// Raises or lowers one of the drawing flags kept in the block.
    @inline(__always) final func setFlag(_ flag: NodeFlags, _ on: Bool) {
        if on {
            block.pointee.fields.ownerFlags |= flag.rawValue
        } else {
            block.pointee.fields.ownerFlags &= ~flag.rawValue
        }
    }

    /// Hidden nodes and their descendants are not drawn and not hit.
    public final var isVisible: Bool {
        get { flag(.visible) }
        set { setFlag(.visible, newValue) }
    }
    /// True while ``wrap`` is not `.none`: a flag beside the others, so the frame's traversal
    /// of the nodes that do not wrap (nearly all) reads nothing more.
    final var isWrapping: Bool { flag(.wrapping) }

    /// Which point of the node's own content sits at its position: `(0, 0)` its top-left,
    /// `(1, 1)` its bottom-right.
    public final var anchor: Vec2 {
        get { block.drawLine.pointee.anchor }
        set { block.drawLine.pointee.anchor = newValue }
    }

    /// The art of a still, untinted sprite the canvas's kernel draws as it is (most sprites of a
    /// busy scene: a coin), held by the node's flipbook; nil for every other node. Drawing
    /// checks this before asking the node's kind to draw itself.
    final var kernelArt: UnsafePointer<KernelSprite>? {
        get { block.pointee.kernelArt }
        set { block.pointee.kernelArt = newValue }
    }
    /// Where the node was drawn on the canvas in the last composed frame (its local space to
    /// canvas pixels), for hit tests; see ``transformToCanvas()`` for an up-to-date value.
    public internal(set) final var composedTransform: AffineTransform {
        get { block.drawLine.pointee.composedTransform }
        set { block.drawLine.pointee.composedTransform = newValue }
    }
    /// The opacity the node was drawn with in the last composed frame (its own times its
    /// ancestors').
    public internal(set) final var composedAlpha: Double {
        get { flag(.composedAlphaIsOne) ? 1 : composedAlphaStorage }
        set {
            composedAlphaStorage = newValue
            setFlag(.composedAlphaIsOne, newValue == 1)
        }
    }
    /// ``composedAlpha`` when its flag in the block is down.
    @exclusivity(unchecked) private var composedAlphaStorage = 1.0

    /// Horizontal position in the parent's space, in pixels.
    public final var x: Double { get { fields.pointee.x } set { move(\.x, to: newValue) } }
    /// Vertical position in the parent's space, in pixels (down is positive).
    public final var y: Double { get { fields.pointee.y } set { move(\.y, to: newValue) } }
    /// Horizontal scale; negative mirrors (a fish turned to swim right).
    public final var scaleX: Double { get { fields.pointee.scaleX } set { move(\.scaleX, to: newValue) } }
    /// Vertical scale; negative flips upside down.
    public final var scaleY: Double { get { fields.pointee.scaleY } set { move(\.scaleY, to: newValue) } }
    /// Turn about the position in radians, clockwise (y is down).
    public final var rotation: Double { get { fields.pointee.rotation } set { move(\.rotation, to: newValue) } }
    /// Opacity 0...1, multiplied into every descendant's.
    public final var alpha: Double {
        get { fields.pointee.alpha }
        set { fields.pointee.alpha = newValue }
    }

    /// Writes one of the fields a transform depends on, and marks the transform stale.
    @inline(__always) private func move(_ field: WritableKeyPath<AnimatableFields, Double>, to value: Double) {
        fields.pointee[keyPath: field] = value
        fields.pointee.moved = true
    }

    /// Stable identity inside its scene, never reused; 0 while the node is not in a scene.
    /// A removed node keeps its old number, but the scene no longer resolves it.
    public internal(set) var id = 0
    /// The scene the node is in, or nil before it is added and after it is removed.
    public internal(set) var scene: Scene? {
        get { sceneStorage }
        set { sceneStorage = newValue }
    }
    /// The node this one is drawn relative to; nil for the root and for detached nodes.
    public internal(set) var parent: Node? {
        get { parentStorage }
        set {
            parentStorage = newValue
            parentIdentity = newValue.map { ObjectIdentifier($0) }
            block.pointee.fields.setHeldElsewhere(newValue != nil)
        }
    }
    /// Sets ``parent`` to `node` (taken without a reference count change, as it is stored),
    /// whose child array is to hold this node.
    @inline(__always) final func attach(to node: Node) {
        parentStorage = node
        parentIdentity = ObjectIdentifier(node)
        block.pointee.fields.setHeldElsewhere(true)
    }
    // ``scene`` and ``parent`` hold no reference and are not Swift weak references either: a
    // weak reference moves its object's reference counts to a side table, after which every
    // retain and release of the scene and of each parent (a coin shower's layer, thousands
    // of times a frame) takes a slow path. They read nil once their object is gone all the
    // same: a scene clears the scene of every node it holds as it goes, and a node the
    // parent of every child still attached to it (see the two `deinit`s); a node is the
    // parent of exactly the children its child array holds with its identity.
    @exclusivity(unchecked) private unowned(unsafe) var sceneStorage: Scene?
    @exclusivity(unchecked) private unowned(unsafe) var parentStorage: Node?

    /// Draw order among siblings: higher draws later (on top); equal values keep the order
    /// the nodes were added in.
    @exclusivity(unchecked) public var z: Double {
        didSet {
            if z.isNaN { z = 0 }
            if z != oldValue { parent?.needsChildSort = true }
        }
    }

    /// Insertion order among siblings, the tie-breaker for equal z.
    @exclusivity(unchecked) var sequence = 0
    @exclusivity(unchecked) private var cachedLocal = AffineTransform.identity
    @exclusivity(unchecked) private var cachedRotation = 0.0
    @exclusivity(unchecked) private var cachedSin = 0.0
    @exclusivity(unchecked) private var cachedCos = 1.0

    /// Where a wrapping node was also drawn in the last composed frame, besides its own place:
    /// bit `3 * (ky + 1) + (kx + 1)` for the copy shifted by `kx` region widths and `ky`
    /// region heights (see ``wrap``); 0 when it was drawn once.
    @exclusivity(unchecked) public internal(set) var composedCopies: UInt16 = 0

    /// The region the node wraps round: while its drawing (its children's included) reaches
    /// past a wrapping edge, it is also drawn shifted by the region's width or height to the
    /// other side (in all four corners' places across a corner), and hit there too.
    public var wrap: NodeWrap = .none {
        didSet {
            setFlag(.wrapping, wrap != .none)
            if !isWrapping { composedCopies = 0 }
        }
    }

    /// The name the game gave the node (`name = "ball"`), by which a game's tests find it;
    /// nil when it has none. Drawing never reads it.
    public var name: String?

    init(x: Double = 0, y: Double = 0, anchor: Vec2 = Vec2(0.5, 0.5)) {
        block = NodeBlock.allocate(x: x, y: y, anchor: anchor)
        z = 0
    }

    deinit {
        // Children still attached lose their parent with it, as with a weak reference.
        let me = ObjectIdentifier(self)
        for entry in childStorage where entry.node.parentIdentity == me { entry.node.parent = nil }
        NodeBlock.deallocate(block)
    }

    /// See ``Animatable/animatableFields``: the engines write a node's numbers in place.
    public final var animatableFields: UnsafeMutablePointer<AnimatableFields>? { fields }

    /// See ``Animatable/setWrapRegion(_:)``: a node bound to a ball of a wrap-around world
    /// wraps round the world's region.
    public func setWrapRegion(_ region: WrapRegion?) {
        wrap = region.map { .region($0) } ?? .none
    }

    /// A short name of the node's kind (`"group"`, `"sprite"`, ...), for messages and dumps.
    public var kindName: String { "group" }

    /// The position as a vector.
    public var position: Vec2 {
        get { Vec2(x, y) }
        set {
            x = newValue.x
            y = newValue.y
        }
    }

    /// Uniform scale: reads as ``scaleX``, writes both.
    public var scale: Double {
        get { scaleX }
        set {
            scaleX = newValue
            scaleY = newValue
        }
    }

    /// The node's own transform: its local space to its parent's. Cached until a position,
    /// scale or rotation changes; the sine and cosine only when the rotation does.
    public var localTransform: AffineTransform {
        if localDirty {
            cachedLocal = uncachedLocalTransform
            localDirty = false
        }
        return cachedLocal
    }

    /// ``localTransform`` without writing it back to the cache: what the frame's traversal
    /// uses, as a node that moves every frame (a coin in flight) would write a cache that
    /// nothing reads before it moves again. The sine and cosine are still cached (they
    /// change only with the rotation).
    @inline(__always) final var uncachedLocalTransform: AffineTransform {
        if !localDirty { return cachedLocal }
        let rotation = self.rotation
        if rotation == 0 { return Node.unturnedTransform(fields.pointee) }
        if rotation != cachedRotation {
            let sc = AffineTransform.sinCos(rotation)
            cachedSin = sc.sin
            cachedCos = sc.cos
            cachedRotation = rotation
        }
        return AffineTransform(
            a: cachedCos * scaleX, b: cachedSin * scaleX,
            c: -cachedSin * scaleY, d: cachedCos * scaleY,
            tx: x, ty: y
        )
    }

    /// The local transform of an unturned node whose numbers are `f` (nearly every node):
    /// the sine and cosine of 0, without reading the node's cache.
    @inline(__always) static func unturnedTransform(_ f: AnimatableFields) -> AffineTransform {
        AffineTransform(a: 1 * f.scaleX, b: 0 * f.scaleX, c: -0.0 * f.scaleY, d: 1 * f.scaleY, tx: f.x, ty: f.y)
    }

    /// The children in draw order (z, then insertion).
    public var children: [Node] {
        prepareChildren()
        return childStorage.map(\.node)
    }

    /// The transform from this node's local space to canvas pixels, computed now by walking
    /// up the parents.
    public func transformToCanvas() -> AffineTransform {
        var t = localTransform
        var p = parent
        while let node = p {
            t = node.localTransform * t
            p = node.parent
        }
        return t
    }

    /// A point in this node's local space, in canvas pixels.
    public func convertToCanvas(_ point: Vec2) -> Vec2 {
        transformToCanvas().apply(point)
    }

    /// A canvas point in this node's local space, or nil when the node is squashed flat.
    public func convertFromCanvas(_ point: Vec2) -> Vec2? {
        transformToCanvas().inverted()?.apply(point)
    }

    /// Drops removed children and restores draw order, only when something changed.
    @inline(__always) final func prepareChildren() {
        if needsCompaction { compactChildren { _, _ in } }
        if needsChildSort {
            childStorage.sort { ($0.node.z, $0.node.sequence) < ($1.node.z, $1.node.sequence) }
            needsChildSort = false
        }
    }

    /// Drops the children removed since the last compaction, keeping the others in order,
    /// and hands each child kept to `visit` (in order, with its block) as it goes: drawing
    /// compacts and draws in one pass over thousands of coins. The children are reached
    /// through the array's buffer without a reference count change each (the array holds
    /// them the whole time); those dropped are released at the end. `visit` must not change
    /// the tree.
    @inline(__always) final func compactChildren(_ visit: (Node, UnsafeMutablePointer<NodeBlock>) -> Void) {
        let me = ObjectIdentifier(self)
        let kept = childStorage.withUnsafeMutableBufferPointer { children -> Int in
            var kept = 0
            for i in children.indices {
                Node.prefetch(UnsafeBufferPointer(children), after: i, nodes: true)
                let block = children[i].block
                let keep = Unmanaged.passUnretained(children[i].node)._withUnsafeGuaranteedRef { child -> Bool in
                    guard child.parentIdentity == me else { return false }
                    visit(child, block)
                    return true
                }
                guard keep else { continue }
                if kept != i { children.swapAt(kept, i) }
                kept &+= 1
            }
            return kept
        }
        if kept < childStorage.count { childStorage.removeSubrange(kept...) }
        needsCompaction = false
    }

    /// Starts loading what drawing reads of the children a few places after `i`: the blocks
    /// of a busy layer (thousands of coins) lie apart in memory, and the frame's pass over
    /// them otherwise waits on each in turn. Sixteen ahead, the child's block (both lines;
    /// its address is in the array); with `nodes` (compaction, which reads every child's
    /// parent), eight ahead, the line of the node that holds its parent. Drawing does not
    /// load nodes ahead: a still sprite is drawn from its block alone, and deciding which
    /// nodes are not would wait for their blocks.
    @inline(__always) static func prefetch(_ children: UnsafeBufferPointer<ChildEntry>, after i: Int, nodes: Bool) {
        let far = i &+ 16, near = i &+ 8
        if far < children.count {
            let block = UnsafeRawPointer(children[far].block)
            arcade_prefetch(block)
            arcade_prefetch(block + NodeBlockPool.planeOffset)
        }
        if nodes, near < children.count {
            arcade_prefetch(UnsafeRawPointer(Unmanaged.passUnretained(children[near].node).toOpaque()) + 32)
        }
    }

    // MARK: - Content, overridden by each kind

    /// Draws the node's own content; `transform` maps its local space to canvas pixels.
    func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {}

    /// True when `point` (local space) lies on the node's own content.
    func contentContains(_ point: Vec2) -> Bool { false }

    /// An upright box in local space around everything the node's own content may draw;
    /// empty for a group. Wrapping uses it to tell when a node reaches past an edge.
    func contentBounds() -> BoundingBox { .empty }

    /// Colour slot `index` (0 primary, 1 secondary), or nil when the kind has no such slot.
    /// A kind with colours answers from its table of colour properties with
    /// ``color(at:in:)``.
    func colorSlot(_ index: Int) -> Color? { nil }

    /// Sets colour slot `index`; unknown slots are ignored. A kind with colours writes through
    /// its table with ``setColor(_:at:in:)``.
    func setColorSlot(_ index: Int, _ color: Color) {}

    /// A kind's colour table: its colour properties in slot order.
    typealias ColorSlots<Kind: Node> = [any ReferenceWritableKeyPath<Kind, Color> & Sendable]

    /// Slot `index` of a kind's colour table (its colour properties in slot order), or nil
    /// past its end.
    @inline(__always)
    final func color<Kind: Node>(at index: Int, in slots: ColorSlots<Kind>) -> Color? {
        guard slots.indices.contains(index) else { return nil }
        return unsafeDowncast(self, to: Kind.self)[keyPath: slots[index]]
    }

    /// Writes slot `index` of a kind's colour table; past its end nothing changes.
    @inline(__always)
    final func setColor<Kind: Node>(_ color: Color, at index: Int, in slots: ColorSlots<Kind>) {
        guard slots.indices.contains(index) else { return }
        unsafeDowncast(self, to: Kind.self)[keyPath: slots[index]] = color
    }

    /// The content box `w x h` placed so its anchor point is the local origin.
    final func anchoredBox(width: Double, height: Double) -> BoundingBox {
        BoundingBox(x: -anchor.x * width, y: -anchor.y * height, width: width, height: height)
    }

    /// The content box `[0, w) x [0, h)` placed so its anchor point is the local origin.
    final func boxContains(_ point: Vec2, width: Double, height: Double) -> Bool {
        let u = point.x + anchor.x * width
        let v = point.y + anchor.y * height
        return u >= 0 && v >= 0 && u < width && v < height
    }
}

/// The region a node wraps round (see ``Node/wrap``), in its parent's space.
public enum NodeWrap: Hashable, Sendable {
    /// No wrapping: the node is drawn once.
    case none
    /// The canvas: `(0, 0)` to its width and height in pixels, both ways, as of each frame
    /// (it follows a resize).
    case canvas
    /// A rectangle of the parent's space.
    case region(WrapRegion)
}

/// A node with no content of its own: it moves, turns, scales and fades its children together,
/// and can clip them to its own box (a mole rising out of its hole).
public final class GroupNode: Node {
    /// Width of the group's box in its own units; only clipping uses it.
    public var width: Double = 0
    /// Height of the group's box in its own units; only clipping uses it.
    public var height: Double = 0
    /// When true, children are drawn (and hit) only inside the group's `width x height` box,
    /// placed around the position by the anchor like any node's content. Under a rotation
    /// the clip is the smallest upright rectangle around the turned box.
    public var clipsChildren: Bool {
        get { isClipping }
        set { isClipping = newValue }
    }

    /// A group at `(x, y)`.
    public init(x: Double = 0, y: Double = 0) {
        super.init(x: x, y: y)
    }

    /// The group's box in canvas pixels under `transform` (its upright bounds when turned):
    /// `(minX, minY, maxX, maxY)`.
    func clipBox(_ transform: AffineTransform) -> (Double, Double, Double, Double) {
        let left = -anchor.x * width
        let top = -anchor.y * height
        let corners = [Vec2(left, top), Vec2(left + width, top), Vec2(left, top + height), Vec2(left + width, top + height)]
            .map { transform.apply($0) }
        var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for p in corners {
            box.0 = min(box.0, p.x)
            box.1 = min(box.1, p.y)
            box.2 = max(box.2, p.x)
            box.3 = max(box.3, p.y)
        }
        return box
    }
}
