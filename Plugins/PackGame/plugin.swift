import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory pack-game <id|DIR> [-o FILE]`: checks
/// the game as `arcade check` does and packs it into one file to share, `<id>.arcade` in the
/// package's folder unless `-o` says where.
@main
struct PackGame: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let arcade = try context.tool(named: "arcade")
        let package = context.package.directoryURL
        var args = ["pack"] + arguments + ["--games", package.appendingPathComponent("games").path]
        if !arguments.contains("-o") && !arguments.contains("--output") { args += ["-o", package.path] }
        let process = Process()
        process.executableURL = arcade.url
        process.arguments = args
        process.currentDirectoryURL = package
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("pack-game failed (see above)")
            throw PackFailed()
        }
    }

    struct PackFailed: Error, CustomStringConvertible {
        var description: String { "pack-game failed" }
    }
}
