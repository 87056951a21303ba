import ArcadeCore
import CRaster

/// What drawing reads and writes of a node, kept outside the node object in two cache lines
/// of their own from ``NodeBlockPool``: a frame of ten thousand coins visits ten thousand
/// nodes, and with this block a still sprite's drawing touches these two lines and nothing
/// else of its node.
///
/// - The first line, this struct, is the node's ``AnimatableFields`` (where the animation
///   engine writes its position, scale, turn and opacity), with the node's drawing flags in
///   ``AnimatableFields/ownerFlags`` (``NodeFlags``), and the art the canvas's kernel draws
///   when the node is a still, untinted sprite.
/// - The second line, ``NodeDrawLine`` (``drawLine`` from a pointer to the first), holds the
///   anchor and the transform the node was last drawn with. It lies ``NodeBlockPool/planeOffset``
///   bytes after the first, in the pool's other plane: the first lines of nodes made one
///   after another lie side by side, which is all a step of the animation engine writes.
///
/// The layout is checked by `NodeBlockTests`.
struct NodeBlock {
    /// The numbers the animation engine writes in place; ``Node/animatableFields`` points here.
    var fields: AnimatableFields
    /// See ``Node/kernelArt``.
    var kernelArt: UnsafePointer<KernelSprite>?

    /// A new block for a node at `(x, y)` with `anchor`: visible, with no children.
    static func allocate(x: Double, y: Double, anchor: Vec2) -> UnsafeMutablePointer<NodeBlock> {
        let raw = NodeBlockPool.shared.allocate()
        let block = raw.bindMemory(to: NodeBlock.self, capacity: 1)
        var fields = AnimatableFields(x: x, y: y)
        fields.ownerFlags = NodeFlags.visible.rawValue | NodeFlags.composedAlphaIsOne.rawValue
        block.initialize(to: NodeBlock(fields: fields, kernelArt: nil))
        (raw + NodeBlockPool.planeOffset).bindMemory(to: NodeDrawLine.self, capacity: 1)
            .initialize(to: NodeDrawLine(anchor: anchor, composedTransform: .identity))
        return block
    }

    /// Ends a block ``allocate(x:y:anchor:)`` made.
    static func deallocate(_ block: UnsafeMutablePointer<NodeBlock>) {
        block.drawLine.deinitialize(count: 1)
        block.deinitialize(count: 1)
        NodeBlockPool.shared.deallocate(UnsafeMutableRawPointer(block))
    }
}

/// The second line of a node's ``NodeBlock``.
struct NodeDrawLine {
    /// See ``Node/anchor``.
    var anchor: Vec2
    /// See ``Node/composedTransform``.
    var composedTransform: AffineTransform
}

extension UnsafeMutablePointer where Pointee == NodeBlock {
    /// The block's second line.
    @inline(__always) var drawLine: UnsafeMutablePointer<NodeDrawLine> {
        (UnsafeMutableRawPointer(self) + NodeBlockPool.planeOffset).assumingMemoryBound(to: NodeDrawLine.self)
    }
}

/// A node's drawing flags, kept in its block's ``AnimatableFields/ownerFlags``.
struct NodeFlags: OptionSet {
    let rawValue: UInt8
    /// ``Node/isVisible``.
    static let visible = NodeFlags(rawValue: 1)
    /// ``Node/wrap`` is not `.none`.
    static let wrapping = NodeFlags(rawValue: 2)
    /// The child array is not empty (it may still hold removed children until compaction).
    static let hasChildren = NodeFlags(rawValue: 4)
    /// ``Node/composedAlpha`` is 1 (the node's stored copy is then not read): drawing a
    /// fully opaque sprite sets this bit on the line it reads, not a number elsewhere.
    static let composedAlphaIsOne = NodeFlags(rawValue: 8)
    // The top bit is ``AnimatableFields/heldElsewhereBit``, raised while the node has a
    // parent (whose child array then holds it) and changed only through
    // ``AnimatableFields/setHeldElsewhere(_:)`` (see ``Node/parent``).
}

/// A child as its parent holds it: the node, and beside it the node's ``NodeBlock``, so that
/// the frame's pass over thousands of sibling sprites reads each one's block straight from
/// the array (and starts loading it well ahead) without loading the node first.
struct ChildEntry {
    let node: Node
    let block: UnsafeMutablePointer<NodeBlock>

    init(_ node: Node) {
        self.node = node
        block = node.block
    }
}
