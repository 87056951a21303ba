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

    /// A watcher on a low descriptor number is one a double close elsewhere in the process
    /// can take from it, and the next inotify made on that number would feed it another
    /// watcher's events under its own folder names.
    @Test func theInotifyDescriptorIsKeptAboveTheNumbersFilesComeAndGoOn() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        let w = FileWatcher(folders: [g.folder])
        guard w.mode == .inotify, let fd = w.descriptor else { return }
        #expect(fd >= 256)
        try g.write("main.lua", "return { changed = true }")
        #expect(waitForChange(w) == [g.folder + "/main.lua"])
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

        // a new folder is watched from the first look after it appears: inotify queues the
        // folder's creation before mkdir returns, so that look needs no wait
        try FileManager.default.createDirectory(atPath: g.folder + "/sub", withIntermediateDirectories: true)
        _ = w.changes()
        try g.write("sub/x.lua", "return 1")
        #expect(waitForChange(w).contains(g.folder + "/sub/x.lua"))

        // non-Lua files are ignored: a look that sees the Lua file written after it (so it
        // did look) reports that file alone
        w.pollInterval = 0
        try g.write("notes.txt", "hello")
        #expect(w.changes().isEmpty)
        try g.write("sub/y.lua", "return 2")
        #expect(waitForChange(w) == [g.folder + "/sub/y.lua"])
    }
}
