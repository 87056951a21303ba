import ArcadeHost
import ArgumentParser

extension Arcade {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate, compile and smoke-run games (what `swift package check-games` runs).")

        @Argument(help: "Games folders to check (default: every folder the arcade searches).")
        var folders: [String] = []

        @Option(help: "Steps of random input to run each game for, per seed.")
        var steps: Int = 300

        func run() throws {
            let catalog = GameCatalog(searchDirs: folders.isEmpty ? GameCatalog.defaultSearchDirs() : folders)
            guard !catalog.entries.isEmpty else {
                Output.err("arcade check: no games found in \(catalog.searchDirs.joined(separator: ", "))\n")
                throw ExitCode(2)
            }
            let checker = GameChecker(steps: steps)
            var failed = 0
            for entry in catalog.entries {
                let findings = checker.check(entry)
                if findings.isEmpty {
                    Output.out("ok    \(entry.id)\n")
                } else {
                    failed += 1
                    for f in findings {
                        Output.out("FAIL  \(entry.id): \(f.message)\n")
                        if !f.traceback.isEmpty {
                            Output.out(f.traceback.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n") + "\n")
                        }
                    }
                }
            }
            Output.out("\(catalog.entries.count - failed) passed, \(failed) failed\n")
            if failed > 0 { throw ExitCode(1) }
        }
    }
}
