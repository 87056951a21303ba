#if canImport(Glibc)
import Glibc
#endif

/// The clock the step timer's phases and the profiler read: monotonic nanoseconds
/// (`clock_gettime(CLOCK_MONOTONIC)`, the clock of the budgets' wall-clock backstop too; a
/// vDSO call of some tens of nanoseconds, so a few reads per step cost nothing measurable).
/// The budgets themselves count CPU time (``ThreadCPUClock``).
public enum ProfileClock {
    @inline(__always) public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
