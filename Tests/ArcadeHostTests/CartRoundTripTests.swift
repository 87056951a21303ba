import Foundation
import Testing
@testable import ArcadeHost

/// Pack, play, install, play, uninstall: every bundled game under another id makes the same
/// game from its cart, with its own tests passing, and leaves nothing behind.
@Suite struct CartRoundTripTests {
    /// The state and the last frame after a run of random input.
    static func run(_ entry: GameEntry, store: SaveStore? = nil) throws -> String {
        let script = GameChecker.randomInput(seed: 4, steps: 600, size: .fallback)
        var runner = HeadlessRunner(entry: entry, options: .init(seed: 4), frames: 600, script: script)
        runner.store = store
        let session = try runner.run()
        defer { _ = session.close() }
        if let failure = session.failure { return "failed: \(failure.message)" }
        return try session.state().json(pretty: true) + "\n"
            + session.renderFrame().plainText(background: session.scene.background)
    }

    @Test(arguments: CartFormatTests.bundled)
    func packPlayInstallUninstall(id: String) throws {
        let world = try CartWorld("round-trip")
        let newID = id + "-shared"
        let source = try world.copyBundled(id, as: newID)
        let file = try Cart.pack(source).save(to: world.work)
        let shelf = world.shelf()
        let original = try Self.run(try CartFormatTests.bundledEntry(id))

        // played without installing: the same game, from a private folder removed afterwards
        let unpacked = try shelf.unpackForPlay(try shelf.load(file))
        #expect(unpacked.entry.id == newID && unpacked.entry.folder.hasPrefix(world.scratch + "/arcade-cart-"))
        #expect(try Self.run(unpacked.entry) == original)
        unpacked.remove()
        #expect(world.contents(world.scratch).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: world.userGames))

        // installed: checked, then in the user's games folder, the same game again
        let done = try shelf.install(try shelf.load(file))
        #expect(done == CartShelf.Installed(id: newID, folder: world.userGames + "/" + newID, replaced: false))
        #expect(world.contents(world.userGames) == [newID] && world.contents(world.scratch).isEmpty)
        let installed = try #require(GameCatalog(searchDirs: [world.userGames]).game(newID))
        #expect(shelf.origin(of: installed) == .installed)
        let m = try #require(installed.manifest)
        #expect(installed.installedNote(userGamesDir: world.userGames) == "by \(m.author), version \(m.version)")
        #expect(try Self.run(installed) == original)
        for path in try FileManager.default.subpathsOfDirectory(atPath: source.folder) where !path.hasPrefix(".") {
            #expect(FileManager.default.contentsEqual(atPath: source.folder + "/" + path, andPath: installed.folder + "/" + path),
                    "\(path)")
        }
        // its Lua tests and golden frames came along (compared above), and pass where it is
        // installed: the smallest test file with golden frames is run there (the whole suite
        // and the determinism check run from games/ in `arcade test` and DeterminismCheckTests)
        let goldenFile = try #require(GameTestRunner.testFiles(of: installed)
            .map { (name: $0, text: (try? String(contentsOfFile: installed.folder + "/tests/" + $0, encoding: .utf8)) ?? "") }
            .filter { $0.text.contains("expect_golden") }
            .min { $0.text.utf8.count < $1.text.utf8.count }?.name)
        let results = GameTestRunner(options: .init(determinism: nil)).run(installed, files: [goldenFile])
        #expect(!results.isEmpty && results.allSatisfy(\.passed), "\(results.filter { !$0.passed }.map(\.line))")

        // installed twice: refused without --replace; with it, replaced in place
        #expect(throws: CartProblem("'\(newID)' is already installed (\(installed.folder)); add --replace to replace it")) {
            try shelf.install(try shelf.load(file))
        }
        #expect(try shelf.install(try shelf.load(file), replace: true).replaced)
        #expect(world.contents(world.userGames) == [newID])
        // a cart of an installed game's id is not played
        #expect(throws: CartProblem.self) { try shelf.unpackForPlay(try shelf.load(file)) }

        let removed = try shelf.uninstall(newID)
        #expect(removed == CartShelf.Removed(folder: installed.folder, purged: false))
        #expect(world.contents(world.userGames).isEmpty)
        #expect(GameCatalog(searchDirs: shelf.searchDirs).entry(newID) == nil)
    }

    /// A bundled game's id is never taken by a cart: not installed (even with --replace),
    /// not played, and the bundled game is not uninstalled.
    @Test func aBundledIDIsNeverTaken() throws {
        let world = try CartWorld("bundled-id")
        let shelf = world.shelf()
        let file = try Cart.pack(try CartFormatTests.bundledEntry("coinbank")).save(to: world.work)
        for replace in [false, true] {
            do {
                _ = try shelf.install(try shelf.load(file), replace: replace)
                Issue.record("installed over a bundled game")
            } catch {
                #expect(error.description.hasPrefix("'coinbank' is a game bundled with the arcade, which a cart never replaces"))
            }
        }
        do {
            _ = try shelf.unpackForPlay(try shelf.load(file))
            Issue.record("played with a bundled game's id")
        } catch {
            #expect(error.description.hasPrefix("'coinbank' is the id of a game bundled with the arcade"))
        }
        #expect(throws: CartProblem("'coinbank' is bundled with the arcade; only installed games can be uninstalled")) {
            try shelf.uninstall("coinbank")
        }
        #expect(world.isUntouched)
    }

    /// A cart's saves are kept under its id, played or installed; uninstalling keeps them,
    /// `--purge` removes them and the best score.
    @Test func savesStayUnderTheCartsIDUntilPurged() throws {
        let world = try CartWorld("saves")
        let g = try ScratchGame(id: "counter", files: ["main.lua": """
            local game = {}
            function game.load()
              game.state.seen = (arcade.save.get("seen") or 0) + 1
              arcade.save.set("seen", game.state.seen)
              arcade.score.submit(game.state.seen)
            end
            return game
            """])
        let entry = try #require(GameCatalog(searchDirs: [g.root]).game("counter"))
        let file = try Cart.pack(entry).save(to: world.work)
        let shelf = world.shelf(checkSteps: 30)
        let store = SaveStore(location: .file(world.root + "/saves/arcade.sqlite"))
        defer { store.close() }
        func play(_ entry: GameEntry) throws -> Int64? {
            let session = try HeadlessRunner(entry: entry, options: .init(seed: 1), frames: 2, store: store).run()
            defer { _ = session.close() }
            return try session.state()["seen"]?.intValue
        }
        for expected in [1, 2] as [Int64] {
            let unpacked = try shelf.unpackForPlay(try shelf.load(file))
            #expect(try play(unpacked.entry) == expected)
        }
        _ = try shelf.install(try shelf.load(file))
        // the installed cart owns the saves it made when played before
        #expect(try play(try #require(GameCatalog(bundled: nil, installed: world.userGames).game("counter"))) == 3)
        _ = try shelf.uninstall("counter", store: store)
        #expect(try store.value(game: "counter", key: "seen")?.intValue == 3)
        _ = try shelf.install(try shelf.load(file))
        #expect(try shelf.uninstall("counter", purge: true, store: store).purged)
        #expect(try store.keys(game: "counter").isEmpty && store.bestScore(game: "counter") == nil)
        #expect(world.contents(world.userGames).isEmpty && world.contents(world.scratch).isEmpty)
    }

    /// A cart whose game fails `arcade check` is not installed, and leaves nothing.
    @Test func aCartThatFailsTheCheckIsNotInstalled() throws {
        let world = try CartWorld("fails-check")
        let crashy = try #require(fixtureCatalog().game("crashy"))
        let file = try Cart.pack(crashy).save(to: world.work)
        do {
            _ = try world.shelf(checkSteps: 60).install(try world.shelf().load(file))
            Issue.record("a crashing game was installed")
        } catch {
            #expect(error.description.hasPrefix("its game fails arcade check: crashy/main.lua:7:"), "\(error)")
        }
        #expect(world.isUntouched)
    }
}

extension HeadlessRunner {
    init(entry: GameEntry, options: GameSession.Options, frames: Int, store: SaveStore) {
        self.init(entry: entry, options: options, frames: frames)
        self.store = store
    }
}
