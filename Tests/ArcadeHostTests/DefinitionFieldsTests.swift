import Foundation
import Testing
import ArcadeCore
import ArcadeRender
@testable import ArcadeLua
@testable import ArcadeHost

/// `games/arcade.d.lua` field by field: every option table and property class it declares
/// names exactly what the bindings' own lists accept, so an option added, renamed or removed
/// in Swift fails here until the definitions say the same.
@Suite struct DefinitionFieldsTests {
    /// `---@class Name: Parent, Parent` and its `---@field name` lines, parents resolved.
    static func classes(_ text: String) -> [String: Set<String>] {
        var own: [String: Set<String>] = [:]
        var parents: [String: [String]] = [:]
        var current: String?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("---@class ") {
                let head = line.dropFirst("---@class ".count).split(separator: ":", maxSplits: 1)
                let name = String(head[0]).trimmingCharacters(in: .whitespaces)
                current = name
                own[name] = own[name] ?? []
                parents[name] = head.count > 1
                    ? head[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : []
            } else if line.hasPrefix("---@field "), let c = current {
                var field = line.dropFirst("---@field ".count).prefix { !$0.isWhitespace }
                if field.hasPrefix("[\""), let end = field.dropFirst(2).firstIndex(of: "\"") {  // ["repeat"]
                    field = field[field.index(field.startIndex, offsetBy: 2)..<end]
                }
                if field.hasSuffix("?") { field = field.dropLast() }
                own[c, default: []].insert(String(field))
            } else if !line.hasPrefix("---") {
                current = nil
            }
        }
        func resolve(_ name: String, _ depth: Int = 0) -> Set<String> {
            guard depth < 8 else { return [] }
            var fields = own[name] ?? []
            for p in parents[name] ?? [] { fields.formUnion(resolve(p, depth + 1)) }
            return fields
        }
        return Dictionary(uniqueKeysWithValues: own.keys.map { ($0, resolve($0)) })
    }

    static let declared: [String: Set<String>] = {
        let text = (try? String(contentsOfFile: DefinitionsTests.definitionsPath, encoding: .utf8)) ?? ""
        return classes(text)
    }()

    /// Each option class of the definitions and the list its binding checks options against.
    static let optionLists: [(String, LuaOptionNames)] = [
        ("arcade.ImageSpec", ImageModule.imageOptions),
        ("arcade.AnimationSpec", AnimationModule.specNames),
        ("arcade.PathSpec", AnimationModule.pathNames),
        ("arcade.SpringSpec", AnimationModule.springNames),
        ("arcade.ManySprites", AnimationModule.spawnNames),
        ("arcade.ManyOptions", AnimationModule.manyNames),
        ("arcade.WorldOptions", PhysicsModule.worldOptions),
        ("arcade.RectSpec", PhysicsModule.rectOptions),
        ("arcade.WallOptions", PhysicsModule.wallOptions),
        ("arcade.SegmentOptions", PhysicsModule.segmentOptions),
        ("arcade.BallOptions", PhysicsModule.ballOptions),
        ("arcade.SoundSpec", SoundModule.specNames),
        ("arcade.PlayOptions", SoundModule.playOptions),
        ("arcade.MusicOptions", SoundModule.musicOptions),
        ("arcade.NodeOptions", NodeProperties.optionNames(for: GroupNode.self).subtracting(["width", "height", "clip"])),
        ("arcade.GroupOptions", NodeProperties.optionNames(for: GroupNode.self)),
        ("arcade.RectOptions", NodeProperties.optionNames(for: RectNode.self)),
        ("arcade.CircleOptions", NodeProperties.optionNames(for: CircleNode.self)),
        ("arcade.PolygonOptions", NodeProperties.optionNames(for: PolygonNode.self)),
        ("arcade.LineOptions", NodeProperties.optionNames(for: LineNode.self)),
        ("arcade.TextOptions", NodeProperties.optionNames(for: TextNode.self)),
        ("arcade.LabelOptions", NodeProperties.optionNames(for: LabelNode.self)),
        ("arcade.SpriteOptions", NodeProperties.optionNames(for: SpriteNode.self)),
    ]

    @Test(arguments: optionLists.map(\.0))
    func anOptionClassNamesWhatItsBindingAccepts(_ name: String) throws {
        let binding = Set(try #require(Self.optionLists.first { $0.0 == name }).1.names)
        let fields = try #require(Self.declared[name], "games/arcade.d.lua declares no class \(name)")
        #expect(fields.subtracting(binding).isEmpty, "\(name) declares \(fields.subtracting(binding).sorted()), which the binding refuses")
        #expect(binding.subtracting(fields).isEmpty, "\(name) lacks \(binding.subtracting(fields).sorted()), which the binding takes")
    }

    /// `arcade.Node` declares every property some kind of node has, and nothing else.
    @Test func theNodeClassDeclaresEveryKindsProperties() throws {
        let kinds: [Node] = [GroupNode(), RectNode(width: 1, height: 1), CircleNode(radius: 1), PolygonNode(points: [.zero, Vec2(1, 0), Vec2(0, 1)]),
                             LineNode(points: []), TextNode(text: ""), LabelNode(text: ""),
                             SpriteNode(sprite: Sprite(width: 1, height: 1, pixels: [.clear]))]
        let properties = kinds.reduce(into: Set<String>()) { $0.formUnion(NodeProperties.table(for: $1).keys) }
        let fields = try #require(Self.declared["arcade.Node"])
        #expect(fields.subtracting(properties).isEmpty, "arcade.Node declares \(fields.subtracting(properties).sorted()), which no node has")
        #expect(properties.subtracting(fields).isEmpty, "arcade.Node lacks \(properties.subtracting(fields).sorted())")
    }

    /// `arcade.Manifest` declares exactly the fields a manifest may have.
    @Test func theManifestClassDeclaresTheKnownFields() throws {
        let fields = try #require(Self.declared["arcade.Manifest"])
        #expect(fields == Set(GameManifest.knownFields), "arcade.Manifest \(fields.sorted()) vs \(GameManifest.knownFields.sorted())")
    }

    /// The check itself sees a renamed option: a definitions text with `duraton` for
    /// `duration` disagrees with the animation binding.
    @Test func aRenamedOptionIsSeen() throws {
        let text = try String(contentsOfFile: DefinitionsTests.definitionsPath, encoding: .utf8)
            .replacingOccurrences(of: "---@field duration? number seconds", with: "---@field duraton? number seconds")
        let spec = try #require(Self.classes(text)["arcade.AnimationSpec"])
        #expect(spec != Set(AnimationModule.specNames.names))
        #expect(spec.contains("duraton") && !spec.contains("duration"))
    }
}
