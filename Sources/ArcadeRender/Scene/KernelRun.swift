import ArcadeCore

/// Sibling sprites the canvas's kernel draws as they are (still, untinted, unturned, fully
/// opaque leaves: the coins of a shower), gathered while the scene walks its nodes and drawn
/// together, in order, whenever something else is to be drawn, the art changes, or the run
/// is full.
///
/// Walking the nodes and blitting their pixels then take turns in runs instead of at every
/// node: one call into the kernel a run, and the canvas's pixels are not pushed out of the
/// cache by the next node's memory between two sprites. What is drawn, and in what order, is what
/// drawing each node in turn draws.
final class KernelRun {
    /// How many sprites a run holds: their placements take 2 KB.
    static let capacity = 64

    /// The art every sprite of the run shows; nil while the run is empty.
    private(set) var art: UnsafePointer<KernelSprite>?
    /// Per sprite, `(a, d, tx, ty)`: its scale and the canvas place of its top-left corner,
    /// as ``arcade_blit_unturned`` takes them.
    let placements: UnsafeMutablePointer<Double>
    /// Per sprite, its node, for the general path when the kernel leaves one to it. The
    /// nodes are held by their parents for the whole draw.
    private let nodes: UnsafeMutablePointer<Unmanaged<Node>>
    private(set) var count = 0
    /// How many sprites runs have held and drawn (the kernel's declines included) since the
    /// run was made.
    private(set) var drawn = 0

    init() {
        placements = .allocate(capacity: 4 * KernelRun.capacity)
        nodes = .allocate(capacity: KernelRun.capacity)
    }

    deinit {
        placements.deallocate()
        nodes.deallocate()
    }

    #if arch(x86_64)
    /// Adds `node`, showing `art` under `transform` (unturned) with its `anchor`, drawing
    /// first what the run holds when it shows other art or is full.
    @inline(__always)
    func append(_ node: Node, art: UnsafePointer<KernelSprite>, transform t: AffineTransform, anchor: Vec2,
                canvas: Canvas, time: Double) {
        if count == KernelRun.capacity || (count > 0 && art != self.art) { flush(into: canvas, time: time) }
        self.art = art
        let sprite = art.pointee
        let p = placements + 4 &* count
        p[0] = t.a
        p[1] = t.d
        // As ``Canvas/blitUnturned(_:transform:anchor:alpha:)`` places it.
        p[2] = t.a * (-anchor.x * sprite.width) + t.tx
        p[3] = t.d * (-anchor.y * sprite.height) + t.ty
        nodes[count] = Unmanaged.passUnretained(node)
        count &+= 1
    }
    #endif

    /// Draws the run's sprites in order and empties it; a sprite the kernel leaves to the
    /// general path is drawn by its node, with what it was recorded as drawn with, in its
    /// place in the order.
    @inline(__always)
    func flush(into canvas: Canvas, time: Double) {
        guard count > 0 else { return }
        #if arch(x86_64)
        drawn &+= count
        var next = 0
        while next < count {
            let declined = canvas.blitRun(self, from: next)
            guard declined < count else { break }
            nodes[declined]._withUnsafeGuaranteedRef { node in
                node.drawContent(in: canvas, transform: node.composedTransform, alpha: node.composedAlpha, time: time)
            }
            next = declined &+ 1
        }
        #endif
        count = 0
        art = nil
    }
}
