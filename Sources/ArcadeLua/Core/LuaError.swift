/// A failure inside a game's Lua code, with where it happened.
public struct LuaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: String, Sendable {
        /// The chunk did not compile.
        case syntax
        /// An error raised while running (including errors raised by native functions).
        case runtime
        /// The script passed its memory cap.
        case memory
        /// The script ran past its time budget, a callback's or the step's (a runaway loop,
        /// or too much work in one step); ``LuaError/budget`` says which.
        case budget
        /// A file the game needs is missing or unreadable.
        case file
        /// The error handler itself failed (e.g. while reporting a stack overflow).
        case handler
    }

    public var kind: Kind
    /// The first line of the error, usually `file:line: message`.
    public var message: String
    /// The chunk the error points at (e.g. `fishing/main.lua`), when known.
    public var file: String?
    /// The line in `file`, when known.
    public var line: Int?
    /// Lua's `stack traceback:` block, or "" when there is none.
    public var traceback: String
    /// For a ``Kind/budget`` error: which time budget ran out.
    public var budget: Budget?
    /// The callback that failed, as the error card names it: `update`, `input`, `timer
    /// (arcade.after, coinbank/main.lua:12)`, `animation on_done (arcade.animate, ...)`,
    /// `on_contact (world:on_contact, ...)`; nil when the error came from no callback
    /// (running `main.lua`, a compile error).
    public var callback: String?

    /// The time budgets a game runs under (``LuaVM/Limits``).
    public enum Budget: Sendable {
        /// One callback's own (``LuaVM/Limits/secondsPerCall``).
        case call
        /// The whole step's, shared by all its callbacks and native work (``LuaVM/Limits/secondsPerStep``).
        case step
        /// None ran out: the player interrupted the work (Ctrl-C, ``LuaVM/Interruption``),
        /// which stops it the same way.
        case interrupt
    }

    public init(kind: Kind, message: String, traceback: String = "", budget: Budget? = nil) {
        self.kind = kind
        self.message = message
        self.traceback = traceback
        self.budget = budget
        (self.file, self.line) = LuaError.location(in: message)
    }

    /// The message, the callback that failed and the traceback, as printed on stderr.
    public var description: String {
        var text = message
        if let callback { text += "\nin " + callback }
        return traceback.isEmpty ? text : text + "\n" + traceback
    }

    /// This error, named as raised in the callback `name` unless an inner callback is named already.
    public func inCallback(_ name: String) -> LuaError {
        var e = self
        if e.callback == nil { e.callback = name }
        return e
    }

    /// This error, named as raised in `callback` (see ``LuaCallback/name``).
    public func `in`(_ callback: LuaCallback) -> LuaError {
        inCallback(callback.name)
    }

    /// The message without its `file:line: ` prefix.
    public var reason: String {
        guard let file, let line else { return message }
        let prefix = "\(file):\(line): "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }

    /// Splits `file:line: rest` (the form Lua's own errors take).
    static func location(in message: String) -> (String?, Int?) {
        let chars = Array(message.utf8)
        var i = 0
        while i < chars.count {
            if chars[i] == UInt8(ascii: ":") {
                var j = i + 1
                while j < chars.count, chars[j] >= 48, chars[j] <= 57 { j += 1 }
                if j > i + 1, j < chars.count, chars[j] == UInt8(ascii: ":"), i > 0 {
                    let file = String(decoding: chars[0..<i], as: UTF8.self)
                    let line = Int(String(decoding: chars[(i + 1)..<j], as: UTF8.self))
                    // a file name does not contain a newline; a message that merely has "x:1:" later on does
                    if !file.contains("\n") { return (file, line) }
                    return (nil, nil)
                }
            }
            if chars[i] == UInt8(ascii: "\n") { break }
            i += 1
        }
        return (nil, nil)
    }
}

/// Thrown by a native function whose long loop found its callback overdue (``LuaVM/isOverdue``):
/// the call stops with the budget error, as a Lua loop would, and nothing can catch it.
public struct LuaBudgetStop: Error {
    public init() {}
}

/// Thrown by native functions to raise a Lua error with the caller's location prepended.
public struct LuaScriptError: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Thrown by argument checks (see LuaArguments.swift); rendered like `luaL_argerror`:
/// `bad argument #2 to 'after' (function expected, got nil)`.
public struct LuaArgumentError: Error, CustomStringConvertible {
    /// The argument's stack index (`self` of a method is 1).
    public var index: Int32
    public var problem: String
    public init(_ index: Int32, _ problem: String) {
        self.index = index
        self.problem = problem
    }
    public var description: String { "bad argument #\(index) (\(problem))" }

    /// The message as `luaL_argerror` words it for `function`: a method call (`obj:f(...)`)
    /// does not count `self`, and a bad `self` is "calling 'f' on bad self".
    func message(function: String, calledAsMethod: Bool) -> String {
        let n = calledAsMethod ? index - 1 : index
        if n == 0 { return "calling '\(function)' on bad self (\(problem))" }
        return "bad argument #\(n) to '\(function)' (\(problem))"
    }
}
