#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import ArcadeLua

/// Whole files read and written, and writes that go on until every byte is out, without
/// Foundation: the host's one home for them. The bytes of a file come from ``FileBytes``,
/// which refuses what is not a regular file and, given a folder, what lies outside it.
public enum FileIO {
    /// The text of the file at `path` (UTF-8; a malformed byte reads as U+FFFD), or nil when
    /// ``FileBytes/read(_:within:limit:)`` cannot read it.
    public static func readText(_ path: String, within root: String? = nil, limit: Int = 16 << 20) -> String? {
        FileBytes.read(path, within: root, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Why ``readText(_:within:limit:)`` gives nil for `path` (outside any folder), in a few
    /// words: no such file, not a regular file, larger than `limit` (`what` names the kind of
    /// file in that message: "an input script"), or the system's reason.
    public static func whyUnreadable(_ path: String, limit: Int, what: String) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { return String(cString: strerror(errno)) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return notRegular(st.st_mode).description }
        if Int(st.st_size) > limit {
            return "it is \(mebibytes(Int(st.st_size))), and \(what) may be at most \(mebibytes(limit))"
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        close(fd)
        return "it could not be read"
    }

    /// The path to use for `argument`, a file named on the command line. A name the system
    /// gave as bytes that are not UTF-8 (a Latin-1 "café.arcade") reaches the program with
    /// U+FFFD in their place, which names no file; for such an argument the file is opened by
    /// its bytes and the path returned reaches it through that descriptor
    /// (`/proc/self/fd/N`, kept open for the life of the process). Any other argument, or one
    /// whose file cannot be opened, comes back as it is, so messages about it stay true.
    public static func commandLinePath(_ argument: String) -> String {
        guard argument.unicodeScalars.contains("\u{FFFD}") else { return argument }
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[i] else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
            guard String(decoding: bytes, as: UTF8.self) == argument, String(validating: bytes, as: UTF8.self) == nil else {
                continue
            }
            // O_PATH (not in Swift's Glibc): a descriptor that names the file without reading it
            let fd = open(raw, 0o10_000_000 | O_CLOEXEC)
            return fd >= 0 ? "/proc/self/fd/\(fd)" : argument
        }
        return argument
    }

    /// `bytes` in MiB with one decimal ("16 MiB", "40.1 MiB").
    private static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
    }

    /// The text of a Lua file of a game, named `chunkName` in messages; with `root`, a file
    /// that lies outside that folder is refused.
    ///
    /// - Throws: ``LuaError`` of kind ``LuaError/Kind/file``, "`chunkName`: cannot read the file".
    static func readScript(_ path: String, within root: String?, chunkName: String) throws(LuaError) -> String {
        guard let text = readText(path, within: root) else {
            throw LuaError(kind: .file, message: "\(chunkName): cannot read the file")
        }
        return text
    }

    /// Writes `text` to `path`, created or emptied first. False when the file cannot be
    /// opened (``openForWriting(_:confined:)`` refuses it) or not all of it could be written.
    public static func writeText(_ text: String, to path: String) -> Bool {
        write(text, to: path) == nil
    }

    /// Writes `text` to `path` as ``openForWriting(_:confined:)`` opens it; nil when all of
    /// it was written, else why not.
    public static func write(_ text: String, to path: String, confined: Bool = false) -> WriteProblem? {
        let fd: Int32
        switch openForWriting(path, confined: confined) {
        case .success(let opened): fd = opened
        case .failure(let problem): return problem
        }
        defer { close(fd) }
        return writeAll(fd, text) ? nil : WriteProblem(description: String(cString: strerror(errno)))
    }

    /// Why a file could not be written: a few words ("it is a FIFO, not a regular file",
    /// "No such file or directory").
    public struct WriteProblem: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// Opens `path` for writing, created if it is missing and emptied if not: a regular file
    /// only. The open does not block, so a FIFO (which would wait for a reader for ever) is
    /// refused like a device, a socket or a folder; the descriptor blocks again once open.
    /// `confined` (a file the arcade writes inside a game's folder) also refuses a symbolic
    /// link and a file with other names (a hard link), which could lead out of the folder.
    /// `emptying: false` leaves what the file holds (a check before the real write).
    public static func openForWriting(_ path: String, confined: Bool = false,
                                      emptying: Bool = true) -> Result<Int32, WriteProblem> {
        let fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | (confined ? O_NOFOLLOW : 0), 0o644)
        guard fd >= 0 else {
            let code = errno
            var st = stat()
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG, !(st.st_mode & S_IFMT == S_IFLNK && !confined) {
                return .failure(notRegular(st.st_mode))
            }
            if stat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG { return .failure(notRegular(st.st_mode)) }
            return .failure(WriteProblem(description: String(cString: strerror(code))))
        }
        var st = stat()
        var problem: WriteProblem?
        if fstat(fd, &st) != 0 {
            problem = WriteProblem(description: String(cString: strerror(errno)))
        } else if (st.st_mode & S_IFMT) != S_IFREG {
            problem = notRegular(st.st_mode)
        } else if confined && st.st_nlink > 1 {
            problem = WriteProblem(description: "it has other names (hard links), so it may belong to another folder")
        } else if (emptying && ftruncate(fd, 0) != 0) || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 {
            problem = WriteProblem(description: String(cString: strerror(errno)))
        }
        if let problem {
            close(fd)
            return .failure(problem)
        }
        return .success(fd)
    }

    /// Why `path` could not be written (a folder, a FIFO, a missing folder, no permission),
    /// or nil: the check before a run that writes the file only at its end. It opens the
    /// file as the real write will, without emptying it, and closes it again.
    public static func writeProblem(_ path: String) -> WriteProblem? {
        switch openForWriting(path, emptying: false) {
        case .success(let fd):
            _ = close(fd)
            return nil
        case .failure(let problem):
            return problem
        }
    }

    /// "it is a FIFO, not a regular file", for a file of type `mode`.
    private static func notRegular(_ mode: mode_t) -> WriteProblem {
        let kind = switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "something else"
        }
        return WriteProblem(description: "it is \(kind), not a regular file")
    }

    /// Writes all of `bytes` to `fd`, going on after a short write or an interrupted call.
    /// False when a write fails (`errno` says why).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Writes all of `text`, as UTF-8 (see the other `writeAll`).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }
}
