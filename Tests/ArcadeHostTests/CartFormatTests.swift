import Foundation
import Testing
@testable import ArcadeHost

/// What a cart holds and how its bytes are laid out: the same folder always gives the same
/// bytes, the usual `tar` reads it, and packing refuses what a cart cannot hold.
@Suite struct CartFormatTests {
    static let bundled = ["ballcatch", "coinbank", "fishing", "giftcombo", "lastcircle"]

    static func bundledEntry(_ id: String) throws -> GameEntry {
        try #require(GameCatalog(searchDirs: [CartWorld.bundledGames]).game(id))
    }

    @Test func packingTheSameGameTwiceGivesTheSameBytesAndReadsBack() throws {
        for id in Self.bundled {
            let entry = try Self.bundledEntry(id)
            let first = try Cart.pack(entry), second = try Cart.pack(entry)
            #expect(first.bytes == second.bytes, "\(id)")
            let back = try Cart.read(first.bytes)
            #expect(back.files == first.files && back.id == id && back.manifest == entry.manifest)
            // the game's own files, its tests and golden frames, and the shared helpers
            #expect(first.files.contains { $0.path == "manifest.lua" } && first.files.contains { $0.path == "lib/button.lua" })
            #expect(first.files.contains { $0.path.hasPrefix("tests/") }, "\(id) has tests")
        }
    }

