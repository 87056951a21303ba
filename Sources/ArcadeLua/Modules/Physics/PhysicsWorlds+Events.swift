import ArcadeCore

/// Stepping the worlds, and how their contacts and removals reach Lua.
///
/// A step moves every world natively (bound nodes are written as it goes) and queues what
/// happened; ``deliverEvents()`` then calls the callbacks: worlds in creation order, each
/// world's contacts (in its order: by ball creation, then bounds, walls, balls) before its
/// removals. The contact callback gets `(ball, id, x, y, wall)`: `id` is the wall's
/// identifier (nil for the bounds and walls without one) or, for two balls, the other ball's
/// handle; `wall` is the wall's handle (nil for the bounds and for balls). The removal
/// callback gets the ball, whose handle is stale from then on.
extension PhysicsWorlds {
    /// Steps every world by `dt`, in creation order. Bound nodes are written natively.
    public func step(_ dt: Double) {
        guard !worlds.isEmpty else { return }
        let area = canvas()
        stepping = true
        defer {
            stepping = false
            syncNative()  // balls that left are credited, grown storage charged
        }
        for entry in worlds {
            let world = entry.world
            if entry.followsCanvas { world.bounds = area }
            world.removalRect = entry.removesOutside ? world.bounds : nil
            world.shouldStop = shouldStop
            // what a pair may cost at most (its candidate, contact and scratch), in what the cap leaves
            world.pairLimit = max(4096, vm.availableMemory / Self.bytesPerPair)
            world.step(dt)
            recount(entry, measured: true)  // balls that left are credited, contacts counted
            if case .tooManyPairs(let pairs) = world.stopped {
                memoryStop = "a physics world's \(world.bodyCount) balls make \(pairs) or more pairs that may touch, "
                    + "more than the memory limit (\(vm.limits.memoryBytes >> 20) MiB) leaves room for: "
                    + "balls piled at one place?"
                return
            }
            if world.stopped != nil { return }  // the step's time ran out: the host says so
        }
    }

    /// What a candidate pair may cost: its entry, a contact if it touches, sorting scratch.
    static let bytesPerPair = 96

    /// Why the last step was stopped for memory (once: reading it clears it).
    public func takeMemoryStop() -> String? {
        defer { memoryStop = nil }
        return memoryStop
    }

    /// Hands the last step's contacts and removals to the Lua callbacks.
    ///
    /// - Throws: the first callback error; the events not yet delivered stay queued, and the
    ///   next call (before the next ``step(_:)``) delivers them.
    public func deliverEvents() throws(LuaError) {
        let snapshot = worlds  // callbacks may create or destroy worlds
        for entry in snapshot where !entry.destroyed {
            do {
                try entry.world.drainContactEvents { event in try self.deliver(event, of: entry, to: entry.onContact) }
                try entry.world.drainSeparationEvents { event in try self.deliver(event, of: entry, to: entry.onSeparate) }
                try entry.world.drainRemovedBodies { body in try self.deliverRemoval(of: body, in: entry) }
            } catch let error as LuaError {
                throw error
            } catch {
                throw LuaError(kind: .runtime, message: "\(vm.name): physics callback: \(error)")
            }
        }
    }

    private func deliver(_ event: ContactEvent, of entry: Entry, to callback: LuaCallback?) throws(LuaError) {
        guard !entry.destroyed, let callback,
              let ball = entry.handles[event.body] else { return }
        var other: UInt64? = nil
        var wall: UInt64? = nil
        switch event.partner {
        case .bounds: break
        case .wall(let id): wall = entry.number << 32 | UInt64(id.rawValue)
        case .body(let body):
            guard let h = entry.handles[body] else { return }  // removed by an earlier callback
            other = h
        }
        do throws(LuaError) {
            try vm.protectedCall(label: callback === entry.onSeparate ? "separation callback" : "contact callback") { s in
                s.reserve(7)
                self.vm.push(callback)
                self.vm.pushHandle(s, ball, of: PhysicsModule.ballClass)
                if let other {
                    self.vm.pushHandle(s, other, of: PhysicsModule.ballClass)
                } else if let identifier = event.identifier {
                    s.push(identifier)
                } else {
                    s.pushNil()
                }
                s.push(event.point.x)
                s.push(event.point.y)
                if let wall { self.vm.pushHandle(s, wall, of: PhysicsModule.wallClass) } else { s.pushNil() }
                return 5
            }
        } catch {
            throw error.in(callback)
        }
    }

    private func deliverRemoval(of body: BodyID, in entry: Entry) throws(LuaError) {
        guard let ball = entry.handles.removeValue(forKey: body) else { return }
        forget(ball: ball)
        guard !entry.destroyed, let callback = entry.onRemoved else { return }
        do throws(LuaError) {
            try vm.protectedCall(label: "removal callback") { s in
                s.reserve(3)
                self.vm.push(callback)
                self.vm.pushHandle(s, ball, of: PhysicsModule.ballClass)
                return 1
            }
        } catch {
            throw error.in(callback)
        }
    }
}
