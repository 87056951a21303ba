import ArcadeLua

/// Times one step, phase by phase, for both of its readers: the message of a step that runs
/// out of its budget (which phases used the time) and the profiler (F3, `--profile`).
///
/// The phases are timed on the wall clock (``ProfileClock``), read once at the start and
/// once at each boundary between phases; another callback of the phase already running
/// costs no read, only a count. The budget is CPU time of the step's thread
/// (``ThreadCPUClock``, the clock the C budget reads too), read once at the start: its
/// deadline, with a wall-clock backstop of ``LuaVM/Limits/wallBackstopFactor`` times the
/// budget, holds the Lua callbacks (stopped by the C hook) and the native phases (checked
/// here at their end) to the same instant.
struct StepTimer {
    /// When the step's budget ends (``ThreadCPUClock`` nanoseconds of the step's thread; 0:
    /// no budget).
    private(set) var deadline: UInt64 = 0
    /// When the step's wall-clock backstop ends (``ProfileClock`` nanoseconds; 0: none).
    private(set) var wallDeadline: UInt64 = 0
    /// The budget in nanoseconds (0: none): until this much wall time has passed, no more
    /// CPU time can have, and the CPU clock need not be read.
    private var budgetNanoseconds: UInt64 = 0
    private var start: UInt64 = 0
    private var nanoseconds = [UInt64](repeating: 0, count: StepPhase.allCases.count)
    private var calls = [Int](repeating: 0, count: StepPhase.allCases.count)
    /// The phases begun, in the order they first began (a resumed broken step may not
    /// begin with input).
    private var order: [StepPhase] = []
    private var current: StepPhase?
    private var mark: UInt64 = 0

    /// The phases' clock when not ``ProfileClock`` (a test's own clock); the budget's
    /// backstop reads ``ProfileClock`` whatever this is.
    private let clock: (() -> UInt64)?

    init(clock: (() -> UInt64)? = nil) {
        self.clock = clock
        order.reserveCapacity(StepPhase.allCases.count)
    }

    /// A new step that may last `budget` seconds (0: no limit): forgets the last step.
    mutating func start(budget: Double) {
        for i in nanoseconds.indices {
            nanoseconds[i] = 0
            calls[i] = 0
        }
        order.removeAll(keepingCapacity: true)
        current = nil
        start = ProfileClock.now()
        mark = clock?() ?? start
        if budget > 0 && budget.isFinite {
            budgetNanoseconds = UInt64(min(budget, 1e6) * 1e9)
            deadline = ThreadCPUClock.now() &+ budgetNanoseconds
            wallDeadline = start &+ UInt64(min(budget * LuaVM.Limits.wallBackstopFactor, 1e7) * 1e9)
        } else {
            budgetNanoseconds = 0
            deadline = 0
            wallDeadline = 0
        }
    }

    /// Starts `phase`, or counts one more call of it when it is the one running; the time
    /// since the last boundary goes to the phase that was running.
    mutating func begin(_ phase: StepPhase) {
        calls[phase.rawValue] += 1
        if phase == current { return }
        let now = clock?() ?? ProfileClock.now()
        if let current { nanoseconds[current.rawValue] &+= now &- mark }
        if !order.contains(phase) { order.append(phase) }
        current = phase
        mark = now
    }

    /// Closes the running phase. Returns true when the step's budget has run out: its CPU
    /// time, or its wall-clock backstop.
    @discardableResult
    mutating func finish() -> Bool {
        let wall = ProfileClock.now()
        let now = clock?() ?? wall
        if let current { nanoseconds[current.rawValue] &+= now &- mark }
        current = nil
        mark = now
        // a thread uses at most as much CPU time as passes on the wall clock
        guard budgetNanoseconds != 0, wall &- start >= budgetNanoseconds else { return false }
        return ThreadCPUClock.now() >= deadline || wall >= wallDeadline
    }

    /// Whether the step's budget has run out, without closing a phase: what a long native
    /// phase asks as it works (a wall-clock read, and the CPU clock only once the budget's
    /// worth of wall time has passed).
    func isPastBudget() -> Bool {
        guard budgetNanoseconds != 0 else { return false }
        let wall = ProfileClock.now()
        guard wall &- start >= budgetNanoseconds else { return false }
        return ThreadCPUClock.now() >= deadline || wall >= wallDeadline
    }

    /// Adds the step's phases to the profiler's rows.
    func add(to counters: ProfileCounters) {
        for phase in order { counters.add(phase.profilePhase, nanoseconds: nanoseconds[phase.rawValue]) }
    }

    /// E.g. "budget 1 s of CPU time: timer callbacks 0.98 s in 200 calls, update() 0.01 s":
    /// the phases that ran, longest first (in wall-clock time, which a busy machine stretches
    /// beyond the CPU time the budget counts).
    func describe(budget: Double) -> String {
        let ranked = order.sorted { nanoseconds[$0.rawValue] > nanoseconds[$1.rawValue] }
        let parts = ranked.map { phase -> String in
            let t = Self.format(Double(nanoseconds[phase.rawValue]) * 1e-9)
            let n = calls[phase.rawValue]
            return phase.countsCalls ? "\(phase.name) \(t) in \(n) call\(n == 1 ? "" : "s")" : "\(phase.name) \(t)"
        }
        return "budget \(Self.format(budget)) of CPU time: " + (parts.isEmpty ? "nothing ran" : parts.joined(separator: ", "))
    }

    /// Seconds for a message: "0.2 s", "1.25 s", "12 s", "3 ms".
    static func format(_ s: Double) -> String {
        if s >= 10 { return "\(Int(s.rounded())) s" }
        let hundredths = Int((s * 100).rounded())
        if hundredths == 0 { return "\(Int((s * 1000).rounded())) ms" }
        var text = "\(hundredths / 100)"
        let fraction = hundredths % 100
        if fraction != 0 {
            text += fraction % 10 == 0 ? ".\(fraction / 10)" : (fraction < 10 ? ".0\(fraction)" : ".\(fraction)")
        }
        return text + " s"
    }
}
