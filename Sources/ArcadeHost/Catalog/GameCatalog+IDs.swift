#if canImport(Glibc)
import Glibc
#endif

/// Who holds an id. A game's saves and best score are kept under its id, so one id belongs
/// to one game: the catalog plays only the holder, lists the others as duplicates, and
/// answers whether an id is free for a new game (`arcade install` refuses a taken one).
extension GameCatalog {
    /// The entry holding `id`, playable or broken: the game the arcade plays (or shows as
    /// broken) under it. Nil when no game claims it.
    public func holder(of id: String) -> GameEntry? {
        entries.first { $0.id == id && $0.duplicateOf == nil }
    }

    /// True when `id` is held by one of the arcade's own games (its `games/` folder).
    public func isBundled(_ id: String) -> Bool {
        holder(of: id)?.origin == .bundled
    }

    /// True when `id` is held by a game in the user's games folder.
    public func isInstalled(_ id: String) -> Bool {
        holder(of: id)?.origin == .installed
    }

    /// True when some game already holds `id` (bundled, installed, or in a folder given on
    /// the command line): another game claiming it would be a duplicate.
    public func isTaken(_ id: String) -> Bool {
        holder(of: id) != nil
    }

    /// The games ignored because another holds their id `id`.
    public func duplicates(of id: String) -> [GameEntry] {
        entries.filter { $0.id == id && $0.duplicateOf != nil }
    }

    /// Why a new game (`arcade new`) may not take `id`, or nil when it may: one of the
    /// arcade's own or an installed game holds it, and the arcade plays one game per id, so
    /// the new one would never be played.
    public func newGameProblem(id: String) -> String? {
        guard let holder = holder(of: id), holder.origin != .given else { return nil }
        return "the id '\(id)' is taken by \(holder.folder) (\(holder.origin.holderNote)), and the arcade plays "
            + "one game per id: choose another"
    }

    /// Why `arcade dev <id>` would not follow the author's edits, or nil when it would: another
    /// game claims the id too, and only its holder is played and watched. Editing the ignored
    /// copy would change nothing on screen (the usual case: the game was packed and
    /// installed, and work goes on in its folder).
    public func hotReloadProblem(for id: String) -> String? {
        let ignored = duplicates(of: id)
        guard let holder = holder(of: id), !ignored.isEmpty else { return nil }
        let others = ignored.map(\.folder).joined(separator: ", ")
        let way = switch holder.origin {
        case .installed: "remove the installed copy with `arcade uninstall \(id)` (its saves stay), or give the other game another id"
        case .bundled: "give the other game another id: the arcade's own games keep theirs"
        case .given: "give one of them another id"
        }
        return "'\(id)' is claimed by \(holder.folder) (\(holder.origin.holderNote)) and by \(others); "
            + "dev would run and watch the first, so edits to the other would not reload: \(way)"
    }

    /// The arcade's own and the user's games folders, to tell which kind a folder is.
    struct KnownFolders {
        var bundled: String?
        var installed: String?

        func origin(of dir: String) -> GameOrigin {
            let real = realFolder(dir)
            if let bundled, realFolder(bundled) == real { return .bundled }
            if let installed, realFolder(installed) == real { return .installed }
            return .given
        }
    }

    static func knownFolders() -> KnownFolders {
        KnownFolders(bundled: bundledGamesDir().map(absolutePath), installed: userGamesDir().map(absolutePath))
    }

    /// Marks the entries of folders checked on their own whose id is held by another game in
    /// `arcade` (the catalog of the folders the arcade searches): the arcade would list them
    /// as duplicates. Only the arcade's own and installed games count; the same folder
    /// reached twice is no clash.
    mutating func noteIDsHeld(in arcade: GameCatalog) {
        for i in entries.indices where entries[i].duplicateOf == nil {
            guard let holder = arcade.holder(of: entries[i].id), holder.origin != .given,
                  realFolder(holder.folder) != realFolder(entries[i].folder) else { continue }
            entries[i].idWarning = "the id '\(entries[i].id)' is already held by \(holder.folder) "
                + "(\(holder.origin.holderNote)): in the arcade this game is a duplicate and is not played; choose another id"
        }
    }
}

extension GameOrigin {
    /// How a holder is named in messages.
    var holderNote: String {
        switch self {
        case .bundled: "one of the arcade's own games"
        case .installed: "an installed game"
        case .given: "found first"
        }
    }
}

extension GameEntry {
    /// Makes this entry a duplicate of `holder`: listed with the reason, never played.
    mutating func markDuplicate(of holder: GameEntry) {
        let note = holder.origin == .given ? "" : " (\(holder.origin.holderNote))"
        problem = "duplicate id '\(id)': \(folder) is ignored because \(holder.folder)\(note) has the same id"
        manifest = nil
        mainDoesNotCompile = false
        duplicateOf = holder.folder
    }
}

/// `dir` with symbolic links resolved, so that one folder reached by two paths is one folder.
private func realFolder(_ dir: String) -> String {
    guard let resolved = realpath(dir, nil) else { return dir }
    defer { free(resolved) }
    return String(cString: resolved)
}
