extension Cart {
    /// The cart in `bytes`, every check passed, nothing written anywhere.
    ///
    /// Refused: anything but a ustar archive led by `arcade-cart.txt`; a format version
    /// other than ``formatVersion``; an id that is not plain (``isPlainID(_:)``); an entry that
    /// is not a plain file (links, devices, FIFOs, folders, extended headers); a path with
    /// `..`, a leading `/`, a hidden or odd name, or outside `<id>/`; the same path twice
    /// (also when only its case differs); more files or bytes than `limits` (checked from
    /// the headers, before any data is taken); a file missing from the index, listed but
    /// absent, or whose SHA-256 differs; a truncated or damaged archive; a game without
    /// `main.lua`, or whose manifest is invalid or names another id.
    ///
    /// - Throws: ``CartProblem``, one line saying what was found.
    public static func read(_ bytes: [UInt8], limits: CartLimits = CartLimits()) throws(CartProblem) -> Cart {
        var reader = Tar.Reader(bytes)
        var index: Index?
        var files: [File] = []
        var taken: [String: String] = [:]  // lower-cased path -> path
        var total = 0
        while let h = try next(&reader) {
            let name = "entry '\(shown(h.path))'"
            try checkType(h, name: name)
            guard let listing = index else {
                guard h.path == indexName else {
                    throw CartProblem("not an arcade cart: its first entry is '\(shown(h.path))', not \(indexName)")
                }
                guard h.size <= limits.indexBytes else {
                    throw CartProblem("\(indexName) is \(h.size) bytes, more than a cart's index may be (\(limits.indexBytes))")
                }
                index = try Index.parse(try data(h, from: reader), limits: limits)
                continue
            }
            guard reader.count - 1 <= limits.files else {
                throw CartProblem("it holds more than \(limits.files) files, the most a cart may hold")
            }
            total += h.size
            guard total <= limits.bytes else {
                throw CartProblem("its files add up to more than \(ByteCount.describe(limits.bytes)), the most a cart may hold")
            }
            let path = try listing.gamePath(h.path, limits: limits, what: name)
            if let other = taken[path.lowercased()] {
                throw CartProblem(other == path ? "\(name) appears twice"
                                  : "\(name) and '\(shown(listing.id + "/" + other))' differ only in case")
            }
            taken[path.lowercased()] = path
            guard let hash = listing.hashes[path] else { throw CartProblem("\(name) is not listed in \(indexName)") }
            let content = try data(h, from: reader)
            guard SHA256.hex(content) == hash else {
                throw CartProblem("\(name) does not match its SHA-256 in \(indexName) (damaged or altered)")
            }
            files.append(File(path: path, bytes: content))
        }
        guard let listing = index else { throw CartProblem("not an arcade cart: it is empty") }
        if let missing = listing.order.first(where: { taken[$0.lowercased()] == nil }) {
            throw CartProblem("\(indexName) lists '\(shown(listing.id + "/" + missing))', which the cart does not hold")
        }
        return try Cart(id: listing.id, checking: files)
    }

    /// The cart of `files` once its game is complete: a `main.lua` and a manifest, evaluated
    /// as data, valid, and naming `id`.
    init(id: String, checking files: [File]) throws(CartProblem) {
        let paths = Set(files.map { $0.path.lowercased() })
        for f in files {
            var folder = f.path.lowercased()
            while let slash = folder.lastIndex(of: "/") {
                folder = String(folder[..<slash])
                guard !paths.contains(folder) else {
                    throw CartProblem("entry '\(Cart.shown(id + "/" + f.path))' is inside '\(Cart.shown(id + "/" + folder))', which is a file")
                }
            }
        }
        guard files.contains(where: { $0.path == "main.lua" }) else { throw CartProblem("it has no \(id)/main.lua") }
        guard let text = files.first(where: { $0.path == "manifest.lua" }) else {
            throw CartProblem("it has no \(id)/manifest.lua")
        }
        let manifest: GameManifest
        do { manifest = try GameManifest.parse(String(decoding: text.bytes, as: UTF8.self), displayPath: "\(id)/manifest.lua") } catch {
            throw CartProblem(error.message.split(separator: "\n").first.map(String.init) ?? error.message)
        }
        guard manifest.id == id else {
            throw CartProblem("its manifest's id '\(Cart.shown(manifest.id))' is not the cart's id '\(id)'")
        }
        self.init(id: id, manifest: manifest, files: files)
    }

