import CLua

extension LuaStack {
    /// Pushes a copy of the value at `index` of `source`, a stack of another Lua state.
    ///
    /// Data comes over as it is: booleans, integers and floats apart, strings byte for byte,
    /// tables deeply with their keys (integer keys stay integers). A table met twice becomes
    /// two copies. Functions, coroutines and userdata have no meaning in another state: they
    /// become descriptive strings (`"<function>"`, `"<arcade.Node>"`), as ``value(at:maxDepth:)``
    /// makes them. Reads never call metamethods.
    ///
    /// - Throws: ``LuaBridgeError`` for a table that contains itself or is nested deeper than
    ///   `maxDepth`; nothing is left pushed then.
    public func pushCopy(of index: Int32, from source: LuaStack, maxDepth: Int = 64) throws(LuaBridgeError) {
        var path: [UnsafeRawPointer] = []
        let base = top
        do {
            try pushCopy(of: source.absolute(index), from: source, depth: maxDepth, path: &path)
        } catch {
            setTop(base)
            throw error
        }
    }

    private func pushCopy(of index: Int32, from source: LuaStack, depth: Int, path: inout [UnsafeRawPointer]) throws(LuaBridgeError) {
        reserve(4)
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
            _ = source.withBytes(at: index) { push(bytes: $0) }
        case .table:
            guard depth > 0 else { throw .tooDeep }
            let pointer = lua_topointer(source.L, index)!
            if path.contains(pointer) { throw .cycle }
            path.append(pointer)
            defer { path.removeLast() }
            source.reserve(4)
            pushTable()
            let copy = top
            source.pushNil()
            while source.next(in: index) {
                do {
                    try pushCopy(of: source.top - 1, from: source, depth: depth - 1, path: &path)
                    try pushCopy(of: source.top, from: source, depth: depth - 1, path: &path)
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
