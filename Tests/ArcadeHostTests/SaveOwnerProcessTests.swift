import Foundation
import Testing
@testable import ArcadeHost

/// Saves between real arcade processes: whose they are whichever folder or cart claims the
/// id, two arcades saving at once, and the reasons given when the file cannot be used.
@Suite(.serialized) struct SaveOwnerProcessTests {
    /// A game `rocks` that reads who saved before it (into `game.state.found`), then saves
    /// its own `name` there.
    static func marker(_ name: String, in root: String) throws {
        let folder = root + "/rocks"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
            return { id = "rocks", title = "Rocks", description = "\(name)", author = "tests", version = "0", api = 1 }
            """.write(toFile: folder + "/manifest.lua", atomically: false, encoding: .utf8)
        try """
            local game = {}
            function game.load()
              game.state.found = arcade.save.get("who") or "nobody"
              arcade.save.set("who", "\(name)")
            end
            return game
            """.write(toFile: folder + "/main.lua", atomically: false, encoding: .utf8)
    }

    /// Runs the arcade with `arguments` (and `environment` added) to its end.
    static func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                    prefix: [String] = [], executable: String? = nil) throws -> (status: Int32, out: String, err: String) {
        let executable = try executable ?? arcadeExecutable()
        var tries = 0
        while true {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: prefix.first ?? executable)
            p.arguments = prefix.isEmpty ? arguments : Array(prefix.dropFirst()) + [executable] + arguments
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            do {
                try p.run()
            } catch let error as NSError where Self.isBusyText(error) && tries < 100 {
                // A binary copied a moment ago can still be open for writing in a child that
                // another test forked meanwhile (until that child's exec), and Linux will not
                // run it until then: try again shortly.
                tries += 1
                usleep(20_000)
                continue
            }
            return finish(p, out, err)
        }
    }

    /// Whether starting a process failed with `ETXTBSY` (Foundation wraps it in a Cocoa error).
    private static func isBusyText(_ error: NSError) -> Bool {
        let posix = error.domain == NSPOSIXErrorDomain ? error : error.userInfo[NSUnderlyingErrorKey] as? NSError
        return posix?.domain == NSPOSIXErrorDomain && posix?.code == Int(ETXTBSY)
    }

    private static func finish(_ p: Process, _ out: Pipe, _ err: Pipe) -> (status: Int32, out: String, err: String) {
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// What the marker game found saved, played from `games`.
    static func found(_ games: [String], data: String, game: String = "rocks", environment: [String: String] = [:]) throws -> String {
        let r = try run(["play", game] + games.flatMap { ["--games", $0] } + ["--headless", "--data", data, "--frames", "2", "--state"],
                        environment: environment)
        #expect(r.status == 0, "\(r.err)")
        guard let range = r.out.range(of: #""found": "[^"]*""#, options: .regularExpression) else { return r.out + r.err }
        return String(r.out[range].dropFirst(10).dropLast())
    }

    @Test func twoGamesFoldersWithOneIdKeepTheirOwnSaves() throws {
        let dir = ScratchFolder(), a = ScratchFolder(), b = ScratchFolder()
        try Self.marker("a", in: a.path)
        try Self.marker("b", in: b.path)
        #expect(try Self.found([b.path], data: dir.path) == "nobody")
        // a holds the id now: it must not read or write b's saves
        #expect(try Self.found([a.path, b.path], data: dir.path) == "nobody")
        #expect(try Self.found([b.path], data: dir.path) == "b")
        #expect(try Self.found([a.path], data: dir.path) == "a")
    }

    @Test func aCartNeverTakesTheSavesOfAnotherGameOfItsId() throws {
        let dir = ScratchFolder(), home = ScratchFolder(), games = ScratchFolder(), other = ScratchFolder()
        let env = ["XDG_DATA_HOME": home.path, "HOME": home.path]
        try Self.marker("folder", in: games.path)
        try Self.marker("other cart", in: other.path)
        #expect(try Self.found([games.path], data: dir.path, environment: env) == "nobody")
        let cart = dir.file("rocks.arcade"), otherCart = dir.file("other.arcade")
        #expect(try Self.run(["pack", games.path + "/rocks", "-o", cart], environment: env).status == 0)
        #expect(try Self.run(["pack", other.path + "/rocks", "-o", otherCart], environment: env).status == 0)
        // the same game as a cart, the --games folder not named this time
        #expect(try Self.found([], data: dir.path, game: cart, environment: env) == "nobody")
        #expect(try Self.found([], data: dir.path, game: cart, environment: env) == "folder")

        // installed, uninstalled, and another cart installed under the id: it starts afresh
        #expect(try Self.run(["install", cart], environment: env).status == 0)
        #expect(try Self.found([], data: dir.path, environment: env) == "folder")
        #expect(try Self.run(["uninstall", "rocks"], environment: env).status == 0)
        #expect(try Self.run(["install", otherCart], environment: env).status == 0)
        #expect(try Self.found([], data: dir.path, environment: env) == "nobody")
        // adopt gives it the first cart's saves on purpose
        let adopted = try Self.run(["adopt", "rocks", "--data", dir.path], environment: env)
        #expect(adopted.status == 1, "several earlier owners: one must be named")
        #expect(adopted.err.contains("--from"))
        let identity = try #require(adopted.err.split(separator: "\n").first { $0.contains("the cart ") && $0.contains("1 values") })
        let from = String(identity.split(separator: " ")[1].dropLast())
        let again = try Self.run(["adopt", "rocks", "--data", dir.path, "--from", from], environment: env)
        #expect(again.status == 0, "\(again.err)")
        #expect(try Self.found([], data: dir.path, environment: env) == "folder")
    }

    /// A folder with a `Package.swift` and `games/` where the arcade is started is no more
    /// than a folder: its games are not the arcade's own.
    @Test func aPackageInTheCurrentFolderIsNotTheArcadesOwnGames() throws {
        let fake = ScratchFolder()
        fake.write("Package.swift", Array("// swift-tools-version:5.9\n".utf8))
        try FileManager.default.createDirectory(atPath: fake.file("games/coinbank"), withIntermediateDirectories: true)
        try #"return { id = "coinbank", title = "Fake bank", description = "takes saves", author = "x", version = "0", api = 1 }"#
            .write(toFile: fake.file("games/coinbank/manifest.lua"), atomically: false, encoding: .utf8)
        try "return {}".write(toFile: fake.file("games/coinbank/main.lua"), atomically: false, encoding: .utf8)
        // the executable copied out of its build folder, so that only the current folder
        // could offer games beside a Package.swift
        let bin = ScratchFolder(), copy = bin.file("arcade")
        try FileManager.default.copyItem(atPath: try arcadeExecutable(), toPath: copy)
        let listed = try Self.run(["list"], directory: fake.path, executable: copy)
        #expect(listed.status == 0)
        #expect(!listed.out.contains("Fake bank"), "\(listed.out)")
        #expect(listed.out.contains("Coin Bank"), "\(listed.out)")
        let bundled = try Self.run(["play", "coinbank", "--headless", "--frames", "1", "--state"], directory: fake.path,
                                   executable: copy)
        #expect(bundled.status == 0)
        #expect(!bundled.out.contains("takes saves"))
    }

    /// Two arcades saving every step into one data folder at once: both keep every save.
    @Test func twoArcadesSavingAtOnceBothKeepTheirSaves() throws {
        let dir = ScratchFolder(), games = ScratchFolder()
        for id in ["left", "right"] {
            try FileManager.default.createDirectory(atPath: games.file(id), withIntermediateDirectories: true)
            try "return { id = \"\(id)\", title = \"\(id)\", description = \"d\", author = \"t\", version = \"0\", api = 1 }"
                .write(toFile: games.file(id + "/manifest.lua"), atomically: false, encoding: .utf8)
            try """
                local game = {}
                function game.update()
                  local n = (arcade.save.get("n") or 0) + 1
                  arcade.save.set("n", n)
                  arcade.save.set("pad" .. (n % 4), string.rep("p", 2000))
                  arcade.score.submit(n)
                end
                return game
                """.write(toFile: games.file(id + "/main.lua"), atomically: false, encoding: .utf8)
        }
        // both start at once; stderr goes to files, read once both have ended
        var running: [(String, Process, String)] = []
        for id in ["left", "right"] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: try arcadeExecutable())
            p.arguments = ["play", id, "--games", games.path, "--headless", "--data", dir.path, "--frames", "400"]
            let log = dir.file(id + ".err")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            p.standardError = FileHandle(forWritingAtPath: log)
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            running.append((id, p, log))
        }
        for (id, p, log) in running {
            p.waitUntilExit()
            let err = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(p.terminationStatus == 0 && err.isEmpty, "\(id): \(err)")
        }
        let store = SaveStore(location: .file(dir.database))
        for id in ["left", "right"] {
            let slot = store.slot(for: id, owner: .folder(games.file(id)))
            #expect(try slot.value(forKey: "n") == .int(400), "\(id): \((try? store.owners(of: id))?.map(\.name) ?? []), \(store.notices)")
            #expect(try slot.bestScore() == 400, "\(id)")
        }
        #expect(try store.integrityCheck() == ["ok"])
    }

    /// `uninstall --purge` while another program holds the save file locked: it fails, says
    /// why, and the saves are still there.
    @Test func aPurgeOfABusyFileFailsAndSaysWhy() throws {
        let dir = ScratchFolder(), home = ScratchFolder()
        do {
            let store = SaveStore(location: .file(dir.database))
            try store.setValue(.int(1), game: "rocks", key: "k")
            store.close()
        }
        let holder = try SQLiteDatabase(path: dir.database)
        try holder.execute("BEGIN EXCLUSIVE")
        let r = try Self.run(["uninstall", "rocks", "--purge", "--data", dir.path], environment: ["XDG_DATA_HOME": home.path])
        try holder.execute("ROLLBACK")
        holder.close()
        #expect(r.status == 1)
        #expect(r.err.contains("another arcade is using it"), "\(r.err)")
        #expect(r.err.contains("nothing was removed"), "\(r.err)")
        #expect(!r.out.contains("removed"), "\(r.out)")
        let store = SaveStore(location: .file(dir.database))
        #expect(try store.value(game: "rocks", key: "k") == .int(1))
    }

    /// A data folder the arcade may not write (here: as an unprivileged user) is called
    /// read-only, and the game plays on with its saves in memory.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && runningAsRoot))
    func aReadOnlyDataFolderIsCalledReadOnly() throws {
        let dir = ScratchFolder(), games = ScratchFolder()
        try Self.marker("ro", in: games.path)
        chmod(games.path, 0o755)
        do {
            let store = SaveStore(location: .file(dir.database))
            try store.setValue(.int(1), game: "other", key: "k")
            store.close()
        }
        chmod(dir.database, 0o666)
        chmod(dir.path, 0o555)
        let executable = try arcadeExecutable()
        // the nobody user must reach the executable: skip when its folders are private
        guard access(executable, X_OK) == 0, Self.reachable(executable) else { return }
        let r = try Self.run(["play", "rocks", "--games", games.path, "--headless", "--data", dir.path, "--frames", "2", "--state"],
                             prefix: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("read-only"), "\(r.err)")
        #expect(!r.err.contains("disk I/O error"), "\(r.err)")
        #expect(r.err.contains("lost when the arcade quits"), "\(r.err)")
    }

    /// True when every folder above `path` lets anyone through.
    static func reachable(_ path: String) -> Bool {
        var dir = (path as NSString).deletingLastPathComponent
        while dir != "/" && !dir.isEmpty {
            var st = stat()
            guard stat(dir, &st) == 0, st.st_mode & 0o001 != 0 else { return false }
            dir = (dir as NSString).deletingLastPathComponent
        }
        return true
    }
}
