import ArcadeCore
import ArcadeRender

/// The animations of one game and the Lua callbacks waiting for them: the runtime behind
/// `arcade.animate` (``AnimationModule`` is its binding). It owns the engine, keeps each
/// `on_done` callback under the token its animation carries, charges what they hold against
/// the game's memory cap, and calls the callbacks in the engine's order.
public final class Animations {
    unowned let vm: LuaVM
    public let animator = Animator()
    private var callbacks: [UInt64: LuaCallback] = [:]
    /// The batches of `arcade.animate_many` not yet done, by token, and their members'
    /// animations: each member's token names its batch and its node.
    private var batches: [UInt64: Batch] = [:]
    private var members: [UInt64: (batch: UInt64, node: UInt64, id: AnimationID)] = [:]
    /// Sealed batches with no member left (or none at all), waiting for their `on_done`.
    private var doneBatches: [UInt64] = []
    /// Pushes the handle of node `id`; removes node `id` from the scene if it is still there.
    var pushNode: (LuaStack, UInt64) -> Void = { _, _ in }
    var removeNode: (UInt64) -> Void = { _ in }

    /// One `arcade.animate_many` call's animations.
    final class Batch {
        let onEach: LuaCallback?
        let onDone: LuaCallback?
        let remove: Bool
        var running = 0
        var finished = 0
        var sealed = false
        init(onEach: LuaCallback?, onDone: LuaCallback?, remove: Bool) {
            self.onEach = onEach
            self.onDone = onDone
            self.remove = remove
        }
    }
    private var nextToken: UInt64 = 1
    /// The engine's storage, measured when an animation starts (the only time it grows).
    private var engineBytes = 0
    private var account = NativeAccount()

    init(vm: LuaVM) {
        self.vm = vm
        engineBytes = animator.storageBytes
        syncNative()
    }

    /// What the animation engine holds natively now (see ``NativeCost``).
    public var nativeBytes: Int {
        engineBytes + (callbacks.count + batches.count) * NativeCost.animationCallback
            + members.count * AnimationModule.memberBytes
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

    /// Opens a batch for `arcade.animate_many`; its members start with ``startMember(_:on:batch:)``.
    func beginBatch(onEach: LuaCallback?, onDone: LuaCallback?, remove: Bool) -> UInt64 {
        let token = nextToken
        nextToken += 1
        batches[token] = Batch(onEach: onEach, onDone: onDone, remove: remove)
        return token
    }

    /// Starts one member of `batch` on `node`.
    func startMember(_ animation: Animation, on node: Node, batch: UInt64) throws {
        guard let b = batches[batch] else { return }
        let token = nextToken
        nextToken += 1
        let id = try animator.start(animation, on: node, token: token)
        members[token] = (batch, UInt64(node.id), id)
        b.running += 1
    }

    /// Starts one member of `batch` on `node` from `prepared`, its numbers mapped by `values`.
    func startMember(_ prepared: PreparedAnimation, on node: Node, batch: UInt64,
                     values: (Double) -> Double) throws {
        guard let b = batches[batch] else { return }
        let token = nextToken
        nextToken += 1
        let id = try animator.start(prepared, on: node, token: token, values: values)
        members[token] = (batch, UInt64(node.id), id)
        b.running += 1
    }

    /// Every member of `batch` has started: its `on_done` may now come (at the next
    /// delivery, when it has no member at all).
    func seal(_ batch: UInt64) {
        guard let b = batches[batch] else { return }
        b.sealed = true
        if b.running == 0 { doneBatches.append(batch) }
        engineBytes = animator.storageBytes
        syncNative()
    }

    /// Forgets `batch` and cancels what it started, without calling its callbacks.
    func abandon(_ batch: UInt64) {
        batches[batch] = nil
        let mine = members.filter { $0.value.batch == batch }
        for token in mine.keys { members[token] = nil }
        for (_, m) in mine { _ = animator.cancel(m.id) }
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
            if let m = members.removeValue(forKey: done.token) {
                try deliver(member: m.node, of: m.batch, finished: done.finished)
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
    private func deliver(member node: UInt64, of batch: UInt64, finished: Bool) throws(LuaError) {
        guard let b = batches[batch] else { return }
        b.running -= 1
        if finished { b.finished += 1 }
        if b.sealed && b.running == 0 { doneBatches.append(batch) }
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
        guard let b = batches.removeValue(forKey: batch), let cb = b.onDone else { return }
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
        members.removeAll()
        doneBatches.removeAll()
        syncNative()
    }
}
