import Foundation
import Testing
@testable import ArcadeHost

@Suite struct FileWatcherTests {
    /// Waits (bounded) until the watcher reports a change; no timing is asserted.
    func waitForChange(_ w: FileWatcher) -> [String] {
        for _ in 0..<200 {
            let c = w.changes()
            if !c.isEmpty { return c }
            usleep(10_000)
        }
        return []
    }

    @Test(arguments: [FileWatcher.Mode.inotify, .polling])
    func seesWritesRenamesAndNewFolders(mode: FileWatcher.Mode) throws {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        let w = FileWatcher(folders: [g.folder], mode: mode)
        #expect(w.changes().isEmpty)

        try g.write("main.lua", "return { changed = true }")
        #expect(waitForChange(w).contains(g.folder + "/main.lua"))

        // editors that save by writing a temporary file and renaming it over the original
        try "return { renamed = true }".write(toFile: g.folder + "/.main.lua.tmp", atomically: false, encoding: .utf8)
        rename(g.folder + "/.main.lua.tmp", g.folder + "/main.lua")
        #expect(waitForChange(w).contains(g.folder + "/main.lua"))

        try FileManager.default.createDirectory(atPath: g.folder + "/sub", withIntermediateDirectories: true)
        usleep(20_000)
        _ = w.changes()
        try g.write("sub/x.lua", "return 1")
        #expect(waitForChange(w).contains(g.folder + "/sub/x.lua"))

        // non-Lua files are ignored
        try g.write("notes.txt", "hello")
        usleep(100_000)
        #expect(w.changes().isEmpty)
    }
}
