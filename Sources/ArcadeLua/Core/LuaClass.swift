import CLua

/// A kind of native object Lua can hold: one named metatable (its `__name`), methods,
/// and optional property access.
///
/// Lua holds such objects as *weak handles*: a userdata that stores only the object's id.
/// The binding resolves the id on every use; once the native object is gone the handle is
/// inert and using it raises ``goneMessage`` ("this ball was removed"); see ``LuaHandles``.
public struct LuaClass: Sendable, Hashable {
    /// The metatable's name, e.g. `arcade.Timer`.
    public let name: String
    /// What using a handle whose object is gone says.
    public let goneMessage: String

    /// A class named `name`; `gone` defaults to "this Timer no longer exists".
    public init(_ name: String, gone: String? = nil) {
        self.name = name
        self.goneMessage = gone ?? "this \(String(name.split(separator: ".").last ?? Substring(name))) no longer exists"
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

/// Registry references (integer keys) of a class's metatable and of its weak-valued handle
/// cache: the same tables as its named registry entries.
struct HandleRefs {
    let metatable: lua_Integer
    let cache: lua_Integer
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
        let index = function("\(cls.shortName).__index") { s in
            let id = try s.checkHandle(1, of: cls)
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
        let newIndex = function("\(cls.shortName).__newindex") { s in
            let id = try s.checkHandle(1, of: cls)
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
        s.pushValue(at: -2)
        let metatable = luaL_ref(s.L, arcade_registryindex())
        // Weak-valued cache: the same object pushes the same userdata (so == works).
        s.pushTable()
        s.pushTable(fields: 1)
        s.push("v")
        s.setField("__mode", in: -2)
        s.setMetatable(at: -2)
        s.pushValue(at: -1)
        let cache = luaL_ref(s.L, arcade_registryindex())
        s.setField(cls.cacheKey, in: -2)
        s.pop(3)  // registry, metatable, methods
        if let old = handleRefs[cls.name] {
            unref(Int32(old.metatable))
            unref(Int32(old.cache))
        }
        handleRefs[cls.name] = HandleRefs(metatable: lua_Integer(metatable), cache: lua_Integer(cache))
    }

    /// The registry references of class `cls`, which must have been defined.
    @inline(__always) private func refs(_ cls: LuaClass) -> HandleRefs {
        guard let refs = handleRefs[cls.name] else { preconditionFailure("class \(cls.name) was never defined") }
        return refs
    }

    /// Pushes the handle for object `id` of class `cls` (the same userdata while Lua holds it).
    public func pushHandle(_ s: LuaStack, _ id: UInt64, of cls: LuaClass) {
        let refs = refs(cls)
        let L = s.L
        s.reserve(4)
        lua_rawgeti(L, arcade_registryindex(), refs.cache)
        pushHandle(L, lua_Integer(bitPattern: id), cache: lua_gettop(L), metatable: refs.metatable)
        lua_copy(L, -1, -2)  // the handle over the cache
        lua_settop(L, -2)
    }

    /// Pushes a new list of the handles of objects `ids` of class `cls` (each the same
    /// userdata as any other handle of its object Lua holds).
    public func pushHandles<IDs: Collection<UInt64>>(_ s: LuaStack, _ ids: IDs, of cls: LuaClass) {
        let refs = refs(cls)
        let L = s.L
        s.reserve(5)
        lua_createtable(L, Int32(clamping: ids.count), 0)
        lua_rawgeti(L, arcade_registryindex(), refs.cache)
        let cache = lua_gettop(L)
        var k: lua_Integer = 0
        for id in ids {
            pushHandle(L, lua_Integer(bitPattern: id), cache: cache, metatable: refs.metatable)
            k += 1
            lua_rawseti(L, -3, k)
        }
        lua_settop(L, -2)  // the cache
    }

    /// Pushes the handle of `id` with the class's cache at absolute index `cache`.
    @inline(__always)
    private func pushHandle(_ L: OpaquePointer, _ id: lua_Integer, cache: Int32, metatable: lua_Integer) {
        if lua_rawgeti(L, cache, id) == LUA_TUSERDATA { return }
        lua_settop(L, -2)
        let p = arcade_newuserdata(L, MemoryLayout<HandlePayload>.size)!
        p.storeBytes(of: HandlePayload(id: UInt64(bitPattern: id)), as: HandlePayload.self)
        lua_rawgeti(L, arcade_registryindex(), metatable)
        lua_setmetatable(L, -2)
        lua_pushvalue(L, -1)
        lua_rawseti(L, cache, id)
    }

    /// ``defineClass(_:methods:get:set:describe:)`` for the class `handles` resolves: `get`
    /// and `set` receive the handle's object (a gone one raises the class's gone message).
    public func defineClass<Object>(
        _ handles: LuaHandles<Object>,
        methods: [(String, LuaFunction)],
        get: ((LuaStack, Object, String) throws -> Int32)? = nil,
        set: ((LuaStack, Object, String) throws -> Void)? = nil,
        describe: ((UInt64) -> String)? = nil
    ) {
        defineClass(
            handles.cls, methods: methods,
            get: get.map { get in { s, id, key in try get(s, try handles.object(id), key) } },
            set: set.map { set in { s, id, key in try set(s, try handles.object(id), key) } },
            describe: describe)
    }
}
