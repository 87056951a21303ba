#if canImport(Glibc)
import Glibc
#endif

/// Folders made and removed, and files written whole, for carts: never following a link
/// inside a folder made for a cart (only on the way to it), never writing over a file that is
/// already there.
enum FileTree {
    /// Writes `bytes` to a new file at `path` (mode 0644). Returns nil when done, or why not
    /// (the `strerror` text): it exists already, is a link, or not all of it could be written
    /// (a full disk, a file size limit).
    static func create(_ path: String, _ bytes: [UInt8]) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return SaveFile.errorText(errno) }
        let written = bytes.withUnsafeBytes { FileIO.writeAll(fd, $0) }
        // a write of nothing at all (a zero-byte limit) sets no errno: say what it means
        let writeError = written ? nil : errno == 0 ? "no room to write" : SaveFile.errorText(errno)
        let closed = close(fd) == 0
        return writeError ?? (closed ? nil : SaveFile.errorText(errno))
    }

    /// Writes `bytes` to `path` whole or not at all: into a hidden file beside it, then
    /// renamed over it. Returns nil when done, or why not (the hidden file is removed).
    static func replace(_ path: String, with bytes: [UInt8]) -> String? {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).writing-\(getpid())"
        errno = 0
        if let problem = create(temporary, bytes) {
            unlink(temporary)
            return problem
        }
        guard rename(temporary, path) == 0 else {
            let problem = SaveFile.errorText(errno)
            unlink(temporary)
            return problem
        }
        return nil
    }

    /// Makes `path` and any missing folder above it (mode 0755, or 0700 with `private`).
    /// A folder already on the way may be a symbolic link to one (a linked data home, games
    /// folder or `TMPDIR`): links are followed there, as `stat` and `mkdir -p` follow them.
    /// Returns the folders it made, outermost first (for ``removeMade(_:)``).
    ///
    /// - Throws: ``CartProblem`` naming the folder that could not be made and the system's
    ///   reason ("permission denied", "not a directory" when a file is in the way); the
    ///   folders made before it are removed again.
    static func makeFolders(_ path: String, private: Bool = false) throws(CartProblem) -> [String] {
        var made: [String] = []
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if isDirectory(current) { continue }
            guard mkdir(current, `private` ? 0o700 : 0o755) == 0 || (errno == EEXIST && isDirectory(current)) else {
                let code = errno == EEXIST ? ENOTDIR : errno
                removeMade(made)
                let reason = String(cString: strerror(code)).lowercased()
                throw CartProblem(current == path ? "cannot make the folder \(path): \(reason)"
                                                  : "cannot make the folder \(path): \(current): \(reason)")
            }
            made.append(current)
        }
        return made
    }

    /// Makes the folders of `relative` (a path of plain names) inside `folder`, which this
    /// process has just made: nothing in it can be a link yet, and none is followed.
    static func makeFoldersInside(_ folder: String, _ relative: String) -> Bool {
        var current = folder
        for part in relative.split(separator: "/") {
            current += "/" + part
            if isRealDirectory(current) { continue }
            guard mkdir(current, 0o755) == 0 else { return false }
        }
        return true
    }

    /// Removes folders ``makeFolders(_:private:)`` made, innermost first, if they are empty.
    static func removeMade(_ folders: [String]) {
        for folder in folders.reversed() { rmdir(folder) }
    }

    /// Removes `path` and everything below it. A link is removed, never followed. False when
    /// something could not be removed (what could be is gone).
    @discardableResult
    static func remove(_ path: String) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0 else { return errno == ENOENT }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return unlink(path) == 0 }
        var ok = true
        for name in directoryEntries(path) where !remove(path + "/" + name) { ok = false }
        return rmdir(path) == 0 && ok
    }

    /// True when something (a file, a folder, a link, even a dangling one) is at `path`.
    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }
}

extension Cart {
    /// Writes the game's files into `folder`, which must not exist yet (its parent must).
    ///
    /// - Throws: ``CartProblem`` when it exists or cannot be written; whatever was written
    ///   is removed again.
    func write(into folder: String) throws(CartProblem) {
        guard mkdir(folder, 0o755) == 0 else {
            throw CartProblem(errno == EEXIST ? "\(folder) exists already" : "cannot make the folder \(folder)")
        }
        for file in files {
            let full = folder + "/" + file.path
            let inner = file.path.lastIndex(of: "/").map { String(file.path[..<$0]) } ?? ""
            guard FileTree.makeFoldersInside(folder, inner) else {
                FileTree.remove(folder)
                throw CartProblem("cannot write \(full)")
            }
            errno = 0
            if let problem = FileTree.create(full, file.bytes) {
                FileTree.remove(folder)
                throw CartProblem("cannot write \(full): \(problem)")
            }
        }
    }
}

extension Cart {
    /// Writes the cart to `path` whole or not at all (an existing file there is replaced);
    /// a folder at `path` gets `<id>.arcade` inside it. Returns the file written.
    ///
    /// - Throws: ``CartProblem`` when it cannot be written (nothing is left behind).
    public func save(to path: String) throws(CartProblem) -> String {
        let file = isDirectory(path) ? (path.hasSuffix("/") ? path : path + "/") + id + Cart.fileExtension : path
        if let problem = FileTree.replace(file, with: bytes) { throw CartProblem("cannot write \(file): \(problem)") }
        return file
    }
}
