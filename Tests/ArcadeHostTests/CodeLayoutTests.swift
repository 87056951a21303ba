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
}
