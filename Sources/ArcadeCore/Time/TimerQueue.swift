/// Identifies a timer in a ``TimerQueue``.
public struct TimerID: Hashable, Sendable, CustomStringConvertible {
    public let raw: UInt64
    public init(raw: UInt64) { self.raw = raw }
    public var description: String { "timer#\(raw)" }
}

/// One-shot and repeating timers on game time, fired in a deterministic order.
///
/// Order: by due time, then by the order the timers were created. A repeating timer
/// whose period is shorter than a step fires as many times as its periods elapsed, each
/// at its own due time, so `every(0.01)` at 60 Hz fires 1 or 2 times a step, 100 a second.
/// Due times are `start + n * interval`, never accumulated, so they do not drift.
public struct TimerQueue<Payload> {
    struct Entry {
        let id: TimerID
        let payload: Payload
        let start: Double
        let interval: Double
        let repeats: Bool
        var firings: Int
        var due: Double { start + interval * Double(firings + 1) }
    }

    private var entries: [Entry] = []
    private var nextID: UInt64 = 1
    /// Timers with ids at or above this were created during the current pass and wait for the next.
    private var passLimit: UInt64 = .max

    public init() {}

    /// Number of pending timers.
    public var count: Int { entries.count }

    /// Schedules `payload` to fire once `seconds` after `now` (negative counts as zero).
    @discardableResult
    public mutating func after(_ seconds: Double, now: Double, _ payload: Payload) -> TimerID {
        add(seconds, now: now, repeats: false, payload)
    }

    /// Schedules `payload` to fire every `seconds` from `now`; `seconds` must be positive.
    @discardableResult
    public mutating func every(_ seconds: Double, now: Double, _ payload: Payload) -> TimerID {
        precondition(seconds > 0, "a repeating timer needs a positive interval")
        return add(seconds, now: now, repeats: true, payload)
    }

    private mutating func add(_ seconds: Double, now: Double, repeats: Bool, _ payload: Payload) -> TimerID {
        let id = TimerID(raw: nextID)
        nextID += 1
        let interval = seconds.isFinite ? max(0, seconds) : .greatestFiniteMagnitude
        entries.append(Entry(id: id, payload: payload, start: now, interval: interval, repeats: repeats, firings: 0))
        return id
    }

    /// True while `id` is scheduled.
    public func isPending(_ id: TimerID) -> Bool {
        entries.contains { $0.id == id }
    }

    /// Cancels `id` and returns its payload, or nil when it was not pending.
    @discardableResult
    public mutating func cancel(_ id: TimerID) -> Payload? {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return nil }
        return entries.remove(at: i).payload
    }

    /// Removes every timer and returns their payloads (creation order).
    public mutating func removeAll() -> [Payload] {
        defer { entries.removeAll() }
        return entries.map(\.payload)
    }

    /// Starts a firing pass: timers created from now on wait for the next pass, so a callback
    /// that schedules `after(0, ...)` runs it on the next step instead of looping forever.
    public mutating func beginPass() {
        passLimit = nextID
    }

    /// Ends a firing pass.
    public mutating func endPass() {
        passLimit = .max
    }

    /// Takes the earliest timer due at or before `now`, or nil.
    ///
    /// One-shot timers leave the queue; repeating ones are rescheduled. Call in a loop
    /// (between ``beginPass()`` and ``endPass()``) and fire each result before asking
    /// again, so a callback that cancels a timer is seen by the next call.
    public mutating func popDue(now: Double) -> (id: TimerID, payload: Payload, repeats: Bool)? {
        var best = -1
        var bestDue = Double.infinity
        for i in entries.indices where entries[i].id.raw < passLimit {
            let d = entries[i].due
            if d <= now + 1e-9 && (d < bestDue || (d == bestDue && entries[i].id.raw < entries[best].id.raw)) {
                best = i
                bestDue = d
            }
        }
        guard best >= 0 else { return nil }
        let e = entries[best]
        if e.repeats {
            entries[best].firings += 1
        } else {
            entries.remove(at: best)
        }
        return (e.id, e.payload, e.repeats)
    }
}
