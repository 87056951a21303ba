@testable import ArcadeCore

/// A scene-node stand-in: every property the engine can drive, stored plainly.
final class Sprite: Animatable {
    var position: Vec2
    var scaleX = 1.0
    var scaleY = 1.0
    var rotation = 0.0
    var alpha = 1.0
    var color = Color.white
    var outline = Color.black
    var strokeStart = 0.0
    var strokeEnd = 1.0
    /// Property writes received, to check that nothing writes when it should not.
    var writes = 0

    init(position: Vec2 = .zero) {
        self.position = position
    }

    func animatableValue(_ property: AnimatableProperty) -> AnimatableValue? {
        switch property {
        case .x: .scalar(position.x)
        case .y: .scalar(position.y)
        case .position: .vector(position)
        case .scale, .scaleX: .scalar(scaleX)
        case .scaleY: .scalar(scaleY)
        case .rotation: .scalar(rotation)
        case .alpha: .scalar(alpha)
        case .color(0): .color(color)
        case .color(1): .color(outline)
        case .color: nil
        case .strokeStart: .scalar(strokeStart)
        case .strokeEnd: .scalar(strokeEnd)
        }
    }

    func setAnimatableValue(_ value: AnimatableValue, for property: AnimatableProperty) {
        writes += 1
        switch (property, value) {
        case (.x, .scalar(let v)): position.x = v
        case (.y, .scalar(let v)): position.y = v
        case (.position, .vector(let v)): position = v
        case (.scale, .scalar(let v)):
            scaleX = v
            scaleY = v
        case (.scaleX, .scalar(let v)): scaleX = v
        case (.scaleY, .scalar(let v)): scaleY = v
        case (.rotation, .scalar(let v)): rotation = v
        case (.alpha, .scalar(let v)): alpha = v
        case (.color(0), .color(let c)): color = c
        case (.color(1), .color(let c)): outline = c
        case (.strokeStart, .scalar(let v)): strokeStart = v
        case (.strokeEnd, .scalar(let v)): strokeEnd = v
        default: break
        }
    }
}

/// One 60 Hz step.
let step = 1.0 / 60

extension Animator {
    /// Advances `steps` steps of 1/60 s.
    func run(steps: Int) {
        for _ in 0..<steps {
            advance(by: step)
        }
    }

    /// Takes every queued completion.
    func drain() -> [AnimationCompletion] {
        var out: [AnimationCompletion] = []
        while let c = nextCompletion() {
            out.append(c)
        }
        return out
    }
}

/// True when `a` and `b` differ by at most `tolerance`.
func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

func near(_ a: Vec2, _ b: Vec2, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

extension AnimatableValue {
    static func s(_ v: Double) -> AnimatableValue { .scalar(v) }
    static func v(_ x: Double, _ y: Double) -> AnimatableValue { .vector(Vec2(x, y)) }
}
