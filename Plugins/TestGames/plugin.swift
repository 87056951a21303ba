import Foundation
import PackagePlugin

/// `swift package test-games [id...]`: runs the Lua tests every game ships in its `tests/`
/// folder, headless against the real game, and each game's determinism check; one line per
/// test and a summary, failing when any test fails. Tests the package's `games/` unless
/// `--games DIR` is given. (Golden frames are written with `arcade test --update-golden`:
/// this plugin does not ask to write to the package.)
@main
struct TestGames: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let arcade = try context.tool(named: "arcade")
        var args = arguments
        if !args.contains(where: { $0 == "--games" || $0.hasPrefix("--games=") }) {
            args += ["--games", context.package.directoryURL.appendingPathComponent("games").path]
        }
        let process = Process()
        process.executableURL = arcade.url
        process.arguments = ["test"] + args
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("test-games: tests failed (see above)")
            throw TestsFailed()
        }
    }

    struct TestsFailed: Error, CustomStringConvertible {
        var description: String { "test-games failed" }
    }
}
