/// What the commands ask of the catalog: a game by id, the games of some folders, the list.
extension GameCatalog {
    /// Why a game or a folder asked for cannot be used.
    public struct LookupProblem: Error, CustomStringConvertible {
        public var description: String
    }

    /// The playable game `id`.
    ///
    /// - Throws: ``LookupProblem`` saying why the game is broken, or that there is none by
    ///   that id (with the ids there are).
    public func playableGame(_ id: String) throws(LookupProblem) -> GameEntry {
        if let entry = game(id) { return entry }
        if let broken = entry(id) {
            throw LookupProblem(description: "game '\(id)' cannot be played: \(broken.problem ?? "broken")")
        }
        let known = entries.filter(\.isPlayable).map(\.id).joined(separator: ", ")
        throw LookupProblem(description: "no game with id '\(id)' (games: \(known.isEmpty ? "none found" : known))")
    }

    /// The games in `paths`, each a games folder or one game's folder; with no paths, those
    /// of every folder the arcade searches. A game whose id the arcade's own or an installed
    /// game holds gets an ``GameEntry/idWarning``.
    ///
    /// - Throws: ``LookupProblem`` for the first path that is not a folder.
    public static func of(folders paths: [String]) throws(LookupProblem) -> GameCatalog {
        for path in paths where !folderExists(path) {
            throw LookupProblem(description: "\(path) is not a folder (expected a games folder or a game's folder)")
        }
        let arcade = GameCatalog(searchDirs: defaultSearchDirs())
        guard !paths.isEmpty else { return arcade }
        var catalog = GameCatalog(paths: paths)
        catalog.noteIDsHeld(in: arcade)
        return catalog
    }

    /// `arcade list`: a line a game, its id then its title and description, or why it is broken.
    public var listing: String {
        let width = min(16, entries.map(\.id.count).max() ?? 0)
        var out = ""
        for e in entries {
            let id = e.id + String(repeating: " ", count: max(0, width - e.id.count))
            if let m = e.manifest, e.problem == nil {
                out += "\(id)  \(m.title): \(m.description)\(e.installedNote().map { " (installed; \($0))" } ?? "")\n"
            } else {
                out += "\(id)  (broken) \(e.problem ?? "unknown problem")\n"
            }
        }
        return out
    }
}
