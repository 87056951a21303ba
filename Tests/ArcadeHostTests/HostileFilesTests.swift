import Foundation
import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// A FIFO at `path` with its read end held open (as a hostile reader would), so that a
/// writer that does not check what it opens writes into it at once instead of waiting: what
/// it wrote is then in ``written()``.
final class OpenFifo {
    let path: String
    private let fd: Int32

    init(_ path: String) throws {
        self.path = path
        try #require(mkfifo(path, 0o644) == 0)
        fd = open(path, O_RDONLY | O_NONBLOCK)
        try #require(fd >= 0)
    }

    func written() -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return out }
            out += chunk[0..<n]
        }
    }

    deinit { close(fd) }
}

/// What a game's folder holds cannot make the arcade write or read outside it, nor wait for
/// ever on a FIFO, nor put raw control bytes in a recording's header.
@Suite struct HostileFilesTests {
    static let goldenTest = ["tests/a.lua": """
        test("first frame", function(t)
          t:start():step():expect_golden("first")
        end)
        """]

    static func goldenGame() throws -> (ScratchGame, outside: String) {
        let g = try ScratchGame(files: ["main.lua": "return {}"].merging(goldenTest) { a, _ in a })
        let outside = g.root + "-outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        return (g, outside)
    }

    static func updateGolden(_ g: ScratchGame) throws -> GameTestRunner.Result {
        let entry = try #require(g.entry)
        return try #require(GameTestRunner(options: .init(updateGolden: true, determinism: nil)).run(entry).first)
    }

