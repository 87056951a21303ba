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
            var games = games
            // in a game's own folder, with nothing named: that game, not every game found
            if games.isEmpty, ids.isEmpty, let here = GameCatalog.currentGameFolder {
                Output.err("arcade test: testing the game in \(here) (the current folder)\n")
                games = [here]
            }
            let catalog: GameCatalog
            do { catalog = try GameCatalog.of(folders: games) } catch {
                Output.err("arcade test: \(error)\n")
                throw ExitCode(2)
            }
            var entries: [GameEntry] = []
            for id in ids {
                if let entry = catalog.entry(id) {
                    entries.append(entry)
                } else if let here = try? GameCatalog.of(folders: ["."]), let entry = here.holder(of: id) {
                    // not in the folders searched: the current folder's game, said so
                    Output.err("arcade test: \(GameCatalog.currentFolderNote(entry))\n")
                    entries.append(entry)
                } else {
                    Output.err("arcade test: \(catalog.noGameMessage(id))\n")
                    throw ExitCode(2)
                }
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
