import CLua

extension LuaStack {
    /// Pushes a copy of the value at `index` of `source`, a stack of another Lua state.
    ///
    /// Data comes over as it is: booleans, integers and floats apart, strings byte for byte,
    /// tables deeply with their keys (integer keys stay integers). A table met twice is
    /// copied once and the copy shares it as the original does (cycles included), and so is
    /// a long string: the copy is never larger than the original, however many places share
    /// a table (thirty levels of `t = { a = t, b = t }` stay thirty tables, not 2^30).
    /// Functions, coroutines and userdata have no meaning in another state: they become
    /// descriptive strings (`"<function>"`, `"<arcade.Node>"`), as ``value(at:maxDepth:maxBytes:)``
    /// makes them. Reads never call metamethods.
    ///
    /// - Throws: ``LuaBridgeError/tooDeep`` for tables nested deeper than `maxDepth`;
    ///   nothing is left pushed then.
    public func pushCopy(of index: Int32, from source: LuaStack, maxDepth: Int = 64) throws(LuaBridgeError) {
        let base = top
        reserve(6)
        pushTable()  // what is copied already: the original's address (light userdata) -> its copy
        let copies = top
        do {
            try pushCopy(of: source.absolute(index), from: source, depth: maxDepth, copies: copies)
        } catch {
            setTop(base)
            throw error
        }
        remove(at: copies)
    }

    /// The memory cap of the VM this stack belongs to (``LuaVM/Limits/memoryBytes``): what a
    /// conversion to ``LuaValue`` may take by default.
    var memoryCap: Int { Int(arcade_vm_of(L).pointee.mem_limit) }

    /// What one value of a conversion is charged against the budget of
    /// ``value(at:maxDepth:maxBytes:)``, before its text: about what a ``LuaValue`` and a
    /// dictionary entry take.
    static let copiedValueBytes = 48

    /// Strings from this length on are shared like tables; shorter ones are cheaper to copy.
    static let sharedStringBytes = 64

    private func pushCopy(of index: Int32, from source: LuaStack, depth: Int, copies: Int32) throws(LuaBridgeError) {
        reserve(6)
        switch source.type(at: index) {
        case .none, .nil:
            pushNil()
        case .boolean:
            push(source.truthy(at: index))
        case .number:
            if source.isInteger(at: index) {
                push(lua_tointegerx(source.L, index, nil))
            } else {
                push(lua_tonumberx(source.L, index, nil))
            }
        case .string:
            let long = source.rawLength(at: index) >= Self.sharedStringBytes
            if long, pushCopied(lua_topointer(source.L, index), copies: copies) { return }
            _ = source.withBytes(at: index) { push(bytes: $0) }
            if long { remember(lua_topointer(source.L, index), copies: copies) }
        case .table:
            let pointer = lua_topointer(source.L, index)
            if pushCopied(pointer, copies: copies) { return }
            guard depth > 0 else { throw .tooDeep }
            source.reserve(4)
            pushTable()
            let copy = top
            remember(pointer, copies: copies)
            source.pushNil()
            while source.next(in: index) {
                do {
                    try pushCopy(of: source.top - 1, from: source, depth: depth - 1, copies: copies)
                    try pushCopy(of: source.top, from: source, depth: depth - 1, copies: copies)
                } catch {
                    source.pop(2)
                    throw error
                }
                if type(at: -2) == .nil {
                    pop(2)  // cannot happen for a key, but never index with nil
                } else {
                    rawSet(in: copy)
                }
                source.pop()
            }
        case .function:
            push("<function>")
        case .userdata, .lightUserdata:
            push("<\(source.handleDescription(at: index))>")
        case .thread:
            push("<coroutine>")
        }
    }

    /// Pushes the copy already made of the original at `pointer`: false (nothing pushed) when
    /// there is none yet.
    private func pushCopied(_ pointer: UnsafeRawPointer?, copies: Int32) -> Bool {
        lua_pushlightuserdata(L, UnsafeMutableRawPointer(mutating: pointer))
        if rawGet(in: copies) != .nil { return true }
        pop()
        return false
    }

    /// Notes the value on top as the copy of the original at `pointer`.
    private func remember(_ pointer: UnsafeRawPointer?, copies: Int32) {
        lua_pushlightuserdata(L, UnsafeMutableRawPointer(mutating: pointer))
        pushValue(at: -2)
        rawSet(in: copies)
    }

    /// `chunk:line: ` of the innermost Lua function on the stack that was loaded from a file
    /// (a chunk whose name starts with `@`), or "" when there is none: where a test file's
    /// call into the host came from, however many helper functions lie in between.
    public func fileLocation() -> String {
        var ar = lua_Debug()
        var level: Int32 = 1
        while lua_getstack(L, level, &ar) != 0 {
            lua_getinfo(L, "Sl", &ar)
            if ar.currentline > 0, let source = ar.source, source.pointee == CChar(UInt8(ascii: "@")) {
                let src = withUnsafeBytes(of: ar.short_src) { raw in
                    String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
                }
                return "\(src):\(ar.currentline): "
            }
            level += 1
        }
        return ""
    }
}

/// Why a Lua value could not be brought over to Swift.
public enum LuaBridgeError: Error, Equatable, CustomStringConvertible {
    case cycle
    case tooDeep
    /// The copy would pass its budget, `bytes` (the VM's memory cap unless told otherwise).
    case tooLarge(bytes: Int)

    public var description: String {
        switch self {
        case .cycle: "the table contains itself (a cycle)"
        case .tooDeep: "the table is nested too deeply"
        case .tooLarge(let bytes):
            "a copy of it would take more than \(NativeCost.describe(bytes: bytes)), the game's memory cap "
                + "(a table reached from several places is copied once for each)"
        }
    }
}