    @Test func updateGoldenDoesNotFollowAGoldenFolderLinkedOutOfTheGame() throws {
        let (g, outside) = try Self.goldenGame()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createSymbolicLink(atPath: g.folder + "/tests/golden", withDestinationPath: outside)
        let result = try Self.updateGolden(g)
        #expect(!result.passed)
        #expect(result.message.contains("cannot write the golden frame scratch/tests/golden/first.txt: "
                                        + "tests/golden leads outside the game's folder"), "\(result.message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    @Test func updateGoldenMakesNothingThroughATestsFolderLinkedOutOfTheGame() throws {
        let (g, outside) = try Self.goldenGame()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.moveItem(atPath: g.folder + "/tests/a.lua", toPath: outside + "/a.lua")
        try FileManager.default.removeItem(atPath: g.folder + "/tests")
        try FileManager.default.createSymbolicLink(atPath: g.folder + "/tests", withDestinationPath: outside)
        let result = try Self.updateGolden(g)
        #expect(!result.passed)
        #expect(result.message.contains("cannot write the golden frame scratch/tests/golden/first.txt: "
                                        + "tests leads outside the game's folder"), "\(result.message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["a.lua"])
    }

    @Test func updateGoldenDoesNotFollowAGoldenFileLinkedOutOfTheGame() throws {
        let (g, outside) = try Self.goldenGame()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createDirectory(atPath: g.folder + "/tests/golden", withIntermediateDirectories: true)
        try "precious\n".write(toFile: outside + "/precious.txt", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: g.folder + "/tests/golden/first.txt",
                                                   withDestinationPath: outside + "/precious.txt")
        let result = try Self.updateGolden(g)
        #expect(!result.passed)
        #expect(result.message.contains("first.txt: it is a symbolic link, not a regular file"), "\(result.message)")
        #expect(try String(contentsOfFile: outside + "/precious.txt", encoding: .utf8) == "precious\n")

        // nor a hard link to a file elsewhere
        unlink(g.folder + "/tests/golden/first.txt")
        #expect(link(outside + "/precious.txt", g.folder + "/tests/golden/first.txt") == 0)
        let linked = try Self.updateGolden(g)
        #expect(linked.message.contains("it has other names (hard links)"), "\(linked.message)")
        #expect(try String(contentsOfFile: outside + "/precious.txt", encoding: .utf8) == "precious\n")
    }

    @Test func updateGoldenRefusesAFifoInsteadOfWaitingOnIt() throws {
        let (g, outside) = try Self.goldenGame()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createDirectory(atPath: g.folder + "/tests/golden", withIntermediateDirectories: true)
        let fifo = try OpenFifo(g.folder + "/tests/golden/first.txt")
        let result = try Self.updateGolden(g)
        #expect(!result.passed)
        #expect(result.message.contains("first.txt: it is a FIFO, not a regular file"), "\(result.message)")
        #expect(fifo.written().isEmpty)
        // an ordinary golden folder still takes the frame
        unlink(fifo.path)
        #expect(try Self.updateGolden(g).passed)
    }

    @Test func aSharedLibraryFolderLinkedOutOfTheGamesFolderLoadsNothing() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local x = require("lib.x")
            local game = {}
            function game.load() game.state.x = x end
            return game
            """])
        let outside = g.root + "-outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try "return 'SECRET'".write(toFile: outside + "/x.lua", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: g.root + "/lib", withDestinationPath: outside)
        let error = try #require(throws: LuaError.self) { try GameSession(entry: try #require(g.entry)) }
        #expect(error.message.contains("module 'lib.x' not found"), "\(error.message)")
        #expect(error.message.contains("'lib' leads outside the games folder"), "\(error.message)")

        // the same files in a real lib folder load
        unlink(g.root + "/lib")
        try FileManager.default.createDirectory(atPath: g.root + "/lib", withIntermediateDirectories: true)
        try "return 'shared'".write(toFile: g.root + "/lib/x.lua", atomically: false, encoding: .utf8)
        let session = try GameSession(entry: try #require(g.entry))
        #expect(try session.state()["x"] == .string("shared"))
    }

    @Test func recordingsRefuseAFifoInsteadOfWaitingOnIt() throws {
        let dir = try temporaryFolder("fifo-recordings")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = try OpenFifo(dir + "/pipe")
        let cast = try #require(throws: AsciicastWriter.Problem.self) {
            try AsciicastWriter(path: fifo.path, cols: 80, rows: 24)
        }
        #expect(cast.description == "cannot write the recording '\(fifo.path)': it is a FIFO, not a regular file")
        let recorder = InputRecorder(path: fifo.path, game: "tiny", seed: 1, cols: 80, rows: 24)
        recorder.record(.key(KeyEvent("a")), frame: 0)
        recorder.finish(at: 1)
        #expect(recorder.problem == "cannot write the recording '\(fifo.path)': it is a FIFO, not a regular file")
        #expect(InputRecorder.problem(writingTo: fifo.path) == recorder.problem)
        #expect(InputRecorder.problem(writingTo: dir + "/fine.rec") == nil)
        #expect(fifo.written().isEmpty)

        // the command line refuses before anything runs (a FIFO with no reader would block an open for ever)
        let lonely = dir + "/lonely"
        #expect(mkfifo(lonely, 0o644) == 0)
        for flag in ["--record", "--cast"] {
            let r = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--frames", "3", flag, lonely])
            #expect(r.status == 2)
            #expect(r.err == "arcade: cannot write the recording '\(lonely)': it is a FIFO, not a regular file\n", "\(r.err)")
        }
        let device = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--frames", "3", "--record", "/dev/null"])
        #expect(device.err == "arcade: cannot write the recording '/dev/null': it is a device, not a regular file\n")
    }

    @Test func aCastHeaderShowsControlBytesOfTheTitleEscaped() throws {
        let path = NSTemporaryDirectory() + "arcade-cast-title-\(UUID().uuidString).cast"
        defer { unlink(path) }
        let writer = try AsciicastWriter(path: path, cols: 80, rows: 24, title: "arcade: a\u{1B}]52;c;cHduZWQ=\u{07}b\u{9B}2J\nc",
                                         term: "xterm\u{1B}[2J", timestamp: 1)
        try writer.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let cast = try AsciicastFile.parse(Array(text.utf8))
        let title = try #require(cast.header.title)
        #expect(title == "arcade: a\\27]52;c;cHduZWQ=\\7b\\u{9B}2J\\10c")
        #expect(!title.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(text.contains(#""env": {"TERM": "xterm\\27[2J"}"#), "\(text)")
    }
}
