#if canImport(Glibc)
import Glibc
#endif

/// Where one step's wall time went, phase by phase (input, timer callbacks, update(),
/// animation, physics...), so that a step that runs out of its budget can say what used it.
/// Only phase boundaries are timed: a few clock reads a step, not one per callback.
struct StepUsage {
    private var seconds: [String: Double] = [:]
    private var counts: [String: Int] = [:]
    private var order: [String] = []
    private var current: String?
    private var since = 0.0

    /// A new step: forgets the last one.
    mutating func start() {
        seconds.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        current = nil
    }

    /// Starts (or goes on with) `phase`; the time since the last boundary goes to the phase
    /// that was running.
    mutating func begin(_ phase: String) {
        let now = Self.now()
        if let current { seconds[current, default: 0] += now - since }
        if seconds[phase] == nil { order.append(phase); seconds[phase] = 0 }
        counts[phase, default: 0] += 1
        current = phase
        since = now
    }

    /// Closes the running phase.
    mutating func finish() {
        let now = Self.now()
        if let current { seconds[current, default: 0] += now - since }
        current = nil
        since = now
    }

    /// E.g. "budget 1 s: timer callbacks 0.98 s in 200 calls, update() 0.01 s".
    func describe(budget: Double) -> String {
        let ranked = order.sorted { (seconds[$0] ?? 0) > (seconds[$1] ?? 0) }
        let parts = ranked.map { phase -> String in
            let t = Self.format(seconds[phase] ?? 0)
            let n = counts[phase] ?? 0
            return phase.hasSuffix("callbacks") || phase == "input()" ? "\(phase) \(t) in \(n) call\(n == 1 ? "" : "s")" : "\(phase) \(t)"
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

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
