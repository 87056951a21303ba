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
///
/// A binary heap keyed by (due, id) with lazy deletion: scheduling, firing and cancelling
/// are O(log n), so thousands of pending timers cost little.
public struct TimerQueue<Payload> {
    @usableFromInline struct Entry {
        @usableFromInline let payload: Payload
        @usableFromInline let start: Double
        @usableFromInline let interval: Double
        @usableFromInline let repeats: Bool
        @usableFromInline var firings: Int

        @inlinable init(payload: Payload, start: Double, interval: Double, repeats: Bool, firings: Int) {
            self.payload = payload
            self.start = start
            self.interval = interval
            self.repeats = repeats
            self.firings = firings
        }
        @inlinable var due: Double { start + interval * Double(firings + 1) }
    }

    @usableFromInline struct Key: Comparable {
        @usableFromInline var due: Double
        @usableFromInline var id: UInt64

        @inlinable init(due: Double, id: UInt64) {
            self.due = due
            self.id = id
        }

        @inlinable static func < (a: Key, b: Key) -> Bool { a.due < b.due || (a.due == b.due && a.id < b.id) }
    }

    @usableFromInline var live: [UInt64: Entry] = [:]
    @usableFromInline var heap: [Key] = []
    @usableFromInline var nextID: UInt64 = 1
    /// Timers with ids at or above this were created during the current pass and wait for the next.
    @usableFromInline var passLimit: UInt64 = .max
    /// Heap keys set aside during a pass (timers created in it), put back at its end.
    @usableFromInline var deferred: [Key] = []

    @inlinable public init() {}

    /// Number of pending timers.
    @inlinable public var count: Int { live.count }

    /// Keys the heap holds (pending timers, and cancelled ones not yet dropped).
    var heapSize: Int { heap.count + deferred.count }

    /// Schedules `payload` to fire once `seconds` after `now` (negative counts as zero).
    @discardableResult
    @inlinable public mutating func after(_ seconds: Double, now: Double, _ payload: Payload) -> TimerID {
        add(seconds, now: now, repeats: false, payload)
    }

    /// Schedules `payload` to fire every `seconds` from `now`; `seconds` must be positive.
    @discardableResult
    @inlinable public mutating func every(_ seconds: Double, now: Double, _ payload: Payload) -> TimerID {
        precondition(seconds > 0, "a repeating timer needs a positive interval")
        return add(seconds, now: now, repeats: true, payload)
    }

    @inlinable mutating func add(_ seconds: Double, now: Double, repeats: Bool, _ payload: Payload) -> TimerID {
        let id = nextID
        nextID += 1
        let interval = seconds.isFinite ? max(0, seconds) : .greatestFiniteMagnitude
        let entry = Entry(payload: payload, start: now, interval: interval, repeats: repeats, firings: 0)
        live[id] = entry
        push(Key(due: entry.due, id: id))
        return TimerID(raw: id)
    }

    /// True while `id` is scheduled.
    @inlinable public func isPending(_ id: TimerID) -> Bool {
        live[id.raw] != nil
    }

    /// Seconds from `now` until `id` next fires (0 when it is due), or nil when it is not pending.
    @inlinable public func remaining(_ id: TimerID, now: Double) -> Double? {
        guard let entry = live[id.raw] else { return nil }
        return max(0, entry.due - now)
    }

    /// Cancels `id` and returns its payload, or nil when it was not pending.
    @discardableResult
    @inlinable public mutating func cancel(_ id: TimerID) -> Payload? {
        guard let entry = live.removeValue(forKey: id.raw) else { return nil }
        // its heap key is dropped when it surfaces, or now if cancelled keys pile up
        if heap.count > 64 && heap.count > 2 * live.count { compact() }
        return entry.payload
    }

    /// Rebuilds the heap from the pending timers, dropping the keys of cancelled ones: a game
    /// that schedules and cancels far-off timers without end keeps a heap of about the size
    /// of what it has pending. Keys set aside in this pass stay set aside.
    @inlinable mutating func compact() {
        let waiting = Set(deferred.map(\.id))
        heap.removeAll(keepingCapacity: true)
        for (id, entry) in live where !waiting.contains(id) { heap.append(Key(due: entry.due, id: id)) }
        // heapify: parents sift down from the last one
        var start = heap.count / 2 - 1
        while start >= 0 {
            siftDown(from: start)
            start -= 1
        }
        if heap.capacity > 4 * max(heap.count, 64) { heap = Array(heap) }
    }

    /// Removes every timer and returns their payloads (in creation order).
    @inlinable public mutating func removeAll() -> [Payload] {
        let payloads = live.sorted { $0.key < $1.key }.map(\.value.payload)
        live.removeAll()
        heap.removeAll()
        deferred.removeAll()
        return payloads
    }

    /// Starts a firing pass: timers created from now on wait for the next pass, so a callback
    /// that schedules `after(0, ...)` runs it on the next step instead of looping forever.
    @inlinable public mutating func beginPass() {
        passLimit = nextID
    }

    /// Ends a firing pass.
    @inlinable public mutating func endPass() {
        passLimit = .max
        for k in deferred { push(k) }
        deferred.removeAll()
    }

    /// Takes the earliest timer due at or before `now`, or nil.
    ///
    /// One-shot timers leave the queue; repeating ones are rescheduled. Call in a loop
    /// (between ``beginPass()`` and ``endPass()``) and fire each result before asking
    /// again, so a callback that cancels a timer is seen by the next call.
    @inlinable public mutating func popDue(now: Double) -> (id: TimerID, payload: Payload, repeats: Bool)? {
        while let top = heap.first {
            guard let entry = live[top.id], entry.due == top.due else {
                popTop()  // cancelled, or a stale key of a rescheduled timer
                continue
            }
            if top.id >= passLimit {
                deferred.append(top)
                popTop()
                continue
            }
            guard top.due <= now + 1e-9 else { return nil }
            popTop()
            if entry.repeats {
                var next = entry
                next.firings += 1
                live[top.id] = next
                push(Key(due: next.due, id: top.id))
            } else {
                live[top.id] = nil
            }
            return (TimerID(raw: top.id), entry.payload, entry.repeats)
        }
        return nil
    }

    // MARK: Heap

    @inlinable mutating func push(_ k: Key) {
        heap.append(k)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i] < heap[parent] else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    @inlinable mutating func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(from: 0)
    }

    @inlinable mutating func siftDown(from start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count && heap[l] < heap[m] { m = l }
            if r < heap.count && heap[r] < heap[m] { m = r }
            if m == i { break }
            heap.swapAt(i, m)
            i = m
        }
    }
}