    private static func next(_ reader: inout Tar.Reader) throws(CartProblem) -> Tar.Header? {
        do { return try reader.next() } catch { throw problem(error) }
    }

    private static func data(_ h: Tar.Header, from reader: Tar.Reader) throws(CartProblem) -> [UInt8] {
        do { return try reader.data(of: h) } catch { throw problem(error) }
    }

    private static func problem(_ error: Tar.Problem) -> CartProblem {
        switch error {
        case .notTar: return CartProblem("not an arcade cart (not a tar archive)")
        case .truncated: return CartProblem("the cart is truncated (it ends in the middle of an entry or before its end)")
        case .damaged(let what): return CartProblem("the cart is damaged: \(what)")
        }
    }

    /// Plain files only.
    private static func checkType(_ h: Tar.Header, name: String) throws(CartProblem) {
        switch h.type {
        case Tar.regularFile, 0: return
        case Tar.hardLink, Tar.symbolicLink:
            throw CartProblem("\(name) is a link (to '\(shown(h.linkTarget))'); a cart holds plain files only")
        case Tar.characterDevice, Tar.blockDevice:
            throw CartProblem("\(name) is a device; a cart holds plain files only")
        case Tar.fifo: throw CartProblem("\(name) is a FIFO; a cart holds plain files only")
        case Tar.directory: throw CartProblem("\(name) is a folder entry; a cart holds plain files only")
        default:
            let type = (32..<127).contains(h.type) ? "'\(Character(Unicode.Scalar(h.type)))'" : "\(h.type)"
            throw CartProblem("\(name) has tar type \(type); a cart holds plain files only")
        }
    }

    /// `arcade-cart.txt`, parsed.
    struct Index {
        var id: String
        /// Path inside the game's folder -> SHA-256 in hex.
        var hashes: [String: String] = [:]
        /// The listed paths, in the index's order.
        var order: [String] = []

        static func parse(_ bytes: [UInt8], limits: CartLimits) throws(CartProblem) -> Index {
            let text = String(decoding: bytes, as: UTF8.self)
            guard bytes.allSatisfy({ $0 < 128 }), text.hasSuffix("\n") else {
                throw CartProblem("\(indexName) is not a cart index (not lines of ASCII text)")
            }
            let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let head = lines[0].split(separator: " ", omittingEmptySubsequences: false)
            guard head.count == 2, head[0] == "arcade-cart", let version = Int(head[1]), version > 0 else {
                throw CartProblem("\(indexName) is not a cart index (its first line is '\(shown(lines[0]))')")
            }
            guard version == formatVersion else {
                throw CartProblem("it is in cart format \(version), and this arcade reads format \(formatVersion) only "
                                  + "(a newer arcade made it)")
            }
            guard lines.count >= 2, lines[1].hasPrefix("id ") else { throw CartProblem("\(indexName) does not give the game's id") }
            let id = String(lines[1].dropFirst(3))
            guard isPlainID(id) else {
                throw CartProblem("its id '\(shown(id))' is not a plain id (a lower-case letter, then a-z, 0-9, '-' and '_', "
                                  + "at most 32)")
            }
            var index = Index(id: id)
            for line in lines.dropFirst(2) {
                let b = Array(line.utf8)
                guard b.count > 66, b[64] == 32, b[65] == 32,
                      b[..<64].allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                    throw CartProblem("\(indexName) has a line that is not '<sha256>  <path>': '\(shown(line))'")
                }
                let path = try index.gamePath(String(decoding: b[66...], as: UTF8.self), limits: limits,
                                              what: "\(indexName) lists '\(shown(String(decoding: b[66...], as: UTF8.self)))', which")
                guard index.hashes[path] == nil else { throw CartProblem("\(indexName) lists '\(shown(path))' twice") }
                index.hashes[path] = String(decoding: b[..<64], as: UTF8.self)
                index.order.append(path)
            }
            return index
        }

        /// `archivePath` without its `<id>/`, once it passes the path rules.
        func gamePath(_ archivePath: String, limits: CartLimits, what: String) throws(CartProblem) -> String {
            if let why = Cart.pathProblem(archivePath, limits: nil) { throw CartProblem("\(what) has \(why)") }
            guard archivePath.hasPrefix(id + "/") else {
                throw CartProblem("\(what) is outside the game's folder '\(id)/'")
            }
            if let why = Cart.pathProblem(String(archivePath.dropFirst(id.utf8.count + 1)), limits: limits) {
                throw CartProblem("\(what) has \(why)")
            }
            return String(archivePath.dropFirst(id.utf8.count + 1))
        }
    }
}