    /// Times, permissions and hidden files are not part of a cart: a copy touched, with other
    /// modes and with editor and VCS leftovers, packs to the very same bytes.
    @Test func timesModesAndHiddenFilesDoNotChangeTheBytes() throws {
        let world = try CartWorld("same-bytes")
        let copy = try world.copyBundled("fishing", as: "fishing")
        let fm = FileManager.default
        for name in try fm.subpathsOfDirectory(atPath: copy.folder) {
            let path = copy.folder + "/" + name
            try fm.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_234_567), .posixPermissions: 0o600],
                                 ofItemAtPath: path)
        }
        try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy.folder + "/main.lua")
        try "swap".write(toFile: copy.folder + "/.main.lua.swp", atomically: true, encoding: .utf8)
        try fm.createDirectory(atPath: copy.folder + "/.git", withIntermediateDirectories: true)
        try "ref".write(toFile: copy.folder + "/.git/HEAD", atomically: true, encoding: .utf8)
        #expect(try Cart.pack(copy).bytes == Cart.pack(try Self.bundledEntry("fishing")).bytes)
    }

    /// The limits "Share your game" states are the ones the reader holds.
    @Test func theDocumentedLimitsAreTheLimits() throws {
        let page = try String(contentsOfFile: DefinitionsTests.repoRoot + "/docs/writing-games.md", encoding: .utf8)
        let limits = CartLimits()
        #expect(page.contains("more than **\(limits.files) files**, more than **\(limits.bytes >> 20) MiB** of file contents"))
        #expect(page.contains("a path longer than **\(limits.pathBytes) bytes** or more than **\(limits.depth) folders** deep"))
        #expect(page.contains("a cart format version other than \(Cart.formatVersion)"))
    }

    @Test func theIndexNamesTheFormatTheIdAndEveryFilesHash() throws {
        let cart = try Cart.pack(try Self.bundledEntry("coinbank"))
        let lines = cart.index.split(separator: "\n").map(String.init)
        #expect(lines[0] == "arcade-cart 1" && lines[1] == "id coinbank")
        #expect(lines.count == cart.files.count + 2)
        for (line, file) in zip(lines.dropFirst(2), cart.files) {
            #expect(line == "\(SHA256.hex(file.bytes))  coinbank/\(file.path)")
        }
        #expect(cart.files.map(\.path) == cart.files.map(\.path).sorted())
        // a ustar archive: the index first, then the files under coinbank/
        let bytes = cart.bytes
        #expect(Array(bytes[257..<265]) == Array("ustar\u{0}00".utf8))
        #expect(bytes.count % 512 == 0 && bytes.suffix(1024).allSatisfy { $0 == 0 })
    }

    /// The usual `tar` lists a cart (plain files, owner 0/0, mode 0644) and unpacks it into
    /// `<id>/` with every file as it was; `sha256sum -c` agrees with the index.
    @Test func theSystemTarReadsACart() throws {
        let world = try CartWorld("system-tar")
        let cart = try Cart.pack(try Self.bundledEntry("giftcombo"))
        let file = try cart.save(to: world.work)
        #expect(file == world.work + "/giftcombo.arcade")
        let listing = try shell("tar -tvf giftcombo.arcade", in: world.work)
        try #require(listing.status == 0, "tar: \(listing.out)")
        let lines = listing.out.split(separator: "\n")
        #expect(lines.count == cart.files.count + 1)
        #expect(lines.allSatisfy { $0.hasPrefix("-rw-r--r-- 0/0") }, "\(lines.first ?? "")")
        #expect(lines.first?.hasSuffix(" arcade-cart.txt") == true)
        let names = try shell("tar -tf giftcombo.arcade", in: world.work).out.split(separator: "\n").map(String.init)
        #expect(names == ["arcade-cart.txt"] + cart.files.map { "giftcombo/" + $0.path })
        #expect(try shell("tar -xf giftcombo.arcade", in: world.work).status == 0)
        for f in cart.files {
            #expect(FileManager.default.contents(atPath: world.work + "/giftcombo/" + f.path) == Data(f.bytes), "\(f.path)")
        }
        let check = try shell("sha256sum -c arcade-cart.txt 2>/dev/null | grep -c ': OK$'", in: world.work)
        #expect(check.out.trimmingCharacters(in: .whitespacesAndNewlines) == "\(cart.files.count)")
    }

    /// A path longer than ustar's 100-byte name goes into its prefix, and reads back whole.
    @Test func aLongPathUsesTheUstarPrefix() throws {
        let world = try CartWorld("long-path")
        let deep = "sprites/" + String(repeating: "a", count: 60) + "/" + String(repeating: "b", count: 70) + ".sprite"
        let g = try ScratchGame(id: "scratch", files: ["main.lua": "return {}", deep: "palette"])
        let cart = try Cart.pack(try #require(g.entry))
        let back = try Cart.read(cart.bytes)
        #expect(back.files.map(\.path).contains(deep))
        _ = try cart.save(to: world.work)
        let names = try shell("tar -tf scratch.arcade", in: world.work).out
        #expect(names.contains("scratch/" + deep + "\n"))
    }

    /// Links, FIFOs and odd names in a game's folder are refused, naming the file; limits
    /// hold when packing too.
    @Test func packingRefusesWhatACartCannotHold() throws {
        func refusal(_ files: [String: String], limits: CartLimits = CartLimits(),
                     prepare: (String) throws -> Void = { _ in }) throws -> String {
            let g = try ScratchGame(id: "scratch", files: ["main.lua": "return {}"].merging(files) { $1 })
            try prepare(g.folder)
            let entry = try #require(g.entry)
            do {
                _ = try Cart.pack(entry, limits: limits)
                return "packed"
            } catch { return error.description }
        }
        #expect(try refusal([:]) { try FileManager.default.createSymbolicLink(atPath: $0 + "/secret.lua", withDestinationPath: "/etc/passwd") }
                == "scratch/secret.lua is a symbolic link; a cart holds plain files only (put the file itself there)")
        #expect(try refusal([:]) { _ = mkfifo($0 + "/pipe", 0o600) }
                == "scratch/pipe is not a plain file (a device, FIFO or socket); a cart holds plain files only")
        #expect(try refusal(["big fish.sprite": "x"]).hasPrefix("scratch/big fish.sprite: a cart cannot hold a name with characters"))
        #expect(try refusal(["a.lua": "1", "b.lua": "2"], limits: CartLimits(files: 3))
                == "the game has more than 3 files, the most a cart may hold")
        #expect(try refusal(["a.txt": String(repeating: "x", count: 300)], limits: CartLimits(bytes: 200))
                == "the game's files add up to more than 200 bytes, the most a cart may hold")
        #expect(try refusal([".hidden": "x", "notes/.DS_Store": "x"]) == "packed")
    }

    /// The shared helpers come along unless the game has its own file by that name; only
    /// `.lua` files of `lib/` are taken.
    @Test func theGamesOwnLibraryFileWinsOverTheShared() throws {
        let g = try ScratchGame(id: "scratch", files: ["main.lua": "return {}", "lib/button.lua": "return 'mine'"])
        try FileManager.default.createDirectory(atPath: g.root + "/lib", withIntermediateDirectories: true)
        try "return 'shared'".write(toFile: g.root + "/lib/button.lua", atomically: true, encoding: .utf8)
        try "return 'shared'".write(toFile: g.root + "/lib/rgb.lua", atomically: true, encoding: .utf8)
        try "notes".write(toFile: g.root + "/lib/README", atomically: true, encoding: .utf8)
        let cart = try Cart.pack(try #require(g.entry))
        let files = Dictionary(uniqueKeysWithValues: cart.files.map { ($0.path, String(decoding: $0.bytes, as: UTF8.self)) })
        #expect(files["lib/button.lua"] == "return 'mine'" && files["lib/rgb.lua"] == "return 'shared'")
        #expect(files["lib/README"] == nil)
    }
}

/// Runs `command` with sh in `folder`: (status, stdout).
func shell(_ command: String, in folder: String) throws -> (status: Int32, out: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", command]
    p.currentDirectoryURL = URL(fileURLWithPath: folder)
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}
