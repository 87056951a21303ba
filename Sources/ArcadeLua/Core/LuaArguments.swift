import ArcadeCore

// The arcade's `luaL_check*`: what every binding uses to read the values a script passed.
//
// A value is read by a *reader* (`readNumber(at:)`, `readColor(at:)`...), which either
// returns it or throws a ``LuaValueProblem`` in Lua's words: "number expected, got string".
// Where the value came from decides how the problem is shown:
//
//   an argument            bad argument #2 to 'arcade.every' (function expected, got nil)
//   a field of an options  bad argument #1 to 'PhysicsWorld.add_ball' (field 'x': number
//   table (LuaOptions)     expected, got string)
//   a property being set   ball.vx: finite number expected, got nan
//
// The argument number is the stack index; the VM takes `self` off for a method call
// (`world:add_ball(5)` is argument #1, as `luaL_argerror` counts).

/// What is wrong with a value a script passed, in Lua's words, before it is known where the
/// value was: "number expected, got string", "\"left\", \"center\" or \"right\" expected,
/// got \"middle\"".
public struct LuaValueProblem: Error, CustomStringConvertible {
    /// The words, without a location.
    public var text: String

    public init(_ text: String) {
        self.text = text
    }

    /// "`expected` expected, got `got`".
    public init(expected: String, got: String) {
        self.text = "\(expected) expected, got \(got)"
    }

    public var description: String { text }
}

// MARK: - Readers

extension LuaStack {
    /// How a refused value is named after "got", as `luaL_typeerror` names it: the class of a
    /// handle (its `__name`), "no value" for a missing argument, else the type's name.
    public func describeValue(at index: Int32) -> String {
        switch type(at: index) {
        case .none: "no value"
        case .userdata: handleDescription(at: index)
        case .lightUserdata: "light userdata"
        default: typeName(at: index)
        }
    }

    /// ``describeValue(at:)``, but a number that was refused for its value shows the value
    /// (`inf`, `nan`, `12.5`): "number expected, got number" would say nothing.
    func describeNumber(at index: Int32) -> String {
        guard let v = number(at: index) else { return describeValue(at: index) }
        if v.isNaN { return "nan" }
        if v.isInfinite { return v > 0 ? "inf" : "-inf" }
        if isInteger(at: index) { return String(integer(at: index) ?? 0) }
        return "\(v)"
    }

    /// ``describeValue(at:)``, but a string shows itself, quoted: a name that was refused
    /// (`"middle"`) says more than "string".
    public func describeQuoted(at index: Int32) -> String {
        string(at: index).map { "\"\($0)\"" } ?? describeValue(at: index)
    }

    /// A problem saying `expected` was expected and what the value at `index` is.
    public func problem(expected: String, at index: Int32) -> LuaValueProblem {
        LuaValueProblem(expected: expected, got: describeValue(at: index))
    }

    /// A finite number (inf and nan are refused by name).
    public func readNumber(at index: Int32) throws(LuaValueProblem) -> Double {
        guard let v = number(at: index) else { throw problem(expected: "number", at: index) }
        guard v.isFinite else { throw LuaValueProblem(expected: "finite number", got: describeNumber(at: index)) }
        return v
    }

    /// A finite number that must satisfy `valid`: otherwise "`expected` expected, got -2".
    public func readNumber(at index: Int32, _ expected: String, where valid: (Double) -> Bool) throws(LuaValueProblem) -> Double {
        let v = try readNumber(at: index)
        guard valid(v) else { throw LuaValueProblem(expected: expected, got: describeNumber(at: index)) }
        return v
    }

    /// An integer: a Lua integer or a float with an exact integer value (no string conversion).
    public func readInteger(at index: Int32) throws(LuaValueProblem) -> Int64 {
        if let v = integer(at: index) { return v }
        throw LuaValueProblem(expected: "integer", got: describeNumber(at: index))
    }

    /// An integer that must satisfy `valid`: otherwise "`expected` expected, got -1".
    public func readInteger(at index: Int32, _ expected: String, where valid: (Int64) -> Bool) throws(LuaValueProblem) -> Int64 {
        guard let v = integer(at: index), valid(v) else { throw LuaValueProblem(expected: expected, got: describeNumber(at: index)) }
        return v
    }

    /// A string (numbers are not converted).
    public func readString(at index: Int32) throws(LuaValueProblem) -> String {
        guard let v = string(at: index) else { throw problem(expected: "string", at: index) }
        return v
    }

    /// The longest name a node or a ball may have, in bytes.
    public static let maximumNameBytes = 256

