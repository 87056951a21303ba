import ArcadeCore

/// Pixel art on the scene: one sprite, or a flipbook whose frame follows the scene time.
public final class SpriteNode: Node {
    /// The frames and how long each shows.
    @exclusivity(unchecked) public var flipbook: Flipbook {
        didSet {
            frameViews = SpriteNode.views(of: flipbook)
            firstFrame = frameViews[0]
            refreshKernelArt()
        }
    }
    /// Where the frames' pixels are, kept while ``flipbook`` holds them: drawing reads them
    /// from here without a reference count change per frame.
    @exclusivity(unchecked) private var frameViews: [SpritePixels]
    /// Frame 0's entry of `frameViews`, for the still sprites most nodes show.
    @exclusivity(unchecked) private var firstFrame: SpritePixels
    /// Scene time (seconds) at which frame 0 showed; set it when (re)starting the loop so
    /// nodes sharing a flipbook do not all flap in step.
    @exclusivity(unchecked) public var animationStart = 0.0
    /// When false the node shows ``frameIndex`` instead of following the clock.
    @exclusivity(unchecked) public var isPlaying = true
    /// The frame shown while not playing (wrapped into range).
    @exclusivity(unchecked) public var frameIndex = 0
    /// Multiplied into every pixel; white shows the art unchanged. Colour slot 0.
    @exclusivity(unchecked) public var tint = Color.white {
        didSet { refreshKernelArt() }
    }

    /// A still sprite at `(x, y)`, centred there by default.
    public init(sprite: Sprite, x: Double = 0, y: Double = 0) {
        flipbook = Flipbook(sprite)
        frameViews = [sprite.view]
        firstFrame = sprite.view
        super.init(x: x, y: y)
        refreshKernelArt()
    }

    /// A flipbook at `(x, y)`.
    public init(flipbook: Flipbook, x: Double = 0, y: Double = 0) {
        self.flipbook = flipbook
        frameViews = SpriteNode.views(of: flipbook)
        firstFrame = frameViews[0]
        super.init(x: x, y: y)
        refreshKernelArt()
    }

    /// What ``init(flipbook:x:y:)`` makes of `model`'s flipbook, sharing the list of its
    /// frames `model` keeps rather than making one more (a burst of like particles).
    public init(framesOf model: SpriteNode, x: Double = 0, y: Double = 0) {
        flipbook = model.flipbook
        frameViews = model.frameViews
        firstFrame = model.firstFrame
        super.init(x: x, y: y)
        refreshKernelArt()
    }

    private func refreshKernelArt() {
        // Set while the node shows one still untinted frame that the canvas's kernel draws as
        // it is, so drawing it checks one thing (see ``Node/kernelArt``).
        kernelArt = frameViews.count == 1 && tint == .white ? flipbook.frames[0].storage.kernel.map { UnsafePointer($0) } : nil
    }

    private static func views(of flipbook: Flipbook) -> [SpritePixels] {
        flipbook.frames.map(\.view)
    }

    /// See ``Node/kindName``.
    public override var kindName: String { "sprite" }

    /// Seconds per frame (the flipbook's).
    public var frameDuration: Double {
        get { flipbook.frameDuration }
        set { flipbook.frameDuration = newValue }
    }

    /// Seconds for one pass through all frames: the fishing article's "1 s a loop; 0.5 s once
    /// caught" sets this.
    public var loopDuration: Double {
        get { flipbook.loopDuration }
        set { flipbook.frameDuration = newValue / Double(flipbook.frames.count) }
    }

    /// The frame shown at scene time `time`.
    public func currentFrame(at time: Double) -> Int {
        let count = flipbook.frames.count
        if !isPlaying {
            let k = frameIndex % count
            return k < 0 ? k + count : k
        }
        return flipbook.frameIndex(at: time - animationStart)
    }

    override func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {
        // The scene has already offered a still untinted sprite to the canvas's kernel
        // (``Node/kernelArt``); what reaches here is drawn the general way.
        // A still sprite (most are) needs no clock.
        let frame = frameViews.count == 1 ? firstFrame : frameViews[currentFrame(at: time)]
        canvas.drawSprite(frame, transform: transform, anchor: anchor, alpha: alpha, tint: tint)
    }

    override func contentContains(_ point: Vec2) -> Bool {
        let first = flipbook.frames[0]
        return boxContains(point, width: Double(first.width), height: Double(first.height))
    }

    override func contentBounds() -> BoundingBox {
        let first = flipbook.frames[0]
        return anchoredBox(width: Double(first.width), height: Double(first.height))
    }

    /// The colour properties animations reach, in slot order.
    static let colorSlots: ColorSlots<SpriteNode> = [\.tint]

    override func colorSlot(_ index: Int) -> Color? { color(at: index, in: SpriteNode.colorSlots) }
    override func setColorSlot(_ index: Int, _ color: Color) { setColor(color, at: index, in: SpriteNode.colorSlots) }
}
