import ArcadeCore

/// An options or spec table a binding takes (`world:add_ball{ x = 1, y = 2, radius = 1 }`):
/// its fields read by name with the argument readers, and every name the binding does not
/// know refused up front, so a typo (`duraton`) is an error instead of an option silently
/// ignored.
///
/// Errors are the argument's: `bad argument #1 to 'PhysicsWorld.add_ball' (field 'x':
/// number expected, got string)`. A table inside one (`spring = { ... }`, the specs of an
/// animation's `group`) is read as options too, its fields named by their path
/// (`field 'spring.damping'`, `field 'group[2].duration'`).
public struct LuaOptions {
    public let stack: LuaStack
    /// The table's absolute stack index; 0 for an absent table, whose fields all read as nil.
    public let index: Int32
    /// The argument the table is, or is inside.
    public let argument: Int32
    /// The field path before this table's own keys: "" for the argument itself, "spring."
    /// for the table in its field `spring`.
    public let path: String

    /// The table at `index` (0: none), for argument `argument`, its keys checked against `known`.
    init(_ s: LuaStack, index: Int32, argument: Int32, path: String, known: LuaOptionNames) throws(LuaArgumentError) {
        stack = s
        self.index = index
        self.argument = argument
        self.path = path
        if index != 0 { try rejectUnknown(known) }
    }

    /// Refuses the first key (in byte order, so the message does not depend on the hash
    /// order) that is not one of `known`.
    private func rejectUnknown(_ known: LuaOptionNames) throws(LuaArgumentError) {
        let s = stack
        s.reserve(3)
        var unknown: [String] = []
        s.pushNil()
        while s.next(in: index) {
            if s.type(at: -2) != .string {
                unknown.append("[\(s.type(at: -2) == .number ? s.describeNumber(at: -2) : s.typeName(at: -2))]")
            } else if s.withBytes(at: -2, { known.contains($0) }) == false {
                unknown.append(s.string(at: -2) ?? "")
            }
            s.pop()
        }
        guard let first = unknown.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) else { return }
        throw LuaArgumentError(argument, "unknown option '\(path)\(first)'" + Self.hint(for: first, known))
    }

    /// " (did you mean 'duration'?)" for a near miss, else the names there are.
    static func hint(for name: String, _ known: LuaOptionNames) -> String {
        let sorted = known.names
        if let near = sorted.min(by: { editDistance(name, $0) < editDistance(name, $1) }),
           editDistance(name, near) <= max(1, min(2, name.count / 3)) {
            return " (did you mean '\(near)'?)"
        }
        return sorted.isEmpty ? " (it takes none)" : " (it takes " + sorted.joined(separator: ", ") + ")"
    }

    /// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the optimal
    /// string alignment distance, so `widht` is one edit from `width`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    // MARK: Fields

    /// Field `key` read by `read` (the field's value on top of the stack while it runs); nil
    /// when the field is nil or the table absent. A problem becomes `field 'key': ...`.
    public func field<T>(_ key: String, _ read: (Int32) throws(LuaValueProblem) -> T) throws(LuaArgumentError) -> T? {
        guard index != 0 else { return nil }
        let s = stack
        s.getField(key, in: index)
        defer { s.pop() }
        if s.isNoneOrNil(-1) { return nil }
        do { return try read(s.top) } catch { throw fieldError(key, error.text) }
    }

    /// Field `key` read by `read`; nil is an error too, in the reader's own words
    /// ("number expected, got nil").
    public func required<T>(_ key: String, _ read: (Int32) throws(LuaValueProblem) -> T) throws(LuaArgumentError) -> T {
        if let v = try field(key, read) { return v }
        let s = stack
        s.pushNil()
        defer { s.pop() }
        do { return try read(s.top) } catch { throw fieldError(key, error.text) }
    }

    /// A finite number field.
    public func number(_ key: String) throws(LuaArgumentError) -> Double? { try field(key, stack.readNumber(at:)) }
    /// A finite number field that must satisfy `valid`: otherwise "`expected` expected, got -2".
    public func number(_ key: String, _ expected: String, where valid: (Double) -> Bool) throws(LuaArgumentError) -> Double? {
        try field(key) { i throws(LuaValueProblem) in try stack.readNumber(at: i, expected, where: valid) }
    }

    /// A string field.
    public func string(_ key: String) throws(LuaArgumentError) -> String? { try field(key, stack.readString(at:)) }
    /// A boolean field.
    public func bool(_ key: String) throws(LuaArgumentError) -> Bool? { try field(key, stack.readBool(at:)) }
    /// A colour field.
    public func color(_ key: String) throws(LuaArgumentError) -> Color? { try field(key, stack.readColor(at:)) }
    /// A point field (`{ x, y }`).
    public func point(_ key: String) throws(LuaArgumentError) -> Vec2? { try field(key, stack.readPoint(at:)) }

    /// The object behind the handle in field `key` (see ``LuaHandles``).
    public func object<T>(_ key: String, _ handles: LuaHandles<T>) throws -> T? {
        guard let id = try field(key, { i throws(LuaValueProblem) in try handles.readID(stack, at: i) }) else { return nil }
        return try handles.object(id)
    }

    /// The table in field `key` read by `read` as options with names `known` (it is on the
    /// stack while `read` runs); nil when the field is nil.
    public func options<T>(_ key: String, known: LuaOptionNames, _ read: (LuaOptions) throws -> T) throws -> T? {
        guard index != 0 else { return nil }
        let s = stack
        let type = s.getField(key, in: index)
        defer { s.pop() }
        if type == .nil { return nil }
        guard type == .table else { throw fieldError(key, s.problem(expected: "table", at: -1).text) }
        return try read(try LuaOptions(s, index: s.top, argument: argument, path: path + key + ".", known: known))
    }

    /// The error for field `key` with the problem `text`: `field 'key': text`.
    public func fieldError(_ key: String, _ text: String) -> LuaArgumentError {
        LuaArgumentError(argument, "field '\(path)\(key)': \(text)")
    }

    /// A problem with the table as a whole ("needs 'to', 'values', 'path' or 'group'").
    public func error(_ text: String) -> LuaArgumentError {
        LuaArgumentError(argument, path.isEmpty ? text : "field '\(path.dropLast())': \(text)")
    }
}

