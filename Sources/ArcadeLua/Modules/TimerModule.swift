import ArcadeCore

/// `arcade.after` / `arcade.every` and the `arcade.Timer` handle.
///
/// Owns the game's ``TimerQueue``; each pending timer holds its Lua callback (a
/// ``LuaCallback``: a game-table function is looked up again at each firing), released when
/// the timer fires for the last time or is cancelled.
public final class TimerModule {
    public static let timerClass = LuaClass("arcade.Timer")
    /// The shortest interval `every` accepts: a shorter one would fire thousands of times a step.
    public static let minimumInterval = 0.001

    private unowned let vm: LuaVM
    public private(set) var queue = TimerQueue<LuaCallback>()
    /// Game time, set by the host before each step.
    public var now: Double = 0

    /// What the pending timers hold natively now (see ``NativeCost``).
    public var nativeBytes: Int { queue.count * NativeCost.timer }
    private var account = NativeAccount()

    /// Brings the VM's count of native memory up to date with ``nativeBytes``.
    private func syncNative() { account.report(nativeBytes, to: vm) }

    public init(vm: LuaVM) {
        self.vm = vm
        vm.defineClass(Self.timerClass, methods: [
            ("cancel", { s in
                s.push(self.queue.cancel(try self.timer(s)) != nil)
                self.syncNative()
                return 1
            }),
            ("is_pending", { s in
                s.push(self.queue.isPending(try self.timer(s)))
                return 1
            }),
            ("remaining", { s in
                s.push(self.queue.remaining(try self.timer(s), now: self.now) ?? 0)
                return 1
            }),
        ], describe: { id in
            "Timer#\(id) (\(self.queue.isPending(TimerID(raw: id)) ? "pending" : "done"))"
        })
        vm.register(in: "arcade", [
            ("after", { s in try self.schedule(s, repeating: false) }),
            ("every", { s in try self.schedule(s, repeating: true) }),
        ])
    }

    /// The timer at argument 1 (a done timer is still a timer: it is just no longer pending).
    private func timer(_ s: LuaStack) throws -> TimerID {
        TimerID(raw: try s.checkHandle(1, of: Self.timerClass))
    }

    /// `arcade.after(seconds, fn)` and `arcade.every(seconds, fn)`.
    private func schedule(_ s: LuaStack, repeating: Bool) throws -> Int32 {
        let seconds = try s.checkNumber(1)
        let callback = try vm.checkCallback(s, 2, kind: "timer", registeredBy: repeating ? "arcade.every" : "arcade.after")
        if repeating && seconds < Self.minimumInterval {
            throw LuaArgumentError(1, "interval must be at least \(Self.minimumInterval) s")
        }
        try vm.reserveNative(NativeCost.timer, for: "a new timer")
        let id = repeating
            ? queue.every(seconds, now: now, callback)
            : queue.after(seconds, now: now, callback)
        syncNative()
        vm.pushHandle(s, id.raw, of: Self.timerClass)
        return 1
    }

    /// Fires every timer due at `now`, in due order, calling `fire` for each callback.
    /// Timers created by the callbacks wait for the next pass.
    public func fireDue(_ fire: (LuaCallback) throws(LuaError) -> Void) throws(LuaError) {
        queue.beginPass()
        var fired = false
        defer {
            queue.endPass()
            if fired { syncNative() }  // fired one-shot timers are credited
        }
        while let due = queue.popDue(now: now) {
            fired = true
            try fire(due.payload)
        }
    }

    /// Cancels every timer (the game is leaving); their callbacks are released.
    public func cancelAll() {
        _ = queue.removeAll()
        syncNative()
    }
}
