import ArcadeCore

/// Infers key releases, and tells auto-repeats from new presses, for terminals that never send
/// releases (everything without the kitty keyboard protocol). Pure: the caller passes the time.
///
/// A legacy terminal reports a held key as a press followed, after the keyboard's repeat delay
/// (commonly 250-600 ms), by a stream of repeated presses (commonly every 25-50 ms); releasing
/// it just stops the stream. A second tap after a release arrives as a press after a gap of
/// the same size as the repeat delay, so the gap alone cannot tell the first auto-repeat from
/// a second tap. The tracker goes by the rhythm instead:
///
/// - a press of a key that arrives within `repeatHold` of the previous press of that key is an
///   auto-repeat (`isRepeat`): only the repeat stream is that fast;
/// - any other press is a new press, even when the key still counts as held. So a double tap
///   is two presses, and the first auto-repeat of a held key (it comes a whole repeat delay
///   after the press) reads as a second press; the repeats after it are repeats.
///
/// A key counts as held from its press until no press of it has arrived for a hold timeout:
/// `initialHold` after a new press (it must cover the repeat delay: X's default is 660 ms), `repeatHold` after a
/// repeat (it must cover the repeat interval). When the timeout passes the tracker emits
/// `keyUp`.
///
/// What this costs: a tap is released `initialHold` late; two taps of one key closer together
/// than `initialHold` read as one key down (two presses, one release); and because keyboards
/// repeat only the newest key, an older key still physically held is released once its
/// repeats stop. Keys are identified by name, so Shift pressed or let go during a hold does not
/// split it. A press the terminal itself marks as a repeat stays one.
public struct KeyHoldTracker: Sendable {
    /// How long after a key's first press, with no repeat, it counts as released (seconds).
    public var initialHold: Double
    /// How long after a repeat, with no further repeat, it counts as released (seconds); and
    /// the longest gap after the previous press of a key for which a press is a repeat.
    public var repeatHold: Double

    /// One held key: its last press, when that came, and when it is released without another.
    private struct HeldKey: Sendable {
        var press: KeyEvent
        var time: Double
        var deadline: Double
    }

    /// Held keys in the order they were first pressed, which orders simultaneous releases.
    private var held: [HeldKey] = []

    /// A tracker with nothing held.
    public init(initialHold: Double = 0.7, repeatHold: Double = 0.1) {
        self.initialHold = initialHold
        self.repeatHold = repeatHold
        held.reserveCapacity(16)
    }

    /// The names of the keys held now, in the order they were pressed.
    public var heldKeys: [String] { held.map(\.press.key) }

    /// The earliest time a held key will be released if no press of it arrives; the reader
    /// wakes up then to call `expire(at:)`. `nil` when nothing is held.
    public var nextDeadline: Double? { held.lazy.map(\.deadline).min() }

    /// Passes `events` that arrived at `time` through the tracker and returns them with the
    /// inferred releases: keys whose hold ran out before `time` are released first, then
    /// presses of held keys that follow the previous press within `repeatHold` are marked as
    /// repeats, other presses of held keys renew the hold, presses of other keys start one, and
    /// releases the terminal did report end a hold. Mouse and resize events pass unchanged.
    public mutating func process(_ events: [InputEvent], at time: Double) -> [InputEvent] {
        var output: [InputEvent] = []
        process(events, at: time, into: &output)
        return output
    }

    /// `process(_:at:)`, appending to `output`.
    public mutating func process(
        _ events: [InputEvent], at time: Double, into output: inout [InputEvent]
    ) {
        expire(at: time, into: &output)
        for event in events {
            switch event {
            case .key(var key):
                if let index = held.firstIndex(where: { $0.press.key == key.key }) {
                    // the repeat stream's rhythm, not "still held", makes a repeat
                    if time - held[index].time <= repeatHold { key.isRepeat = true }
                    held[index].press = key
                    held[index].time = time
                    held[index].deadline = time + (key.isRepeat ? repeatHold : initialHold)
                } else {
                    // A press the terminal already marks as a repeat is mid-hold already.
                    let hold = key.isRepeat ? repeatHold : initialHold
                    held.append(HeldKey(press: key, time: time, deadline: time + hold))
                }
                output.append(.key(key))
            case .keyUp(let key):
                held.removeAll { $0.press.key == key.key }
                output.append(event)
            case .mouse, .resize:
                output.append(event)
            }
        }
    }

    /// Releases the keys whose hold has run out by `time` (deadline at or before it).
    public mutating func expire(at time: Double) -> [InputEvent] {
        var output: [InputEvent] = []
        expire(at: time, into: &output)
        return output
    }

    /// `expire(at:)`, appending to `output`: earliest deadline first, ties in press order.
    public mutating func expire(at time: Double, into output: inout [InputEvent]) {
        while let index = nextExpired(at: time) {
            output.append(.keyUp(Self.released(held[index].press)))
            held.remove(at: index)
        }
    }

    /// Releases every held key now, in press order (for when the terminal starts reporting
    /// releases itself, or the game loses focus).
    public mutating func releaseAll() -> [InputEvent] {
        defer { held.removeAll(keepingCapacity: true) }
        return held.map { .keyUp(Self.released($0.press)) }
    }

    /// The held key with the earliest deadline at or before `time`; the first pressed on ties.
    private func nextExpired(at time: Double) -> Int? {
        var best: Int? = nil
        for index in held.indices where held[index].deadline <= time {
            if let current = best, held[current].deadline <= held[index].deadline { continue }
            best = index
        }
        return best
    }

    /// The release of the key a press named (a release is never a repeat).
    private static func released(_ press: KeyEvent) -> KeyEvent {
        KeyEvent(press.key, modifiers: press.modifiers)
    }
}
