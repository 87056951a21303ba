#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import ArcadeHost

/// Folders reached through symbolic links work as `stat` follows them (a linked data home,
/// games folder or `TMPDIR`), and a file whose name is not UTF-8 is found, or refused for
/// that reason; both used to be "cannot make the folder" or "no such file".
@Suite struct FilePathReasonTests {
    /// A world with a cart of a copy of Coin Bank, `linkbank.arcade`, in its work folder.
    static func world(_ label: String) throws -> CartWorld {
        let world = try CartWorld(label)
        let entry = try world.copyBundled("coinbank", as: "linkbank")
        _ = try Cart.pack(entry).save(to: world.work + "/linkbank.arcade")
        try FileManager.default.createDirectory(atPath: world.scratch, withIntermediateDirectories: true)
        return world
    }

    /// Makes `real` a folder and `link` a symbolic link to it.
    static func link(_ link: String, to real: String) throws {
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: String(link[..<link.lastIndex(of: "/")!]),
                                                withIntermediateDirectories: true)
        #expect(symlink(real, link) == 0)
    }

    static func arcade(_ world: CartWorld, _ args: [String], _ changes: [String: String]) throws
        -> (status: Int32, out: String, err: String) {
        var env = world.environment
        for (name, value) in changes { env[name] = value }
        return try runArcade(args, environment: env, in: world.work)
    }

    @Test func aLinkedDataHomeTakesInstalls() throws {
        let world = try Self.world("linked-home")
        try Self.link(world.root + "/linked-home", to: world.root + "/real-home")
        let install = try Self.arcade(world, ["install", "linkbank.arcade"], ["XDG_DATA_HOME": world.root + "/linked-home"])
        #expect(install.status == 0, "\(install.err)")
        #expect(FileManager.default.fileExists(atPath: world.root + "/real-home/arcade/games/linkbank/main.lua"))
    }

    @Test func aLinkedGamesFolderTakesInstalls() throws {
        let world = try Self.world("linked-games")
        try Self.link(world.userGames, to: world.root + "/real-games")
        let install = try world.arcade(["install", "linkbank.arcade"])
        #expect(install.status == 0, "\(install.err)")
        #expect(FileManager.default.fileExists(atPath: world.root + "/real-games/linkbank/main.lua"))
        let play = try world.arcade(["play", "linkbank", "--headless", "--frames", "2"])
        #expect(play.status == 0, "\(play.err)")
    }

    @Test func aLinkedTemporaryFolderPlaysAndInstallsCarts() throws {
        let world = try Self.world("linked-tmp")
        try Self.link(world.root + "/linked-tmp", to: world.root + "/real-tmp")
        let linked = ["TMPDIR": world.root + "/linked-tmp"]
        let play = try Self.arcade(world, ["play", "linkbank.arcade", "--headless", "--frames", "2"], linked)
        #expect(play.status == 0, "\(play.err)")
        let install = try Self.arcade(world, ["install", "linkbank.arcade"], linked)
        #expect(install.status == 0, "\(install.err)")
        #expect(world.contents(world.root + "/real-tmp").isEmpty, "the private folders are removed")
    }

    /// A games folder that cannot be made says which folder and why, and nothing is left.
    @Test func aFolderThatCannotBeMadeSaysWhy() throws {
        let world = try Self.world("folder-reason")
        let parent = String(world.userGames[..<world.userGames.lastIndex(of: "/")!])
        try FileManager.default.createDirectory(atPath: String(parent[..<parent.lastIndex(of: "/")!]),
                                                withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: parent, contents: Data("a file".utf8)))
        let install = try world.arcade(["install", "linkbank.arcade"])
        #expect(install.status != 0)
        #expect(install.err.contains("cannot make the folder \(world.userGames): \(parent): not a directory"), "\(install.err)")
        #expect(try String(contentsOfFile: parent, encoding: .utf8) == "a file")
    }

    /// `arcade <command> caf\xE9.arcade` through a shell, the name's bytes Latin-1.
    static func latin1(_ world: CartWorld, _ command: String) throws -> (status: Int32, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exec \"$0\" \(command) \"$(printf 'caf\\351.arcade')\"", try arcadeExecutable()]
        p.environment = world.environment
        p.currentDirectoryURL = URL(fileURLWithPath: world.work)
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    @Test func aCartWhoseNameIsNotUTF8IsFound() throws {
        let world = try Self.world("latin1-cart")
        let none = try Self.latin1(world, "install")
        #expect(none.status == 1 && none.err.hasSuffix("no such file; nothing was written\n"), "\(none.err)")
        // café.arcade in Latin-1: "caf" and the byte 0xE9
        let name: [CChar] = [0x63, 0x61, 0x66, CChar(bitPattern: 0xE9)] + Array(".arcade".utf8CString)
        let bytes = try #require(FileManager.default.contents(atPath: world.work + "/linkbank.arcade"))
        let fd = (Array((world.work + "/").utf8CString.dropLast()) + name).withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        #expect(fd >= 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let play = try Self.latin1(world, "play --headless --frames 2")
        #expect(play.status == 0, "\(play.err)")
        let install = try Self.latin1(world, "install")
        #expect(install.status == 0, "\(install.err)")
        #expect(FileManager.default.fileExists(atPath: world.userGames + "/linkbank/main.lua"))
    }

    @Test func packingAFileWhoseNameIsNotUTF8SaysSo() throws {
        let world = try CartWorld("latin1-pack")
        let entry = try world.copyBundled("coinbank", as: "latinbank")
        let name = Array((entry.folder + "/caf").utf8CString.dropLast()) + [CChar(bitPattern: 0xE9), 0]
        let fd = name.withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        #expect(fd >= 0)
        close(fd)
        #expect(throws: CartProblem("latinbank/caf\\u{fffd}: its name is not UTF-8 text, which a cart cannot hold; rename it")) {
            _ = try Cart.pack(entry)
        }
    }
}