    /// A name for a node or a ball: a string of at most ``maximumNameBytes`` bytes.
    public func readName(at index: Int32) throws(LuaValueProblem) -> String {
        guard let v = string(at: index), v.utf8.count <= Self.maximumNameBytes else {
            throw problem(expected: "string of at most \(Self.maximumNameBytes) bytes", at: index)
        }
        return v
    }

    /// A string, or a number written as text (`12`, `0.5`): what text properties take.
    public func readText(at index: Int32) throws(LuaValueProblem) -> String {
        if let v = string(at: index) { return v }
        if isInteger(at: index), let i = integer(at: index) { return String(i) }
        if let d = number(at: index) { return String(d) }
        throw problem(expected: "string", at: index)
    }

    /// A boolean (only `true` and `false`).
    public func readBool(at index: Int32) throws(LuaValueProblem) -> Bool {
        guard type(at: index) == .boolean else { throw problem(expected: "boolean", at: index) }
        return truthy(at: index)
    }

    /// A colour (see ``color(at:)``).
    public func readColor(at index: Int32) throws(LuaValueProblem) -> Color {
        guard let c = color(at: index) else { throw problem(expected: "colour like \"#ff8800\"", at: index) }
        return c
    }

    /// A point `{ x, y }` or `{ x = .., y = .. }`.
    public func readPoint(at index: Int32) throws(LuaValueProblem) -> Vec2 {
        guard let p = point(at: index) else { throw problem(expected: "{ x, y }", at: index) }
        return p
    }

    /// One of `names`, turned into its value by `lookup` (nil: not a name it knows).
    public func readChoice<T>(at index: Int32, of names: [String], _ lookup: (String) -> T?) throws(LuaValueProblem) -> T {
        if let name = string(at: index), let v = lookup(name) { return v }
        let quoted = names.map { "\"\($0)\"" }
        let expected = quoted.count > 1 ? quoted.dropLast().joined(separator: ", ") + " or " + quoted.last! : quoted.joined()
        throw LuaValueProblem(expected: expected, got: describeQuoted(at: index))
    }

    /// One of the cases of `E` by its raw value: `"left"`, `"center"` or `"right"` for ``TextAlign``.
    public func readName<E: RawRepresentable & CaseIterable>(_: E.Type, at index: Int32) throws(LuaValueProblem) -> E
    where E.RawValue == String {
        try readChoice(at: index, of: E.allCases.map(\.rawValue), E.init(rawValue:))
    }
}

// MARK: - Arguments

extension LuaStack {
    /// Argument `index` read by `read`; a problem becomes the argument's error.
    @inlinable
    public func argument<T>(_ index: Int32, _ read: (Int32) throws(LuaValueProblem) -> T) throws(LuaArgumentError) -> T {
        do { return try read(index) } catch { throw LuaArgumentError(index, error.text) }
    }

    /// Argument `index` read by `read`, or `fallback` when it is absent or nil.
    @inlinable
    public func optArgument<T>(_ index: Int32, _ fallback: T, _ read: (Int32) throws(LuaValueProblem) -> T) throws(LuaArgumentError) -> T {
        isNoneOrNil(index) ? fallback : try argument(index, read)
    }

    /// A finite number (`luaL_checknumber`, without inf and nan).
    public func checkNumber(_ index: Int32) throws(LuaArgumentError) -> Double { try argument(index, readNumber(at:)) }

    /// A finite number, `fallback` when absent or nil (`luaL_optnumber`).
    public func optNumber(_ index: Int32, _ fallback: Double) throws(LuaArgumentError) -> Double {
        try optArgument(index, fallback, readNumber(at:))
    }

    /// An integer, without string conversion; a float with an exact integer value counts.
    public func checkInteger(_ index: Int32) throws(LuaArgumentError) -> Int64 { try argument(index, readInteger(at:)) }

    /// An integer as `luaL_checkinteger` reads it (what Lua's own libraries take): a numeric
    /// string converts, and a float without an exact integer value is refused by name.
    public func checkLuaInteger(_ index: Int32) throws(LuaArgumentError) -> Int64 {
        if let v = coercedInteger(at: index) { return v }
        if coercedNumber(at: index) != nil { throw LuaArgumentError(index, "number has no integer representation") }
        throw LuaArgumentError(index, problem(expected: "number", at: index).text)
    }

    /// A string (`luaL_checkstring`, without converting numbers).
    public func checkString(_ index: Int32) throws(LuaArgumentError) -> String { try argument(index, readString(at:)) }

    /// A string, or nil when absent or nil.
    public func optString(_ index: Int32) throws(LuaArgumentError) -> String? {
        isNoneOrNil(index) ? nil : try argument(index, readString(at:))
    }

