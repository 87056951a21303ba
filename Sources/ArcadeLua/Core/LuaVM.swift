import ArcadeCore
import CLua
import CLuaLib

/// A native function callable from Lua: reads its arguments from the stack, pushes its
/// results and returns how many. Throwing raises a Lua error in the caller (through the
/// C trampoline, after this Swift frame has returned).
public typealias LuaFunction = (LuaStack) throws -> Int32

/// One Lua 5.4 state: a game's private VM, with its allocator cap and time budget.
///
/// Not thread-safe; one VM belongs to one game session on one thread. The main thread's
/// stack always holds the message handler at index 1 and nothing else between calls.
public final class LuaVM {
    /// Resource limits for the scripts running in this VM.
    public struct Limits: Sendable, Equatable {
        /// Bytes the Lua heap may hold.
        public var memoryBytes: Int
        /// Seconds of CPU time one callback (load, update, a timer...) may use, counted on the
        /// thread that runs it; 0: no limit. Time the machine spends on other processes does
        /// not count, so a game is never stopped because the machine is busy. A callback also
        /// stops once it has taken ``wallBackstopFactor`` times as long in wall-clock time
        /// (blocked in a way CPU time does not see).
        ///
        /// One second: sixty frames. A callback that honest code keeps busy that long has
        /// already frozen its game, so even a slow machine never stops a working game, while a
        /// runaway loop is stopped before a player wonders whether the arcade hung.
        public var secondsPerCall: Double
        /// Seconds of CPU time one whole step (its input, timers, update, animation,
        /// physics and their callbacks, Lua and native work together) may use on the thread
        /// that runs it, with the same wall-clock backstop; 0: no limit.
        /// The same second as one callback's: a callback's budget is not multiplied by the
        /// number of callbacks (200 timers, or an `every(0.001)` firing 17 times a step).
        public var secondsPerStep: Double

        /// The wall-clock backstop of each budget, as a multiple of it: a callback or a step
        /// stops after this many times its budget of real time even if it used little CPU.
        public static let wallBackstopFactor = Double(ARCADE_WALL_BACKSTOP_FACTOR)

        public init(memoryBytes: Int = 64 << 20, secondsPerCall: Double = 1.0, secondsPerStep: Double = 1.0) {
            self.memoryBytes = memoryBytes
            self.secondsPerCall = secondsPerCall
            self.secondsPerStep = secondsPerStep
        }

        var budgetNanoseconds: Int64 {
            secondsPerCall > 0 && secondsPerCall.isFinite ? Int64(min(secondsPerCall, 1e6) * 1e9) : 0
        }
    }

    /// The name used in messages (the game id).
    public let name: String
    public let limits: Limits
    /// Where `print` goes (never the screen: the renderer owns it).
    public var log: (String) -> Void = { _ in }
    /// The generator behind `math.random`; the host seeds it.
    @exclusivity(unchecked) public var random = SeededRandom(seed: 0)
    /// What `os.clock()` returns: game time in seconds, set by the host each step.
    public var gameTime: Double = 0
    /// Folders `require` may load from, searched in order.
    public var moduleRoots: [LuaModuleRoot] = []
    /// The table the sandbox prelude returns (its host-side controls).
    var sandboxControl: LuaRef?
    /// The running game's table: callbacks that are its function fields are looked up there
    /// again each time they run (see ``LuaCallback``). The host sets it on load and reload.
    public var gameTable: LuaRef?

    let state: UnsafeMutablePointer<arcade_vm>
    let L: OpaquePointer
    /// Native functions by id. Kept in manually managed memory that the C state points
    /// at, so a call from Lua reaches its closure without retaining the VM or paying for
    /// exclusivity checks.
    private var functionStorage: UnsafeMutablePointer<Unmanaged<NativeFunctionBox>>
    private var functionCount = 0
    private var functionCapacity = 64
    private var functionNames: [String] = []
    private var labels: [String: UnsafeMutablePointer<CChar>] = [:]
    private var lastLabel: (text: String, pointer: UnsafeMutablePointer<CChar>)?
    private var callDepth = 0
    /// True while the queued `__gc` finalizers run (they never trigger another run).
    var runningFinalizers = false
    private var protectedBody: ((LuaStack) throws -> Void)?
    /// The message of the last native allocation refused for memory, so that the error it
    /// raises is reported as a memory error.
    var nativeRefusal: String?
    /// The chunk name the last callback was registered from, as bytes and as text (see
    /// `registrationSite`).
    var lastSiteChunk: (bytes: [UInt8], name: String)?
    /// Each defined class's metatable and handle cache as registry references, by class
    /// name, so a handle is pushed without looking either up by its string key.
    var handleRefs: [String: HandleRefs] = [:]

