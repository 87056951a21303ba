import ArcadeLua
import ArcadeRender

/// A game's `manifest.lua`: data only, evaluated with an empty environment.
///
///     return {
///       id = "coinbank",              -- lower-case letters, digits, '-' and '_'
///       title = "Coin Bank",
///       description = "Three hundred coins fly into a piggy bank.",
///       author = "The arcade",
///       version = "1.0.0",
///       api = 1,                      -- the arcade API version the game targets
///       min_size = { 80, 24 },        -- optional: columns, rows (at least 80 x 24)
///       controls = {                  -- optional (`arcade check` warns without): the pause card's list
///         { "space / enter", "send the coins" },   -- what to press or click, what it does
///         { "click the button", "send the coins" },
///       },
///       hide_on_pause = true,         -- optional: the pause card covers the whole game
///     }
public struct GameManifest: Equatable, Sendable {
    /// The API version this arcade provides.
    public static let currentAPI = 1
    /// The smallest canvas any game gets.
    public static let minimumCols = 80
    public static let minimumRows = 24

    public var id: String
    public var title: String
    public var description: String
    public var author: String
    public var version: String
    public var api: Int
    public var minCols: Int
    public var minRows: Int
    /// The keys and mouse actions the pause card lists, in the manifest's order.
    public var controls: [GameControl]
    /// Whether the pause card covers the whole game rather than a panel over it: for games
    /// whose board must not be studied while the clock is stopped (a memory game).
    public var hideOnPause: Bool

    /// Most controls a manifest may list (the pause card shows them all at 80 x 24).
    public static let maxControls = 12
    /// Longest text of a control's input ("space / enter") and of its action, in characters.
    public static let maxControlInput = 18
    public static let maxControlAction = 40

    public init(id: String, title: String, description: String, author: String, version: String,
                api: Int = GameManifest.currentAPI, minCols: Int = minimumCols, minRows: Int = minimumRows,
                controls: [GameControl] = [], hideOnPause: Bool = false) {
        self.id = id
        self.title = title
        self.description = description
        self.author = author
        self.version = version
        self.api = api
        self.minCols = minCols
        self.minRows = minRows
        self.controls = controls
        self.hideOnPause = hideOnPause
    }

