/// Identifies one started animation. Never reused while the ``Animator`` lives: a slot's
/// generation is part of the id, so an old id never names a newer animation. Never 0, so
/// scripts may use 0 as "none".
public typealias AnimationID = GenerationalID<StartedAnimation>

/// The kind of ``AnimationID``.
public enum StartedAnimation: GenerationalIDKind {
    public static let name = "animation"
}

extension GenerationalID where Kind == StartedAnimation {
    /// ``rawValue`` under the name the animation API has always used.
    public var raw: UInt64 { rawValue }

    /// Rebuilds an id from ``raw`` (a script binding stores ids as integers).
    public init(raw: UInt64) {
        self.init(rawValue: raw)
    }
}

/// How an animation ended.
public enum AnimationEnd: String, Hashable, Sendable {
    /// It ran its full active time.
    case finished
    /// ``Animator/cancel(_:)`` or one of the `cancelAll` calls stopped it.
    case cancelled
    /// A newer animation on the same property of the same target took over.
    case replaced
    /// Its target was freed.
    case targetGone

    /// UIKit's `finished` flag: true only when the animation ran to its end.
    public var finished: Bool { self == .finished }
}

/// An animation's end, queued by the ``Animator`` and taken by the caller afterwards.
public struct AnimationCompletion: Hashable, Sendable {
    /// The animation that ended.
    public let id: AnimationID
    /// The caller's token given to ``Animator/start(_:on:token:)`` (a script binding keeps
    /// its callback reference here).
    public let token: UInt64
    /// How it ended.
    public let end: AnimationEnd

    /// UIKit's `finished` flag.
    public var finished: Bool { end.finished }
}