    /// The main thread's stack.
    public var stack: LuaStack { LuaStack(L) }

    /// Creates a VM with the safe standard libraries open and nothing else.
    public init(name: String, limits: Limits = Limits()) throws(LuaError) {
        self.name = name
        self.limits = limits
        state = .allocate(capacity: 1)
        state.initialize(to: arcade_vm())
        functionStorage = .allocate(capacity: functionCapacity)
        state.pointee.functions = UnsafeMutableRawPointer(functionStorage)
        state.pointee.mem_limit = limits.memoryBytes
        state.pointee.mem_native_slack = 16 << 20
        // Host code outside any Lua call counts as native: its pushes may bend the cap
        // instead of raising an error that nothing would catch.
        state.pointee.native_depth = 1
        guard let L = arcade_newstate(state) else {
            state.deallocate()
            functionStorage.deallocate()
            throw LuaError(kind: .memory, message: "\(name): could not create a Lua state")
        }
        guard Watchdog.shared.watch(state) else {
            lua_close(L)
            state.deallocate()
            functionStorage.deallocate()
            throw LuaError(kind: .memory, message: "\(name): too many Lua states at once for the time budget's watchdog")
        }
        self.L = L
        state.pointee.dispatch = { L, id in LuaVM.dispatch(L!, id) }
        state.pointee.host = Unmanaged.passUnretained(self).toOpaque()
        lua_settop(L, 0)
        arcade_push_message_handler(L)  // stays at index 1
        // id 0 runs `protectedBody`: Swift setup work that must happen in protected mode
        _ = function("(setup)") { [unowned self] s in
            try self.protectedBody?(s)
            return 0
        }
        try protectedCall(label: "opening the libraries") { s in
            arcade_push_open_safe_libs(s.L)
            return 0
        }
    }

    /// Whether a VM is still there, for what outlives it (a ``LuaRef``): false from the
    /// start of its deinit.
    final class Life {
        var isAlive = true
    }
    let life = Life()

    deinit {
        life.isAlive = false
        Watchdog.shared.unwatch(state)
        state.pointee.native_depth = 0
        // The modules whose functions Lua holds may already be released: every native
        // function refuses from here on, and the games' finalizers are dropped, not queued
        // (no Lua code of the game runs while the state closes).
        state.pointee.closing = 1
        lua_close(L)
        state.deinitialize(count: 1)
        state.deallocate()
        for i in 0..<functionCount { functionStorage[i].release() }
        functionStorage.deallocate()
        for (_, p) in labels { free(p) }
    }

    // MARK: Memory

    /// Bytes the Lua heap holds now.
    public var memoryInUse: Int { state.pointee.mem_used }
    /// The most the heap has held.
    public var peakMemory: Int { state.pointee.mem_peak }

    /// Runs a full garbage collection.
    public func collectGarbage() {
        _ = try? protectedCall(label: "collectgarbage") { s in
            s.pushGlobals()
            s.getField("collectgarbage", in: -1)
            lua_rotate(s.L, -2, -1)
            s.pop()
            return 0
        }
    }

    // MARK: Native functions

    /// Registers `fn` under `name` (used in argument errors) and returns a value that pushes it.
    public func function(_ name: String, _ fn: @escaping LuaFunction) -> LuaNativeFunction {
        if functionCount == functionCapacity {
            let bigger = UnsafeMutablePointer<Unmanaged<NativeFunctionBox>>.allocate(capacity: functionCapacity * 2)
            bigger.moveInitialize(from: functionStorage, count: functionCount)
            functionStorage.deallocate()
            functionStorage = bigger
            functionCapacity *= 2
            state.pointee.functions = UnsafeMutableRawPointer(bigger)
        }
        (functionStorage + functionCount).initialize(to: Unmanaged.passRetained(NativeFunctionBox(fn)))
        functionCount += 1
        functionNames.append(name)
        return LuaNativeFunction(id: functionCount - 1)
    }

