import Foundation
import Testing

/// `docs/code-layout.md` is a map of the tree for contributors: every file or folder it names
/// in backticks must exist, so a move that forgets the map fails here.
@Suite struct CodeLayoutTests {
    @Test func everyPathTheLayoutPageNamesExists() throws {
        let root = DefinitionsTests.repoRoot
        let page = try String(contentsOfFile: root + "/docs/code-layout.md", encoding: .utf8)
        let quoted = try Regex(#"`((?:Sources|Tests|games|docs|Benchmarks)/[^`<>\s]+)`"#)
        let paths = page.matches(of: quoted).map { String($0.output[1].substring!) }
        #expect(paths.count > 30, "the page names too few paths: \(paths.count)")
        for path in paths where !path.contains("...") {
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            #expect(FileManager.default.fileExists(atPath: root + "/" + trimmed), "docs/code-layout.md names \(path), which is not there")
        }
    }

    /// The page's dependency list is the truth three ways: what each target imports under
    /// `Sources/`, what `Package.swift` declares for it, and what the page says.
    @Test func theDependencyListMatchesTheImportsAndTheManifest() throws {
        let root = DefinitionsTests.repoRoot
        let page = try String(contentsOfFile: root + "/docs/code-layout.md", encoding: .utf8)
        let documented = try Self.documentedDependencies(page)
        #expect(documented.count >= 6, "the page lists too few targets: \(documented.keys.sorted())")

        let swiftTargets = try FileManager.default.contentsOfDirectory(atPath: root + "/Sources")
            .filter { !Self.swiftFiles(in: root + "/Sources/" + $0).isEmpty }
        #expect(Set(swiftTargets) == Set(documented.keys), "Swift targets under Sources/ and the page's list differ")

        let cModules: Set<String> = ["CLua", "CLuaLib", "CRaster", "CSQLite", "CZlib", "CGif"]
        let ours = Set(swiftTargets).union(cModules)
        let manifest = try Self.declaredDependencies(String(contentsOfFile: root + "/Package.swift", encoding: .utf8), among: ours)
        let importLine = try Regex(#"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|func|var|protocol)\s+)?([A-Za-z_]+)"#)
            .anchorsMatchLineEndings()
        for target in swiftTargets.sorted() {
            var imported = Set<String>()
            for file in Self.swiftFiles(in: root + "/Sources/" + target) {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                for match in text.matches(of: importLine) {
                    let module = String(match.output[1].substring!)
                    if ours.contains(module) && module != target { imported.insert(module) }
                }
            }
            #expect(imported == documented[target], "\(target) imports \(imported.sorted()), the page says \(documented[target]?.sorted() ?? [])")
            #expect(manifest[target] == documented[target], "Package.swift declares \(manifest[target]?.sorted() ?? []) for \(target), the page says \(documented[target]?.sorted() ?? [])")
        }
    }

    /// `- \`Target\`: \`A\`, \`B\`` lines between the page's dependency markers.
    static func documentedDependencies(_ page: String) throws -> [String: Set<String>] {
        guard let start = page.range(of: "<!-- dependencies -->"),
              let end = page.range(of: "<!-- end dependencies -->", range: start.upperBound..<page.endIndex) else {
            Issue.record("docs/code-layout.md has no dependency list between its markers")
            return [:]
        }
        let name = try Regex(#"`([A-Za-z_]+)`"#)
        var result: [String: Set<String>] = [:]
        for line in page[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("- ") {
            let names = line.matches(of: name).map { String($0.output[1].substring!) }
            guard let target = names.first else { continue }
            result[target] = Set(names.dropFirst())
        }
        return result
    }

    /// Each target's `dependencies: [...]` in the manifest, keeping only this project's modules.
    static func declaredDependencies(_ manifest: String, among ours: Set<String>) throws -> [String: Set<String>] {
        let entry = try Regex(#"\.(?:target|executableTarget|testTarget|systemLibrary|plugin)\("#)
        let starts = manifest.matches(of: entry).map(\.range.lowerBound)
        let name = try Regex(#"name:\s*"([^"]+)""#)
        let dependencies = try Regex(#"dependencies:\s*\[([^\]]*)\]"#)
        let quoted = try Regex(#""([^"]+)""#)
        var result: [String: Set<String>] = [:]
        for (i, start) in starts.enumerated() {
            let chunk = manifest[start..<(i + 1 < starts.count ? starts[i + 1] : manifest.endIndex)]
            guard let target = chunk.firstMatch(of: name).map({ String($0.output[1].substring!) }) else { continue }
            let list = chunk.firstMatch(of: dependencies).map { String($0.output[1].substring!) } ?? ""
            result[target] = Set(list.matches(of: quoted).map { String($0.output[1].substring!) }.filter(ours.contains))
        }
        return result
    }

    static func swiftFiles(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }
    }
}
