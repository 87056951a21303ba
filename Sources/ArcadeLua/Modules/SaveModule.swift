/// Where a game's saves and best score live, seen from the game: one game's slot.
///
/// ArcadeLua only knows this protocol; the host's save database implements it per game,
/// and tests can implement it with a dictionary.
public protocol GameStorage {
    /// The value saved under `key`, or nil when there is none.
    func value(forKey key: String) throws(GameStorageError) -> LuaValue?
    /// Saves `value` under `key`; nil deletes the key.
    func setValue(_ value: LuaValue?, forKey key: String) throws(GameStorageError)
    /// Records a finished run's score; true when it beats the best so far (or is the first).
    func submitScore(_ score: Int64) throws(GameStorageError) -> Bool
    /// The best score recorded, or nil before the first.
    func bestScore() throws(GameStorageError) -> Int64?
    /// Forgets the best score: the game's scores have come to mean something else (new
    /// rules), so the next one submitted becomes the best.
    func resetBestScore() throws(GameStorageError)
}

/// A storage failure told to the game as a Lua error: a limit, a full disk, a busy or
/// damaged save file.
public struct GameStorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A complete sentence fragment without the function name, e.g.
    /// `value is 300 KiB, over the 256 KiB limit`.
    public var message: String

    /// A failure saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// `arcade.save.get` / `arcade.save.set` and `arcade.score.submit` / `arcade.score.best` /
/// `arcade.score.reset`.
///
/// Values are checked here, where the Lua value still exists: booleans, finite numbers,
/// UTF-8 strings, and tables of those that are either arrays (keys exactly 1..n) or have
/// only string keys. Anything else (functions, userdata, cycles, mixed or sparse tables)
/// is an argument error naming where in the value it is, so nothing is silently dropped
/// or changed on the way to the disk.
public enum SaveModule {
    /// Tables nested deeper than this cannot be saved (the check recurses).
    public static let maxDepth = 64
    /// A value whose text would clearly pass this many bytes is refused while it is read,
    /// before the host copies it whole; the storage's own, smaller limit does the rest.
    public static let maxValueBytes = 4 << 20

    /// Registers the functions on `vm`, for the game whose slot is `storage`.
    public static func install(in vm: LuaVM, storage: any GameStorage) {
        vm.register(in: "arcade.save", [
            ("get", { s in try get(s, storage) }),
            ("set", { s in try set(s, storage) }),
        ])
        vm.register(in: "arcade.score", [
            ("submit", { s in try submit(s, storage) }),
            ("best", { s in try best(s, storage) }),
            ("reset", { s in try reset(s, storage) }),
        ])
    }

    /// `arcade.save.get(key)` -> the saved value, or nil.
    private static func get(_ s: LuaStack, _ storage: any GameStorage) throws -> Int32 {
        let key = try checkKey(s, at: 1)
        let value = try reporting("arcade.save.get") { () throws(GameStorageError) in try storage.value(forKey: key) }
        s.push(value ?? .nil)
        return 1
    }

    /// `arcade.save.set(key, value)`; a nil value deletes the key.
    private static func set(_ s: LuaStack, _ storage: any GameStorage) throws -> Int32 {
        let key = try checkKey(s, at: 1)
        guard s.type(at: 2) != .none else {
            throw LuaArgumentError(2, "value expected (nil deletes the key)")
        }
        let value = s.type(at: 2) == .nil ? nil : try savable(s, at: 2)
        try reporting("arcade.save.set") { () throws(GameStorageError) in try storage.setValue(value, forKey: key) }
        return 0
    }

    /// `arcade.score.submit(n)` -> true when `n` is a new best.
    private static func submit(_ s: LuaStack, _ storage: any GameStorage) throws -> Int32 {
        let score = try s.checkInteger(1)
        s.push(try reporting("arcade.score.submit") { () throws(GameStorageError) in try storage.submitScore(score) })
        return 1
    }

    /// `arcade.score.best()` -> the best score, or nil before the first.
    private static func best(_ s: LuaStack, _ storage: any GameStorage) throws -> Int32 {
        if let best = try reporting("arcade.score.best", { () throws(GameStorageError) in try storage.bestScore() }) {
            s.push(best)
        } else {
            s.pushNil()
        }
        return 1
    }

    /// `arcade.score.reset()`: forgets the best score, for a game whose scores now mean
    /// something else.
    private static func reset(_ s: LuaStack, _ storage: any GameStorage) throws -> Int32 {
        try reporting("arcade.score.reset") { () throws(GameStorageError) in try storage.resetBestScore() }
        return 0
    }

    /// Runs a storage call, turning its failure into a Lua error that names the function.
    private static func reporting<R>(_ function: String, _ body: () throws(GameStorageError) -> R) throws(LuaScriptError) -> R {
        do { return try body() } catch { throw LuaScriptError("\(function): \(error.message)") }
    }

    /// A key: a string of valid UTF-8 text.
    private static func checkKey(_ s: LuaStack, at index: Int32) throws -> String {
        _ = try s.checkString(index)
        guard let key = s.withBytes(at: index, { String(validating: $0, as: UTF8.self) }) ?? nil else {
            throw LuaArgumentError(index, "key is not valid UTF-8 text")
        }
        return key
    }

