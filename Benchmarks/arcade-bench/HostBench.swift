/// Host benchmarks.
func hostBenchmarks() -> [BenchResult] {
    []
}
