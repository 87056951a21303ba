@testable import ArcadeCore

/// A scene object stand-in that records what the physics world writes to it.
final class RecordingNode: Animatable {
    var position = Vec2.zero
    var rotation = 0.0
    var writes = 0

    func animatableValue(_ property: AnimatableProperty) -> AnimatableValue? {
        switch property {
        case .position: .vector(position)
        case .rotation: .scalar(rotation)
        default: nil
        }
    }

    func setAnimatableValue(_ value: AnimatableValue, for property: AnimatableProperty) {
        writes += 1
        switch (property, value) {
        case (.position, .vector(let v)): position = v
        case (.rotation, .scalar(let r)): rotation = r
        default: break
        }
    }
}

extension PhysicsWorld {
    /// Steps `count` times, collecting every contact event and removed ball.
    @discardableResult
    func run(_ count: Int, events: inout [ContactEvent], removed: inout [BodyID]) -> Self {
        for _ in 0..<count {
            step()
            drainContactEvents { events.append($0) }
            drainRemovedBodies { removed.append($0) }
        }
        return self
    }

    /// Steps `count` times, discarding events.
    func run(_ count: Int) {
        for _ in 0..<count { step() }
    }

    /// Largest ball speed, px/s.
    var maxSpeed: Double {
        bodies.map { velocity(of: $0)!.length }.max() ?? 0
    }

    /// Total kinetic energy of the balls (linear part).
    var kineticEnergy: Double {
        bodies.reduce(0) { $0 + 0.5 * mass(of: $1)! * velocity(of: $1)!.lengthSquared }
    }
}

/// The ball-catch layout from GAMES.md §2 in its 375 x 667 points: two plain boxes, four
/// pegs (10 x 10, decided: the article sizes them from an image) and two scoring boxes.
func addBallCatchObstacles(to world: PhysicsWorld) {
    func box(_ id: String, _ cx: Double, _ cy: Double, _ size: Double) {
        world.addWall(id, rect: Rect(center: Vec2(cx, cy), width: size, height: size))
    }
    box("box1", 150, 200, 25)
    box("box1", 300, 300, 30)
    box("box3", 70, 300, 10)
    box("box4", 280, 160, 10)
    box("box5", 100, 160, 10)
    box("box6", 390, 250, 10)
    box("score1", 145, 250, 25)
    box("score2", 330, 350, 20)
}
