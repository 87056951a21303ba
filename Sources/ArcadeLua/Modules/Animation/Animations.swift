import ArcadeCore
import ArcadeRender

/// The animations of one game and the Lua callbacks waiting for them: the runtime behind
/// `arcade.animate` (``AnimationModule`` is its binding). It owns the engine, keeps each
/// `on_done` callback under the token its animation carries, charges what they hold against
/// the game's memory cap, and calls the callbacks in the engine's order.
public final class Animations {
    unowned let vm: LuaVM
    public let animator = Animator()
    // Stored properties marked `@exclusivity(unchecked)`: the runtime belongs to the game's
    // one thread and reaches them one access at a time, while a burst touches them per node.
    @exclusivity(unchecked) private var callbacks: [UInt64: LuaCallback] = [:]
    /// The batches of `arcade.animate_many` not yet done, by number. A member's token names
    /// its batch and its row (see ``memberToken(_:_:)``), so a member costs no entry of its own.
    @exclusivity(unchecked) private var batches: [UInt64: Batch] = [:]
    @exclusivity(unchecked) private var nextBatch: UInt64 = 1
    /// The batch whose member ended last (members of one batch tend to end together), or
    /// nil; never a batch no longer in ``batches``.
    @exclusivity(unchecked) private var lastBatch: Batch?
    /// Members started and not yet ended, of batches not abandoned.
    @exclusivity(unchecked) private var liveMembers = 0
    /// Sealed batches with no member left (or none at all), waiting for their `on_done`.
    @exclusivity(unchecked) private var doneBatches: [UInt64] = []
    /// Pushes the handle of node `id`; removes node `id` from the scene if it is still there.
    @exclusivity(unchecked) var pushNode: (LuaStack, UInt64) -> Void = { _, _ in }
    @exclusivity(unchecked) var removeNode: (UInt64) -> Void = { _ in }

    /// One `arcade.animate_many` call's animations.
    final class Batch {
        let number: UInt64
        let onEach: LuaCallback?
        let onDone: LuaCallback?
        let remove: Bool
        @exclusivity(unchecked) var running = 0
        @exclusivity(unchecked) var finished = 0
        @exclusivity(unchecked) var sealed = false
        /// Each member's node id and animation, by row.
        @exclusivity(unchecked) var nodes: [UInt64] = []
        @exclusivity(unchecked) var ids: [AnimationID] = []
        init(number: UInt64, onEach: LuaCallback?, onDone: LuaCallback?, remove: Bool) {
            self.number = number
            self.onEach = onEach
            self.onDone = onDone
            self.remove = remove
        }
    }
    @exclusivity(unchecked) private var nextToken: UInt64 = 1
    /// The engine's storage, measured when an animation starts (the only time it grows).
    @exclusivity(unchecked) private var engineBytes = 0
    @exclusivity(unchecked) private var account = NativeAccount()

    init(vm: LuaVM) {
        self.vm = vm
        engineBytes = animator.storageBytes
        syncNative()
    }

    /// What the animation engine holds natively now (see ``NativeCost``).
    public var nativeBytes: Int {
        engineBytes + (callbacks.count + batches.count) * NativeCost.animationCallback
            + liveMembers * AnimationModule.memberBytes
    }

    /// Brings the VM's count of native memory up to date with ``nativeBytes``.
    private func syncNative() { account.report(nativeBytes, to: vm) }

    /// Starts `animation` on `target`; `onDone` is called with `finished` when it ends.
    func start(_ animation: Animation, on target: any Animatable, onDone: LuaCallback?) throws -> AnimationID {
        var token: UInt64 = 0
        if let onDone {
            token = nextToken
            nextToken += 1
            callbacks[token] = onDone
        }
        do {
            let id = try animator.start(animation, on: target, token: token)
            engineBytes = animator.storageBytes
            syncNative()
            return id
        } catch {
            callbacks[token] = nil
            throw error
        }
    }

    /// The token of member `row` of batch `number`: the top bit (which no callback token
    /// reaches) marks it, the batch's number sits above the row's.
    private static func memberToken(_ number: UInt64, _ row: Int) -> UInt64 {
        1 << 63 | number << 32 | UInt64(row)
    }

    /// Opens a batch for `arcade.animate_many`; its members start with ``startMember(_:on:batch:)``.
    func beginBatch(onEach: LuaCallback?, onDone: LuaCallback?, remove: Bool) -> Batch {
        // 1 ... 2^31 - 1, then round again, past any batch still running
        var number = nextBatch
        while batches[number] != nil { number = number % 0x7FFF_FFFF + 1 }
        nextBatch = number % 0x7FFF_FFFF + 1
        let b = Batch(number: number, onEach: onEach, onDone: onDone, remove: remove)
        batches[number] = b
        return b
    }

