import ArcadeCore

extension InputScript {
    /// Why an input script or recording file could not be used.
    public struct FileProblem: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads and parses the input script or recording at `path` (`--input`, `--replay`).
    public static func read(_ path: String) throws(FileProblem) -> InputScript {
        guard let text = FileIO.readText(path) else { throw FileProblem(description: "cannot read input script '\(path)'") }
        do { return try InputScript.parse(text) } catch {
            throw FileProblem(description: "\(path): \(error)")
        }
    }
}
