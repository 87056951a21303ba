import ArcadeLua
#if canImport(Glibc)
import Glibc
#endif

extension Cart {
    /// The cart of the game `entry`: every file in its folder (manifest, Lua, sprites,
    /// tests and golden frames) except hidden ones, and the shared helpers of its games
    /// folder's `lib/` as `lib/*.lua` (where the game has no file of that name), so that
    /// `require("lib.x")` finds them in the game's own folder wherever the cart goes.
    ///
    /// - Throws: ``CartProblem`` for a game that is not playable, a link, a device or a FIFO in
    ///   its folder, a name a cart cannot hold, or more files or bytes than `limits`.
    public static func pack(_ entry: GameEntry, limits: CartLimits = CartLimits()) throws(CartProblem) -> Cart {
        guard entry.isPlayable, let manifest = entry.manifest else {
            throw CartProblem("\(entry.id) cannot be packed: \(entry.problem ?? "it is not playable")")
        }
        guard isPlainID(manifest.id) else {
            throw CartProblem("\(entry.id) cannot be packed: its id is not plain ASCII (a-z, 0-9, '-' and '_')")
        }
        var walk = FolderWalk(limits: limits, display: entry.id)
        try walk.collect(entry.folder, into: "", onlyLua: false)
        let lib = entry.gamesDir + "/lib"
        if isRealDirectory(lib), !walk.has("lib") {
            walk.display = "lib"
            try walk.collect(lib, into: "lib", onlyLua: true)
        }
        return try Cart(id: manifest.id, checking: walk.files)
    }

    /// Reads a folder's files for a cart, one rule for every entry.
    struct FolderWalk {
        let limits: CartLimits
        /// How messages name the folder walked (the game's id, or `lib`).
        var display: String
        private(set) var files: [File] = []
        private var paths: Set<String> = []
        private var total = 0

        init(limits: CartLimits, display: String) {
            self.limits = limits
            self.display = display
        }

        func has(_ path: String) -> Bool { paths.contains(path) }

        /// Adds the files below `root` under `prefix` (`lib` or nothing); with `onlyLua`, just
        /// `*.lua` files, and never one the game already has.
        mutating func collect(_ root: String, into prefix: String, onlyLua: Bool, below rel: String = "",
                              depth: Int = 0) throws(CartProblem) {
            for name in directoryEntries(rel.isEmpty ? root : root + "/" + rel) where !name.hasPrefix(".") {
                let inner = rel.isEmpty ? name : rel + "/" + name
                let full = root + "/" + inner
                let path = prefix.isEmpty ? inner : prefix + "/" + inner
                let shownPath = "\(display)/\(shown(inner))"
                var st = stat()
                guard lstat(full, &st) == 0 else {
                    // a name that is not UTF-8 comes from the folder's listing with U+FFFD in
                    // place of its bytes, and that name is no file
                    throw CartProblem(name.unicodeScalars.contains("\u{FFFD}") && errno == ENOENT
                        ? "\(shownPath): its name is not UTF-8 text, which a cart cannot hold; rename it"
                        : "cannot read \(shownPath)")
                }
                switch st.st_mode & S_IFMT {
                case S_IFDIR:
                    guard depth < limits.depth else {
                        throw CartProblem("\(shownPath) is more than \(limits.depth) folders deep; a cart cannot hold it")
                    }
                    try collect(root, into: prefix, onlyLua: onlyLua, below: inner, depth: depth + 1)
                case S_IFREG:
                    if onlyLua && (!name.hasSuffix(".lua") || paths.contains(path)) { continue }
                    try add(full, as: path, shownPath: shownPath)
                case S_IFLNK:
                    throw CartProblem("\(shownPath) is a symbolic link; a cart holds plain files only (put the file itself there)")
                default:
                    throw CartProblem("\(shownPath) is not a plain file (a device, FIFO or socket); a cart holds plain files only")
                }
            }
        }

        private mutating func add(_ full: String, as path: String, shownPath: String) throws(CartProblem) {
            if let why = pathProblem(path, limits: limits) {
                throw CartProblem("\(shownPath): a cart cannot hold \(why); rename it")
            }
            guard files.count < limits.files else {
                throw CartProblem("the game has more than \(limits.files) files, the most a cart may hold")
            }
            guard let bytes = FileBytes.read(full, limit: limits.bytes - total) else {
                throw CartProblem(total < limits.bytes && fileSize(full) <= limits.bytes - total
                                  ? "cannot read \(shownPath)"
                                  : "the game's files add up to more than \(ByteCount.describe(limits.bytes)), the most a cart may hold")
            }
            total += bytes.count
            paths.insert(path)
            files.append(File(path: path, bytes: bytes))
        }

        private func fileSize(_ path: String) -> Int {
            var st = stat()
            return stat(path, &st) == 0 ? Int(st.st_size) : 0
        }
    }
}
