import CLua

/// The one thin layer over the Lua C API: a Lua thread's stack, seen from Swift.
///
/// Everything outside `Sources/ArcadeLua/Core` goes through this type (and ``LuaVM``)
/// instead of calling `lua_*` directly; inside it, the few other direct calls are stack
/// rotations and debug-info reads that cannot raise. Only functions that cannot raise a Lua error are used
/// here: raw table access (no metamethods), pushes (whose allocations the allocator
/// never refuses while a Swift function runs) and reads. That is what keeps longjmp
/// from ever crossing a Swift frame.
public struct LuaStack {
    /// The `lua_State *` of the running thread (main thread or coroutine).
    @usableFromInline let L: OpaquePointer

    @usableFromInline init(_ L: OpaquePointer) {
        self.L = L
    }

    // MARK: Stack size

    /// Index of the top element (`lua_gettop`); also the number of arguments on entry.
    @inlinable public var top: Int32 { lua_gettop(L) }

    /// Sets the top (`lua_settop`): pops or pads with nil.
    @inlinable public func setTop(_ index: Int32) { lua_settop(L, index) }

    /// Pops `n` values.
    @inlinable public func pop(_ n: Int32 = 1) { lua_settop(L, -n - 1) }

    /// Makes room for `n` more values (`lua_checkstack`); false when the stack cannot grow.
    @discardableResult @inlinable public func reserve(_ n: Int32) -> Bool { lua_checkstack(L, n) != 0 }

    /// Removes the value at `index`, shifting the ones above it down.
    @inlinable public func remove(at index: Int32) {
        lua_rotate(L, index, -1)
        lua_settop(L, -2)
    }

    /// Converts a relative index to an absolute one.
    @inlinable public func absolute(_ index: Int32) -> Int32 { lua_absindex(L, index) }

    // MARK: Types

    /// The Lua type at `index`.
    @inlinable public func type(at index: Int32) -> LuaType { LuaType(rawValue: lua_type(L, index)) ?? .none }

    /// The Lua type name of the value at `index` (`luaL_typename`).
    public func typeName(at index: Int32) -> String {
        String(cString: lua_typename(L, lua_type(L, index)))
    }

    @inlinable public func isNoneOrNil(_ index: Int32) -> Bool { lua_type(L, index) <= 0 }

    // MARK: Reading

    /// The number at `index` when it is a number (or a numeric string), else nil.
    @inlinable public func number(at index: Int32) -> Double? {
        guard lua_type(L, index) == LUA_TNUMBER else { return nil }
        return lua_tonumberx(L, index, nil)
    }

    /// The integer at `index` when it is an integer or a float with an exact integer value.
    @inlinable public func integer(at index: Int32) -> Int64? {
        guard lua_type(L, index) == LUA_TNUMBER else { return nil }
        var ok: Int32 = 0
        let v = lua_tointegerx(L, index, &ok)
        return ok != 0 ? v : nil
    }

    /// The integer at `index` as `luaL_checkinteger` accepts it: a number with an exact
    /// integer value, or a string that converts to one.
    @inlinable public func coercedInteger(at index: Int32) -> Int64? {
        let t = lua_type(L, index)
        guard t == LUA_TNUMBER || t == LUA_TSTRING else { return nil }
        var ok: Int32 = 0
        let v = lua_tointegerx(L, index, &ok)  // converts a copy: the string on the stack stays
        return ok != 0 ? v : nil
    }

    /// The number at `index`, or the number a numeric string converts to.
    @inlinable public func coercedNumber(at index: Int32) -> Double? {
        let t = lua_type(L, index)
        guard t == LUA_TNUMBER || t == LUA_TSTRING else { return nil }
        var ok: Int32 = 0
        let v = lua_tonumberx(L, index, &ok)
        return ok != 0 ? v : nil
    }

    /// True when the number at `index` is stored as a Lua integer.
    @inlinable public func isInteger(at index: Int32) -> Bool { arcade_isinteger(L, index) != 0 }

    /// The boolean value of `index` in Lua's sense (only nil and false are false).
    @inlinable public func truthy(at index: Int32) -> Bool { lua_toboolean(L, index) != 0 }

    /// The string at `index` when it is a string (numbers are not converted).
    public func string(at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = lua_tolstring(L, index, &len) else { return nil }
        return p.withMemoryRebound(to: UInt8.self, capacity: len) {
            String(decoding: UnsafeBufferPointer(start: $0, count: len), as: UTF8.self)
        }
    }

