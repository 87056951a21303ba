import ArcadeLua
#if canImport(Glibc)
import Glibc
#endif

/// Where carts go: reading one from a file, installing it into the user's games folder,
/// uninstalling, and unpacking one privately to play it (``CartShelf+Play``).
///
/// Ids are never shared: a cart whose id belongs to a bundled game is never installed or
/// played, one whose id belongs to an installed game replaces it only when asked, and one
/// played without installing may not have the id of any game the arcade sees (it would run
/// with that game's saves).
public struct CartShelf {
    /// Where `install` puts games: `$XDG_DATA_HOME/arcade/games`.
    public var userGamesDir: String
    /// The arcade's own `games/` (never written to).
    public var bundledGamesDir: String?
    /// Every folder the arcade looks for games in, to know which ids are taken.
    public var searchDirs: [String]
    /// Where private folders for playing and checking carts are made (`$TMPDIR`, `/tmp`).
    public var scratchDir: String
    public var limits = CartLimits()
    /// What `install` runs on a cart's game before it goes in (what `arcade check` runs).
    public var checker = GameChecker()

    public init(userGamesDir: String, bundledGamesDir: String?, searchDirs: [String], scratchDir: String) {
        self.userGamesDir = absolutePath(userGamesDir)
        self.bundledGamesDir = bundledGamesDir.map(absolutePath)
        self.searchDirs = searchDirs
        self.scratchDir = scratchDir
    }

    /// The arcade's own folders, with `extra` (`--games`) searched too; nil when there is no
    /// home folder to put installed games in.
    public static func standard(extraGames: [String] = []) -> CartShelf? {
        guard let user = GameCatalog.userGamesDir() else { return nil }
        return CartShelf(userGamesDir: user, bundledGamesDir: GameCatalog.bundledGamesDir(),
                         searchDirs: GameCatalog.defaultSearchDirs(extra: extraGames),
                         scratchDir: environment("TMPDIR") ?? "/tmp")
    }

    /// Where a game was found.
    public enum Origin: Equatable, Sendable {
        case bundled
        case installed
        /// A `--games` folder.
        case elsewhere
    }

    public func origin(of entry: GameEntry) -> Origin {
        if let bundled = bundledGamesDir, absolutePath(entry.gamesDir) == bundled { return .bundled }
        return absolutePath(entry.gamesDir) == userGamesDir ? .installed : .elsewhere
    }

    /// Every game (playable or broken) the arcade sees with `id`.
    public func games(withID id: String) -> [GameEntry] {
        GameCatalog(searchDirs: searchDirs).entries.filter { $0.id == id }
    }

    /// The cart in the file at `path`, checked (``Cart/read(_:limits:)``).
    public func load(_ path: String) throws(CartProblem) -> Cart {
        var st = stat()
        guard stat(path, &st) == 0 else { throw CartProblem("cannot read \(path): no such file") }
        guard (st.st_mode & S_IFMT) != S_IFDIR else {
            throw CartProblem("\(path) is a folder, not a cart (arcade pack makes a cart of a game's folder)")
        }
        guard Int(st.st_size) <= limits.cartBytes else {
            throw CartProblem("\(path) is \(ByteCount.describe(Int(st.st_size))), more than any cart may be "
                              + "(\(ByteCount.describe(limits.cartBytes)))")
        }
        guard let bytes = FileBytes.read(path, limit: limits.cartBytes) else {
            throw CartProblem("cannot read \(path) (not a plain file, or not readable)")
        }
        return try Cart.read(bytes, limits: limits)
    }

    // MARK: Installing

    /// What ``install(_:replace:)`` did.
    public struct Installed: Equatable, Sendable {
        public var id: String
        public var folder: String
        /// An installed game of the same id was replaced.
        public var replaced: Bool
    }

