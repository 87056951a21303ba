import Foundation
import Testing
@testable import ArcadeHost

/// A home for cart tests: a user games folder, a scratch folder and a save file of their
/// own under one temporary folder, with the repository's `games/` as the bundled games.
final class CartWorld {
    let root: String
    var userGames: String { root + "/home/arcade/games" }
    var scratch: String { root + "/tmp" }
    var data: String { root + "/home/arcade" }
    /// Where tests put the carts and game folders they make.
    var work: String { root + "/work" }

    init(_ label: String) throws {
        root = try temporaryFolder("cart-\(label)")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// The shelf for this world: installs go to ``userGames``, private folders to ``scratch``.
    func shelf(checkSteps: Int = 120) -> CartShelf {
        var shelf = CartShelf(userGamesDir: userGames, bundledGamesDir: CartWorld.bundledGames,
                              searchDirs: [userGames, CartWorld.bundledGames], scratchDir: scratch)
        shelf.checker = GameChecker(steps: checkSteps)
        return shelf
    }

    static let bundledGames = DefinitionsTests.repoRoot + "/games"

    /// What is in a folder (nothing when it does not exist).
    func contents(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []
    }

    /// Nothing was installed, staged or left in the scratch folder.
    var isUntouched: Bool {
        !FileManager.default.fileExists(atPath: userGames) && contents(scratch).isEmpty
    }

    /// The arcade's environment for this world: its data home, its scratch folder, and the
    /// repository's games as the bundled ones.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_HOME"] = root + "/home"
        env["XDG_STATE_HOME"] = root + "/state"
        env["TMPDIR"] = scratch
        env["ARCADE_GAMES_DIR"] = CartWorld.bundledGames
        return env
    }

    /// Runs the built `arcade` in this world, in `work`.
    func arcade(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        return try runArcade(args, environment: environment, in: work)
    }

    /// Copies the bundled game `id` and the shared `lib/` into `work/<folder>/`, the copy's
    /// manifest giving it the id `newID`; returns the copy as the catalog sees it.
    func copyBundled(_ id: String, as newID: String, folder: String = "source") throws -> GameEntry {
        let games = work + "/" + folder
        let fm = FileManager.default
        if !fm.fileExists(atPath: games + "/lib") {
            try fm.createDirectory(atPath: games, withIntermediateDirectories: true)
            try fm.copyItem(atPath: CartWorld.bundledGames + "/lib", toPath: games + "/lib")
        }
        try fm.copyItem(atPath: CartWorld.bundledGames + "/" + id, toPath: games + "/" + newID)
        let manifest = games + "/" + newID + "/manifest.lua"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "id = \"\(id)\"", with: "id = \"\(newID)\"")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        return try #require(GameCatalog(searchDirs: [games]).game(newID))
    }
}

/// Archives built by hand, for carts no arcade would write.
enum HandMade {
    static let manifest = """
        return { id = "evil", title = "Evil", description = "a hand-made cart", author = "tests", version = "1", api = 1 }
        """
    static let main = "local game = {}\nfunction game.load() game.state.n = 1 end\nreturn game\n"

    /// The files of a good game with id `evil`.
    static var good: [Tar.Entry] {
        [Tar.Entry(path: "evil/main.lua", bytes: Array(main.utf8)),
         Tar.Entry(path: "evil/manifest.lua", bytes: Array(manifest.utf8))]
    }

    /// An index listing the plain files of `entries` that lie in `evil/` (or `listing`),
    /// under the header lines given.
    static func index(for entries: [Tar.Entry], header: String = "arcade-cart 1\nid evil\n",
                      listing: [Tar.Entry]? = nil) -> String {
        var text = header
        for e in listing ?? entries where e.type == Tar.regularFile && e.path.hasPrefix("evil/") {
            text += "\(SHA256.hex(e.bytes))  \(e.path)\n"
        }
        return text
    }

    /// A cart of `entries` led by `index` (by default, ``index(for:header:listing:)``).
    static func cart(_ entries: [Tar.Entry], index: String? = nil) -> [UInt8] {
        let first = Tar.Entry(path: Cart.indexName, bytes: Array((index ?? self.index(for: entries)).utf8))
        return Tar.archive([first] + entries)!
    }

    /// `archive` with the size field of the entry whose header starts at `offset` set to
    /// `size` (and its checksum made right again): a header that lies about its data.
    static func declaringSize(_ size: Int, at offset: Int, in archive: [UInt8]) -> [UInt8] {
        var out = archive
        let digits = String(size, radix: 8)
        let field = Array((String(repeating: "0", count: 11 - digits.count) + digits).utf8) + [0]
        out.replaceSubrange((offset + 124)..<(offset + 136), with: field)
        out.replaceSubrange((offset + 148)..<(offset + 156), with: Array(repeating: 32, count: 8))
        let sum = out[offset..<(offset + 512)].reduce(0) { $0 + Int($1) }
        let checksum = String(sum, radix: 8)
        out.replaceSubrange((offset + 148)..<(offset + 155),
                            with: Array((String(repeating: "0", count: 6 - checksum.count) + checksum).utf8) + [0])
        return out
    }
}
