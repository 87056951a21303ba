import ArcadeCore
import ArcadeLua

extension GameSession {
    /// Loads the game's current scripts into the running game (hot reload).
    ///
    /// Every `.lua` file of the game is compiled first; if any fails, nothing changes. Then
    /// the module cache is cleared, `main.lua` runs again and its new game table takes over
    /// with the old `game.state`, and its file-level locals that it leaves nil take their old
    /// values; `reload(state)` is called when the new code defines it.
    /// The scene, timers and everything native carry on. If running the new code or its
    /// `reload` hook fails, the old game table stays in charge.
    ///
    /// Once the new table is in charge, the old one forwards to it (see
    /// ``forward(_:to:)``), and callbacks registered as game-table functions run the new
    /// functions of the same name (``LuaCallback``): code written before the reload reaches
    /// the new code. A game paused by an error (development mode) runs again.
    ///
    /// - Returns: nil on success, else the error (also kept in ``reloadError`` until a good reload).
    @discardableResult
    public func reload() -> LuaError? {
        do throws(LuaError) {
            for file in luaFiles(in: entry.folder) {
                let chunk = "\(entry.id)/\(file)"
                _ = try vm.load(try FileIO.readScript(entry.folder + "/" + file, within: entry.folder, chunkName: chunk),
                                chunkName: chunk)
            }
            let sounds = try GameSession.soundFiles(of: entry)
            vm.forgetLoadedModules()
            let newGame = try GameSession.loadMain(vm: vm, entry: entry)
            let oldGame = game
            adopt(newGame, stateFrom: oldGame)
            do throws(LuaError) {
                try callGame("reload", label: "reload()") { s in
                    self.vm.push(self.game)
                    s.getField("state", in: -1)
                    s.remove(at: -2)
                    return 1
                }
            } catch {
                replaceGame(with: oldGame)
                throw error
            }
            forward(oldGame, to: game)
            try GameSession.define(sounds, in: sound)
            reloadError = nil
            reloads += 1
            if failure != nil { resume() }
            return nil
        } catch {
            reloadError = error
            return error
        }
    }

    /// Gives `newGame` the state table of `oldGame`, and every other field of the old table
    /// that is not a function and that the new code does not set itself (node handles kept as
    /// `game.player`, for instance), and the old values of the file-level locals the new code
    /// leaves nil (``keepFileLocals(from:into:)``), then makes it the running game. Functions
    /// come from the new code: that is the point of reloading.
    private func adopt(_ newGame: LuaRef, stateFrom oldGame: LuaRef) {
        withTables(newGame, oldGame) { s, new, old in
            s.getField("state", in: old)
            s.setField("state", in: new)
            s.pushNil()
            while s.next(in: old) {
                if s.type(at: -1) != .function {
                    s.pushValue(at: -2)
                    if s.rawGet(in: new) == .nil {
                        s.pop()
                        s.pushValue(at: -2)
                        s.pushValue(at: -2)
                        s.rawSet(in: new)
                    } else {
                        s.pop()
                    }
                }
                s.pop()
            }
        }
        keepFileLocals(from: oldGame, into: newGame)
        replaceGame(with: newGame)
    }

    /// Turns the replaced game table into a stand-in for the new one: its fields are cleared
    /// and a shared metatable sends every read and write to the running game table. Closures
    /// made by the old code still hold the old table (`local game = {}` is an upvalue of
    /// theirs), so `game.spawn()` or `game.score = 1` inside them reaches the new code and
    /// the new table. All stand-ins share one metatable that always points at the newest
    /// table, so many reloads never build a chain of look-ups.
    private func forward(_ oldGame: LuaRef, to newGame: LuaRef) {
        withTables(oldGame, newGame) { s, old, new in
            // a main.lua that returns the same table every time (kept in a global) needs nothing
            guard s.type(at: old) == .table, s.type(at: new) == .table, !s.rawEqual(old, new) else { return }
            if forwarding == nil {
                s.pushTable(fields: 3)
                s.push("the game table was replaced by a hot reload")
                s.setField("__metatable", in: -2)
                forwarding = vm.ref()
            }
            vm.push(forwarding!)
            let meta = s.top
            // the new table may be an earlier stand-in returned again: it must not forward to itself
            if s.getMetatable(at: new) {
                if s.rawEqual(-1, meta) {
                    s.pushNil()
                    s.setMetatable(at: new)
                }
                s.pop()
            }
            s.pushValue(at: new)
            s.setField("__index", in: meta)
            s.pushValue(at: new)
            s.setField("__newindex", in: meta)
            // clearing existing fields during a traversal is allowed
            s.pushNil()
            while s.next(in: old) {
                s.pop()
                s.pushValue(at: -1)
                s.pushNil()
                s.rawSet(in: old)
            }
            s.pushValue(at: meta)
            s.setMetatable(at: old)
        }
    }

    /// Runs `body` with `first` and `second` pushed (it gets their stack indices in that
    /// order), then leaves the stack as it was.
    private func withTables(_ first: LuaRef, _ second: LuaRef, _ body: (LuaStack, Int32, Int32) -> Void) {
        let s = vm.stack
        let base = s.top
        defer { s.setTop(base) }
        s.reserve(6)
        vm.push(first)
        let a = s.top
        vm.push(second)
        body(s, a, s.top)
    }
}
