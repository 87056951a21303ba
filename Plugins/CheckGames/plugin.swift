import Foundation
import PackagePlugin

/// `swift package check-games [--steps N] [DIR...]`: validates every manifest, compiles every
/// script and runs every game headless under random input with fixed seeds, reporting each
/// failure with file:line. Checks the package's `games/` unless folders are given.
@main
struct CheckGames: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let arcade = try context.tool(named: "arcade")
        var args = arguments
        if !args.contains(where: { !$0.hasPrefix("-") && Int($0) == nil }) {
            args.append(context.package.directoryURL.appendingPathComponent("games").path)
        }
        let process = Process()
        process.executableURL = arcade.url
        process.arguments = ["check"] + args
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("check-games found problems (see above)")
            throw CheckFailed()
        }
    }

    struct CheckFailed: Error, CustomStringConvertible {
        var description: String { "check-games failed" }
    }
}