    /// The value at `index` as a ``LuaValue`` that can be saved and read back unchanged.
    ///
    /// - Throws: ``LuaArgumentError`` (for argument `index`) saying what cannot be saved
    ///   and where, e.g. `value.player.onHit is a function; ...`.
    public static func savable(_ s: LuaStack, at index: Int32) throws -> LuaValue {
        let base = s.top
        defer { s.setTop(base) }
        s.reserve(2)
        // tables on the path from the root to the current one, to catch cycles
        s.pushTable()
        var reader = SavableReader(s: s, onPath: s.top, argument: index)
        return try reader.read(at: s.absolute(index), depth: 0)
    }
}

/// One walk over a Lua value being saved; keeps the path for the error messages.
private struct SavableReader {
    /// A step from the saved value down to the part being read.
    enum Step {
        case field(String)
        case item(Int64)
    }

    let s: LuaStack
    /// Stack index of the set of tables being read (a Lua table used as a set).
    let onPath: Int32
    let argument: Int32
    var steps: [Step] = []
    /// A lower bound of the value's JSON size so far.
    var bytes = 0

    init(s: LuaStack, onPath: Int32, argument: Int32) {
        self.s = s
        self.onPath = onPath
        self.argument = argument
    }

    static let rule = "only booleans, numbers, strings and tables of them can be saved"

    mutating func read(at index: Int32, depth: Int) throws -> LuaValue {
        bytes += s.type(at: index) == .string ? s.rawLength(at: index) + 2 : 1
        if bytes > SaveModule.maxValueBytes {
            throw problem("value is larger than \(SaveModule.maxValueBytes >> 20) MiB, far over what a save can hold")
        }
        switch s.type(at: index) {
        case .nil, .none:
            return .nil
        case .boolean:
            return .bool(s.truthy(at: index))
        case .number:
            if s.isInteger(at: index) { return .int(s.integer(at: index)!) }
            let d = s.number(at: index)!
            guard d.isFinite else { throw problem("\(place) is \(d); only finite numbers can be saved") }
            return .number(d)
        case .string:
            guard let text = s.withBytes(at: index, { String(validating: $0, as: UTF8.self) }) ?? nil else {
                throw problem("\(place) is not valid UTF-8 text; binary strings cannot be saved")
            }
            return .string(text)
        case .table:
            return try table(at: index, depth: depth + 1)
        case .function, .userdata, .lightUserdata, .thread:
            throw problem("\(place) is a \(s.typeName(at: index)); \(SavableReader.rule)")
        }
    }

    private mutating func table(at index: Int32, depth: Int) throws -> LuaValue {
        guard depth <= SaveModule.maxDepth else {
            throw problem("\(place) is nested deeper than \(SaveModule.maxDepth) tables")
        }
        s.reserve(4)
        s.pushValue(at: index)
        if s.rawGet(in: onPath) != .nil {
            throw problem("\(place) is a table that contains itself (a cycle); it cannot be saved")
        }
        s.pop()
        mark(index, true)

        var items: [(key: Int64, value: LuaValue)] = []
        var fields: [String: LuaValue] = [:]
        s.pushNil()
        while s.next(in: index) {
            let value = s.top
            switch s.type(at: value - 1) {
            case .number where s.isInteger(at: value - 1):
                let key = s.integer(at: value - 1)!
                steps.append(.item(key))
                items.append((key, try read(at: value, depth: depth)))
            case .string:
                bytes += s.rawLength(at: value - 1) + 3
                guard let key = s.withBytes(at: value - 1, { String(validating: $0, as: UTF8.self) }) ?? nil else {
                    throw problem("\(place) has a key that is not valid UTF-8 text")
                }
                steps.append(.field(key))
                fields[key] = try read(at: value, depth: depth)
            default:
                let shown: String
                switch s.type(at: value - 1) {
                case .number: shown = " (\(s.number(at: value - 1)!))"
                case .boolean: shown = s.truthy(at: value - 1) ? " (true)" : " (false)"
                default: shown = ""
                }
                throw problem("\(place) has a \(s.typeName(at: value - 1)) key\(shown); "
                              + "saved tables are arrays (keys 1..n) or have only string keys")
            }
            steps.removeLast()
            s.pop()
        }
        mark(index, false)

        if items.isEmpty { return .table(fields) }
        guard fields.isEmpty else {
            throw problem("\(place) mixes array items and string keys; saved tables are one or the other")
        }
        items.sort { $0.key < $1.key }
        for (i, item) in items.enumerated() where item.key != Int64(i + 1) {
            throw problem("\(place) is not a sequence: it has key \(item.key) but no key \(i + 1); "
                          + "saved arrays have keys 1..n without gaps")
        }
        return .array(items.map(\.value))
    }

    private func mark(_ index: Int32, _ on: Bool) {
        s.pushValue(at: index)
        if on { s.push(true) } else { s.pushNil() }
        s.rawSet(in: onPath)
    }

    private func problem(_ text: String) -> LuaArgumentError {
        LuaArgumentError(argument, text)
    }

    /// The path of the part being read, as Lua code would write it: `value.player.items[2]`.
    private var place: String {
        var out = "value"
        for step in steps {
            switch step {
            case .item(let i): out += "[\(i)]"
            case .field(let k) where SavableReader.isIdentifier(k): out += "." + k
            case .field(let k): out += "[" + LuaValue.string(k).json() + "]"
            }
        }
        return out
    }

    private static func isIdentifier(_ k: String) -> Bool {
        guard let first = k.utf8.first, !(48...57).contains(first) else { return false }
        return k.utf8.allSatisfy { $0 == 95 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }
}
