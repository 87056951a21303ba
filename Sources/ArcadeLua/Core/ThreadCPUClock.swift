import CLua

/// The clock of the time budgets: the CPU time the calling thread has used, in nanoseconds
/// (`CLOCK_THREAD_CPUTIME_ID`). Time the machine gives other processes, or this thread
/// spends blocked, does not move it. A system call (Linux reads only the wall clocks without
/// one): read once a step, not once a callback.
public enum ThreadCPUClock {
    public static func now() -> UInt64 {
        UInt64(max(0, arcade_thread_cpu_ns()))
    }
}
