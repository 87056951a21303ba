import ArcadeLua

/// Hot reload keeps `main.lua`'s file-level locals that the new code leaves nil.
///
/// A file-level local (`local button`) lives on, after `main.lua` has run, as an upvalue of
/// the functions that use it. Running `main.lua` again makes new variables for the new
/// functions, and since `load` does not run again, the ones `load` filled (a node, a world,
/// the list of coins in flight) would stay nil. So after the new chunk has run, each upvalue
/// of its functions that holds nil is joined to the old chunk's variable of the same name
/// (`lua_upvaluejoin`): old and new code then share one variable, which keeps its old value,
/// and whatever either writes to it later the other reads. A local the new code gives a
/// value (a constant, a table, a function) keeps the new one.
///
/// Which functions count as the chunk's: those of `main.lua` on the game table (in byte
/// order of their names), in tables that are fields of it, and, following their upvalues,
/// the local functions they call and the functions in the tables they use; each name is
/// matched to the first variable of that name this walk meets in the old code. `_ENV` is
/// never joined.
extension GameSession {
    /// Joins the nil upvalues of `newGame`'s functions to the old ones of the same name in
    /// `oldGame`'s (both tables still hold their functions).
    func keepFileLocals(from oldGame: LuaRef, into newGame: LuaRef) {
        let s = vm.stack
        let base = s.top
        defer { s.setTop(base) }
        s.reserve(12)
        let source = "@\(entry.id)/main.lua"
        vm.push(oldGame)
        let oldTable = s.top
        vm.push(newGame)
        let newTable = s.top
        guard s.type(at: oldTable) == .table, s.type(at: newTable) == .table, !s.rawEqual(oldTable, newTable) else { return }
        let oldList = s.top + 1
        let oldCount = chunkFunctions(from: oldTable, source: source)
        let newList = s.top + 1
        let newCount = chunkFunctions(from: newTable, source: source)

        // the old variables: name -> (function in the list, upvalue number, identity), first met wins
        var old: [String: (function: Int, upvalue: Int32, id: UnsafeMutableRawPointer)] = [:]
        for i in stride(from: 1, through: oldCount, by: 1) {
            s.getIndex(i, in: oldList)
            let fn = s.top
            var n: Int32 = 1
            while let name = s.pushUpvalue(of: fn, n) {
                s.pop()
                if name != "_ENV", !name.isEmpty, old[name] == nil, let id = s.upvalueID(of: fn, n) {
                    old[name] = (i, n, id)
                }
                n += 1
            }
            s.pop()
        }
        guard !old.isEmpty else { return }

        for i in stride(from: 1, through: newCount, by: 1) {
            s.getIndex(i, in: newList)
            let fn = s.top
            var n: Int32 = 1
            while let name = s.pushUpvalue(of: fn, n) {
                let isNil = s.type(at: -1) == .nil
                s.pop()
                if isNil, let match = old[name], s.upvalueID(of: fn, n) != match.id {
                    s.getIndex(match.function, in: oldList)
                    s.joinUpvalue(of: fn, n, to: s.top, match.upvalue)
                    s.pop()
                }
                n += 1
            }
            s.pop()
        }
    }

    /// Pushes a list of the Lua functions compiled from `source` that the game table at
    /// `table` reaches (see the extension's comment), in a fixed order, and returns how many.
    private func chunkFunctions(from table: Int32, source: String) -> Int {
        let s = vm.stack
        s.pushTable()
        let list = s.top
        s.pushTable()
        let seen = s.top
        var count = 0

        /// True the first time the value on top is met (it stays on top).
        func firstMeeting() -> Bool {
            s.pushValue(at: -1)
            let met = s.rawGet(in: seen) != .nil
            s.pop()
            guard !met else { return false }
            s.pushValue(at: -1)
            s.push(true)
            s.rawSet(in: seen)
            return true
        }

        /// Adds the value on top (popping it) when it is one of the chunk's functions not seen yet.
        func add() {
            if s.type(at: -1) == .function, s.functionSource(at: -1) == source, firstMeeting() {
                count += 1
                s.setIndex(count, in: list)
                return
            }
            s.pop()
        }

        /// Adds the functions among the values of the table on top (popping it), in byte
        /// order of their string keys, then those under other keys in traversal order (their
        /// order decides nothing: a function is added once whatever the order).
        func addFunctions() {
            let t = s.top
            var names: [String] = []
            s.pushNil()
            while s.next(in: t) {
                if s.type(at: -1) == .function, s.type(at: -2) == .string, let key = s.string(at: -2) {
                    names.append(key)
                }
                s.pop()
            }
            names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for name in names {
                s.getField(name, in: t)
                add()
            }
            s.pushNil()
            while s.next(in: t) {
                if s.type(at: -2) != .string { add() } else { s.pop() }
            }
            s.pop()  // the table
        }

        // the game table's functions, then those in its tables
        s.pushValue(at: table)
        addFunctions()
        var tableFields: [String] = []
        s.pushNil()
        while s.next(in: table) {
            if s.type(at: -1) == .table, s.type(at: -2) == .string, let key = s.string(at: -2) { tableFields.append(key) }
            s.pop()
        }
        for key in tableFields.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where key != "state" {
            s.getField(key, in: table)
            if firstMeeting() { addFunctions() } else { s.pop() }
        }
        // then, breadth first, the functions and the tables' functions their upvalues hold
        var i = 1
        while i <= count {
            s.getIndex(i, in: list)
            let fn = s.top
            var n: Int32 = 1
            while let name = s.pushUpvalue(of: fn, n) {
                switch s.type(at: -1) {
                case .function: add()
                case .table where name != "_ENV" && !s.rawEqual(-1, table) && firstMeeting(): addFunctions()
                default: s.pop()
                }
                n += 1
            }
            s.pop()
            i += 1
        }
        s.pop()  // seen
        return count
    }
}
