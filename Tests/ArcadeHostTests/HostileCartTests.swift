import Foundation
import Testing
@testable import ArcadeHost

/// Carts no arcade would write, each built here byte by byte: every one is refused with one
/// line naming what was wrong, by `Cart.read`, by `install` and by `play`, and nothing is
/// written anywhere.
@Suite struct HostileCartTests {
    typealias E = Tar.Entry

    /// (what it is, the cart's bytes, a part of the refusal expected).
    static func cases() -> [(String, [UInt8], String)] {
        let good = HandMade.good
        let main = good[0]
        func file(_ path: String, _ text: String = "return 1\n") -> E { E(path: path, bytes: Array(text.utf8)) }
        // the extra entry is not listed, so what is refused is the entry itself
        func withExtra(_ extra: E) -> [UInt8] { HandMade.cart(good + [extra], index: HandMade.index(for: good)) }
        let valid = HandMade.cart(good)
        var list: [(String, [UInt8], String)] = [
            ("'..' inside the game", withExtra(file("evil/../escape.lua")), "climbs out of its folder with '..'"),
            ("'..' first", withExtra(file("../escape.lua")), "climbs out of its folder with '..'"),
            ("an absolute path", withExtra(file("/tmp/escape.lua")), "an absolute path"),
            ("'..' in the index", HandMade.cart(good, index: HandMade.index(for: good) + "\(SHA256.hex([]))  evil/../x.lua\n"),
             "arcade-cart.txt lists 'evil/../x.lua', which has a path that climbs out"),
            ("a symbolic link", withExtra(E(path: "evil/link.lua", bytes: [], type: Tar.symbolicLink, linkTarget: "/etc/passwd")),
             "entry 'evil/link.lua' is a link (to '/etc/passwd')"),
            ("a hard link", withExtra(E(path: "evil/hard.lua", bytes: [], type: Tar.hardLink, linkTarget: "evil/main.lua")),
             "is a link (to 'evil/main.lua')"),
            ("a character device", withExtra(E(path: "evil/tty", bytes: [], type: Tar.characterDevice)), "is a device"),
            ("a block device", withExtra(E(path: "evil/disk", bytes: [], type: Tar.blockDevice)), "is a device"),
            ("a FIFO", withExtra(E(path: "evil/pipe", bytes: [], type: Tar.fifo)), "is a FIFO"),
            ("a folder entry", withExtra(E(path: "evil/sub/", bytes: [], type: Tar.directory)), "is a folder entry"),
            ("a pax header", withExtra(E(path: "evil/PaxHeader", bytes: [], type: UInt8(ascii: "x"))), "has tar type 'x'"),
            ("a GNU long name", withExtra(E(path: "././@LongLink", bytes: [], type: UInt8(ascii: "L"))), "has tar type 'L'"),
            ("a duplicate entry", HandMade.cart(good + [main], index: HandMade.index(for: good)), "entry 'evil/main.lua' appears twice"),
            ("a file listed twice", HandMade.cart(good, index: HandMade.index(for: good + [main])), "lists 'main.lua' twice"),
            ("names differing in case", HandMade.cart(good + [file("evil/Main.lua")]), "differ only in case"),
            ("a hidden file", withExtra(file("evil/.hidden")), "a hidden name"),
            ("a name with a space", withExtra(file("evil/a b.lua")), "characters other than"),
            ("a name with a control byte", withExtra(file("evil/a\u{1b}[2J.lua")), "characters other than"),
            ("a name with a backslash", withExtra(file("evil/a\\b.lua")), "characters other than"),
            ("an entry outside the game's folder", withExtra(file("other/main.lua")), "is outside the game's folder 'evil/'"),
            ("a file the index does not list", HandMade.cart(good + [file("evil/extra.lua")], index: HandMade.index(for: good)),
             "entry 'evil/extra.lua' is not listed"),
            ("a listed file that is missing", HandMade.cart(good, index: HandMade.index(for: good + [file("evil/gone.lua")])),
             "lists 'evil/gone.lua', which the cart does not hold"),
            ("a hash that does not match",
             HandMade.cart(good, index: HandMade.index(for: good, listing: [file("evil/main.lua", "return 2\n"), good[1]])),
             "entry 'evil/main.lua' does not match its SHA-256"),
            ("an unknown format version", HandMade.cart(good, index: HandMade.index(for: good, header: "arcade-cart 2\nid evil\n")),
             "cart format 2, and this arcade reads format 1 only"),
            ("a format line that is not one", HandMade.cart(good, index: HandMade.index(for: good, header: "arcade-cart one\nid evil\n")),
             "is not a cart index"),
            ("an index that is not ASCII", HandMade.cart(good, index: "arcade-cart 1\nid évil\n"), "is not a cart index"),
            ("no main.lua", HandMade.cart([good[1]]), "it has no evil/main.lua"),
            ("no manifest.lua", HandMade.cart([good[0]]), "it has no evil/manifest.lua"),
            ("a manifest that runs code", HandMade.cart([main, file("evil/manifest.lua", "os.exit(1)")]), "evil/manifest.lua"),
            ("a manifest naming another id", HandMade.cart([main, file("evil/manifest.lua",
                HandMade.manifest.replacingOccurrences(of: "\"evil\"", with: "\"angel\""))]),
             "its manifest's id 'angel' is not the cart's id 'evil'"),
            ("a file inside a file", HandMade.cart(good + [file("evil/main.lua/x.lua")]),
             "entry 'evil/main.lua/x.lua' is inside 'evil/main.lua', which is a file"),
            ("a manifest that never ends", HandMade.cart([main, file("evil/manifest.lua", "while true do end")]),
             "evil/manifest.lua"),
            ("a folder too deep", withExtra(file("evil/a/b/c/d/e/f/g/h/i/deep.lua")), "more than 8 folders deep"),
            ("not a tar at all", Array("#!/bin/sh\nrm -rf ~\n".utf8), "not an arcade cart (not a tar archive)"),
            ("an empty file", [], "not an arcade cart (not a tar archive)"),
            ("a tar of something else", Tar.archive(good)!, "not an arcade cart: its first entry is 'evil/main.lua'"),
            ("an index of nothing but zeros", [UInt8](repeating: 0, count: 4096), "not an arcade cart"),
        ]
        for id in ["../evil", "Evil", "evil game", "", "1evil", "evil/x", "évil", String(repeating: "e", count: 33)] {
            let header = "arcade-cart 1\nid \(id)\n"
            list.append(("the id '\(id)'", HandMade.cart(good, index: HandMade.index(for: good, header: header)),
                         id.utf8.allSatisfy { $0 < 128 } ? "is not a plain id" : "is not a cart index"))
        }
        // damage: a header's byte, a file's byte, bytes after the end
        var header = valid
        header[2 * 512 + 3] ^= 0x20  // the index's header and data, then main.lua's header
        list.append(("a damaged header", header, "the cart is damaged: the header of entry 2 fails its checksum"))
        var body = valid
        body[3 * 512 + 10] ^= 0x01  // main.lua's data
        list.append(("a damaged file", body, "does not match its SHA-256 in arcade-cart.txt (damaged or altered)"))
        list.append(("bytes after the end", valid + Array("trailing".utf8) + [UInt8](repeating: 0, count: 504),
                     "bytes follow the archive's end marker"))
        var size = valid
        size.replaceSubrange((2 * 512 + 124)..<(2 * 512 + 127), with: Array("9x9".utf8))
        list.append(("a size that is not a number", size, "the cart is damaged"))
        return list
    }

