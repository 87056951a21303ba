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
        throw LookupProblem(description: noGameMessage(id, playableOnly: true))
    }

    /// This catalog with the game `id` playable even though its `main.lua` does not compile
    /// (`arcade dev`: the game opens on the error, and a saved fix carries it on).
    public func allowingCompileErrors(in id: String) -> GameCatalog {
        var catalog = self
        for i in catalog.entries.indices where catalog.entries[i].id == id
            && catalog.entries[i].mainDoesNotCompile && catalog.entries[i].manifest != nil {
            catalog.entries[i].problem = nil
            catalog.entries[i].mainDoesNotCompile = false
        }
        return catalog
    }

    /// "No game with id": the ids there are, and how to reach a game in another folder (the
    /// current folder was looked at already, see ``inCurrentFolder(_:)``).
    public func noGameMessage(_ id: String, playableOnly: Bool = false) -> String {
        let known = entries.filter { !playableOnly || $0.isPlayable }.map(\.id).joined(separator: ", ")
        return "no game with id '\(id)' (games: \(known.isEmpty ? "none found" : known)), nor in the current folder; "
            + "for a game in another folder, name the folder that holds it: --games DIR (--games . is the current one)"
    }

    /// The game `id` in the current folder, for a command that found none by that id in the
    /// folders it searched: the current folder itself when it is that game's folder, or one of
    /// its games. Its origin comes from where it really is: a folder here is never taken for
    /// the arcade's own games (nor installed ones) unless it is that very folder.
    public static func inCurrentFolder(_ id: String) -> GameEntry? {
        GameCatalog(paths: ["."]).holder(of: id)
    }

    /// The games of the folders the arcade searches (`extra` first), for a command asking for
    /// the game `id`: when none of them has a game by that id but the current folder is that
    /// game or holds it, that game's folder is added, and `note` is told which folder it is.
    public static func finding(_ id: String, extra: [String], note: (String) -> Void) -> GameCatalog {
        let catalog = GameCatalog(searchDirs: defaultSearchDirs(extra: extra))
        guard catalog.entry(id) == nil, let here = inCurrentFolder(id) else { return catalog }
        note(currentFolderNote(here))
        return GameCatalog(paths: defaultSearchDirs(extra: extra) + [here.folder])
    }

    /// What a command says when it takes a game from the current folder: which folder, and
    /// that its saves go by its id.
    public static func currentFolderNote(_ entry: GameEntry) -> String {
        "'\(entry.id)' is the game in \(entry.folder), found in the current folder "
            + "(its saves and best score are kept under the id '\(entry.id)')"
    }

    /// The current folder when it is one game's own folder (it holds `manifest.lua` or
    /// `main.lua`), for the commands that then take that game alone.
    public static var currentGameFolder: String? {
        let here = absolutePath(".")
        return isGameFolder(here) ? here : nil
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