    /// Pushes a registered native function.
    public func push(_ f: LuaNativeFunction) {
        stack.pushNative(id: f.id)
    }

    /// The C entry point of every native function (called by the trampoline).
    private static func dispatch(_ L: OpaquePointer, _ id: lua_Integer) -> Int32 {
        let vmState = arcade_vm_of(L)!
        let box = vmState.pointee.functions.assumingMemoryBound(to: Unmanaged<NativeFunctionBox>.self)[Int(id)]
        let s = LuaStack(L)
        do {
            return try box._withUnsafeGuaranteedRef { try $0.body(s) }
        } catch {
            let vm = Unmanaged<LuaVM>.fromOpaque(vmState.pointee.host).takeUnretainedValue()
            vm.pushError(error, functionID: Int(id), on: s)
            return ARCADE_RAISE
        }
    }

    /// Pushes the message for an error a native function threw.
    private func pushError(_ error: any Error, functionID id: Int, on s: LuaStack) {
        switch error {
        case let e as LuaArgumentError:
            s.push(s.location(level: 1) + e.message(function: functionNames[id], calledAsMethod: s.calledAsMethod()))
        case let e as LuaScriptError:
            s.push(s.location(level: 1) + e.message)
        case let e as LuaMemoryLimitError:
            // the nearest Lua code, even when the call came through pcall
            let message = s.nearestLuaLocation() + memoryRefusalMessage(e)
            nativeRefusal = message
            s.push(message)
        case let e as LuaError:
            s.push(e.message)  // from a nested call into Lua: already located
        case is LuaBudgetStop:
            arcade_push_budget_stop(s.L)
        default:
            s.push(s.location(level: 1) + "\(error)")
        }
    }

    // MARK: Calling into Lua

    /// A stable C string for a budget label.
    func label(_ text: String) -> UnsafeMutablePointer<CChar> {
        // the same few labels repeat every step: skip hashing for the common case
        if let last = lastLabel, last.text == text { return last.pointer }
        let p: UnsafeMutablePointer<CChar>
        if let known = labels[text] {
            p = known
        } else {
            p = strdup(text)!
            labels[text] = p
        }
        lastLabel = (text, p)
        return p
    }

    /// Pushes a function and its arguments with `push` (returning the argument count),
    /// calls it in protected mode with the budget reset for `label`, and on success lets
    /// `results` read the `nresults` results before the stack is cleared.
    ///
    /// - Throws: ``LuaError`` with file, line, message and traceback.
    public func protectedCall<R>(
        label: String,
        nresults: Int32 = 0,
        push: (LuaStack) throws(LuaError) -> Int32,
        results: (LuaStack) throws(LuaError) -> R
    ) throws(LuaError) -> R {
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        let nargs = try push(stack)
        let status = rawCall(nargs: nargs, nresults: nresults, label: label)
        if status != LUA_OK {
            let error = makeError(status: status, label: label)
            if callDepth == 0 { try? runPendingFinalizers() }
            throw error
        }
        // finalizers queued by this callback run now, after it (their stack use is balanced)
        if callDepth == 0 { try runPendingFinalizers() }
        return try results(stack)
    }

    /// ``protectedCall(label:nresults:push:results:)`` with no results.
    public func protectedCall(label: String, push: (LuaStack) throws(LuaError) -> Int32) throws(LuaError) {
        try protectedCall(label: label, nresults: 0, push: push, results: { _ in () })
    }

    /// Runs `body` (Swift code that uses the Lua API) in protected mode, so that a memory
    /// error raised inside it is reported instead of aborting the process.
    public func protected(_ body: @escaping (LuaStack) throws -> Void) throws(LuaError) {
        let previous = protectedBody
        protectedBody = body
        defer { protectedBody = previous }
        try protectedCall(label: "setup") { s in
            s.pushNative(id: 0)
            return 0
        }
    }