    /// A colour, `fallback` when absent or nil.
    public func optColor(_ index: Int32, _ fallback: Color) throws(LuaArgumentError) -> Color {
        try optArgument(index, fallback, readColor(at:))
    }

    /// Throws unless the value at `index` is a table (`luaL_checktype`).
    public func checkTable(_ index: Int32) throws(LuaArgumentError) {
        guard type(at: index) == .table else { throw LuaArgumentError(index, problem(expected: "table", at: index).text) }
    }
}

// MARK: - Callbacks

extension LuaVM {
    /// The function at argument `index`, kept as a callback (see ``LuaCallback``).
    public func checkCallback(_ s: LuaStack, _ index: Int32, kind: String,
                              registeredBy: String) throws(LuaArgumentError) -> LuaCallback {
        guard s.type(at: index) == .function else { throw LuaArgumentError(index, s.problem(expected: "function", at: index).text) }
        return callback(s, at: index, kind: kind, registeredBy: registeredBy)
    }

    /// ``checkCallback(_:_:kind:registeredBy:)``, or nil when the argument is absent or nil.
    public func optCallback(_ s: LuaStack, _ index: Int32, kind: String,
                            registeredBy: String) throws(LuaArgumentError) -> LuaCallback? {
        s.isNoneOrNil(index) ? nil : try checkCallback(s, index, kind: kind, registeredBy: registeredBy)
    }
}

// MARK: - Weak handles

/// The native objects behind one class of weak handles (`luaL_checkudata` for them): turns
/// the handle a script passed into its object, with the errors every binding gives: an
/// argument error when the value is not such a handle ("Node expected, got number"), and the
/// class's ``LuaClass/goneMessage`` when its object is gone ("this node was removed").
public struct LuaHandles<Object> {
    public let cls: LuaClass
    private let lookup: (UInt64) -> Object?

    /// Handles of `cls`, whose ids `lookup` resolves (nil: the object is gone).
    public init(_ cls: LuaClass, lookup: @escaping (UInt64) -> Object?) {
        self.cls = cls
        self.lookup = lookup
    }

    /// The object of handle id `id`, or the class's gone message as a script error.
    public func object(_ id: UInt64) throws(LuaScriptError) -> Object {
        guard let o = lookup(id) else { throw LuaScriptError(cls.goneMessage) }
        return o
    }

    /// The object behind the handle at argument `index`.
    public func check(_ s: LuaStack, _ index: Int32) throws -> Object {
        try object(s.checkHandle(index, of: cls))
    }

    /// The id in the handle value at `index` (a field's or a property's value, not an
    /// argument): a value that is not such a handle is a problem ("Node expected, got number").
    public func readID(_ s: LuaStack, at index: Int32) throws(LuaValueProblem) -> UInt64 {
        guard let id = s.handle(at: index, of: cls) else { throw s.problem(expected: cls.shortName, at: index) }
        return id
    }

    /// The object behind the handle value at `index` (see ``readID(_:at:)``).
    public func read(_ s: LuaStack, at index: Int32) throws -> Object {
        try object(readID(s, at: index))
    }

    /// Whether the handle at argument `index` still has its object.
    public func isAlive(_ s: LuaStack, _ index: Int32) throws(LuaArgumentError) -> Bool {
        lookup(try s.checkHandle(index, of: cls)) != nil
    }

    /// The `handle:remove()` method: `remove` takes the object out of its scene or world
    /// (a handle whose object is already gone raises the class's gone message).
    public func removeMethod(_ remove: @escaping (Object) -> Void) -> (String, LuaFunction) {
        ("remove", { s in
            remove(try self.check(s, 1))
            return 0
        })
    }

    /// The `handle:alive()` method: false once the object is gone (it never raises for that).
    public var aliveMethod: (String, LuaFunction) {
        ("alive", { s in
            s.push(try self.isAlive(s, 1))
            return 1
        })
    }
}

extension LuaStack {
    /// The id in the handle at `index` when it is a handle of class `cls`, else nil.
    public func handle(at index: Int32, of cls: LuaClass) -> UInt64? {
        guard type(at: index) == .userdata, let p = userdata(at: index) else { return nil }
        let base = top
        defer { setTop(base) }
        guard getMetatable(at: index) else { return nil }
        pushRegistry()
        getField(cls.name, in: -1)
        guard rawEqual(-1, -3) else { return nil }
        return p.load(as: HandlePayload.self).id
    }

    /// The id in the handle at argument `index`, or "Node expected, got number".
    public func checkHandle(_ index: Int32, of cls: LuaClass) throws(LuaArgumentError) -> UInt64 {
        if let id = handle(at: index, of: cls) { return id }
        throw LuaArgumentError(index, problem(expected: cls.shortName, at: index).text)
    }
}
