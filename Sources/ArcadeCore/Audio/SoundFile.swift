/// A `.sfx` file: one sound, named after the file, as `key = value` lines with the keys of
/// ``SoundSpec`` (`#` starts a comment):
///
/// ```
/// # coin.sfx: the coin landing in the pig
/// wave = square
/// notes = c5 e5 g5
/// speed = 8
/// volume = 0.6
/// ```
public enum SoundFile {
    /// The largest `.sfx` file read, in bytes.
    public static let maxBytes = 64 << 10

    /// The spec `text` describes. `name` is the file's name for the errors:
    /// `coin.sfx:3: unknown key 'wav' (did you mean 'wave'?)`.
    public static func parse(_ text: String, name: String) throws(SoundFileError) -> SoundSpec {
        var spec = SoundSpec()
        var seen: [String: Int] = [:]
        var lineNumber = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = line.trimmingSpaces()
            if trimmed.isEmpty { continue }
            guard let eq = trimmed.firstIndex(of: "=") else {
                throw SoundFileError(file: name, line: lineNumber, "expected 'key = value', got '\(trimmed.prefix(40))'")
            }
            let key = String(trimmed[..<eq].trimmingSpaces())
            let value = String(trimmed[trimmed.index(after: eq)...].trimmingSpaces())
            if let first = seen[key] {
                throw SoundFileError(file: name, line: lineNumber, "'\(key)' is set twice (first on line \(first))")
            }
            seen[key] = lineNumber
            do { try spec.set(key, text: value) } catch {
                throw SoundFileError(file: name, line: lineNumber, error.description)
            }
        }
        do { try spec.validate() } catch {
            throw SoundFileError(file: name, line: error.key == "notes" ? seen["notes"] : seen[error.key], error.description)
        }
        return spec
    }
}

/// What was wrong in a `.sfx` file, where.
public struct SoundFileError: Error, Equatable, CustomStringConvertible, Sendable {
    public var file: String
    /// The line, when one line is at fault.
    public var line: Int?
    public var text: String

    public init(file: String, line: Int?, _ text: String) {
        self.file = file
        self.line = line
        self.text = text
    }

    public var description: String { line.map { "\(file):\($0): \(text)" } ?? "\(file): \(text)" }
}

extension Substring {
    /// Without spaces, tabs and carriage returns at either end.
    func trimmingSpaces() -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !blank($0) }), let end = lastIndex(where: { !blank($0) }) else { return "" }
        return self[start...end]
    }
}
