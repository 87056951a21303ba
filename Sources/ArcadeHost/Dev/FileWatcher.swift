#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// Notices edits to Lua files (and `.sfx` sounds) under a set of folders, for hot reload.
///
/// Uses inotify (created, written, moved-in and deleted files, with new subfolders watched as
/// they appear); where inotify is unavailable (or when asked) it falls back to polling file
/// sizes and modification times at most every `pollInterval` seconds. ``changes()`` never
/// blocks; the frame loop calls it once a frame.
public final class FileWatcher {
    /// How it watches.
    public enum Mode: Sendable { case inotify, polling }

    public let folders: [String]
    public private(set) var mode: Mode
    /// Minimum seconds between two polling scans.
    public var pollInterval: Double = 0.05

    private var inotifyFD: Int32 = -1
    private var watches: [Int32: String] = [:]
    private var snapshot: [String: FileStamp] = [:]
    private var lastScan: Double = -1

    struct FileStamp: Equatable {
        var size: Int
        var mtimeSec: Int
        var mtimeNsec: Int
    }

    public init(folders: [String], mode: Mode = .inotify) {
        self.folders = folders.filter(isDirectory)
        self.mode = mode
        if mode == .inotify {
            inotifyFD = Self.highDescriptor(inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)))
            if inotifyFD < 0 {
                self.mode = .polling
            } else {
                for f in self.folders { addWatches(f) }
            }
        }
        if self.mode == .polling { snapshot = scan() }
    }

    deinit {
        if inotifyFD >= 0 { close(inotifyFD) }
    }

    /// `fd` moved to a number at or above 256 (the original closed), or `fd` itself when
    /// that fails. Descriptors are handed out lowest first, so a low number is one that
    /// pipes and files come and go on: code elsewhere in the process that closes a number
    /// twice (a known hazard of launching processes from many threads) would close this
    /// watcher's, and the next inotify made would take the number and feed this watcher
    /// another watcher's events under its own folder names. A high number is one nothing
    /// else has held.
    private static func highDescriptor(_ fd: Int32) -> Int32 {
        guard fd >= 0, fd < 256 else { return fd }
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, Int32(256))
        guard moved >= 0 else { return fd }
        close(fd)
        return moved
    }

    /// The inotify descriptor (readable when changes are waiting), for a poll loop; nil when polling.
    public var descriptor: Int32? { inotifyFD >= 0 ? inotifyFD : nil }

    /// Lua files changed since the last call (relative to their folder), or [] when none.
    public func changes(now: Double = monotonicSeconds()) -> [String] {
        switch mode {
        case .inotify: return readEvents()
        case .polling:
            guard now - lastScan >= pollInterval else { return [] }
            lastScan = now
            let fresh = scan()
            defer { snapshot = fresh }
            var changed: [String] = []
            for (path, stamp) in fresh where snapshot[path] != stamp { changed.append(path) }
            for path in snapshot.keys where fresh[path] == nil { changed.append(path) }
            return changed.sorted()
        }
    }

    private func addWatches(_ dir: String) {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY | IN_MOVED_FROM)
        let wd = inotify_add_watch(inotifyFD, dir, mask)
        if wd >= 0 { watches[wd] = dir }
        for name in directoryEntries(dir) where !name.hasPrefix(".") && isRealDirectory(dir + "/" + name) {
            addWatches(dir + "/" + name)
        }
    }

    private func readEvents() -> [String] {
        var changed: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(inotifyFD, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (wd, mask, len, name): (Int32, UInt32, Int, String) = buffer.withUnsafeBytes { raw in
                    let ev = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = raw[nameStart..<(nameStart + Int(ev.len))].prefix { $0 != 0 }
                    return (ev.wd, ev.mask, Int(ev.len), String(decoding: nameBytes, as: UTF8.self))
                }
                offset += MemoryLayout<inotify_event>.size + len
                guard let dir = watches[wd] else { continue }
                let path = dir + "/" + name
                if mask & UInt32(IN_ISDIR) != 0 {
                    if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { addWatches(path) }
                    continue
                }
                if name.hasSuffix(".lua") || name.hasSuffix(".sfx") { changed.insert(path) }
            }
        }
        return changed.sorted()
    }

    private func scan() -> [String: FileStamp] {
        var out: [String: FileStamp] = [:]
        for folder in folders {
            for rel in luaFiles(in: folder) + soundFilePaths(in: folder) {
                let path = folder + "/" + rel
                var st = stat()
                if stat(path, &st) == 0 {
                    out[path] = FileStamp(size: Int(st.st_size), mtimeSec: st.st_mtim.tv_sec, mtimeNsec: st.st_mtim.tv_nsec)
                }
            }
        }
        return out
    }
}

/// Seconds on the monotonic clock.
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