    /// The raw bytes of the string at `index`, valid while the value stays on the stack.
    public func withBytes<R>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = lua_tolstring(L, index, &len) else { return nil }
        return try body(UnsafeRawBufferPointer(start: p, count: len))
    }

    /// Raw length (`lua_rawlen`): string length, table border, userdata size.
    @inlinable public func rawLength(at index: Int32) -> Int { Int(lua_rawlen(L, index)) }

    /// The userdata block at `index`, or nil.
    @inlinable public func userdata(at index: Int32) -> UnsafeMutableRawPointer? { lua_touserdata(L, index) }

    /// True when two stack values are primitively equal (`lua_rawequal`).
    @inlinable public func rawEqual(_ a: Int32, _ b: Int32) -> Bool { lua_rawequal(L, a, b) != 0 }

    // MARK: Pushing

    @inlinable public func pushNil() { lua_pushnil(L) }
    @inlinable public func push(_ v: Bool) { lua_pushboolean(L, v ? 1 : 0) }
    @inlinable public func push(_ v: Double) { lua_pushnumber(L, v) }
    @inlinable public func push(_ v: Int) { lua_pushinteger(L, lua_Integer(v)) }
    @inlinable public func push(_ v: Int64) { lua_pushinteger(L, v) }
    public func push(_ v: String) {
        var v = v
        v.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }
    public func push(bytes: UnsafeRawBufferPointer) {
        _ = lua_pushlstring(L, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
    }
    /// Pushes a copy of the value at `index`.
    @inlinable public func pushValue(at index: Int32) { lua_pushvalue(L, index) }
    @inlinable public func pushGlobals() { arcade_pushglobaltable(L) }
    @inlinable public func pushRegistry() { lua_pushvalue(L, arcade_registryindex()) }
    /// Pushes a new table with room for `array` sequence items and `fields` other keys.
    @inlinable public func pushTable(array: Int32 = 0, fields: Int32 = 0) { lua_createtable(L, array, fields) }
    /// Pushes a native function registered with the VM under `id`.
    @inlinable func pushNative(id: Int) { arcade_push_native(L, lua_Integer(id)) }

    /// Pushes a Swift-side ``LuaValue``; tables become new Lua tables (cycles are impossible in ``LuaValue``).
    public func push(_ value: LuaValue) {
        switch value {
        case .nil: pushNil()
        case .bool(let b): push(b)
        case .int(let i): push(i)
        case .number(let d): push(d)
        case .string(let s): push(s)
        case .array(let items):
            reserve(3)
            pushTable(array: Int32(clamping: items.count))
            for (i, item) in items.enumerated() {
                push(item)
                lua_rawseti(L, -2, lua_Integer(i + 1))
            }
        case .table(let fields):
            reserve(3)
            pushTable(fields: Int32(clamping: fields.count))
            for (k, v) in fields.sorted(by: { $0.key < $1.key }) {
                push(v)
                setField(k, in: -2)
            }
        }
    }

    // MARK: Raw table access (never calls metamethods, never raises)

    /// `t[key] = top`, popping the value; `table` is the table's index before the push.
    public func setField(_ key: String, in table: Int32) {
        let t = table < 0 && table > arcade_registryindex() ? table - 1 : table
        push(key)
        lua_rotate(L, -2, 1)
        lua_rawset(L, t)
    }

    /// Pushes `t[key]` and returns its type.
    @discardableResult
    public func getField(_ key: String, in table: Int32) -> LuaType {
        let t = table < 0 && table > arcade_registryindex() ? table - 1 : table
        push(key)
        return LuaType(rawValue: lua_rawget(L, t)) ?? .none
    }

    /// `t[i] = top`, popping the value.
    @inlinable public func setIndex(_ i: Int, in table: Int32) { lua_rawseti(L, table, lua_Integer(i)) }

    /// Pushes `t[i]` and returns its type.
    @discardableResult @inlinable
    public func getIndex(_ i: Int, in table: Int32) -> LuaType {
        LuaType(rawValue: lua_rawgeti(L, table, lua_Integer(i))) ?? .none
    }

    /// `t[k] = v` where k and v are the two top values (k below v); pops both.
    @inlinable public func rawSet(in table: Int32) { lua_rawset(L, table) }

    /// Pops a key and pushes `t[key]`.
    @discardableResult @inlinable public func rawGet(in table: Int32) -> LuaType {
        LuaType(rawValue: lua_rawget(L, table)) ?? .none
    }

    /// Table traversal (`lua_next`): pops a key, pushes the next key and value; false at the end.
    @inlinable public func next(in table: Int32) -> Bool { lua_next(L, table) != 0 }

    /// Sets the metatable of the value at `index` to the table on top (popped).
    @inlinable public func setMetatable(at index: Int32) { lua_setmetatable(L, index) }

    /// Pushes the metatable of the value at `index`; false (nothing pushed) when it has none.
    @inlinable public func getMetatable(at index: Int32) -> Bool { lua_getmetatable(L, index) != 0 }

    /// Creates a full userdata block of `size` bytes and pushes it.
    @inlinable public func newUserdata(size: Int) -> UnsafeMutableRawPointer {
        arcade_newuserdata(L, size)!
    }

    // MARK: Reading whole values

    /// Converts the value at `index` to a ``LuaValue``.
    ///
    /// Tables become `.array` when their keys are exactly 1...n, else `.table` with keys
    /// converted to strings. Functions, userdata and threads become descriptive strings.
    /// Cycles and depth beyond `maxDepth` are reported as errors.
    ///
    /// A ``LuaValue`` is a tree: a table reached from several places is copied once for each
    /// (thirty levels of `t = { a = t, b = t }` would be 2^30 copies). So the copy counts
    /// against a budget, `maxBytes` (by default the VM's memory cap: the host copies no more
    /// of a game's data than the game itself may hold), and past it the conversion stops
    /// with ``LuaBridgeError/tooLarge(bytes:)``.
    public func value(at index: Int32, maxDepth: Int = 64, maxBytes: Int? = nil) throws(LuaBridgeError) -> LuaValue {
        var path: [UnsafeRawPointer] = []
        let cap = maxBytes ?? memoryCap
        var budget = cap
        do {
            return try value(at: absolute(index), depth: maxDepth, path: &path, budget: &budget)
        } catch .tooLarge {
            throw .tooLarge(bytes: cap)
        }
    }

    private func value(at index: Int32, depth: Int, path: inout [UnsafeRawPointer], budget: inout Int) throws(LuaBridgeError) -> LuaValue {
        budget -= Self.copiedValueBytes
        if budget < 0 { throw .tooLarge(bytes: 0) }
        switch type(at: index) {
        case .none, .nil: return .nil
        case .boolean: return .bool(truthy(at: index))
        case .number:
            return isInteger(at: index) ? .int(lua_tointegerx(L, index, nil)) : .number(lua_tonumberx(L, index, nil))
        case .string:
            budget -= rawLength(at: index)
            if budget < 0 { throw .tooLarge(bytes: 0) }
            return .string(string(at: index) ?? "")
        case .table:
            guard depth > 0 else { throw .tooDeep }
            let ptr = lua_topointer(L, index)!
            if path.contains(ptr) { throw .cycle }
            path.append(ptr)
            defer { path.removeLast() }
            reserve(4)
            let n = rawLength(at: index)
            var count = 0
            pushNil()
            while next(in: index) {
                count += 1
                pop()
            }
            if n > 0 && count == n {
                var items: [LuaValue] = []
                items.reserveCapacity(n)
                for i in 1...n {
                    getIndex(i, in: index)
                    let v: LuaValue
                    do { v = try value(at: top, depth: depth - 1, path: &path, budget: &budget) } catch { pop(); throw error }
                    pop()
                    items.append(v)
                }
                return .array(items)
            }
            var fields: [String: LuaValue] = [:]
            pushNil()
            while next(in: index) {
                let key = keyString(at: -2)
                budget -= key.utf8.count
                let v: LuaValue
                do { v = try value(at: top, depth: depth - 1, path: &path, budget: &budget) } catch { pop(2); throw error }
                fields[key] = v
                pop()
            }
            return .table(fields)
        case .function: return .string("<function>")
        case .userdata, .lightUserdata: return .string("<\(handleDescription(at: index))>")
        case .thread: return .string("<coroutine>")
        }
    }

    private func keyString(at index: Int32) -> String {
        switch type(at: index) {
        case .string: return string(at: index) ?? ""
        case .number:
            return isInteger(at: index) ? String(lua_tointegerx(L, index, nil)) : String(lua_tonumberx(L, index, nil))
        case .boolean: return truthy(at: index) ? "true" : "false"
        default: return "<\(typeName(at: index))>"
        }
    }

    /// `__name` of a userdata's metatable, or its type name.
    func handleDescription(at index: Int32) -> String {
        guard getMetatable(at: index) else { return typeName(at: index) }
        defer { pop() }
        if getField("__name", in: -1) == .string, let s = string(at: -1) {
            pop()
            return s
        }
        pop()
        return typeName(at: index)
    }

    // MARK: Debug info

    /// "chunk:line: " for the Lua function at `level` (1 = the function that called the
    /// running native function), or "" when that is not a Lua function.
    public func location(level: Int32 = 1) -> String {
        site(level: level).map { $0 + ": " } ?? ""
    }

    /// "chunk:line" (`coinbank/main.lua:12`) for the Lua function at `level` (1 = the function
    /// that called the running native function), or nil when that is not a Lua function.
    public func site(level: Int32 = 1) -> String? {
        var ar = lua_Debug()
        guard lua_getstack(L, level, &ar) != 0 else { return nil }
        lua_getinfo(L, "Sl", &ar)
        guard ar.currentline > 0 else { return nil }
        let src = withUnsafeBytes(of: ar.short_src) { raw in
            String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        return "\(src):\(ar.currentline)"
    }

    /// "chunk:line: " for the innermost Lua function calling (perhaps through `pcall` or other
    /// native functions) the running native function, or "" when there is none.
    public func nearestLuaLocation() -> String {
        var level: Int32 = 1
        var ar = lua_Debug()
        while lua_getstack(L, level, &ar) != 0 {
            lua_getinfo(L, "Sl", &ar)
            if ar.currentline > 0 {
                let src = withUnsafeBytes(of: ar.short_src) { raw in
                    String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
                }
                return "\(src):\(ar.currentline): "
            }
            level += 1
        }
        return ""
    }

    /// True when the running native function was called with method syntax (`obj:f()`),
    /// which `luaL_argerror` reads to leave `self` out of the argument count.
    public func calledAsMethod() -> Bool {
        var ar = lua_Debug()
        guard lua_getstack(L, 0, &ar) != 0 else { return false }
        lua_getinfo(L, "n", &ar)
        guard let what = ar.namewhat else { return false }
        return strcmp(what, "method") == 0
    }

    // MARK: Functions and their upvalues (the host's own debug access; games have no `debug`)

    /// The chunk a Lua function at `index` was compiled from (its `source`, e.g.
    /// `@fishing/main.lua`), or nil for a native function or a value that is not a function.
    public func functionSource(at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TFUNCTION, lua_iscfunction(L, index) == 0 else { return nil }
        var ar = lua_Debug()
        lua_pushvalue(L, index)
        lua_getinfo(L, ">S", &ar)  // pops the copy
        return ar.source.map { String(cString: $0) }
    }

    /// Pushes upvalue `n` (1-based) of the function at `index` and returns its name, or
    /// returns nil and pushes nothing when the function has no such upvalue (`lua_getupvalue`).
    /// A native function's upvalues are named "".
    @discardableResult
    public func pushUpvalue(of index: Int32, _ n: Int32) -> String? {
        lua_getupvalue(L, index, n).map { String(cString: $0) }
    }

    /// The identity of upvalue `n` of the function at `index` (`lua_upvalueid`): two closures
    /// share a variable exactly when these are equal. Nil when there is no such upvalue.
    public func upvalueID(of index: Int32, _ n: Int32) -> UnsafeMutableRawPointer? {
        lua_upvalueid(L, index, n)
    }

    /// Makes upvalue `n1` of the Lua function at `f1` refer to the variable upvalue `n2` of the
    /// Lua function at `f2` refers to (`lua_upvaluejoin`): from then on both read and write
    /// one variable. Both must be Lua functions with those upvalues.
    public func joinUpvalue(of f1: Int32, _ n1: Int32, to f2: Int32, _ n2: Int32) {
        lua_upvaluejoin(L, f1, n1, f2, n2)
    }

    /// A stable address for the object at `index` (tables, functions...): equal for the same object.
    @inlinable public func pointer(at index: Int32) -> UnsafeRawPointer? { lua_topointer(L, index) }
}

/// Lua's basic types (`LUA_T*`).
public enum LuaType: Int32, Sendable {
    case none = -1
    case `nil` = 0
    case boolean = 1
    case lightUserdata = 2
    case number = 3
    case string = 4
    case table = 5
    case function = 6
    case userdata = 7
    case thread = 8

    /// The name Lua uses for the type.
    public var name: String {
        switch self {
        case .none: "no value"
        case .nil: "nil"
        case .boolean: "boolean"
        case .lightUserdata, .userdata: "userdata"
        case .number: "number"
        case .string: "string"
        case .table: "table"
        case .function: "function"
        case .thread: "thread"
        }
    }
}
