import ArcadeLua

extension GameSession {
    /// Pushes a copy of `game.state` onto `s`, a stack of another VM (a test's).
    func pushState(onto s: LuaStack) throws(LuaError) {
        let g = vm.stack
        let base = g.top
        defer { g.setTop(base) }
        vm.push(game)
        g.getField("state", in: -1)
        do { try s.pushCopy(of: -1, from: g) } catch {
            throw LuaError(kind: .runtime, message: "\(entry.id): game.state cannot be copied: \(error)")
        }
    }
}
