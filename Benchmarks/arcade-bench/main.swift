#if canImport(Glibc)
import Glibc
#endif

// arcade-bench: speed and memory figures for the arcade's hot paths.
// Build in release: `swift run -c release arcade-bench [--json] [--filter PREFIX] [--reference]`.
// `--reference` also measures Chipmunk2D (pymunk) on the physics scenes in the same run.

var json = false
var filter: String? = nil
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--json": json = true
    case "--filter":
        filter = args.popFirst()
        physicsFilter = filter
    case "--reference": physicsReferenceRequested = true
    case "-h", "--help":
        print("usage: arcade-bench [--json] [--filter PREFIX] [--reference]")
        exit(0)
    default:
        writeOut("arcade-bench: unknown argument '\(a)' (try --help)\n", fd: 2)
        exit(2)
    }
}

let groups: [(String, () -> [BenchResult])] = [
    ("lua", luaBenchmarks),
    ("block", blockBenchmarks),
    ("host", { hostBenchmarks() + sceneBuildBenchmarks() }),
    ("profile", profileBenchmarks),
    ("reload", reloadBenchmarks),
    ("startup", startupBenchmarks),
    ("render", renderBenchmarks),
    ("anim", animationBenchmarks),
    ("physics", physicsBenchmarks),
    ("game", gameBenchmarks),
    ("link", linkBenchmarks),
    ("picture", pictureBenchmarks),
    ("audio", audioBenchmarks),
]

var results: [BenchResult] = []
for (prefix, run) in groups {
    if let f = filter, !prefix.hasPrefix(f) && !f.hasPrefix(prefix) { continue }
    for r in run() where filter.map({ r.name.hasPrefix($0) || $0 == prefix }) ?? true {
        results.append(r)
        if !json {
            let v = r.value >= 100 ? String(Int(r.value.rounded())) : String(format3(r.value))
            writeOut(pad(r.name, 30) + pad(v, 12, left: true) + "  " + pad(r.unit, 8) + r.note + "\n")
        }
    }
}
if json {
    let rows = results.map { "{\"name\": \"\($0.name)\", \"value\": \($0.value), \"unit\": \"\($0.unit)\"}" }
    print("[" + rows.joined(separator: ",\n ") + "]")
}

func pad(_ s: String, _ n: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, n - s.count))
    return left ? fill + s : s + fill
}

func format3(_ v: Double) -> String {
    let scaled = (v * 1000).rounded() / 1000
    return "\(scaled)"
}

/// Unbuffered write, so rows appear as each benchmark finishes.
func writeOut(_ s: String, fd: Int32 = 1) {
    var s = s
    s.withUTF8 { buf in _ = write(fd, buf.baseAddress, buf.count) }
}
