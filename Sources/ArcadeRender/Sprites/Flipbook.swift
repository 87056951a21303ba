/// A looping sequence of sprite frames shown for equal times: a swimming fish.
///
/// The frame on screen is a pure function of the scene time, so it costs nothing per frame
/// and replays identically.
public struct Flipbook: Hashable, Sendable {
    /// The frames in order; never empty.
    public let frames: [Sprite]
    /// Seconds each frame shows.
    public var frameDuration: Double

    /// A flipbook of `frames` (at least one) each shown for `frameDuration` seconds.
    public init(frames: [Sprite], frameDuration: Double) {
        precondition(!frames.isEmpty, "a flipbook needs at least one frame")
        self.frames = frames
        self.frameDuration = frameDuration
    }

    /// A still image.
    public init(_ sprite: Sprite) {
        self.init(frames: [sprite], frameDuration: 1)
    }

    /// Seconds for one pass through all frames.
    public var loopDuration: Double { frameDuration * Double(frames.count) }

    /// The index of the frame showing `time` seconds after the flipbook started; the
    /// sequence loops forever in both directions.
    public func frameIndex(at time: Double) -> Int {
        Flipbook.frameIndex(at: time, frameDuration: frameDuration, count: frames.count)
    }

    static func frameIndex(at time: Double, frameDuration: Double, count: Int) -> Int {
        guard count > 1, frameDuration > 0, time.isFinite else { return 0 }
        let n = (time / frameDuration).rounded(.down)
        var k = n.truncatingRemainder(dividingBy: Double(count))
        if k < 0 { k += Double(count) }
        return min(count - 1, max(0, Int(k)))
    }
}