    /// Runs `body`, host work that a native function of this VM does before returning to Lua
    /// (the test runner stepping a game in another VM, say), with this VM's time budget
    /// stopped. When `body` returns, the running callback has its whole budget again: the
    /// budget limits each stretch of Lua code, and the host's own work counts in no stretch.
    public func withBudgetPaused<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        guard callDepth > 0 else { return try body() }
        arcade_budget_pause(L)
        defer { arcade_budget_resume(L) }
        return try body()
    }

    /// Calls the function below `nargs` arguments on top of the stack.
    private func rawCall(nargs: Int32, nresults: Int32, label: String) -> Int32 {
        let outermost = callDepth == 0
        if outermost {
            arcade_call_begin(L, limits.budgetNanoseconds, self.label(label))
            state.pointee.mem_refused = 0
            nativeRefusal = nil
        }
        callDepth += 1
        let savedDepth = state.pointee.native_depth
        state.pointee.native_depth = 0
        let status = lua_pcallk(L, nargs, nresults, 1, 0, nil)
        state.pointee.native_depth = savedDepth
        callDepth -= 1
        if outermost { arcade_call_end(L) }
        return status
    }

    // MARK: The step's budget

    /// Starts a step's budget: every callback until ``endStep()`` stops (with "ran past the
    /// step's time budget", ``LuaError/Budget/step``) once the CPU time of the calling
    /// thread reaches `deadline` (nanoseconds of ``ThreadCPUClock``; 0: no step budget) or
    /// the monotonic clock reaches `wallDeadline` (nanoseconds of `CLOCK_MONOTONIC`, the
    /// backstop; 0: none), whatever its own budget, so many callbacks cannot multiply the
    /// budget. Called on the thread that runs the step's callbacks. The host times the step
    /// and checks its native work against the same deadlines.
    public func beginStep(deadline: UInt64, wallDeadline: UInt64) {
        arcade_set_step_deadline(state, Int64(clamping: deadline), Int64(clamping: wallDeadline))
    }

    /// Ends the step's budget.
    public func endStep() {
        arcade_set_step_deadline(state, 0, 0)
    }

    /// True when the running callback is past its budget or the step's, or interrupted: a
    /// native loop that a game can make long asks this every so many rounds (a few atomic
    /// reads, no clock) and then throws ``LuaBudgetStop``.
    public var isOverdue: Bool { arcade_is_overdue(state) != 0 }

    /// A handle on this VM another thread may use to interrupt the work it runs (the
    /// terminal's watch for Ctrl-C during a long step). It keeps the VM alive; only
    /// ``interrupt()`` may be called from another thread.
    public struct Interruption: @unchecked Sendable {
        fileprivate let vm: LuaVM

        /// Stops the running callback at its next instruction (or its native loop's next look
        /// at ``LuaVM/isOverdue``) with "... was interrupted (Ctrl-C)", ``LuaError/Budget/interrupt``,
        /// and every callback after it, until ``LuaVM/clearInterruption()``.
        public func interrupt() { arcade_interrupt(vm.state) }
    }

    /// This VM's ``Interruption``.
    public var interruption: Interruption { Interruption(vm: self) }

    /// True once the work was interrupted (``Interruption/interrupt()``), until cleared.
    public var isInterrupted: Bool { arcade_is_interrupted(state) != 0 }

    /// Lets callbacks run again after an interruption.
    public func clearInterruption() {
        arcade_clear_interrupt(state)
    }

    /// Turns a failed call's status and error value into a ``LuaError``.
    private func makeError(status: Int32, label: String) -> LuaError {
        let s = stack
        // bounded (LuaError+Bounds): a game's error may be megabytes long
        let (head, tail) = s.withBytes(at: -1) { LuaError.messageAndTraceback($0) }
            ?? ("(error object is a \(s.typeName(at: -1)) value)", nil)
        let text = tail.map { head + "\n" + $0 } ?? head
        let mib = limits.memoryBytes >> 20
        let memoryMessage = "\(name): \(label) exceeded its memory limit (\(mib) MiB)"
        switch status {
        case LUA_ERRMEM:
            return LuaError(kind: .memory, message: memoryMessage)
        case LUA_ERRSYNTAX:
            return LuaError(kind: .syntax, message: text)
        case LUA_ERRERR:
            return LuaError(kind: .handler, message: "\(name): error while reporting an error in \(label) (\(text))")
        default:
            let message = head
            let traceback = tail ?? ""
            // the C side says which budget ran out; once one has, every instruction raises its error
            switch state.pointee.budget_exhausted {
            case ARCADE_BUDGET_CALL: return LuaError(kind: .budget, message: message, traceback: traceback, budget: .call)
            case ARCADE_BUDGET_STEP: return LuaError(kind: .budget, message: message, traceback: traceback, budget: .step)
            case ARCADE_BUDGET_INTERRUPT:
                return LuaError(kind: .budget, message: message, traceback: traceback, budget: .interrupt)
            default: break
            }
            if state.pointee.mem_refused != 0 && message.hasSuffix("not enough memory") {
                return LuaError(kind: .memory, message: memoryMessage, traceback: traceback)
            }
            if let refusal = nativeRefusal, message == refusal {
                return LuaError(kind: .memory, message: message, traceback: traceback)
            }
            return LuaError(kind: .runtime, message: message + LuaVM.sandboxHint(for: message), traceback: traceback)
        }
    }

    // MARK: Chunks and references

    /// Compiles `source` (text only: binary chunks are refused) under `chunkName`
    /// (a file name shown in messages, e.g. `fishing/main.lua`, or `=name` for a chunk
    /// that is not a file) and returns the function.
    public func load(_ source: String, chunkName: String) throws(LuaError) -> LuaRef {
        var source = source
        let status = source.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) {
                arcade_loadbuffer(L, $0.baseAddress, $0.count, chunkName.hasPrefix("=") ? chunkName : "@" + chunkName, "t")
            }
        }
        guard status == LUA_OK else {
            let error = makeError(status: status, label: "loading \(chunkName)")
            lua_settop(L, -2)
            throw error
        }
        return ref()
    }

    /// Pops the top value into the registry and returns a reference that releases it when dropped.
    public func ref() -> LuaRef {
        LuaRef(vm: self, ref: luaL_ref(L, arcade_registryindex()))
    }

    /// Pops the top value of `s` (the main thread or a coroutine) into the registry.
    public func ref(from s: LuaStack) -> LuaRef {
        LuaRef(vm: self, ref: luaL_ref(s.L, arcade_registryindex()))
    }

    /// Pushes a referenced value.
    public func push(_ ref: LuaRef) {
        lua_rawgeti(L, arcade_registryindex(), lua_Integer(ref.ref))
    }

    /// Pushes a referenced value on `s` (the main thread or a coroutine).
    public func push(_ ref: LuaRef, on s: LuaStack) {
        lua_rawgeti(s.L, arcade_registryindex(), lua_Integer(ref.ref))
    }

    func unref(_ r: Int32) {
        luaL_unref(L, arcade_registryindex(), r)
    }

    /// Calls the referenced function with `args` and returns its first result as a value.
    @discardableResult
    public func call(_ fn: LuaRef, label: String, args: [LuaValue] = []) throws(LuaError) -> LuaValue {
        try protectedCall(label: label, nresults: 1, push: { s in
            s.reserve(Int32(args.count) + 2)
            self.push(fn)
            for a in args { s.push(a) }
            return Int32(args.count)
        }, results: { s throws(LuaError) in
            do { return try s.value(at: -1) } catch {
                throw LuaError(kind: .runtime, message: "\(name): \(label) returned a value that cannot be read: \(error)")
            }
        })
    }
}

/// A native function registered with a ``LuaVM``.
public struct LuaNativeFunction: Hashable, Sendable {
    let id: Int
}

/// Holds a native function's closure; referenced unretained from the dispatch table.
final class NativeFunctionBox {
    let body: LuaFunction
    init(_ body: @escaping LuaFunction) { self.body = body }
}
