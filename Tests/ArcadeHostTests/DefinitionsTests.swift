import Foundation
import Testing
import ArcadeCore
@testable import ArcadeLua
@testable import ArcadeHost

/// Keeps `games/arcade.d.lua` (the editor definitions) in step with the bindings: every
/// function a running game can reach must be declared there, and nothing declared there
/// may be missing from the game.
@Suite struct DefinitionsTests {
    static let repoRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/ArcadeHostTests/DefinitionsTests.swift
        return url.path
    }()

    static var definitionsPath: String { repoRoot + "/games/arcade.d.lua" }

    /// The handle classes whose methods the definitions declare.
    static let classes: [LuaClass] = [
        SceneModule.nodeClass, ImageModule.imageClass, TimerModule.timerClass, AnimationModule.animationClass,
        PhysicsModule.worldClass, PhysicsModule.ballClass, PhysicsModule.wallClass,
    ]

    /// A game that lists what it can reach: the `arcade` table, walked in sorted order,
    /// and the `gfx` table its `draw` receives.
    static let probe = """
        local game = {}
        local function walk(t, prefix, out)
          local keys = {}
          for k in pairs(t) do keys[#keys + 1] = tostring(k) end
          table.sort(keys)
          for _, k in ipairs(keys) do
            local v, name = t[k], prefix .. "." .. k
            if type(v) == "function" then out[#out + 1] = name
            elseif type(v) == "table" then walk(v, name, out) end
          end
          return out
        end
        function game.load()
          game.state.api = walk(arcade, "arcade", {})
          game.state.arcade_fields = {}
          for k, v in pairs(arcade) do
            if type(v) ~= "function" and type(v) ~= "table" then game.state.arcade_fields[#game.state.arcade_fields + 1] = k end
          end
        end
        function game.draw(gfx)
          game.state.gfx = walk(gfx, "gfx", {})
        end
        return game
        """

    /// What the definitions file declares, as `arcade.a.b`, `arcade.Class:method` and `gfx.name`.
    struct Declarations {
        var functions: Set<String> = []
        var methods: Set<String> = []
        var gfx: Set<String> = []
        /// The test API (`arcade.test.*` classes) and the globals of test files.
        var testMethods: Set<String> = []
        var globals: Set<String> = []
    }

    static func parseDefinitions(_ text: String) -> Declarations {
        var out = Declarations()
        var lastClass: String? = nil
        var localClass: [String: String] = [:]
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("---@class ") {
                let rest = line.dropFirst("---@class ".count)
                lastClass = String(rest.prefix { !$0.isWhitespace && $0 != ":" })
            } else if line.hasPrefix("local "), line.hasSuffix("= {}"), let cls = lastClass {
                let name = line.dropFirst("local ".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                localClass[String(name)] = cls
            } else if line.hasPrefix("function ") {
                let head = line.dropFirst("function ".count).prefix { $0 != "(" }
                guard head.count < line.count - "function ".count else { continue }  // no "(": not a declaration
                if head.hasPrefix("arcade.") {
                    out.functions.insert(String(head))
                } else if let colon = head.firstIndex(of: ":"), let cls = localClass[String(head[..<colon])] {
                    if cls.hasPrefix("arcade.test.") {
                        out.testMethods.insert(cls + head[colon...])
                    } else {
                        out.methods.insert(cls + head[colon...])
                    }
                } else if !head.contains(".") && !head.contains(":") {
                    out.globals.insert(String(head))
                } else if let dot = head.firstIndex(of: "."), localClass[String(head[..<dot])] == "arcade.Gfx" {
                    out.gfx.insert("gfx" + head[dot...])
                }
            }
        }
        return out
    }

    /// `name.methods` tables of the handle classes, read from the registry of the game's VM
    /// (the metatables are locked, so Lua cannot list them itself).
    static func boundMethods(in vm: LuaVM, classes: [LuaClass] = classes) throws -> Set<String> {
        let s = vm.stack
        let base = s.top
        defer { s.setTop(base) }
        var out: Set<String> = []
        for cls in classes {
            s.pushRegistry()
            #expect(s.getField(cls.methodsKey, in: -1) == .table, "no methods table for \(cls.name)")
            s.pushNil()
            while s.next(in: -2) {
                if let key = s.string(at: -2), s.type(at: -1) == .function { out.insert(cls.name + ":" + key) }
                s.pop()
            }
            s.pop(2)
        }
        return out
    }

    static func strings(_ value: LuaValue?) -> [String] {
        guard case .array(let items) = value else { return [] }
        return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }

    static func difference(_ bound: Set<String>, _ declared: Set<String>) -> String {
        let missing = bound.subtracting(declared).sorted()
        let extra = declared.subtracting(bound).sorted()
        return "bound but not declared in games/arcade.d.lua: \(missing)\n"
            + "declared in games/arcade.d.lua but not bound: \(extra)"
    }

    @Test func definitionsMatchTheBindings() throws {
        let text = try String(contentsOfFile: Self.definitionsPath, encoding: .utf8)
        let declared = Self.parseDefinitions(text)
        #expect(declared.functions.count > 20, "the parser found too few arcade functions to trust")

        let g = try ScratchGame(files: ["main.lua": Self.probe])
        let session = try GameSession(entry: try #require(g.entry))
        defer { session.close() }
        _ = session.renderFrame()
        #expect(session.failure == nil)
        let state = try session.state()

        let api = Self.strings(state["api"])
        #expect(api == api.sorted())
        #expect(api.contains("arcade.animate"), "the walk did not see the arcade table")
        #expect(Set(api) == declared.functions, "\(Self.difference(Set(api), declared.functions))")
        #expect(Self.strings(state["arcade_fields"]).isEmpty, "arcade holds values the definitions cannot describe")

        let gfx = Set(Self.strings(state["gfx"]))
        #expect(gfx.contains("gfx.fill_rect"), "draw(gfx) did not run")
        #expect(gfx == declared.gfx, "\(Self.difference(gfx, declared.gfx))")

        let methods = try Self.boundMethods(in: session.vm)
        #expect(methods.contains("arcade.Node:remove"))
        #expect(methods == declared.methods, "\(Self.difference(methods, declared.methods))")
    }

    /// The test API: `test` and `expect`, the context a test receives, the game handle and
    /// the expectation, as a test file sees them.
    @Test func theTestAPIMatchesItsDefinitions() throws {
        let text = try String(contentsOfFile: Self.definitionsPath, encoding: .utf8)
        let declared = Self.parseDefinitions(text)
        #expect(declared.testMethods.count > 30, "the parser found too few test methods to trust")
        #expect(declared.globals == ["test", "expect"])

        let g = try ScratchGame(files: ["main.lua": "return {}", "tests/probe.lua": """
            test("api", function(t)
              for k, v in pairs(t) do
                if type(v) == "function" then print("arcade.test.Context:" .. k) end
              end
              for k, v in pairs(getmetatable(expect(nil))) do
                if type(v) == "function" and not k:match("^__") then print("arcade.test.Expectation:" .. k) end
              end
              print(type(test), type(expect))
            end)
            """])
        let file = try TestFile(entry: try #require(g.entry), file: "probe.lua", options: .init(determinism: nil))
        #expect(try file.load() == ["api"])
        #expect(file.run(test: 0, name: "api").passed)
        #expect(file.printed.last == "function\tfunction")
        var bound = Set(file.printed.dropLast())
        bound.formUnion(try Self.boundMethods(in: file.vm, classes: [TestFile.gameClass]))
        #expect(bound.contains("arcade.test.Game:step_until"), "the Lua methods of the game handle")
        #expect(bound == declared.testMethods, "\(Self.difference(bound, declared.testMethods))")
    }

    @Test func everyHandleClassHasADeclaredClass() throws {
        let text = try String(contentsOfFile: Self.definitionsPath, encoding: .utf8)
        for cls in Self.classes + [LuaClass("arcade.Gfx"), LuaClass("arcade.InputEvent"), LuaClass("arcade.LoadContext"),
                                   LuaClass("arcade.Manifest"), LuaClass("arcade.Game"), LuaClass("arcade.AnimationSpec")] {
            #expect(text.contains("---@class \(cls.name)\n") || text.contains("---@class \(cls.name):"),
                    "games/arcade.d.lua has no ---@class \(cls.name)")
        }
        #expect(text.hasPrefix("---@meta"))
    }

    @Test func parserReadsEveryDeclarationForm() {
        let d = Self.parseDefinitions("""
            ---@class arcade.Node
            local Node = {}
            function Node:remove() end
            ---@class arcade.Gfx
            local Gfx = {}
            function Gfx.line(x1, y1) end
            function arcade.scene.rect(opts) end
            -- function arcade.commented_out() end
            ---@class arcade.test.Game
            local TestGame = {}
            function TestGame:step(n) end
            function expect(value) end
            """)
        #expect(d.functions == ["arcade.scene.rect"])
        #expect(d.methods == ["arcade.Node:remove"])
        #expect(d.gfx == ["gfx.line"])
        #expect(d.testMethods == ["arcade.test.Game:step"])
        #expect(d.globals == ["expect"])
    }

    /// The definitions file sits in `games/`; the catalog looks only at folders, so it is
    /// never taken for a game.
    @Test func catalogIgnoresTheDefinitionsFile() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        try FileManager.default.copyItem(atPath: Self.definitionsPath, toPath: g.root + "/arcade.d.lua")
        let catalog = GameCatalog(searchDirs: [g.root])
        #expect(catalog.entries.map(\.id) == ["scratch"])

        let real = GameCatalog(searchDirs: [Self.repoRoot + "/games"])
        #expect(!real.entries.contains { $0.folder.hasSuffix("arcade.d.lua") || $0.id.hasPrefix("arcade.d") })
    }
}
