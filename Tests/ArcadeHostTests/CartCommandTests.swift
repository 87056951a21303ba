#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import ArcadeCore
import ArcadeRender
@testable import ArcadeHost

/// The cart commands as a user runs them: the built `arcade` in a data home of its own.
@Suite struct CartCommandTests {
    /// The tutorial's game (docs/writing-games.md, Part 1), written out to `work/mygames/dodge`.
    static func writeTutorialGame(in world: CartWorld) throws -> String {
        let blocks = try TutorialTests.partOneBlocks()
        let folder = world.work + "/mygames/dodge"
        try FileManager.default.createDirectory(atPath: folder + "/tests", withIntermediateDirectories: true)
        let manifest = try #require(blocks.first { $0.hasPrefix("return {") && $0.contains("id = \"dodge\"") })
        let main = try #require(blocks.first { $0.contains("function game.load") && $0.contains("return game") })
        let tests = try #require(blocks.first { $0.hasPrefix("-- games/dodge/tests/play.lua") })
        try manifest.write(toFile: folder + "/manifest.lua", atomically: true, encoding: .utf8)
        try main.write(toFile: folder + "/main.lua", atomically: true, encoding: .utf8)
        try tests.write(toFile: folder + "/tests/play.lua", atomically: true, encoding: .utf8)
        return folder
    }

    /// The tutorial's game, packed by its author and played by someone else with the two
    /// commands the docs give; then installed, listed, played by id and uninstalled.
    @Test func aTutorialGameIsPackedSentAndPlayed() throws {
        let author = try CartWorld("author"), friend = try CartWorld("friend")
        _ = try Self.writeTutorialGame(in: author)
        let pack = try author.arcade(["pack", "mygames/dodge"])
        #expect(pack.status == 0, "\(pack.err)")
        #expect(pack.out.hasPrefix("packed dodge into dodge.arcade: "))
        // sent: copied to the friend's machine
        try FileManager.default.copyItem(atPath: author.work + "/dodge.arcade", toPath: friend.work + "/dodge.arcade")

        let play = try friend.arcade(["play", "dodge.arcade", "--headless", "--frames", "300", "--seed", "7", "--state"])
        #expect(play.status == 0, "\(play.err)")
        #expect(play.out.contains("\"score\""))
        #expect(friend.contents(friend.scratch).isEmpty, "the private folder is removed")
        let dev = try friend.arcade(["dev", "dodge.arcade"])
        #expect(dev.status == 2 && dev.err == "arcade dev: dodge.arcade is a cart; dev is for a game's folder (arcade play dodge.arcade plays a cart)\n")

        let install = try friend.arcade(["install", "dodge.arcade"])
        #expect(install.status == 0, "\(install.err)")
        #expect(install.out.hasPrefix("installed dodge (Dodge, by "))
        let list = try friend.arcade(["list"])
        let line = try #require(list.out.split(separator: "\n").first { $0.hasPrefix("dodge ") })
        #expect(line.hasSuffix("(installed; by you, version 0.1.0)"), "\(line)")
        #expect(!list.out.contains("coinbank    Coin Bank: Show me the money: 300 coins arc into a piggy bank, which shakes. (installed"))
        let again = try friend.arcade(["install", "dodge.arcade"])
        #expect(again.status == 1)
        #expect(again.err == "arcade install: refused dodge.arcade: 'dodge' is already installed (\(friend.userGames)/dodge); "
                + "add --replace to replace it; nothing was written\n")
        #expect(try friend.arcade(["install", "dodge.arcade", "--replace"]).out.hasPrefix("replaced dodge"))
        let byID = try friend.arcade(["play", "dodge", "--headless", "--frames", "60"])
        #expect(byID.status == 0, "\(byID.err)")
        let refusedPlay = try friend.arcade(["play", "dodge.arcade", "--headless"])
        #expect(refusedPlay.status == 1 && refusedPlay.err.contains("is the id of the installed game in"))