    /// Installs `cart` as `<userGamesDir>/<id>` once its game passes ``checker`` (run in a
    /// private folder). With `replace`, an installed game of the same id is replaced; a
    /// bundled game, or one in a `--games` folder, never is.
    ///
    /// - Throws: ``CartProblem``; nothing is left written then.
    public func install(_ cart: Cart, replace: Bool = false) throws(CartProblem) -> Installed {
        let owners = games(withID: cart.id)
        for o in owners where origin(of: o) != .installed {
            throw CartProblem(origin(of: o) == .bundled
                ? "'\(cart.id)' is a game bundled with the arcade, which a cart never replaces (give the cart's game another id)"
                : "'\(cart.id)' is the id of the game in \(o.folder), which a cart cannot replace")
        }
        let installed = owners.first
        if let installed, !replace {
            throw CartProblem("'\(cart.id)' is already installed (\(installed.folder)); add --replace to replace it")
        }
        let target = userGamesDir + "/" + cart.id
        let ownerFile = GameCatalog.ownerFile(id: cart.id, gamesDir: userGamesDir)
        if installed?.folder != target && FileTree.exists(target) {
            throw CartProblem("\(target) is in the way (it is not an installed game); move it away first")
        }
        try check(cart)
        let made = try FileTree.makeFolders(userGamesDir)
        let staging = userGamesDir + "/.\(cart.id).installing-\(getpid())"
        FileTree.remove(staging)
        do { try cart.write(into: staging) } catch {
            FileTree.removeMade(made)
            throw error
        }
        guard let old = installed else {
            // a new installed game is a new owner of the id's saves: the cart it came from
            // (the same cart installed again finds its saves; another cart does not)
            guard (try? FileTree.makeFolders(GameCatalog.ownersFolder(gamesDir: userGamesDir))) != nil,
                  FileIO.writeText("cart \(cart.identity)\n", to: ownerFile) else {
                FileTree.remove(staging)
                FileTree.removeMade(made)
                throw CartProblem("cannot write \(ownerFile)")
            }
            guard rename(staging, target) == 0 else {
                unlink(ownerFile)
                FileTree.remove(staging)
                FileTree.removeMade(made)
                throw CartProblem("cannot move the game into \(target)")
            }
            return Installed(id: cart.id, folder: target, replaced: false)
        }
        // the old game goes aside first, so that a failure can put it back
        let aside = userGamesDir + "/.\(cart.id).replaced-\(getpid())"
        guard rename(old.folder, aside) == 0 else {
            FileTree.remove(staging)
            throw CartProblem("cannot move the installed game out of \(old.folder)")
        }
        guard rename(staging, target) == 0 else {
            rename(aside, old.folder)
            FileTree.remove(staging)
            throw CartProblem("cannot move the game into \(target)")
        }
        FileTree.remove(aside)
        return Installed(id: cart.id, folder: target, replaced: true)
    }

    /// Runs ``checker`` on the cart's game, unpacked in a private folder that is then removed.
    ///
    /// - Throws: ``CartProblem`` with the first finding.
    public func check(_ cart: Cart) throws(CartProblem) {
        let unpacked = try unpack(cart)
        defer { unpacked.remove() }
        let findings = checker.check(unpacked.entry)
        if let first = findings.first {
            let line = first.message.split(separator: "\n").first.map(String.init) ?? first.message
            throw CartProblem("its game fails arcade check: \(line)")
        }
    }

    // MARK: Uninstalling

    /// What ``uninstall(_:purge:store:)`` did.
    public struct Removed: Equatable, Sendable {
        /// The folder removed; nil when only saves were (a cart played, never installed).
        public var folder: String?
        /// Saves and best score were removed too.
        public var purged: Bool
    }