    @Test func everyHostileCartIsRefusedWithOneLine() throws {
        for (what, bytes, expected) in Self.cases() {
            do {
                let cart = try Cart.read(bytes)
                Issue.record("\(what): read as a cart of \(cart.files.count) files")
            } catch {
                #expect(error.description.contains(expected), "\(what): \(error.description)")
                #expect(!error.description.contains("\n"), "\(what): more than one line")
            }
        }
    }

    /// Through the commands' own path (a file on disk, `load`, then `install` or play):
    /// refused, and no folder, file or private folder is left.
    @Test func installAndPlayWriteNothingForAHostileCart() throws {
        let world = try CartWorld("hostile")
        let shelf = world.shelf()
        for (i, (what, bytes, _)) in Self.cases().enumerated() {
            let file = world.work + "/hostile-\(i).arcade"
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            #expect(throws: CartProblem.self, "\(what)") { _ = try shelf.install(try shelf.load(file)) }
            #expect(throws: CartProblem.self, "\(what)") { _ = try shelf.unpackForPlay(try shelf.load(file)) }
            #expect(world.isUntouched, "\(what) left \(world.contents(world.userGames)) \(world.contents(world.scratch))")
        }
    }

    /// Cut anywhere, a cart is refused: inside a header, inside a file, before the end marker.
    @Test func aTruncatedCartIsRefusedWhereverItIsCut() throws {
        let valid = HandMade.cart(HandMade.good)
        #expect(throws: Never.self) { try Cart.read(valid) }
        var cuts = Array(stride(from: 1, to: valid.count, by: 97))
        cuts += Array(stride(from: 512, to: valid.count, by: 512))
        for cut in cuts {
            do {
                _ = try Cart.read(Array(valid[..<cut]))
                Issue.record("cut at \(cut) of \(valid.count): read as a cart")
            } catch {
                let expected = cut < 263 ? "not an arcade cart" : "truncated"
                #expect(error.description.contains(expected), "cut at \(cut): \(error.description)")
            }
        }
    }

