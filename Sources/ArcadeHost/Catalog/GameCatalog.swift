#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// One game folder found on disk: playable, or broken with its reason.
public struct GameEntry: Equatable, Sendable {
    /// The manifest's id (the folder name when the manifest could not be read).
    public var id: String
    /// The game's folder.
    public var folder: String
    /// The games folder it was found in (its `lib/` holds shared Lua helpers).
    public var gamesDir: String
    /// The validated manifest; nil for a broken game.
    public var manifest: GameManifest?
    /// Why the game cannot be played; nil for a playable game.
    public var problem: String?

    public var isPlayable: Bool { manifest != nil && problem == nil }
    /// The title to show: the manifest's, or the folder name.
    public var title: String { manifest?.title ?? id }
}

/// Every game the arcade can see, from all its games folders.
///
/// A folder is a game when it holds a `manifest.lua` or a `main.lua`. A broken game is
/// listed with its reason and never hides the others; a second game with an id already
/// seen is listed as broken ("duplicate id"), never silently shadowed.
public struct GameCatalog: Sendable {
    public private(set) var entries: [GameEntry] = []
    /// The folders searched, in order.
    public let searchDirs: [String]

    /// Scans `dirs` in order (missing folders are skipped).
    public init(searchDirs dirs: [String]) {
        self.init(dirs.map { ($0, false) })
    }

    /// The games at `paths`, in order: each path is a games folder (every game in it) or one
    /// game's own folder (a folder holding `manifest.lua` or `main.lua`: just that game).
    /// What `arcade check` takes.
    public init(paths: [String]) {
        self.init(paths.map { ($0, GameCatalog.isGameFolder(absolutePath($0))) })
    }

    /// True when `path` is a folder.
    public static func folderExists(_ path: String) -> Bool {
        isDirectory(absolutePath(path))
    }

    /// True when `folder` is a game's folder rather than a folder of games.
    public static func isGameFolder(_ folder: String) -> Bool {
        isDirectory(folder) && (fileExists(folder + "/manifest.lua") || fileExists(folder + "/main.lua"))
    }

    private init(_ dirs: [(path: String, isGame: Bool)]) {
        var seen: Set<String> = []
        var searched: [String] = []
        for (path, isGame) in dirs {
            let dir = absolutePath(path)
            guard !searched.contains(dir) else { continue }
            searched.append(dir)
            let folders: [(name: String, folder: String, gamesDir: String)]
            if isGame {
                let slash = dir.lastIndex(of: "/") ?? dir.startIndex
                let parent = slash == dir.startIndex ? "/" : String(dir[..<slash])
                folders = [(String(dir[dir.index(after: slash)...]), dir, parent)]
            } else {
                guard isDirectory(dir) else { continue }
                folders = directoryEntries(dir).filter { !$0.hasPrefix(".") && $0 != "lib" }.map { ($0, dir + "/" + $0, dir) }
            }
            for (name, folder, gamesDir) in folders where GameCatalog.isGameFolder(folder) {
                var entry = GameEntry(id: name, folder: folder, gamesDir: gamesDir, manifest: nil, problem: nil)
                do {
                    let m = try GameManifest.load(path: folder + "/manifest.lua", displayPath: "\(name)/manifest.lua")
                    entry.manifest = m
                    entry.id = m.id
                    if !fileExists(folder + "/main.lua") {
                        entry.problem = "\(name)/main.lua is missing"
                    }
                } catch {
                    entry.problem = error.message
                }
                if seen.contains(entry.id) {
                    let first = entries.first { $0.id == entry.id }?.folder ?? "?"
                    entry.problem = "duplicate id '\(entry.id)': \(folder) is ignored because \(first) has the same id"
                    entry.manifest = nil
                } else {
                    seen.insert(entry.id)
                }
                entries.append(entry)
            }
        }
        searchDirs = searched
    }

    /// The playable game with `id`, or nil.
    public func game(_ id: String) -> GameEntry? {
        entries.first { $0.id == id && $0.isPlayable }
    }

    /// Any entry with `id`, playable or broken.
    public func entry(_ id: String) -> GameEntry? {
        entries.first { $0.id == id }
    }

    /// The default search order: `extra` folders (from `--games`), the user's games folder
    /// (`$XDG_DATA_HOME/arcade/games`, default `~/.local/share/arcade/games`), then the
    /// `games/` folder that ships with the arcade.
    public static func defaultSearchDirs(extra: [String] = []) -> [String] {
        var dirs = extra
        if let user = userGamesDir() { dirs.append(user) }
        if let bundled = bundledGamesDir() { dirs.append(bundled) }
        return dirs
    }

    /// `$XDG_DATA_HOME/arcade/games` or `~/.local/share/arcade/games`.
    public static func userGamesDir() -> String? {
        dataHome().map { $0 + "/arcade/games" }
    }

    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    public static func dataHome() -> String? {
        if let x = environment("XDG_DATA_HOME") { return x }
        if let home = environment("HOME") { return home + "/.local/share" }
        return nil
    }

    /// The arcade's own `games/` folder: `$ARCADE_GAMES_DIR`, or the first `games/` beside a
    /// `Package.swift` found walking up from the executable, then from the working directory,
    /// then from where this source file was compiled.
    public static func bundledGamesDir() -> String? {
        if let dir = environment("ARCADE_GAMES_DIR") { return dir }
        var starts: [String] = []
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        if n > 0 {
            buf[n] = 0
            starts.append(String(cString: buf))
        }
        starts.append(absolutePath("."))
        starts.append(String(#filePath))
        for start in starts {
            var dir = start
            while dir.count > 1 {
                if isDirectory(dir + "/games") && fileExists(dir + "/Package.swift") { return dir + "/games" }
                guard let slash = dir.lastIndex(of: "/") else { break }
                dir = String(dir[..<slash])
                if dir.isEmpty { break }
            }
        }
        return nil
    }
}