        let uninstall = try friend.arcade(["uninstall", "dodge"])
        #expect(uninstall.status == 0, "\(uninstall.err)")
        #expect(uninstall.out == "uninstalled dodge (removed \(friend.userGames)/dodge); its saves and best score are kept "
                + "(arcade uninstall dodge --purge removes them)\n")
        #expect(!(try friend.arcade(["list"])).out.contains("dodge"))
    }

    @Test func packingTwiceWritesTheSameBytesAndAFailingGameIsRefused() throws {
        let world = try CartWorld("pack-cli")
        #expect(try world.arcade(["pack", "lastcircle", "-o", "one.arcade"]).status == 0)
        #expect(try world.arcade(["pack", CartWorld.bundledGames + "/lastcircle", "-o", "two.arcade"]).status == 0)
        #expect(FileManager.default.contentsEqual(atPath: world.work + "/one.arcade", andPath: world.work + "/two.arcade"))
        let crashy = try world.arcade(["pack", "crashy", "--games", fixtureGames])
        #expect(crashy.status == 1)
        #expect(crashy.err.contains("FAIL  crashy: crashy/main.lua:7:"))
        #expect(crashy.err.hasSuffix("arcade pack: refused: crashy fails arcade check (above); nothing was written\n"))
        let broken = try world.arcade(["pack", fixtureGames + "/broken-manifest"])
        #expect(broken.status == 1 && broken.err.hasPrefix("arcade pack: refused: broken-manifest/manifest.lua"))
        #expect(world.contents(world.work) == ["one.arcade", "two.arcade"])
    }

    /// Under a file size limit (`ulimit -f`) the arcade is not killed by SIGXFSZ: pack, play
    /// and install of a cart each say why they could not write and leave no half-written file.
    @Test func pastAFileSizeLimitCartCommandsSayWhyAndLeaveNothing() throws {
        let world = try CartWorld("cart-fsize")
        // a child inherits an ignored signal: this process ignores SIGXFSZ once it opened a save
        // file, and the arcade must be seen to ignore it by itself (the limit applies only to
        // the child, so the default action here endangers nothing)
        let before = signal(SIGXFSZ, SIG_DFL)
        defer { signal(SIGXFSZ, before) }
        let piggy = try world.copyBundled("coinbank", as: "piggy")
        #expect(try world.arcade(["pack", piggy.folder, "-o", "piggy.arcade"]).status == 0)
        func limited(_ args: [String]) throws -> (status: Int32, reason: Process.TerminationReason, err: String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            // 4 blocks (2 KiB in sh's 512-byte blocks): far less than a cart or its files
            p.arguments = ["-c", "ulimit -f 4 && exec \"$0\" \"$@\"", try arcadeExecutable()] + args
            p.environment = world.environment
            p.currentDirectoryURL = URL(fileURLWithPath: world.work)
            let err = Pipe()
            p.standardOutput = FileHandle.nullDevice
            p.standardError = err
            try p.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, p.terminationReason, text)
        }
        let pack = try limited(["pack", piggy.folder, "-o", "again.arcade"])
        #expect(pack.reason == .exit && pack.status == 1, "pack ended by \(pack.reason) \(pack.status)")
        #expect(pack.err.contains("again.arcade: File too large"), "\(pack.err)")
        for args in [["play", "piggy.arcade", "--headless", "--frames", "2"], ["install", "piggy.arcade"]] {
            let run = try limited(args)
            #expect(run.reason == .exit && run.status != 0, "\(args[0]) ended by \(run.reason) \(run.status)")
            #expect(run.err.contains("File too large"), "\(args[0]): \(run.err)")
        }
        #expect(world.contents(world.work) == ["piggy.arcade", "source"])
        #expect(world.isUntouched)
    }

    /// Refused on the command line with one line on stderr, and nothing in the games folder.
    @Test func aHostileCartIsRefusedInOneLine() throws {
        let world = try CartWorld("hostile-cli")
        var entries = HandMade.good
        entries.append(Tar.Entry(path: "evil/../../../escape.lua", bytes: Array("return 1".utf8)))
        try Data(HandMade.cart(entries)).write(to: URL(fileURLWithPath: world.work + "/evil.arcade"))
        for command in ["install", "play"] {
            let r = try world.arcade([command, "evil.arcade"])
            #expect(r.status == 1)
            #expect(r.err.split(separator: "\n").count == 1 && r.err.contains("climbs out of its folder with '..'"), "\(r.err)")
            #expect(world.isUntouched)
        }
    }

    /// The menu shows an installed game's author and version beside its description.
    @Test func theMenuShowsAnInstalledGamesAuthorAndVersion() throws {
        let world = try CartWorld("menu")
        let g = try ScratchGame(id: "scratch", files: ["main.lua": "return {}"])
        _ = try world.shelf(checkSteps: 10).install(try Cart.read(Cart.pack(try #require(g.entry)).bytes))
        let menu = MenuScreen(catalog: GameCatalog(searchDirs: [world.userGames, CartWorld.bundledGames]))
        menu.installedGamesDir = world.userGames
        _ = menu.handle(.key(KeyEvent("down")))  // the highlight off its row, to read it plainly
        var frame = Frame(columns: 80, rows: 24)
        menu.render(cols: 80, rows: 24, into: &frame)
        let lines = frame.plainLines { $0 == Color(rgb: 0x0B0E1A) }
        #expect(lines.contains { $0.contains("edited by a test") && $0.contains("by tests, version 0") }, "\(lines)")
        #expect(!lines.contains { $0.contains("Show me the money") && $0.contains("version") })
    }
}