    /// Removes the installed game `id`; with `purge`, its saves and best score in `store` too
    /// (also for an id no game has any more, such as a cart only ever played: then the saves
    /// of every cart under the id, and those from before owners were recorded).
    ///
    /// - Throws: ``CartProblem`` for a bundled game, one in a `--games` folder, an unknown id,
    ///   or a folder or saves that cannot be removed.
    public func uninstall(_ id: String, purge: Bool = false, store: SaveStore? = nil) throws(CartProblem) -> Removed {
        guard Cart.isPlainID(id) else { throw CartProblem("'\(Cart.shown(id))' is not a game id") }
        let owners = games(withID: id)
        // saves that cannot be removed must be known before the game goes: nothing is claimed then
        if purge { try checkPurgeable(store) }
        guard let installed = owners.first(where: { origin(of: $0) == .installed }) else {
            if let o = owners.first {
                throw CartProblem(origin(of: o) == .bundled
                                  ? "'\(id)' is bundled with the arcade; only installed games can be uninstalled"
                                  : "'\(id)' is not installed (it is the game in \(o.folder)); only games in \(userGamesDir) can be")
            }
            guard purge else {
                let ids = GameCatalog(searchDirs: [userGamesDir]).entries.map(\.id)
                throw CartProblem("no installed game '\(id)' (installed: \(ids.isEmpty ? "none" : ids.joined(separator: ", ")))")
            }
            try forget(id, owner: nil, in: store)
            return Removed(folder: nil, purged: true)
        }
        let owner = GameCatalog.installedOwner(id: id, folder: installed.folder, gamesDir: userGamesDir)
        let aside = userGamesDir + "/.\(id).removing-\(getpid())"
        guard rename(installed.folder, aside) == 0 else { throw CartProblem("cannot remove \(installed.folder)") }
        guard FileTree.remove(aside) else { throw CartProblem("could not remove all of \(aside)") }
        // the next cart installed under this id is another game, which never gets these saves
        unlink(GameCatalog.ownerFile(id: id, gamesDir: userGamesDir))
        if purge { try forget(id, owner: owner, in: store) }
        return Removed(folder: installed.folder, purged: purge)
    }

    private func forget(_ id: String, owner: SaveOwner?, in store: SaveStore?) throws(CartProblem) {
        guard let store else { return }
        do { try store.forget(game: id, owner: owner) } catch { throw CartProblem(error.message) }
    }

    /// Refuses a purge whose saves would not really be removed: the save file could not be
    /// opened (another arcade holds it locked, it is read-only...) and the store is in memory.
    private func checkPurgeable(_ store: SaveStore?) throws(CartProblem) {
        guard let store, !store.isPersistent else { return }
        let why = store.notices.last.map { $0.short } ?? "the save file cannot be used"
        throw CartProblem("its saves cannot be removed now (\(why)); nothing was removed")
    }
}

extension Cart {
    /// The cart's identity: the SHA-256 of its index, which names its id and the hash of
    /// every file. Who owns the saves of a cart's game (``SaveOwner/cart(_:installed:)``).
    public var identity: String { SHA256.hex(Array(index.utf8)) }
}

extension GameCatalog {
    /// `<data>/arcade/game-owners/<id>` for the games folder `<data>/arcade/games`: the
    /// identity of the cart first installed under the id, kept outside the games folder.
    static func ownerFile(id: String, gamesDir: String) -> String {
        ownersFolder(gamesDir: gamesDir) + "/" + id
    }

    static func ownersFolder(gamesDir: String) -> String {
        parent(of: absolutePath(gamesDir)) + "/game-owners"
    }

    /// Who owns the saves of the game installed in `folder`: the cart identity recorded beside
    /// it, or for a game installed before identities were recorded, one made of its id.
    static func installedOwner(id: String, folder: String, gamesDir: String) -> SaveOwner {
        let name = folder.split(separator: "/").last.map(String.init) ?? id
        let recorded = FileIO.readText(ownerFile(id: name, gamesDir: gamesDir), limit: 256)?
            .split(separator: "\n").first.map(String.init)
        if let recorded, recorded.hasPrefix("cart "), recorded.count > 5 {
            return .cart(String(recorded.dropFirst(5)), installed: true)
        }
        return .cart("installed-" + name, installed: true)
    }
}
