/// Times one step, phase by phase, for both of its readers: the message of a step that runs
/// out of its budget (which phases used the time) and the profiler (F3, `--profile`).
///
/// The clock (``ProfileClock``, the `CLOCK_MONOTONIC` the C budget also reads) is read once
/// at the start and once at each boundary between phases; another callback of the phase
/// already running costs no read, only a count. The step's deadline comes from the start's
/// reading, so the Lua callbacks (stopped by the C hook) and the native phases (checked
/// here at their end) are held to the same instant.
struct StepTimer {
    /// When the step's budget ends (``ProfileClock`` nanoseconds; 0: no budget).
    private(set) var deadline: UInt64 = 0
    private var nanoseconds = [UInt64](repeating: 0, count: StepPhase.allCases.count)
    private var calls = [Int](repeating: 0, count: StepPhase.allCases.count)
    /// The phases begun, in the order they first began (a resumed broken step may not
    /// begin with input).
    private var order: [StepPhase] = []
    private var current: StepPhase?
    private var mark: UInt64 = 0

    init() {
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
        mark = ProfileClock.now()
        deadline = budget > 0 && budget.isFinite ? mark &+ UInt64(min(budget, 1e6) * 1e9) : 0
    }

    /// Starts `phase`, or counts one more call of it when it is the one running; the time
    /// since the last boundary goes to the phase that was running.
    mutating func begin(_ phase: StepPhase) {
        calls[phase.rawValue] += 1
        if phase == current { return }
        let now = ProfileClock.now()
        if let current { nanoseconds[current.rawValue] &+= now &- mark }
        if !order.contains(phase) { order.append(phase) }
        current = phase
        mark = now
    }

    /// Closes the running phase. Returns true when the step's deadline has passed.
    @discardableResult
    mutating func finish() -> Bool {
        let now = ProfileClock.now()
        if let current { nanoseconds[current.rawValue] &+= now &- mark }
        current = nil
        mark = now
        return deadline != 0 && now >= deadline
    }

    /// Adds the step's phases to the profiler's rows.
    func add(to counters: ProfileCounters) {
        for phase in order { counters.add(phase.profilePhase, nanoseconds: nanoseconds[phase.rawValue]) }
    }

    /// E.g. "budget 1 s: timer callbacks 0.98 s in 200 calls, update() 0.01 s": the phases
    /// that ran, longest first.
    func describe(budget: Double) -> String {
        let ranked = order.sorted { nanoseconds[$0.rawValue] > nanoseconds[$1.rawValue] }
        let parts = ranked.map { phase -> String in
            let t = Self.format(Double(nanoseconds[phase.rawValue]) * 1e-9)
            let n = calls[phase.rawValue]
            return phase.countsCalls ? "\(phase.name) \(t) in \(n) call\(n == 1 ? "" : "s")" : "\(phase.name) \(t)"
        }
        return "budget \(Self.format(budget)): " + (parts.isEmpty ? "nothing ran" : parts.joined(separator: ", "))
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
