#if canImport(Glibc)
import Glibc
#endif
import Testing
import ArcadeLua
@testable import ArcadeHost

/// Each kind of bad manifest gets its own message naming the file and the field.
@Suite struct ManifestTests {
    let good = "id = 'ok', title = 'T', description = 'D', author = 'A', version = '1', api = 1"

    func problem(_ body: String) throws -> String? {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        try g.write("manifest.lua", body)
        do {
            _ = try GameManifest.load(path: g.folder + "/manifest.lua", displayPath: "scratch/manifest.lua")
            return nil
        } catch {
            return error.message
        }
    }

    @Test(arguments: [
        ("return 42", "scratch/manifest.lua: must return a table, got number"),
        ("return { 'a', 'b' }", "scratch/manifest.lua: must return a table of named fields (id = ..., title = ...), got a list"),
        ("return { title = 'T', description = 'D', author = 'A', version = '1', api = 1 }", "scratch/manifest.lua: field 'id' is missing"),
        ("return { id = 7, title = 'T', description = 'D', author = 'A', version = '1', api = 1 }", "scratch/manifest.lua: field 'id' must be a string, got number"),
        ("return { id = 'Big Game', title = 'T', description = 'D', author = 'A', version = '1', api = 1 }",
         "scratch/manifest.lua: field 'id' must start with a lower-case letter and hold only a-z, 0-9, '-' and '_' (got 'Big Game')"),
        ("return { id = 'ok', title = '  ', description = 'D', author = 'A', version = '1', api = 1 }", "scratch/manifest.lua: field 'title' is empty"),
        ("return { id = 'ok', title = 'T', description = 'a\\nb', author = 'A', version = '1', api = 1 }", "scratch/manifest.lua: field 'description' must be one line"),
        ("return { id = 'ok', title = 'T', description = 'D', author = 'A', version = '1' }", "scratch/manifest.lua: field 'api' is missing (this arcade provides API 1)"),
        ("return { id = 'ok', title = 'T', description = 'D', author = 'A', version = '1', api = 'one' }", "scratch/manifest.lua: field 'api' must be a whole number, got string"),
        ("return { id = 'ok', title = 'T', description = 'D', author = 'A', version = '1', api = 2 }", "scratch/manifest.lua: targets arcade API 2, but this arcade provides API 1"),
        ("return { id = 'ok', title = 'T', description = 'D', author = 'A', version = '1', api = 1, min_size = { 40, 10 } }",
         "scratch/manifest.lua: field 'min_size' must be at least { 80, 24 } (got { 40, 10 })"),
        ("return { id = 'ok', title = 'T', description = 'D', author = 'A', version = '1', api = 1, colour = 'red' }",
         "scratch/manifest.lua: unknown field 'colour' (known fields: id, title, description, author, version, api, min_size, controls, hide_on_pause)"),
        ("return { id = 'ok', title = 'T'", "scratch/manifest.lua:1: '}' expected near <eof>"),
        ("return { id = os.getenv('HOME') }", "scratch/manifest.lua:1: attempt to index a nil value (global 'os')"),
        ("return { id = 'ok', title = 'T', description = 'D', author = 'A', version = '1', api = 1, hide_on_pause = 1 }",
         "scratch/manifest.lua: field 'hide_on_pause' must be true or false, got number"),
        ("while true do end", "scratch/manifest.lua:1: reading scratch/manifest.lua exceeded its time budget"),
    ])
    func badManifest(body: String, message: String) throws {
        #expect(try problem(body) == message)
    }

    @Test func goodManifest() throws {
        #expect(try problem("return { \(good), min_size = { 100, 30 } }") == nil)
    }

    @Test func hideOnPauseIsReadAndOffWhenMissing() throws {
        let plain = try GameManifest.parse("return { \(good) }", displayPath: "m.lua")
        let hiding = try GameManifest.parse("return { \(good), hide_on_pause = true }", displayPath: "m.lua")
        #expect(plain.hideOnPause == false)
        #expect(hiding.hideOnPause == true)
    }

    @Test func missingManifestIsListedAsBroken() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        try g.write("manifest.lua", "")
        unlink(g.folder + "/manifest.lua")
        let entry = GameCatalog(searchDirs: [g.root]).entries.first
        #expect(entry?.problem == "scratch/manifest.lua: missing or unreadable (every game folder needs a manifest.lua)")
    }

    @Test func duplicateIdsAreReportedNotShadowed() throws {
        let a = try ScratchGame(files: ["main.lua": "return {}"])
        let b = try ScratchGame(files: ["main.lua": "return {}"])
        let catalog = GameCatalog(searchDirs: [a.root, b.root])
        #expect(catalog.entries.count == 2)
        #expect(catalog.entries[0].isPlayable)
        #expect(catalog.entries[1].problem?.hasPrefix("duplicate id 'scratch': \(b.folder) is ignored because") == true)
    }
}

@Suite struct RecordReplayTests {
    @Test func recordedSessionReplaysToTheSameFrameAndState() throws {
        let entry = try #require(fixtureCatalog().game("tiny"))
        let typed = try ArcadeCore.InputScript.parse("""
            2 key r
            5 key a
            9 mouse press 4 3
            12 key r
            20 resize 90 30
            25 key ctrl+c
            """)
        let first = try HeadlessRunner(entry: entry, options: .init(seed: 77, cols: 80, rows: 24), frames: 60, script: typed).run()
        // a recording is the same events with a header carrying the seed and size
        var recording = typed
        recording.header = .init(game: "tiny", seed: 77, cols: 80, rows: 24)
        let parsed = try ArcadeCore.InputScript.parse(recording.text())
        let h = try #require(parsed.header)
        let replay = try HeadlessRunner(entry: entry, options: .init(seed: h.seed, cols: h.cols, rows: h.rows),
                                        frames: 60, script: parsed).run()
        #expect(try first.state() == replay.state())
        #expect(first.renderFrame() == replay.renderFrame())
        #expect(first.renderFrame().plainText(background: first.scene.background).contains("tiny: 4 keys, last ctrl+c"))
    }
}
import ArcadeCore
