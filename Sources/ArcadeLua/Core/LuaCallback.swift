import CLua

/// A Lua function the host keeps to call later: a timer's callback, an animation's
/// `on_done`, a world's contact or removal handler.
///
/// When the function was a field of the game table when it was registered
/// (`arcade.every(1, game.spawn)`), the field's name is kept too, and every call goes to
/// the game table's *current* field of that name. After a hot reload the callback so runs
/// the new `game.spawn`, with no re-arming. When that field is gone or is no longer a
/// function, the original function runs. Any other function (a closure, a local function
/// that is not on the game table) runs as it was created.
public final class LuaCallback {
    /// The function as registered (a registry reference, released with this object).
    public let function: LuaRef
    /// The game-table field the function was found under at registration, if any.
    public let gameField: String?
    /// What kind of callback it is, as errors name it: `timer`, `animation on_done`, `on_contact`.
    public let kind: String
    /// The function that registered it (`arcade.after`), as errors name it.
    public let registeredBy: String
    /// The chunk (`coinbank/main.lua`) and line of the Lua code that registered it, if any.
    let chunk: String?
    let line: Int32

    init(function: LuaRef, gameField: String?, kind: String, registeredBy: String, chunk: String?, line: Int32) {
        self.function = function
        self.gameField = gameField
        self.kind = kind
        self.registeredBy = registeredBy
        self.chunk = chunk
        self.line = line
    }

    /// Where it was registered (`coinbank/main.lua:12`), when Lua code did.
    public var site: String? { chunk.map { "\($0):\(line)" } }

    /// The callback as an error names it: `timer (arcade.after, coinbank/main.lua:12)`.
    public var name: String {
        "\(kind) (\(registeredBy)\(site.map { ", " + $0 } ?? ""))"
    }
}

extension LuaVM {
    /// Keeps the function at `index` of `s` (the caller checked that it is one) as a callback
    /// of `kind` registered by `registeredBy` from the Lua code calling the running native
    /// function, noting the game-table field it is, if any.
    ///
    /// Looks through the game table's string keys: O(fields), once per registration. When
    /// the same function sits under several names the first in byte order is kept, so the
    /// choice does not depend on `pairs` order (which varies from run to run).
    public func callback(_ s: LuaStack, at index: Int32, kind: String, registeredBy: String) -> LuaCallback {
        let fn = s.absolute(index)
        var name: String? = nil
        if let gameTable {
            let base = s.top
            s.reserve(4)
            push(gameTable, on: s)
            let t = s.top
            if s.type(at: t) == .table {
                s.pushNil()
                while s.next(in: t) {
                    if s.type(at: -2) == .string, s.rawEqual(-1, fn), let key = s.string(at: -2),
                       name.map({ key.utf8.lexicographicallyPrecedes($0.utf8) }) ?? true {
                        name = key
                    }
                    s.pop()
                }
            }
            s.setTop(base)
        }
        let (chunk, line) = registrationSite(s)
        s.pushValue(at: fn)
        return LuaCallback(function: ref(from: s), gameField: name, kind: kind, registeredBy: registeredBy,
                           chunk: chunk, line: line)
    }

    /// The chunk and line of the Lua code calling the running native function, for a callback's
    /// name in errors. Callbacks are registered by the thousand (a coin shower's `on_done`s),
    /// nearly always from one chunk: its name is made once and kept while it repeats.
    private func registrationSite(_ s: LuaStack) -> (String?, Int32) {
        var ar = lua_Debug()
        guard lua_getstack(s.L, 1, &ar) != 0 else { return (nil, 0) }
        lua_getinfo(s.L, "Sl", &ar)
        guard ar.currentline > 0 else { return (nil, 0) }
        let chunk = withUnsafeBytes(of: &ar.short_src) { raw -> String in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[..<(raw.firstIndex(of: 0) ?? raw.count)])
            if let last = lastSiteChunk, last.bytes.elementsEqual(bytes) { return last.name }
            let name = String(decoding: bytes, as: UTF8.self)
            lastSiteChunk = (Array(bytes), name)
            return name
        }
        return (chunk, ar.currentline)
    }

    /// Pushes the function a callback calls now: the game table's current field of its name
    /// when that is a function, else the function it was registered with. Raw look-ups only,
    /// so this never raises (it runs before the protected call).
    public func push(_ callback: LuaCallback) {
        let s = stack
        if let name = callback.gameField, let gameTable {
            s.reserve(2)
            push(gameTable)
            if s.type(at: -1) == .table {
                if s.getField(name, in: -1) == .function {
                    s.remove(at: -2)  // the game table
                    return
                }
                s.pop()  // the field
            }
            s.pop()  // the game table
        }
        push(callback.function)
    }
}
