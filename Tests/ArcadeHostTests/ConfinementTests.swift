import Foundation
import Testing
import ArcadeLua
@testable import ArcadeHost

/// A game reads only regular files inside its own folder: links out of it and FIFOs are
/// refused at once, and nothing of a refused file's contents reaches a message.
@Suite struct ConfinementTests {
    func outsideFile(_ g: ScratchGame, _ text: String) throws -> String {
        let path = g.root + "/outside.txt"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test func imageFileThroughALinkOutOfTheFolderIsRefused() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load() game.state.image = arcade.image_file("art.sprite").width end
            return game
            """])
        let secret = try outsideFile(g, "color Y #ffffff\nframe\nYYYY\n")
        try FileManager.default.createSymbolicLink(atPath: g.folder + "/art.sprite", withDestinationPath: secret)
        let error = try #require(throws: LuaError.self) { try GameSession(entry: try #require(g.entry)) }
        #expect(error.message.contains("image file 'art.sprite' not found in the game's folder"))
    }

    @Test func mainLuaThroughALinkOutOfTheFolderIsRefused() throws {
        let g = try ScratchGame(files: [:])
        let secret = try outsideFile(g, "return { load = function() error('SECRET') end }")
        try FileManager.default.createSymbolicLink(atPath: g.folder + "/main.lua", withDestinationPath: secret)
        let error = try #require(throws: LuaError.self) { try GameSession(entry: try #require(g.entry)) }
        #expect(error.message == "scratch/main.lua: cannot read the file")
    }

    @Test func aFifoManifestOrScriptDoesNotHangTheCatalogOrTheGame() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load() arcade.image_file("pipe.sprite") end
            return game
            """])
        #expect(mkfifo(g.folder + "/pipe.sprite", 0o644) == 0)
        let error = try #require(throws: LuaError.self) { try GameSession(entry: try #require(g.entry)) }
        #expect(error.message.contains("pipe.sprite"))

        unlink(g.folder + "/manifest.lua")
        #expect(mkfifo(g.folder + "/manifest.lua", 0o644) == 0)
        let entry = GameCatalog(searchDirs: [g.root]).entries.first
        #expect(entry?.problem == "scratch/manifest.lua: missing or unreadable (every game folder needs a manifest.lua)")
    }

    @Test func aManifestLinkedFromOutsideIsNotReadNorEchoed() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        let secret = try outsideFile(g, "return { id = 'scratch', title = 'SECRET' }")
        unlink(g.folder + "/manifest.lua")
        try FileManager.default.createSymbolicLink(atPath: g.folder + "/manifest.lua", withDestinationPath: secret)
        let entry = GameCatalog(searchDirs: [g.root]).entries.first
        #expect(entry?.problem == "scratch/manifest.lua: missing or unreadable (every game folder needs a manifest.lua)")
        #expect(entry?.problem?.contains("SECRET") == false)
    }

    @Test func linkLoopsInAGameFolderAreNotFollowed() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        try FileManager.default.createDirectory(atPath: g.folder + "/sub", withIntermediateDirectories: true)
        try g.write("sub/rules.lua", "return {}")
        // ten links back to the folder: followed, a depth-8 walk would visit 10^8 folders
        for i in 0..<10 {
            try FileManager.default.createSymbolicLink(atPath: g.folder + "/loop\(i)", withDestinationPath: ".")
        }
        try FileManager.default.createSymbolicLink(atPath: g.folder + "/out", withDestinationPath: "/usr/share")
        #expect(luaFiles(in: g.folder) == ["main.lua", "manifest.lua", "sub/rules.lua"])
        let session = try GameSession(entry: try #require(g.entry))
        #expect(session.reload() == nil)
    }
}