    /// Starts the next member of `batch` on `node`.
    func startMember(_ animation: Animation, on node: Node, batch b: Batch) throws {
        let id = try animator.start(animation, on: node, token: Self.memberToken(b.number, b.ids.count))
        added(id, node, to: b)
    }

    /// Starts the next member of `batch` on `node` from `prepared`, its numbers mapped by `values`.
    func startMember(_ prepared: PreparedAnimation, on node: Node, batch b: Batch,
                     values: (Double) -> Double) throws {
        let id = try animator.start(prepared, on: node, token: Self.memberToken(b.number, b.ids.count), values: values)
        added(id, node, to: b)
    }

    @inline(__always)
    private func added(_ id: AnimationID, _ node: Node, to b: Batch) {
        b.nodes.append(UInt64(node.id))
        b.ids.append(id)
        b.running += 1
        liveMembers += 1
    }

    /// Every member of `batch` has started: its `on_done` may now come (at the next
    /// delivery, when it has no member at all).
    func seal(_ b: Batch) {
        b.sealed = true
        if b.running == 0 { doneBatches.append(b.number) }
        engineBytes = animator.storageBytes
        syncNative()
    }

    /// Forgets `batch` and cancels what it started, without calling its callbacks.
    func abandon(_ b: Batch) {
        batches[b.number] = nil
        if lastBatch === b { lastBatch = nil }
        liveMembers -= b.running
        for id in b.ids { _ = animator.cancel(id) }
        engineBytes = animator.storageBytes
        syncNative()
    }

    /// Advances every animation by `dt`, then calls completion callbacks in the engine's order.
    public func step(_ dt: Double) throws(LuaError) {
        animator.advance(by: dt)
        try deliverCompletions()
    }

    /// Calls the completion callbacks waiting, in the engine's order.
    ///
    /// - Throws: the first callback error; the completions after it stay queued for the next call.
    public func deliverCompletions() throws(LuaError) {
        var delivered = false
        defer { if delivered { syncNative() } }  // delivered callbacks are credited
        while true {
            if !doneBatches.isEmpty {
                delivered = true
                try finish(batch: doneBatches.removeFirst())
                continue
            }
            guard let done = animator.nextCompletion() else { break }
            delivered = true
            if done.token >= 1 << 63 {
                let number = (done.token >> 32) & 0x7FFF_FFFF
                if lastBatch?.number != number { lastBatch = batches[number] }
                if let b = lastBatch {
                    liveMembers -= 1
                    try deliver(member: b.nodes[Int(done.token & 0xFFFF_FFFF)], of: b, finished: done.finished)
                }
                continue
            }
            guard done.token != 0, let cb = callbacks.removeValue(forKey: done.token) else { continue }
            do throws(LuaError) {
                try vm.protectedCall(label: "animation callback") { s in
                    self.vm.push(cb)
                    s.push(done.finished)
                    return 1
                }
            } catch {
                throw error.in(cb)
            }
        }
    }

    /// A member of `batch` (node `node`) ended: its `on_each`, its removal, and the batch's
    /// `on_done` when it was the last.
    private func deliver(member node: UInt64, of b: Batch, finished: Bool) throws(LuaError) {
        b.running -= 1
        if finished { b.finished += 1 }
        if b.sealed && b.running == 0 { doneBatches.append(b.number) }
        var failure: LuaError?
        if let cb = b.onEach {
            do throws(LuaError) {
                try vm.protectedCall(label: "animate_many on_each") { s in
                    self.vm.push(cb)
                    self.pushNode(s, node)
                    s.push(finished)
                    return 2
                }
            } catch {
                failure = error.in(cb)
            }
        }
        if b.remove { removeNode(node) }
        if let failure { throw failure }
    }

    /// Calls the `on_done` of `batch`, all of whose members have ended, and forgets it.
    private func finish(batch: UInt64) throws(LuaError) {
        let removed = batches.removeValue(forKey: batch)
        if lastBatch === removed { lastBatch = nil }
        guard let b = removed, let cb = b.onDone else { return }
        do throws(LuaError) {
            try vm.protectedCall(label: "animate_many on_done") { s in
                self.vm.push(cb)
                s.push(b.finished)
                return 1
            }
        } catch {
            throw error.in(cb)
        }
    }

    /// Stops everything (the game is leaving); callbacks are released without being called.
    public func cancelAll() {
        _ = animator.cancelAll()
        while animator.nextCompletion() != nil {}
        callbacks.removeAll()
        batches.removeAll()
        lastBatch = nil
        liveMembers = 0
        doneBatches.removeAll()
        syncNative()
    }
}
