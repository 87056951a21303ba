/// Animation benchmarks.
func animationBenchmarks() -> [BenchResult] {
    []
}
