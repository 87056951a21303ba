#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import CLua

/// A folder `require` may load modules from.
public struct LuaModuleRoot: Sendable, Equatable {
    /// The folder on disk.
    public var path: String
    /// Prefix of chunk names for files in it (e.g. `fishing` gives `fishing/fish.lua`).
    public var chunkPrefix: String
    /// When set, only module names starting with `namespace.` resolve here, with the
    /// namespace taken off: `lib.tween` in the root with namespace `lib` is `tween.lua`.
    public var namespace: String?
    /// When set, the folder this root must itself lie in once every link is resolved (the
    /// games folder, for its `lib/`): a root that is a link out of it loads nothing.
    public var container: String?

    public init(path: String, chunkPrefix: String, namespace: String? = nil, container: String? = nil) {
        self.path = path
        self.chunkPrefix = chunkPrefix
        self.namespace = namespace
        self.container = container
    }

    /// True when files may load from this root: it has no container, or lies inside it.
    var isConfined: Bool {
        container.map { FileBytes.isInside(path, $0) } ?? true
    }
}

extension LuaVM {
    /// Turns the freshly opened libraries into the games' sandbox.
    ///
    /// Games get base (no `dofile`/`loadfile`, `load` for text only, a `collectgarbage`
    /// that cannot stop or retune the collector), `string` (no `dump`), `table`, `math`
    /// (with `random` on the host's seeded generator), `utf8`, `coroutine`, an `os` with
    /// only `clock` (game time), `print` to the host log, and a `require` confined to the
    /// module roots. What is removed (`io`, `debug`, `package`, `os.execute`...) reads as
    /// nil, as in a Lua built without it; using it fails with Lua's own message plus a hint
    /// that says what games use instead (see ``sandboxHint(for:)``).
    public func installSandbox() throws(LuaError) {
        let natives: [(String, LuaFunction)] = [
            ("log", { [unowned self] s in
                self.log(s.string(at: 1) ?? "")
                return 0
            }),
            // called per particle in a burst: no reference count change per call (Lua, and
            // so this function, never outlives the VM)
            ("random", { [unowned(unsafe) self] s in try self.luaRandom(s) }),
            ("randomseed", { [unowned self] s in try self.luaRandomSeed(s) }),
            ("clock", { [unowned self] s in
                s.push(self.gameTime)
                return 1
            }),
            ("read_module", { [unowned self] s in
                switch self.findModule(try s.checkString(1)) {
                case .success(let (source, chunk)):
                    s.push(source)
                    s.push(chunk)
                    return 2
                case .failure(let failure):
                    s.pushNil()
                    s.push(failure.message)
                    return 2
                }
            }),
        ]
        let prelude = try load(Self.sandboxPrelude, chunkName: "=sandbox")
        sandboxControl = try protectedCall(label: "installing the sandbox", nresults: 1, push: { s in
            self.push(prelude)
            self.pushModule("", natives, displayNames: ["random": "math.random", "randomseed": "math.randomseed"])
            // plain C functions: they run where Lua needs them (inside the collector, around
            // every resume) and touch nothing of the host
            for (key, push) in [("mark_running", arcade_push_mark_running), ("setmetatable", arcade_push_setmetatable),
                                ("take_finalizers", arcade_push_take_finalizers)] as [(String, (OpaquePointer?) -> Void)] {
                push(s.L)
                s.setField(key, in: -2)
            }
            return 1
        }, results: { _ in self.ref() })
    }

    /// Runs the `__gc` finalizers the collector queued during the last callback, as a
    /// callback of their own ("__gc"). Their runtime errors are logged (Lua only warns
    /// about them); running out of time or memory throws, like any callback's would.
    func runPendingFinalizers() throws(LuaError) {
        guard state.pointee.finalizers_pending > 0, !runningFinalizers, let control = sandboxControl else { return }
        runningFinalizers = true
        defer { runningFinalizers = false }
        do throws(LuaError) {
            try protectedCall(label: "__gc") { s in
                self.push(control)
                s.getField("run_finalizers", in: -1)
                s.remove(at: -2)
                return 0
            }
        } catch where error.kind == .budget || error.kind == .memory {
            throw error
        } catch {
            log("\(error.message)")
        }
    }

    /// Forgets every module `require` has loaded, so the next `require` runs the file again
    /// (hot reload). Returns false when the sandbox is not installed.
    @discardableResult
    public func forgetLoadedModules() -> Bool {
        guard let control = sandboxControl else { return false }
        do {
            try protectedCall(label: "hot reload") { s in
                self.push(control)
                s.getField("forget_modules", in: -1)
                s.remove(at: -2)
                return 0
            }
            return true
        } catch {
            return false
        }
    }

    /// `math.random` with Lua 5.4's argument rules, on the host's generator.
    private func luaRandom(_ s: LuaStack) throws -> Int32 {
        let low: Int64
        let high: Int64
        switch s.top {
        case 0:
            s.push(random.nextUnit())
            return 1
        case 1:
            let m = try s.checkLuaInteger(1)
            if m == 0 {  // Lua 5.4: random(0) gives a whole random integer
                s.push(Int64(bitPattern: random.next()))
                return 1
            }
            (low, high) = (1, m)
        case 2:
            (low, high) = (try s.checkLuaInteger(1), try s.checkLuaInteger(2))
        default:
            throw LuaScriptError("wrong number of arguments to 'math.random'")
        }
        guard low <= high else { throw LuaArgumentError(1, "interval is empty") }  // 5.4 names #1 either way
        s.push(random.nextInt(in: low, high))
        return 1
    }

