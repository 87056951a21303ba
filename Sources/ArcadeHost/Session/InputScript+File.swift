import ArcadeCore

extension InputScript {
    /// Why an input script or recording file could not be used.
    public struct FileProblem: Error, CustomStringConvertible {
        public var description: String
    }

    /// The largest input script or recording read: far more than a day of play takes.
    public static let maxFileBytes = 16 << 20

    /// Reads and parses the input script or recording at `path` (`--input`, `--replay`).
    ///
    /// - Throws: ``FileProblem`` saying why: no such file, not a regular file, larger than
    ///   ``maxFileBytes``, or the line that does not parse (``parse(_:)``).
    public static func read(_ path: String) throws(FileProblem) -> InputScript {
        guard let text = FileIO.readText(path, limit: maxFileBytes) else {
            let why = FileIO.whyUnreadable(path, limit: maxFileBytes, what: "an input script or recording")
            throw FileProblem(description: "cannot read input script '\(path)': \(why)")
        }
        do { return try InputScript.parse(text) } catch {
            throw FileProblem(description: "\(path): \(error)")
        }
    }

    /// Refuses a recording made in another game than `id` (its header says which), unless
    /// `allowOtherGame`: its keys and clicks mean something else there, so a replay would
    /// show nothing that happened. A script without a header may go to any game.
    public func check(madeFor id: String, path: String, allowOtherGame: Bool) throws(FileProblem) {
        guard let header, header.game != id, !allowOtherGame else { return }
        throw FileProblem(description: "\(path) was recorded in the game '\(InputScript.shown(header.game))', not '\(id)': "
                          + "its inputs would mean something else here (--allow-other-game plays it anyway)")
    }
}
