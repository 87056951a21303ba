/// Physics benchmarks.
func physicsBenchmarks() -> [BenchResult] {
    []
}
