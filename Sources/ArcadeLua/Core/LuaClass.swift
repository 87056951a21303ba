import CLua

/// A kind of native object Lua can hold: one named metatable (its `__name`), methods,
/// and optional property access.
///
/// Lua holds such objects as *weak handles*: a userdata that stores only the object's id.
/// The binding resolves the id on every use; once the native object is gone the handle is
/// inert and using it raises an error naming the kind ("this timer no longer exists").
public struct LuaClass: Sendable, Hashable {
    /// The metatable's name, e.g. `arcade.Timer`.
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    var methodsKey: String { name + ".methods" }
    var cacheKey: String { name + ".handles" }
    /// The short name used in messages: `Timer` for `arcade.Timer`.
    public var shortName: String { String(name.split(separator: ".").last ?? Substring(name)) }
}

/// The payload of a handle userdata.
struct HandlePayload {
    var id: UInt64
}

extension LuaVM {
    /// Registers a class: its metatable (`__name`, `__index`, `__newindex`, `__tostring`,
    /// `__metatable` to keep scripts from swapping it) and its methods table.
    ///
    /// - Parameters:
    ///   - get: called for `handle.key` when `key` is not a method: push the value, return 1
    ///     (or 0 for nil). Receives the handle's id and the key.
    ///   - set: called for `handle.key = value` (value at stack index 3).
    public func defineClass(
        _ cls: LuaClass,
        methods: [(String, LuaFunction)],
        get: ((LuaStack, UInt64, String) throws -> Int32)? = nil,
        set: ((LuaStack, UInt64, String) throws -> Void)? = nil,
        describe: ((UInt64) -> String)? = nil
    ) {
        let s = stack
        s.reserve(6)
        pushModule(cls.shortName, methods)
        s.pushRegistry()
        s.pushValue(at: -2)
        s.setField(cls.methodsKey, in: -2)
        s.pop()  // registry; methods table stays on top

        s.pushTable(fields: 6)  // the metatable
        s.push(cls.name)
        s.setField("__name", in: -2)
        s.push("locked")
        s.setField("__metatable", in: -2)
        let index = function("\(cls.shortName).__index") { [unowned self] s in
            let id = try self.checkHandle(s, at: 1, of: cls)
            s.pushRegistry()
            s.getField(cls.methodsKey, in: -1)
            s.pushValue(at: 2)
            if s.rawGet(in: -2) != .nil { return 1 }
            s.setTop(2)
            guard let get, let key = s.string(at: 2) else { return 0 }
            return try get(s, id, key)
        }
        push(index)
        s.setField("__index", in: -2)
        let newIndex = function("\(cls.shortName).__newindex") { [unowned self] s in
            let id = try self.checkHandle(s, at: 1, of: cls)
            guard let set, let key = s.string(at: 2) else {
                throw LuaScriptError("cannot set fields on a \(cls.shortName)")
            }
            try set(s, id, key)
            return 0
        }
        push(newIndex)
        s.setField("__newindex", in: -2)
        let toString = function("\(cls.shortName).__tostring") { s in
            guard let p = s.userdata(at: 1) else { return 0 }
            let id = p.load(as: HandlePayload.self).id
            s.push(describe?(id) ?? "\(cls.shortName)#\(id)")
            return 1
        }
        push(toString)
        s.setField("__tostring", in: -2)
        s.pushRegistry()
        s.pushValue(at: -2)
        s.setField(cls.name, in: -2)
        // Weak-valued cache: the same object pushes the same userdata (so == works).
        s.pushTable()
        s.pushTable(fields: 1)
        s.push("v")
        s.setField("__mode", in: -2)
        s.setMetatable(at: -2)
        s.setField(cls.cacheKey, in: -2)
        s.pop(3)  // registry, metatable, methods
    }

    /// Pushes the handle for object `id` of class `cls` (the same userdata while Lua holds it).
    public func pushHandle(_ s: LuaStack, _ id: UInt64, of cls: LuaClass) {
        s.reserve(5)
        s.pushRegistry()
        s.getField(cls.cacheKey, in: -1)
        s.push(Int64(bitPattern: id))
        if s.rawGet(in: -2) == .userdata {
            lua_rotate(s.L, -3, 1)  // handle to the bottom of our three
            s.pop(2)
            return
        }
        s.pop()
        let p = s.newUserdata(size: MemoryLayout<HandlePayload>.size)
        p.storeBytes(of: HandlePayload(id: id), as: HandlePayload.self)
        s.getField(cls.name, in: -3)
        s.setMetatable(at: -2)
        s.push(Int64(bitPattern: id))
        s.pushValue(at: -2)
        s.rawSet(in: -4)
        lua_rotate(s.L, -3, 1)
        s.pop(2)
    }

    /// The id in the handle at `index` when it is a handle of class `cls`, else nil.
    public func handle(_ s: LuaStack, at index: Int32, of cls: LuaClass) -> UInt64? {
        guard s.type(at: index) == .userdata, let p = s.userdata(at: index) else { return nil }
        let base = s.top
        defer { s.setTop(base) }
        guard s.getMetatable(at: index) else { return nil }
        s.pushRegistry()
        s.getField(cls.name, in: -1)
        guard s.rawEqual(-1, -3) else { return nil }
        return p.load(as: HandlePayload.self).id
    }

    /// Like ``handle(_:at:of:)`` but throws an argument error naming the expected class.
    public func checkHandle(_ s: LuaStack, at index: Int32, of cls: LuaClass) throws -> UInt64 {
        if let id = handle(s, at: index, of: cls) { return id }
        let got = s.type(at: index) == .userdata ? s.handleDescription(at: index) : s.typeName(at: index)
        throw LuaArgumentError(index, "\(cls.shortName) expected, got \(got)")
    }
}