extension LuaStack {
    /// Argument `index` as an options table whose names are all in `known`.
    public func checkOptions(_ index: Int32, known: LuaOptionNames) throws(LuaArgumentError) -> LuaOptions {
        try checkTable(index)
        return try LuaOptions(self, index: absolute(index), argument: index, path: "", known: known)
    }

    /// ``checkOptions(_:known:)``; an absent or nil argument reads as an empty table.
    public func optOptions(_ index: Int32, known: LuaOptionNames) throws(LuaArgumentError) -> LuaOptions {
        isNoneOrNil(index) ? try LuaOptions(self, index: 0, argument: index, path: "", known: known)
            : try checkOptions(index, known: known)
    }

    /// The table at stack index `table` (a value inside argument `argument`, such as one of
    /// its list's items) read as options named `path`.
    public func options(at table: Int32, argument: Int32, path: String, known: LuaOptionNames) throws(LuaArgumentError) -> LuaOptions {
        try LuaOptions(self, index: absolute(table), argument: argument, path: path + ".", known: known)
    }
}

/// The names an options table may hold. Matched on the key's bytes, without making a Swift
/// string of it: every options table is checked, some thousands of times a second (a coin
/// shower's animation specs).
public struct LuaOptionNames: ExpressibleByArrayLiteral, Sendable {
    /// The names, sorted.
    public let names: [String]
    /// The names' bytes one after another, shortest first: those of length `n` start at
    /// `starts[n]` and end at `starts[n + 1]`. Flat, so a look-up reads two arrays and no
    /// array of arrays (whose elements each cost a reference count change to reach).
    private let bytes: [UInt8]
    private let starts: [Int]

    public init(_ names: some Sequence<String>) {
        self.names = Set(names).sorted()
        let longest = self.names.map(\.utf8.count).max() ?? 0
        var bytes: [UInt8] = []
        var starts: [Int] = []
        for n in 0...longest {
            starts.append(bytes.count)
            for name in self.names where name.utf8.count == n { bytes.append(contentsOf: name.utf8) }
        }
        starts.append(bytes.count)
        self.bytes = bytes
        self.starts = starts
    }

    public init(arrayLiteral names: String...) {
        self.init(names)
    }

    /// True when `key` spells one of the names.
    public func contains(_ key: UnsafeRawBufferPointer) -> Bool {
        let n = key.count
        if n == 0 { return names.first == "" }
        guard n &+ 1 < starts.count else { return false }
        var at = starts[n]
        let end = starts[n &+ 1]
        guard at < end else { return false }
        return bytes.withUnsafeBufferPointer { all -> Bool in
            while at < end {
                var i = 0
                while i < n && all[at &+ i] == key[i] { i &+= 1 }
                if i == n { return true }
                at &+= n
            }
            return false
        }
    }

    /// These names and `other`'s.
    public func union(_ other: some Sequence<String>) -> LuaOptionNames {
        LuaOptionNames(names + other)
    }

    /// These names without `other`.
    public func subtracting(_ other: some Sequence<String>) -> LuaOptionNames {
        let dropped = Set(other)
        return LuaOptionNames(names.filter { !dropped.contains($0) })
    }
}
