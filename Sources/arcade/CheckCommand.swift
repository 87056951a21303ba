import ArcadeHost
import ArgumentParser

extension Arcade {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate, compile, smoke-run and double-run games to check they are deterministic (what `swift package check-games` runs).")

        @Argument(help: ArgumentHelp("Games folders, or single game folders, to check (default: every folder the arcade searches).",
                                     valueName: "folder"))
        var folders: [String] = []

        @Option(name: .customLong("games"), help: ArgumentHelp("Check the games in DIR (repeatable; like a folder argument).",
                                                               valueName: "DIR"))
        var games: [String] = []

        @Option(parsing: .unconditional, help: "Steps of random input to run each game for, per seed.",
                transform: stepCount)
        var steps: Int = 300

        func run() throws {
            var given = folders + games
            // in a game's own folder, with nothing named: that game, not every game found
            if given.isEmpty, let here = GameCatalog.currentGameFolder {
                Output.err("arcade check: checking the game in \(here) (the current folder)\n")
                given = [here]
            }
            let catalog: GameCatalog
            do { catalog = try GameCatalog.of(folders: given) } catch {
                Output.err("arcade check: \(error)\n")
                throw ExitCode(2)
            }
            guard !catalog.entries.isEmpty else {
                let searched = catalog.searchDirs.isEmpty ? given : catalog.searchDirs
                Output.err("""
                    arcade check: no games found in \(searched.joined(separator: ", "))
                    (expected a games folder, with one folder per game, or a game's own folder; either way a game's \
                    folder holds manifest.lua and main.lua)

                    """)
                throw ExitCode(2)
            }
            let checker = GameChecker(steps: steps)
            var failed = 0
            for entry in catalog.entries {
                for warning in GameChecker.warnings(for: entry) { Output.out("warn  \(entry.id): \(warning)\n") }
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
