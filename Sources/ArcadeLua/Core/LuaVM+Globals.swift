import CLua

/// Globals and modules: how native functions and values reach a game's global table.
extension LuaVM {
    /// Sets global `name` to a new native function.
    public func setGlobal(_ name: String, _ fn: @escaping LuaFunction) {
        let f = function(name, fn)
        let s = stack
        s.pushGlobals()
        s.pushNative(id: f.id)
        s.setField(name, in: -2)
        s.pop()
    }

    /// Builds a table of native functions (a Lua module) and leaves it on top of the stack.
    /// Error messages name each function `prefix.name`, or as `displayNames` says.
    public func pushModule(_ prefix: String, _ entries: [(String, LuaFunction)], displayNames: [String: String] = [:]) {
        let s = stack
        s.reserve(3)
        s.pushTable(fields: Int32(entries.count))
        for (n, fn) in entries {
            let f = function(displayNames[n] ?? (prefix.isEmpty ? n : "\(prefix).\(n)"), fn)
            s.pushNative(id: f.id)
            s.setField(n, in: -2)
        }
    }

    /// Sets a global variable to a value.
    public func setGlobal(_ name: String, _ value: LuaValue) {
        let s = stack
        s.pushGlobals()
        s.push(value)
        s.setField(name, in: -2)
        s.pop()
    }

    /// Reads a global variable as a value (nil when absent or not representable).
    public func global(_ name: String) -> LuaValue? {
        let s = stack
        let base = s.top
        defer { s.setTop(base) }
        s.pushGlobals()
        s.getField(name, in: -1)
        return try? s.value(at: -1)
    }

    /// Adds native functions to the global table at `path` (e.g. `arcade` or `arcade.save`),
    /// creating the table (and its parents) when missing.
    public func register(in path: String, _ entries: [(String, LuaFunction)]) {
        let s = stack
        let base = s.top
        defer { s.setTop(base) }
        s.reserve(4)
        s.pushGlobals()
        for part in path.split(separator: ".").map(String.init) {
            if s.getField(part, in: -1) != .table {
                s.pop()
                s.pushTable()
                s.pushValue(at: -1)
                s.setField(part, in: -3)
            }
            lua_rotate(s.L, -2, 1)
            s.pop()
        }
        for (name, fn) in entries {
            push(function("\(path).\(name)", fn))
            s.setField(name, in: -2)
        }
    }

    /// Runs a data file (like a manifest) with an empty environment, so it can only
    /// build values, and returns what it returns.
    public func evaluateData(_ source: String, chunkName: String) throws(LuaError) -> LuaValue {
        let fn = try load(source, chunkName: chunkName)
        return try protectedCall(label: "reading \(chunkName)", nresults: 1, push: { s in
            self.push(fn)
            s.pushTable()
            _ = lua_setupvalue(s.L, -2, 1)  // _ENV = {}
            return 0
        }, results: { s throws(LuaError) in
            do { return try s.value(at: -1) } catch {
                throw LuaError(kind: .runtime, message: "\(chunkName): \(error)")
            }
        })
    }
}
