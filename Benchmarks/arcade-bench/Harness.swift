#if canImport(Glibc)
import Glibc
#endif

/// One row of the benchmark table.
struct BenchResult {
    let name: String
    let value: Double
    let unit: String
    /// The target, or a comparison, printed beside the value.
    var note: String = ""
}

/// Monotonic time in seconds.
@inline(never) func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// This thread's CPU time in seconds: what a measured piece of work cost, without the time
/// the shared machine spent on others while it ran.
@inline(never) func threadCPUTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Runs `body` (which performs `iterations` operations) `rounds` times and returns the
/// median seconds per operation. The median keeps a noisy shared machine from skewing it.
func medianSecondsPerOp(iterations: Int, rounds: Int = 7, _ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let t0 = now()
        body()
        samples.append((now() - t0) / Double(iterations))
    }
    return median(samples)
}

/// The middle value of `values` (of an even count, the upper of the two in the middle).
func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

/// Keeps the optimiser from deleting work whose result is otherwise unused.
@inline(never) func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
