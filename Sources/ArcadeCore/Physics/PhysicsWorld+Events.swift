// Handing over what a step reported: each queued item exactly once, whatever the handler does.
extension PhysicsWorld {
    /// Calls `handle` with each event of the last step, in order, then forgets them, so each
    /// event is delivered once however often this is called. When `handle` throws, the
    /// events after the one it threw on stay queued for the next call.
    public func drainContactEvents(_ handle: (ContactEvent) throws -> Void) rethrows {
        try drain(\.contactEvents, handle)
    }

    /// Calls `handle` with each separation event of the last step, in order, then forgets
    /// them, as ``drainContactEvents(_:)`` does.
    public func drainSeparationEvents(_ handle: (ContactEvent) throws -> Void) rethrows {
        try drain(\.separationEvents, handle)
    }

    /// Calls `handle` with each ball the last step removed, then forgets them. When `handle`
    /// throws, the balls after the one it threw on stay queued for the next call.
    public func drainRemovedBodies(_ handle: (BodyID) throws -> Void) rethrows {
        try drain(\.removedBodies, handle)
    }

    /// Empties `queue` through `handle`, in order. The queue is taken out of the world while
    /// `handle` runs, so a handler that steps the world (and queues more) does not disturb
    /// the delivery; its storage is handed back when nothing was queued meanwhile.
    private func drain<Item>(_ queue: ReferenceWritableKeyPath<PhysicsWorld, [Item]>,
                             _ handle: (Item) throws -> Void) rethrows {
        var items: [Item] = []
        swap(&items, &self[keyPath: queue])
        var delivered = 0
        defer {
            // a handler threw: what it did not reach waits for the next drain
            if delivered < items.count { self[keyPath: queue].insert(contentsOf: items[delivered...], at: 0) }
            items.removeAll(keepingCapacity: true)
            if self[keyPath: queue].isEmpty { swap(&items, &self[keyPath: queue]) }
        }
        while delivered < items.count {
            delivered += 1
            try handle(items[delivered - 1])
        }
    }
}
