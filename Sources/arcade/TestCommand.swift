import ArcadeHost
import ArgumentParser

extension Arcade {
    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the games' Lua tests (tests/*.lua) and their determinism check (what `swift package test-games` runs).")

        @Argument(help: ArgumentHelp("The games to test (default: every game found).", valueName: "id"))
        var ids: [String] = []

        @Option(name: .customLong("games"),
                help: ArgumentHelp("Test the games in DIR, a games folder or one game's folder, instead of the folders the arcade searches (repeatable).",
                                   valueName: "DIR"))
        var games: [String] = []

        @Flag(name: .customLong("update-golden"),
              help: "Write the golden frames the tests compare with (tests/golden/<name>.txt) instead of comparing; look at them before committing.")
        var updateGolden = false

        @Flag(name: .customLong("no-determinism"), help: "Skip the determinism check (two side-by-side runs of each game).")
        var noDeterminism = false

        func run() throws {
            let catalog: GameCatalog
            do { catalog = try GameCatalog.of(folders: games) } catch {
                Output.err("arcade test: \(error)\n")
                throw ExitCode(2)
            }
            var entries: [GameEntry] = []
            for id in ids {
                guard let entry = catalog.entry(id) else {
                    let known = catalog.entries.map(\.id).joined(separator: ", ")
                    Output.err("arcade test: no game with id '\(id)' (games: \(known.isEmpty ? "none found" : known))\n")
                    throw ExitCode(2)
                }
                entries.append(entry)
            }
            if ids.isEmpty { entries = catalog.entries }
            guard !entries.isEmpty else {
                let searched = catalog.searchDirs.isEmpty ? games : catalog.searchDirs
                Output.err("arcade test: no games found in \(searched.joined(separator: ", "))\n")
                throw ExitCode(2)
            }
            let runner = GameTestRunner(options: .init(updateGolden: updateGolden,
                                                       determinism: noDeterminism ? nil : DeterminismCheck()))
            var passed = 0, failed = 0
            for entry in entries {
                if entry.isPlayable && GameTestRunner.testFiles(of: entry).isEmpty {
                    Output.out("-     \(entry.id)  no tests (add \(entry.folder)/tests/*.lua)\n")
                }
                runner.run(entry) { result in
                    if result.passed { passed += 1 } else { failed += 1 }
                    var text = result.line + "\n"
                    for line in result.details { text += "      " + line + "\n" }
                    Output.out(text)
                }
            }
            Output.out("\(passed) passed, \(failed) failed\n")
            if failed > 0 { throw ExitCode(1) }
        }
    }
}
