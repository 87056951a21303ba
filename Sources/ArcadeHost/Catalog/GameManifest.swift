import ArcadeLua

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

    public init(id: String, title: String, description: String, author: String, version: String,
                api: Int = GameManifest.currentAPI, minCols: Int = minimumCols, minRows: Int = minimumRows) {
        self.id = id
        self.title = title
        self.description = description
        self.author = author
        self.version = version
        self.api = api
        self.minCols = minCols
        self.minRows = minRows
    }

    /// Why a manifest was refused; `message` names the file and the field.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    static let knownFields = ["id", "title", "description", "author", "version", "api", "min_size"]

    /// Reads and validates the manifest at `path` (shown in messages as `displayPath`).
    public static func load(path: String, displayPath: String) throws(Problem) -> GameManifest {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard let bytes = FileBytes.read(path, within: folder.isEmpty ? "." : folder, limit: 1 << 20) else {
            throw Problem(message: "\(displayPath): missing or unreadable (every game folder needs a manifest.lua)")
        }
        let value: LuaValue
        do {
            let vm = try LuaVM(name: "manifest", limits: .init(memoryBytes: 4 << 20, secondsPerCall: 0.25))
            value = try vm.evaluateData(String(decoding: bytes, as: UTF8.self), chunkName: displayPath)
        } catch {
            throw Problem(message: error.kind == .syntax || error.file != nil
                          ? error.message : "\(displayPath): \(error.message)")
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
        return GameManifest(id: id, title: title, description: description, author: author, version: version,
                            api: Int(api), minCols: cols, minRows: rows)
    }
}