    /// Why a manifest was refused; `message` names the file and the field.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    static let knownFields = ["id", "title", "description", "author", "version", "api", "min_size", "controls",
                              "hide_on_pause"]

    /// Reads and validates the manifest at `path` (shown in messages as `displayPath`).
    public static func load(path: String, displayPath: String) throws(Problem) -> GameManifest {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard let text = FileIO.readText(path, within: folder.isEmpty ? "." : folder, limit: 1 << 20) else {
            throw Problem(message: "\(displayPath): missing or unreadable (every game folder needs a manifest.lua)")
        }
        return try parse(text, displayPath: displayPath)
    }

    /// Evaluates and validates the text of a manifest (a cart's, before anything is written).
    public static func parse(_ text: String, displayPath: String) throws(Problem) -> GameManifest {
        let value: LuaValue
        do {
            let vm = try LuaVM(name: "manifest", limits: .init(memoryBytes: 4 << 20, secondsPerCall: 0.25))
            value = try vm.evaluateData(text, chunkName: displayPath)
        } catch {
            let placed = error.kind == .syntax || error.file != nil || error.message.hasPrefix(displayPath + ": ")
            throw Problem(message: placed ? error.message : "\(displayPath): \(error.message)")
        }
        return try validate(value, displayPath: displayPath)
    }

    /// Validates an evaluated manifest.
    public static func validate(_ value: LuaValue, displayPath: String) throws(Problem) -> GameManifest {
        func fail(_ m: String) -> Problem { Problem(message: "\(displayPath): \(m)") }
        let fields: [String: LuaValue]
        switch value {
        case .table(let t): fields = t
        case .array: throw fail("must return a table of named fields (id = ..., title = ...), got a list")
        default: throw fail("must return a table, got \(value.typeName)")
        }
        for key in fields.keys.sorted() where !knownFields.contains(key) {
            throw fail("unknown field '\(key)' (known fields: \(knownFields.joined(separator: ", ")))")
        }
        func string(_ name: String) throws(Problem) -> String {
            guard let v = fields[name] else { throw fail("field '\(name)' is missing") }
            guard case .string(let s) = v else { throw fail("field '\(name)' must be a string, got \(v.typeName)") }
            guard !s.allSatisfy(\.isWhitespace) else { throw fail("field '\(name)' is empty") }
            return s
        }
        let id = try string("id")
        guard id.count <= 32, id.first.map({ $0.isLetter && $0.isLowercase }) == true,
              id.allSatisfy({ ($0.isLetter && $0.isLowercase && $0.isASCII) || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw fail("field 'id' must start with a lower-case letter and hold only a-z, 0-9, '-' and '_' (got '\(id)')")
        }
        let title = try string("title")
        let description = try string("description")
        guard !description.contains("\n") else { throw fail("field 'description' must be one line") }
        let author = try string("author")
        let version = try string("version")
        guard let apiValue = fields["api"] else { throw fail("field 'api' is missing (this arcade provides API \(currentAPI))") }
        guard let api = apiValue.intValue else { throw fail("field 'api' must be a whole number, got \(apiValue.typeName)") }
        guard api == currentAPI else {
            throw fail("targets arcade API \(api), but this arcade provides API \(currentAPI)")
        }
        var cols = minimumCols
        var rows = minimumRows
        if let size = fields["min_size"] {
            guard case .array(let items) = size, items.count == 2, let c = items[0].intValue, let r = items[1].intValue else {
                throw fail("field 'min_size' must be { columns, rows }, like { 80, 24 }")
            }
            guard c >= minimumCols, r >= minimumRows, c <= 1000, r <= 500 else {
                throw fail("field 'min_size' must be at least { \(minimumCols), \(minimumRows) } (got { \(c), \(r) })")
            }
            cols = Int(c)
            rows = Int(r)
        }
        let controls = try fields["controls"].map { v throws(Problem) in try validateControls(v, fail: fail) } ?? []
        var hideOnPause = false
        if let v = fields["hide_on_pause"] {
            guard case .bool(let b) = v else { throw fail("field 'hide_on_pause' must be true or false, got \(v.typeName)") }
            hideOnPause = b
        }
        return GameManifest(id: id, title: title, description: description, author: author, version: version,
                            api: Int(api), minCols: cols, minRows: rows, controls: controls, hideOnPause: hideOnPause)
    }

    /// `controls = { { "space", "cast the hook" }, ... }`: a list of pairs of one-line strings.
    static func validateControls(_ value: LuaValue, fail: (String) -> Problem) throws(Problem) -> [GameControl] {
        let shape = "a list of { \"keys or mouse\", \"what it does\" } pairs, like { { \"space\", \"cast the hook\" } }"
        let items: [LuaValue]
        switch value {
        case .array(let list): items = list
        case .table(let t) where t.isEmpty: items = []  // {} reads as an empty table
        default: throw fail("field 'controls' must be \(shape), got \(value.typeName == "table" ? "a table with named fields" : value.typeName)")
        }
        guard items.count <= maxControls else {
            throw fail("field 'controls' lists \(items.count) controls; at most \(maxControls) fit on the pause card")
        }
        var controls: [GameControl] = []
        for (i, item) in items.enumerated() {
            let which = "field 'controls', entry \(i + 1)"
            guard case .array(let pair) = item, pair.count == 2,
                  case .string(let input) = pair[0], case .string(let action) = pair[1] else {
                throw fail("\(which) must be { \"keys or mouse\", \"what it does\" }, two strings, like { \"space\", \"cast the hook\" }")
            }
            for (text, name, limit) in [(input, "keys or mouse", maxControlInput), (action, "what it does", maxControlAction)] {
                guard !text.allSatisfy(\.isWhitespace) else { throw fail("\(which): '\(name)' is empty") }
                guard !text.contains(where: { $0.isNewline || $0 == "\t" }) else {
                    throw fail("\(which): '\(name)' must be one line")
                }
                // measured in cells: a wide character takes two
                let width = TextWidth.width(text)
                guard width <= limit else {
                    throw fail("\(which): '\(name)' is \(width) cells wide; at most \(limit) fit on the pause card (\"\(text)\")")
                }
            }
            controls.append(GameControl(input: input, action: action))
        }
        return controls
    }
}

/// One line of a game's controls: what the player presses or clicks, and what it does.
public struct GameControl: Equatable, Sendable {
    /// Keys or a mouse action, as the player would say it: `"space / enter"`, `"click the pond"`.
    public var input: String
    /// What it does: `"cast the hook"`.
    public var action: String

    public init(input: String, action: String) {
        self.input = input
        self.action = action
    }
}
