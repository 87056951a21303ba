#if canImport(Glibc)
import Glibc
#endif

/// A cart's game unpacked in a private folder (mode 0700, in the scratch folder), for as
/// long as it is played or checked; ``remove()`` (or the end of the value) deletes it.
public final class UnpackedCart {
    /// The game, as the catalog sees it in the private folder.
    public let entry: GameEntry
    /// The private folder (the game is in `<root>/<id>`).
    public let root: String
    private var removed = false

    init(entry: GameEntry, root: String) {
        self.entry = entry
        self.root = root
    }

    deinit { remove() }

    /// Deletes the private folder and everything in it.
    public func remove() {
        guard !removed else { return }
        removed = true
        FileTree.remove(root)
    }
}

extension CartShelf {
    /// What private folders are called: `arcade-cart-<pid>-XXXXXX`, so that the ones a killed
    /// arcade left behind can be told apart and swept.
    static let scratchPrefix = "arcade-cart-"

    /// The cart's game unpacked for playing, once its id is checked: a cart may not have the
    /// id of any game the arcade sees, bundled, installed or in a `--games` folder, since it
    /// would run with that game's saves. Its own saves are kept under its id, as an installed
    /// game's are.
    ///
    /// - Throws: ``CartProblem`` for a taken id, or a private folder that cannot be made.
    public func unpackForPlay(_ cart: Cart) throws(CartProblem) -> UnpackedCart {
        if let owner = games(withID: cart.id).first {
            let whose: String
            switch origin(of: owner) {
            case .bundled: whose = "a game bundled with the arcade"
            case .installed: whose = "the installed game in \(owner.folder)"
            case .elsewhere: whose = "the game in \(owner.folder)"
            }
            throw CartProblem("'\(cart.id)' is the id of \(whose); a cart with the id of another game is not played, "
                              + "so it can never touch that game's saves" + (origin(of: owner) == .installed
                                  ? " (arcade install --replace puts the cart in its place)" : ""))
        }
        return try unpack(cart)
    }

    /// Unpacks `cart` into a new private folder.
    func unpack(_ cart: Cart) throws(CartProblem) -> UnpackedCart {
        sweepScratch()
        _ = try FileTree.makeFolders(scratchDir)
        var template = Array((scratchDir + "/" + Self.scratchPrefix + "\(getpid())-XXXXXX").utf8CString)
        let root: String? = template.withUnsafeMutableBufferPointer { buf in
            mkdtemp(buf.baseAddress!).map { String(cString: $0) }
        }
        guard let root else { throw CartProblem("cannot make a private folder in \(scratchDir)") }
        do { try cart.write(into: root + "/" + cart.id) } catch {
            FileTree.remove(root)
            throw error
        }
        guard var entry = GameCatalog(paths: [root + "/" + cart.id]).entries.first, entry.isPlayable else {
            FileTree.remove(root)
            throw CartProblem("its game cannot be played once unpacked")
        }
        // its saves are the cart's, wherever it is unpacked
        entry.saveOwner = .cart(cart.identity)
        return UnpackedCart(entry: entry, root: root)
    }

    /// Removes private folders left by arcades that are no longer running (killed while a
    /// cart was played); folders of running ones, and other users', are left alone.
    func sweepScratch() {
        for name in directoryEntries(scratchDir) where name.hasPrefix(Self.scratchPrefix) {
            let rest = name.dropFirst(Self.scratchPrefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid != getpid() else { continue }
            var st = stat()
            let path = scratchDir + "/" + name
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == getuid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH { FileTree.remove(path) }
        }
    }
}

extension GameCatalog {
    /// This catalog with the game unpacked from a cart owning its saves as the cart does,
    /// rather than as the private folder it is played from.
    public func playing(_ cart: UnpackedCart) -> GameCatalog {
        var catalog = self
        for i in catalog.entries.indices where catalog.entries[i].folder == cart.entry.folder {
            catalog.entries[i].saveOwner = cart.entry.saveOwner
        }
        return catalog
    }
}

extension GameEntry {
    /// "by AUTHOR, version V" for a playable game installed in `userGamesDir` (what
    /// `arcade list` and the menu show beside it); nil for any other game.
    public func installedNote(userGamesDir: String? = GameCatalog.userGamesDir()) -> String? {
        guard let m = manifest, isPlayable, let dir = userGamesDir, absolutePath(gamesDir) == absolutePath(dir) else {
            return nil
        }
        return "by \(m.author), version \(m.version)"
    }
}
