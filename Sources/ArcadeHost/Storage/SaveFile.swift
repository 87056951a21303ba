#if canImport(Glibc)
import Glibc
#endif

/// Where the save database lives on disk, and the file operations around it that SQLite
/// does not do: creating its folder and moving a damaged file aside.
enum SaveFile {
    /// The database's file name inside the data folder.
    static let name = "arcade.sqlite"

    /// `$XDG_DATA_HOME/arcade/arcade.sqlite`, else `~/.local/share/arcade/arcade.sqlite`;
    /// nil when neither variable gives an absolute folder.
    static func defaultPath(environment: (String) -> String? = environment) -> String? {
        // the XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored
        if let xdg = environment("XDG_DATA_HOME"), xdg.hasPrefix("/") {
            return xdg + "/arcade/" + name
        }
        if let home = environment("HOME"), home.hasPrefix("/") {
            return home + "/.local/share/arcade/" + name
        }
        return nil
    }

    /// Creates the folder that will hold `path`, and its parents (`mkdir -p`), private to the user.
    ///
    /// - Returns: nil on success, else why not (e.g. `/data/x: Not a directory`).
    static func createFolder(for path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = String(path[..<slash])
        var prefix = ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + part
            if isDirectory(prefix) { continue }
            if fileExists(prefix) { return "\(prefix) is a file, not a folder" }
            if mkdir(prefix, 0o700) != 0 && !(errno == EEXIST && isDirectory(prefix)) {
                return "cannot create the folder \(prefix): \(errorText(errno))"
            }
        }
        return nil
    }

    /// Renames `path` to the first free `path.corrupt-<n>`, with its `-wal` and `-journal`
    /// when they are still there, so that SQLite opens the copy as it was (the `-shm` index
    /// is rebuilt from the log, so it is removed). SQLite itself may already have folded a
    /// usable log into the file, or dropped an unusable one, when the check closed it.
    ///
    /// - Returns: the new path, or why the file could not be moved.
    static func moveAside(_ path: String) -> Result<String, StorageError> {
        var n = 1
        while fileExists("\(path).corrupt-\(n)") || fileExists("\(path).corrupt-\(n)-wal") { n += 1 }
        let aside = "\(path).corrupt-\(n)"
        if rename(path, aside) != 0 {
            return .failure(StorageError(.readOnly, "cannot rename it to \(aside): \(errorText(errno))"))
        }
        // an empty journal is what a finished transaction leaves (journal_mode=TRUNCATE)
        if size(path + "-journal") == 0 { unlink(path + "-journal") }
        for suffix in ["-wal", "-journal"] where fileExists(path + suffix) {
            if rename(path + suffix, aside + suffix) != 0 { unlink(path + suffix) }
        }
        unlink(path + "-shm")
        return .success(aside)
    }

    /// Which file a path leads to: its device and inode.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// The file `path` leads to now, or nil when there is none. A store compares it with the
    /// file it opened to notice the save file being deleted, moved or replaced under it.
    static func identity(_ path: String) -> Identity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// Makes a write past the file size limit (`ulimit -f`, `RLIMIT_FSIZE`) fail with an
    /// error, as a full disk does, instead of ending the process with SIGXFSZ.
    static func ignoreFileSizeSignal() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// The size of the file at `path`, or nil when there is none.
    static func size(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_size)
    }

    /// Why the save file at `path` cannot be written because it or its folder is read-only
    /// (a read-only file system, or permissions), or nil when both can be: "the folder
    /// /data is read-only (Read-only file system)".
    static func readOnlyReason(_ path: String) -> String? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        // the folder must take the journal next to the file
        if access(folder, W_OK) != 0, errno == EROFS || errno == EACCES || errno == EPERM {
            return "the folder \(folder) is read-only (\(errorText(errno)))"
        }
        if access(path, W_OK) != 0, errno == EROFS || errno == EACCES || errno == EPERM {
            return "the file is read-only (\(errorText(errno)))"
        }
        return nil
    }

    /// `strerror` text for an errno value.
    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