    /// `math.randomseed([n1 [, n2]])` as in Lua 5.4: integers (numeric strings convert), and
    /// the two seed components returned. With no argument the seed is drawn from the host's
    /// generator, so it is still a function of the run's seed.
    private func luaRandomSeed(_ s: LuaStack) throws -> Int32 {
        let n1: Int64, n2: Int64
        if s.top == 0 {
            (n1, n2) = (Int64(bitPattern: random.next()), Int64(bitPattern: random.next()))
        } else {
            n1 = try s.checkLuaInteger(1)
            n2 = s.top >= 2 && s.type(at: 2) != .nil ? try s.checkLuaInteger(2) : 0
        }
        // n2 = 0 keeps the stream randomseed(n) has always given
        let mixed = UInt64(bitPattern: n2) &* 0x9E37_79B9_7F4A_7C15
        random = SeededRandom(seed: UInt64(bitPattern: n1) ^ (mixed << 31 | mixed >> 33))
        s.push(n1)
        s.push(n2)
        return 2
    }

    /// The hint the sandbox adds to Lua's own message when a script uses something it
    /// removed: `attempt to index a nil value (global 'io')` gains "; games have no file
    /// access (use arcade.save)". Empty when the message is about something else.
    public static func sandboxHint(for message: String) -> String {
        for (name, hint) in removedGlobals where message.contains("a nil value (global '\(name)')") {
            return "; " + hint
        }
        for (field, hint) in removedFields where message.contains("a nil value (field '\(field)')") {
            return "; " + hint
        }
        return ""
    }

    private static let removedGlobals: [(String, String)] = [
        ("io", "games have no file access (use arcade.save)"),
        ("debug", "'debug' is not available to games"),
        ("package", "'package' is not available to games (use require)"),
        ("dofile", "dofile is not available to games (use require)"),
        ("loadfile", "loadfile is not available to games (use require)"),
    ]

    private static let removedFields: [(String, String)] = [
        "execute", "exit", "getenv", "remove", "rename", "tmpname", "time", "date", "difftime", "setlocale",
    ].map { ($0, "if this is os.\($0): only os.clock is available to games (game time; see also arcade.time)") }
        + [("dump", "if this is string.dump: it is not available to games")]

    /// Finds `name` (dotted, like `lib.tween`) in the module roots.
    func findModule(_ name: String) -> Result<(String, String), ModuleLookupError> {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        // file-name characters only: no separators, no `..`, nothing a shell or a path would read specially
        let valid = !parts.isEmpty && name.utf8.count <= 200 && parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0 == "_" || $0 == "-" || $0.isLetter || $0.isNumber) }
        }
        guard valid else {
            return .failure(ModuleLookupError(
                "module name '\(name)' is not allowed: use names like 'fish', 'ui.button' or 'lib.tween' (files inside the game's folder)"))
        }
        var searched = ""
        for root in moduleRoots {
            var names = parts
            if let ns = root.namespace {
                guard names.count > 1, names[0] == Substring(ns) else { continue }
                names.removeFirst()
            }
            let stem = names.joined(separator: "/")
            let confined = root.isConfined
            for relative in [stem + ".lua", stem + "/init.lua"] {
                let path = root.path + "/" + relative
                if confined, let bytes = FileBytes.read(path, within: root.path) {
                    return .success((String(decoding: bytes, as: UTF8.self), root.chunkPrefix + "/" + relative))
                }
                let why = !fileExists(path) ? "no file"
                    : confined ? "outside the game's folder or not a regular file"
                    : "'\(root.chunkPrefix)' leads outside the games folder (a symbolic link?), so not loaded"
                searched += "\n\t\(why) '\(root.chunkPrefix)/\(relative)'"
            }
        }
        return .failure(ModuleLookupError("module '\(name)' not found:" + searched))
    }

    private func fileExists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    struct ModuleLookupError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The Lua half of the sandbox. Runs once per VM with the native helpers as its argument.
    /// Its source is `Sandbox/sandbox.lua`, compiled into the module as bytes (the `embedInCode`
    /// resource in Package.swift): a Lua file that Lua tools read, no file to find at run time.
    static let sandboxPrelude = String(decoding: PackageResources.sandbox_lua, as: UTF8.self)
}

/// Reads whole files without Foundation (game scripts, manifests, sprites).
public enum FileBytes {
    /// The file's bytes, or nil when it cannot be opened or read, is not a regular file (a
    /// FIFO or a device is never waited on), is larger than `limit`, or, with `root`, lies
    /// outside that folder once every symbolic link is resolved.
    public static func read(_ path: String, within root: String? = nil, limit: Int = 16 << 20) -> [UInt8]? {
        if let root, !isInside(path, root) { return nil }
        // non-blocking: opening a FIFO for reading must not wait for a writer
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= limit else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(Int(st.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { return nil }
        }
        return out
    }

    /// True when `path`, with every link resolved, is inside the folder `root` (also resolved).
    public static func isInside(_ path: String, _ root: String) -> Bool {
        guard let real = realPath(path), let base = realPath(root) else { return false }
        return real.hasPrefix(base == "/" ? "/" : base + "/")
    }

    /// `realpath(3)`: the absolute path with links, `.` and `..` resolved; nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
