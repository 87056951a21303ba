import ArcadeCore

extension Node {
    /// The current value of `property`, or nil when this kind of node has no such property
    /// (a group has no colour, only lines have stroke fractions).
    public func animatableValue(_ property: AnimatableProperty) -> AnimatableValue? {
        switch property {
        case .x: return .scalar(x)
        case .y: return .scalar(y)
        case .position: return .vector(position)
        case .scale, .scaleX: return .scalar(scaleX)
        case .scaleY: return .scalar(scaleY)
        case .rotation: return .scalar(rotation)
        case .alpha: return .scalar(alpha)
        case .color(let i): return colorSlot(i).map { .color($0) }
        case .strokeStart: return (self as? LineNode).map { .scalar($0.strokeStart) }
        case .strokeEnd: return (self as? LineNode).map { .scalar($0.strokeEnd) }
        }
    }

    /// Sets `property`; values of the wrong kind and properties the node lacks are ignored.
    public func setAnimatableValue(_ value: AnimatableValue, for property: AnimatableProperty) {
        switch (property, value) {
        case (.x, .scalar(let v)): x = v
        case (.y, .scalar(let v)): y = v
        case (.position, .vector(let v)): position = v
        case (.scale, .scalar(let v)): scale = v
        case (.scaleX, .scalar(let v)): scaleX = v
        case (.scaleY, .scalar(let v)): scaleY = v
        case (.rotation, .scalar(let v)): rotation = v
        case (.alpha, .scalar(let v)): alpha = v
        case (.color(let i), .color(let c)): setColorSlot(i, c)
        case (.strokeStart, .scalar(let v)): (self as? LineNode)?.strokeStart = v
        case (.strokeEnd, .scalar(let v)): (self as? LineNode)?.strokeEnd = v
        default: break
        }
    }
}
