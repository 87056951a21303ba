import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory new-game <id> [--title "Title"] [--description "..."]`:
/// scaffolds `games/<id>/` with a manifest, a `main.lua` with every callback and a headless
/// test script, ready for `arcade dev <id>`.
@main
struct NewGame: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let arcade = try context.tool(named: "arcade")
        let games = context.package.directoryURL.appendingPathComponent("games").path
        let process = Process()
        process.executableURL = arcade.url
        process.arguments = ["new"] + arguments + ["--dir", games]
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("new-game failed (see above)")
            throw ScaffoldFailed()
        }
    }

    struct ScaffoldFailed: Error, CustomStringConvertible {
        var description: String { "new-game failed" }
    }
}
