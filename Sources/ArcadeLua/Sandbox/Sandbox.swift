import ArcadeCore

/// A folder `require` may load modules from.
public struct LuaModuleRoot: Sendable, Equatable {
    /// The folder on disk.
    public var path: String
    /// Prefix of chunk names for files in it (e.g. `fishing` gives `fishing/fish.lua`).
    public var chunkPrefix: String
    /// When set, only module names starting with `namespace.` resolve here, with the
    /// namespace taken off: `lib.tween` in the root with namespace `lib` is `tween.lua`.
    public var namespace: String?

    public init(path: String, chunkPrefix: String, namespace: String? = nil) {
        self.path = path
        self.chunkPrefix = chunkPrefix
        self.namespace = namespace
    }
}

extension LuaVM {
    /// Turns the freshly opened libraries into the games' sandbox.
    ///
    /// Games get base (no `dofile`/`loadfile`, `load` for text only, a `collectgarbage`
    /// that cannot stop or retune the collector), `string` (no `dump`), `table`, `math`
    /// (with `random` on the host's seeded generator), `utf8`, `coroutine`, an `os` with
    /// only `clock` (game time), `print` to the host log, and a `require` confined to the
    /// module roots. Reaching for anything else (`io`, `debug`, `package`, `os.execute`...)
    /// raises an error that says so, instead of a puzzling "attempt to index a nil value".
    public func installSandbox() throws(LuaError) {
        let natives: [(String, LuaFunction)] = [
            ("log", { [unowned self] s in
                self.log(s.string(at: 1) ?? "")
                return 0
            }),
            ("random", { [unowned self] s in try self.luaRandom(s) }),
            ("randomseed", { [unowned self] s in
                if let i = s.integer(at: 1) {
                    self.random = SeededRandom(seed: UInt64(bitPattern: i))
                } else if let d = s.number(at: 1) {
                    self.random = SeededRandom(seed: d.bitPattern)
                } else {
                    throw LuaArgumentError(1, "number expected, got \(s.typeName(at: 1))")
                }
                return 0
            }),
            ("clock", { [unowned self] s in
                s.push(self.gameTime)
                return 1
            }),
            ("read_module", { [unowned self] s in
                guard let name = s.string(at: 1) else {
                    throw LuaArgumentError(1, "string expected, got \(s.typeName(at: 1))")
                }
                switch self.findModule(name) {
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
            self.pushModule("", natives)
            return 1
        }, results: { _ in self.ref() })
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
            guard let m = s.integer(at: 1) else {
                throw LuaArgumentError(1, "number has no integer representation")
            }
            if m == 0 {  // Lua 5.4: random(0) gives a whole random integer
                s.push(Int64(bitPattern: random.next()))
                return 1
            }
            (low, high) = (1, m)
        case 2:
            guard let m = s.integer(at: 1) else { throw LuaArgumentError(1, "number has no integer representation") }
            guard let n = s.integer(at: 2) else { throw LuaArgumentError(2, "number has no integer representation") }
            (low, high) = (m, n)
        default:
            throw LuaScriptError("wrong number of arguments to 'random'")
        }
        guard low <= high else { throw LuaArgumentError(Int32(s.top), "interval is empty") }
        s.push(random.nextInt(in: low, high))
        return 1
    }

    /// Finds `name` (dotted, like `lib.tween`) in the module roots.
    func findModule(_ name: String) -> Result<(String, String), ModuleLookupError> {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let valid = !parts.isEmpty && parts.allSatisfy { part in
            guard let first = part.first, first == "_" || first.isLetter else { return false }
            return part.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber } && part.allSatisfy(\.isASCII)
        }
        guard valid else {
            return .failure(ModuleLookupError(
                "module name '\(name)' is not allowed: use names like 'fish' or 'lib.tween' (files inside the game's folder)"))
        }
        var searched = ""
        for root in moduleRoots {
            var names = parts
            if let ns = root.namespace {
                guard names.count > 1, names[0] == Substring(ns) else { continue }
                names.removeFirst()
            }
            let relative = names.joined(separator: "/") + ".lua"
            if let bytes = FileBytes.read(root.path + "/" + relative) {
                return .success((String(decoding: bytes, as: UTF8.self), root.chunkPrefix + "/" + relative))
            }
            searched += "\n\tno file '\(root.chunkPrefix)/\(relative)'"
        }
        return .failure(ModuleLookupError("module '\(name)' not found:" + searched))
    }

    struct ModuleLookupError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The Lua half of the sandbox. Runs once per VM with the native helpers as its argument.
    static let sandboxPrelude = #"""
    local natives = ...
    local rawload, error, type, select, tostring = load, error, type, select, tostring
    local concat, setmetatable, rawget = table.concat, setmetatable, rawget

    local function unavailable(what, hint)
      return function()
        error(what .. " is not available to games" .. (hint or ""), 2)
      end
    end

    dofile = unavailable("dofile", "; use require")
    loadfile = unavailable("loadfile", "; use require")
    string.dump = unavailable("string.dump")

    -- Text chunks only: a crafted binary chunk can crash the VM.
    function load(chunk, name, mode, ...)
      if mode ~= nil and mode ~= "t" then
        return nil, "load: only text chunks are allowed in games (mode '" .. tostring(mode) .. "' refused)"
      end
      return rawload(chunk, name, "t", ...)
    end

    local gc = collectgarbage
    local gcAllowed = { collect = true, count = true, step = true, isrunning = true }
    function collectgarbage(opt, ...)
      if opt == nil or gcAllowed[opt] then return gc(opt, ...) end
      error("collectgarbage('" .. tostring(opt) .. "') is not available to games", 2)
    end

    print = function(...)
      local n = select("#", ...)
      local parts = {}
      for i = 1, n do parts[i] = tostring((select(i, ...))) end
      natives.log(concat(parts, "\t"))
    end

    math.random = natives.random
    math.randomseed = natives.randomseed

    os = setmetatable({ clock = natives.clock }, {
      __index = function(_, key)
        error("os." .. tostring(key) .. " is not available to games (only os.clock is)", 2)
      end,
    })

    -- require: modules come only from the game's own folder (and the shared helpers).
    local loaded = {}
    local loading = {}
    function require(name)
      if type(name) ~= "string" then
        error("bad argument #1 to 'require' (string expected, got " .. type(name) .. ")", 2)
      end
      local cached = loaded[name]
      if cached ~= nil then return cached end
      if loading[name] then error("module '" .. name .. "' requires itself (a require cycle)", 2) end
      local source, chunk = natives.read_module(name)
      if source == nil then error(chunk, 2) end
      local fn, err = rawload(source, "@" .. chunk, "t")
      if fn == nil then error(err, 0) end
      loading[name] = true
      local _ <close> = setmetatable({}, { __close = function() loading[name] = nil end })
      local result = fn(name)
      if result == nil then result = true end
      loaded[name] = result
      return result
    end

    local forbidden = {
      io = "; games have no file access (use arcade.save)",
      debug = "",
      package = "; use require",
    }
    setmetatable(_G, {
      __index = function(_, key)
        local hint = forbidden[key]
        if hint ~= nil then error("'" .. key .. "' is not available to games" .. hint, 2) end
        return nil
      end,
    })

    -- the host's handle on the sandbox
    return {
      forget_modules = function()
        for name in next, loaded do loaded[name] = nil end
      end,
    }
    """#
}

/// Reads whole files without Foundation (game scripts, manifests, sprites).
public enum FileBytes {
    /// The file's bytes, or nil when it cannot be opened or read (or is not a regular file).
    public static func read(_ path: String, limit: Int = 16 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
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
}
