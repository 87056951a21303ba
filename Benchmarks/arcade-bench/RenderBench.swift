/// Render benchmarks.
func renderBenchmarks() -> [BenchResult] {
    []
}
