/// A rectangle a wrap-around world folds space into, in the coordinates of the object's
/// parent: a point that leaves one edge comes back at the opposite one. An object that sits
/// across an edge is shown on both sides (and, across a corner, in all four).
public struct WrapRegion: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    /// Whether the left and right edges meet.
    public var wrapsX: Bool
    /// Whether the top and bottom edges meet.
    public var wrapsY: Bool

    public init(x: Double, y: Double, width: Double, height: Double, wrapsX: Bool = true, wrapsY: Bool = true) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.wrapsX = wrapsX
        self.wrapsY = wrapsY
    }
}
