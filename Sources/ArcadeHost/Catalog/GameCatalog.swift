#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import ArcadeLua

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
    /// True when the problem is that `main.lua` does not compile (the manifest is fine):
    /// `arcade dev` still opens such a game, so that a saved fix carries it on.
    public var mainDoesNotCompile = false
    /// Which kind of folder it was found in, which decides who keeps an id two games claim.
    public var origin: GameOrigin = .given
    /// Whose saves the game reads and writes under its id (see ``SaveOwner``): the arcade's
    /// own games share one owner, an installed game is its cart, any other its folder.
    public var saveOwner: SaveOwner = .bundled
    /// For a game ignored because another holds its id: that game's folder.
    public var duplicateOf: String?
    /// For a game of a folder checked on its own (`arcade check DIR`): that its id is held by
    /// one of the arcade's own or the installed games, so the arcade would not play it.
    public var idWarning: String?

    public var isPlayable: Bool { manifest != nil && problem == nil }
    /// The title to show: the manifest's, or the folder name.
    public var title: String { manifest?.title ?? id }
}

/// Which kind of games folder a game was found in. When two games claim one id, the
/// earlier kind keeps it: the arcade's own games cannot be shadowed by anything, installed
/// games not by a folder given on the command line.
public enum GameOrigin: Int, Sendable, Comparable {
    /// The arcade's own `games/` folder.
    case bundled
    /// The user's games folder (`$XDG_DATA_HOME/arcade/games`): installed games.
    case installed
    /// A folder given on the command line (`--games DIR`, `arcade check DIR`).
    case given

    public static func < (a: GameOrigin, b: GameOrigin) -> Bool { a.rawValue < b.rawValue }
}

/// Every game the arcade can see, from all its games folders.
///
/// A folder is a game when it holds a `manifest.lua` or a `main.lua`. A broken game is
/// listed with its reason and never hides the others. An id belongs to one game only, as
/// its saves and best score are kept under it: when two games claim an id, the arcade's own
/// game keeps it, then an installed one, then the one in the earlier folder; the other is
/// listed as broken ("duplicate id"), never silently shadowed and never played.
public struct GameCatalog: Sendable {
    public internal(set) var entries: [GameEntry] = []
    /// The folders searched, in order.
    public let searchDirs: [String]

    /// Scans `dirs` in order (missing folders are skipped). The arcade's own games folder and
    /// the user's games folder are recognised among them (``GameOrigin``).
    public init(searchDirs dirs: [String]) {
        let origins = GameCatalog.knownFolders()
        self.init(dirs.map { ($0, false, origins.origin(of: absolutePath($0))) })
    }

    /// The games of `given` folders, then of the user's games folder `installed`, then of
    /// the arcade's own `bundled` folder (the default search, with the folders named).
    public init(bundled: String?, installed: String?, given: [String] = []) {
        var dirs = given.map { ($0, false, GameOrigin.given) }
        if let installed { dirs.append((installed, false, .installed)) }
        if let bundled { dirs.append((bundled, false, .bundled)) }
        self.init(dirs)
    }

    /// The games at `paths`, in order: each path is a games folder (every game in it) or one
    /// game's own folder (a folder holding `manifest.lua` or `main.lua`: just that game).
    /// What `arcade check` takes.
    public init(paths: [String]) {
        let origins = GameCatalog.knownFolders()
        self.init(paths.map { path in
            let dir = absolutePath(path)
            let isGame = GameCatalog.isGameFolder(dir)
            return (path, isGame, origins.origin(of: isGame ? GameCatalog.parent(of: dir) : dir))
        })
    }

    /// True when `path` is a folder.
    public static func folderExists(_ path: String) -> Bool {
        isDirectory(absolutePath(path))
    }

    /// True when `folder` is a game's folder rather than a folder of games.
    public static func isGameFolder(_ folder: String) -> Bool {
        isDirectory(folder) && (fileExists(folder + "/manifest.lua") || fileExists(folder + "/main.lua"))
    }

