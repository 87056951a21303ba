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
        engineBytes + callbacks.count * NativeCost.animationCallback
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
        while let done = animator.nextCompletion() {
            delivered = true
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

    /// Stops everything (the game is leaving); callbacks are released without being called.
    public func cancelAll() {
        _ = animator.cancelAll()
        while animator.nextCompletion() != nil {}
        callbacks.removeAll()
        syncNative()
    }
}