    /// More files than the documented 1000, or headers declaring more bytes than the
    /// documented 16 MiB (an archive bomb): refused from the headers, before any data.
    @Test func limitsOnFilesAndBytesAreHeldAtTheDocumentedNumbers() throws {
        #expect(CartLimits().files == 1_000 && CartLimits().bytes == 16 << 20)
        var many = HandMade.good
        for i in 0..<998 { many.append(Tar.Entry(path: "evil/f\(i).txt", bytes: [UInt8(i % 256)])) }
        #expect(throws: Never.self) { try Cart.read(HandMade.cart(many)) }  // 1000 files with the two good ones
        many.append(Tar.Entry(path: "evil/one-more.txt", bytes: []))
        #expect(throws: CartProblem("it holds more than 1000 files, the most a cart may hold")) {
            try Cart.read(HandMade.cart(many))
        }
        // a header that says 1 GiB with nothing behind it
        let big = Tar.Entry(path: "evil/big.bin", bytes: [])
        let archive = HandMade.cart(HandMade.good + [big])
        let bigHeader = 3 * 512 + 3 * 512  // index + data, main.lua + data, manifest.lua + data
        let bomb = HandMade.declaringSize(1 << 30, at: bigHeader, in: archive)
        #expect(throws: CartProblem("its files add up to more than 16 MiB, the most a cart may hold")) { try Cart.read(bomb) }
        // real bytes: two files of 8 MiB and one more byte
        let half = [UInt8](repeating: 7, count: 8 << 20)
        let full = HandMade.good + [Tar.Entry(path: "evil/a.bin", bytes: half), Tar.Entry(path: "evil/b.bin", bytes: half + [1])]
        #expect(throws: CartProblem("its files add up to more than 16 MiB, the most a cart may hold")) {
            try Cart.read(HandMade.cart(full))
        }
        // and a file that holds more than the limit allows
        let world = try CartWorld("oversize")
        let file = world.work + "/huge.arcade"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: UInt64(CartLimits().cartBytes + 1))
        try handle.close()
        #expect(throws: CartProblem.self) { _ = try world.shelf().load(file) }
        do { _ = try world.shelf().load(file) } catch { #expect(error.description.contains("more than any cart may be")) }
    }
}