    private init(_ dirs: [(path: String, isGame: Bool, origin: GameOrigin)]) {
        var searched: [String] = []
        var found: [GameEntry] = []
        for (path, isGame, origin) in dirs {
            let dir = absolutePath(path)
            guard !searched.contains(dir) else { continue }
            searched.append(dir)
            let folders: [(name: String, folder: String, gamesDir: String)]
            if isGame {
                let slash = dir.lastIndex(of: "/") ?? dir.startIndex
                folders = [(String(dir[dir.index(after: slash)...]), dir, GameCatalog.parent(of: dir))]
            } else {
                guard isDirectory(dir) else { continue }
                folders = directoryEntries(dir).filter { !$0.hasPrefix(".") && $0 != "lib" }.map { ($0, dir + "/" + $0, dir) }
            }
            for (name, folder, gamesDir) in folders where GameCatalog.isGameFolder(folder) {
                var entry = GameCatalog.read(name: name, folder: folder, gamesDir: gamesDir)
                entry.origin = origin
                entry.saveOwner = switch origin {
                case .bundled: .bundled
                case .installed: GameCatalog.installedOwner(id: entry.id, folder: folder, gamesDir: gamesDir)
                case .given: .folder(folder)
                }
                found.append(entry)
            }
        }
        // who keeps each id: the arcade's own games first, then installed ones, then the
        // first in search order; the entries stay in search order
        var holders: [String: Int] = [:]
        let precedence = found.indices.sorted { (found[$0].origin, $0) < (found[$1].origin, $1) }
        for i in precedence {
            guard let holder = holders[found[i].id] else {
                holders[found[i].id] = i
                continue
            }
            found[i].markDuplicate(of: found[holder])
        }
        entries = found
        searchDirs = searched
    }

    /// The entry for the game in `folder`: its manifest read and checked, or why it is broken.
    private static func read(name: String, folder: String, gamesDir: String) -> GameEntry {
        var entry = GameEntry(id: name, folder: folder, gamesDir: gamesDir, manifest: nil, problem: nil)
        do {
            let m = try GameManifest.load(path: folder + "/manifest.lua", displayPath: "\(name)/manifest.lua")
            entry.manifest = m
            entry.id = m.id
            if !fileExists(folder + "/main.lua") {
                entry.problem = "\(name)/main.lua is missing"
            } else if let error = compileProblem(main: folder + "/main.lua", chunkName: "\(m.id)/main.lua") {
                entry.problem = error
                entry.mainDoesNotCompile = true
            }
        } catch {
            entry.problem = error.message
        }
        return entry
    }

    /// Why the script at `path` does not compile, as its first line (`rocks/main.lua:3:
    /// 'end' expected near <eof>`), or nil when it compiles. It is compiled only, in a VM of
    /// its own with a memory cap: no code of the game runs. A file that cannot be read (a
    /// link out of the folder, a FIFO) is left to the game's start, which says why.
    static func compileProblem(main path: String, chunkName: String) -> String? {
        guard let source = try? FileIO.readScript(path, within: parent(of: path), chunkName: chunkName) else {
            return nil
        }
        do {
            let vm = try LuaVM(name: "compile", limits: .init(memoryBytes: 64 << 20))
            _ = try vm.load(source, chunkName: chunkName)
            return nil
        } catch {
            return error.message.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
        }
    }

    static func parent(of dir: String) -> String {
        let slash = dir.lastIndex(of: "/") ?? dir.startIndex
        return slash == dir.startIndex ? "/" : String(dir[..<slash])
    }

    /// The playable game with `id`, or nil.
    public func game(_ id: String) -> GameEntry? {
        entries.first { $0.id == id && $0.isPlayable }
    }

    /// Any entry with `id`, playable or broken: the one holding the id when there are several.
    public func entry(_ id: String) -> GameEntry? {
        holder(of: id) ?? entries.first { $0.id == id }
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

    /// The arcade's own `games/` folder: `$ARCADE_GAMES_DIR`, or where the executable is
    /// installed: the `games/` beside the `Package.swift` of the package it was built in
    /// (`.build/<config>/arcade`), or `<prefix>/share/arcade/games` for `<prefix>/bin/arcade`;
    /// failing those, the package this source file was compiled in. Never the working
    /// directory: a folder there holding a `Package.swift` and `games/` is just a folder.
    public static func bundledGamesDir() -> String? {
        if let dir = environment("ARCADE_GAMES_DIR") { return dir }
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        let executable = n > 0 ? String(decoding: buf[..<n], as: UTF8.self) : nil
        if let executable {
            let prefix = parent(of: parent(of: executable))
            if isDirectory(prefix + "/share/arcade/games") { return prefix + "/share/arcade/games" }
        }
        for start in [executable, String(#filePath)].compactMap({ $0 }) {
            var dir = parent(of: start)
            while dir.count > 1 {
                if isDirectory(dir + "/games") && fileExists(dir + "/Package.swift") { return dir + "/games" }
                dir = parent(of: dir)
            }
        }
        return nil
    }
}
