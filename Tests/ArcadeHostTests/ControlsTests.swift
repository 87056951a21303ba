import Foundation
import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// A manifest's `controls`: read and checked, shown on the pause card, warned about by the
/// check when missing, written by the scaffold.
@Suite struct ControlsTests {
    let good = "id = 'ok', title = 'T', description = 'D', author = 'A', version = '1', api = 1"

    func load(_ body: String) throws -> Result<GameManifest, GameManifest.Problem> {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        try g.write("manifest.lua", body)
        do {
            return .success(try GameManifest.load(path: g.folder + "/manifest.lua", displayPath: "scratch/manifest.lua"))
        } catch {
            return .failure(error)
        }
    }

    @Test func readInOrder() throws {
        let m = try load("return { \(good), controls = { { 'space / enter', 'cast' }, { 'click the pond', 'cast too' } } }").get()
        #expect(m.controls == [GameControl(input: "space / enter", action: "cast"),
                               GameControl(input: "click the pond", action: "cast too")])
        #expect(try load("return { \(good) }").get().controls.isEmpty)
        #expect(try load("return { \(good), controls = {} }").get().controls.isEmpty)
    }

    @Test(arguments: [
        ("controls = 'space'", "field 'controls' must be a list of { \"keys or mouse\", \"what it does\" } pairs, like { { \"space\", \"cast the hook\" } }, got string"),
        ("controls = { space = 'cast' }", "field 'controls' must be a list of { \"keys or mouse\", \"what it does\" } pairs, like { { \"space\", \"cast the hook\" } }, got a table with named fields"),
        ("controls = { 'space', 'cast' }", "field 'controls', entry 1 must be { \"keys or mouse\", \"what it does\" }, two strings, like { \"space\", \"cast the hook\" }"),
        ("controls = { { 'space', 'cast' }, { 'k' } }", "field 'controls', entry 2 must be { \"keys or mouse\", \"what it does\" }, two strings, like { \"space\", \"cast the hook\" }"),
        ("controls = { { 'space', 3 } }", "field 'controls', entry 1 must be { \"keys or mouse\", \"what it does\" }, two strings, like { \"space\", \"cast the hook\" }"),
        ("controls = { { '  ', 'cast' } }", "field 'controls', entry 1: 'keys or mouse' is empty"),
        ("controls = { { 'space', 'cast\\nagain' } }", "field 'controls', entry 1: 'what it does' must be one line"),
        ("controls = { { 'space or enter or down', 'cast' } }",
         "field 'controls', entry 1: 'keys or mouse' is 22 cells wide; at most 18 fit on the pause card (\"space or enter or down\")"),
        ("controls = { { 'x', string.rep('a', 41) } }",
         "field 'controls', entry 1: 'what it does' is 41 cells wide; at most 40 fit on the pause card (\"\(String(repeating: "a", count: 41))\")"),
    ])
    func refused(field: String, message: String) throws {
        // string.rep is not in a manifest's empty environment: spell the long one out
        let body = field.replacingOccurrences(of: "string.rep('a', 41)", with: "'" + String(repeating: "a", count: 41) + "'")
        let result = try load("return { \(good), \(body) }")
        guard case .failure(let problem) = result else {
            Issue.record("accepted: \(body)")
            return
        }
        #expect(problem.message == "scratch/manifest.lua: " + message)
    }

    @Test func atMostTwelve() throws {
        let twelve = (1...12).map { "{ '\($0)', 'do \($0)' }" }.joined(separator: ", ")
        #expect(try load("return { \(good), controls = { \(twelve) } }").get().controls.count == 12)
        let result = try load("return { \(good), controls = { \(twelve), { 'x', 'one more' } } }")
        guard case .failure(let problem) = result else {
            Issue.record("13 controls accepted")
            return
        }
        #expect(problem.message == "scratch/manifest.lua: field 'controls' lists 13 controls; at most 12 fit on the pause card")
    }

    /// The pause card lists every control (input on the left, action on the right), keeps
    /// its three choices, and a click on a choice still finds it.
    @Test(arguments: [0, 3, 12])
    func pauseCardShowsTheControls(count: Int) throws {
        let controls = (0..<count).map { i in
            GameControl(input: i == 0 ? String(repeating: "k", count: GameManifest.maxControlInput) : "key \(i)",
                        action: i == 1 ? String(repeating: "a", count: GameManifest.maxControlAction) : "action number \(i)")
        }
        let canvas = Canvas(columns: 80, rows: 24)
        canvas.clear()
        CardView.pause(on: canvas, title: "Coin Bank", controls: controls, selected: 1)
        var frame = canvas.makeFrame()
        canvas.render(into: &frame)
        let lines = glyphLines(frame)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("PAUSED"))
        #expect(text.contains("Coin Bank"))
        for c in controls {
            // one line holds the input, then the action after it
            #expect(lines.contains { $0.contains(c.input + "  " + c.action) }, "no line for \(c.input)")
        }
        // the choices are where a click finds them
        for (i, choice) in CardView.pauseChoices.enumerated() {
            let row = try #require(lines.firstIndex { $0.contains(choice) })
            let col = try #require(lines[row].range(of: choice)).lowerBound.utf16Offset(in: lines[row])
            #expect(CardView.choiceAt(col: col, row: row, choices: CardView.pauseChoices, controls: count, cols: 80, rows: 24) == i)
        }
        // everything stays inside the card, which stays inside the screen
        let h = CardView.pauseHeight(controls: count)
        #expect(h <= 22)
    }

    @Test func checkWarnsWithoutControlsButPasses() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        let entry = try #require(g.entry)
        #expect(GameChecker.warnings(for: entry).count == 1)
        #expect(GameChecker.warnings(for: entry)[0].contains("lists no controls"))
        let r = try runArcade(["check", g.folder, "--steps", "10"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "warn  scratch: \(GameChecker.warnings(for: entry)[0])\nok    scratch\n1 passed, 0 failed\n")
        try g.write("manifest.lua", "return { id = 'scratch', title = 'S', description = 'D', author = 'A', version = '1', api = 1, "
                    + "controls = { { 'space', 'nothing at all' } } }")
        let entry2 = try #require(g.entry)
        #expect(GameChecker.warnings(for: entry2).isEmpty)
    }

    /// `games/arcade.d.lua` declares every field the manifest reader knows, `controls` included.
    @Test func definitionsDeclareEveryManifestField() throws {
        let text = try String(contentsOfFile: repositoryGames + "/arcade.d.lua", encoding: .utf8)
        let start = try #require(text.range(of: "---@class arcade.Manifest\n"))
        let fields = text[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("---@field ") }
            .map { $0.dropFirst("---@field ".count).prefix { $0 != " " && $0 != "?" } }
            .map(String.init)
        #expect(fields == GameManifest.knownFields)
    }

    @Test func scaffoldWritesControls() throws {
        let root = NSTemporaryDirectory() + "arcade-scaffold-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try GameScaffold.create(id: "star-catch", in: root)
        let entry = try #require(GameCatalog(searchDirs: [root]).game("star-catch"))
        let controls = try #require(entry.manifest?.controls)
        #expect(controls.map(\.input) == ["left / right", "move the mouse"])
        #expect(GameChecker.warnings(for: entry).isEmpty)
    }
}

/// The text characters of each row of `frame`, pixel cells read as spaces.
func glyphLines(_ frame: Frame) -> [String] {
    (0..<frame.rows).map { row in
        String(String.UnicodeScalarView((0..<frame.columns).map { column -> Unicode.Scalar in
            if case .glyph(let ch, _, _) = frame[column, row].appearance { return ch }
            return " "
        }))
    }
}
