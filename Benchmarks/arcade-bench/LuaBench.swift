/// Lua benchmarks.
func luaBenchmarks() -> [BenchResult] {
    []
}
