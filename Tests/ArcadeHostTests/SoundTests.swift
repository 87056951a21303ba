import Foundation
import Testing
import ArcadeCore
import ArcadeLua
import ArcadeTerminal
@testable import ArcadeHost

/// `arcade.sfx` in a running game: sounds defined in Lua and in `.sfx` files, what
/// `g:sounds()` reads, `--wav`, the cap over sounds, and the speaker without a device.
@Suite struct SoundTests {
    /// A game that plays a chime at step 10 and a noise burst on channel 5 at step 30.
    static let chiming = """
        local game = {}
        function game.load()
          arcade.sfx.define("chime", { wave = "triangle", notes = "c5 e5 g5", speed = 6, volume = 0.5 })
        end
        function game.update(dt)
          if arcade.frame() == 10 then game.state.channel = arcade.sfx.play("chime") end
          if arcade.frame() == 30 then arcade.sfx.play("hiss", { channel = 5, volume = 0.5, pitch = -12 }) end
        end
        return game
        """

    static let hiss = """
        # a short hiss
        wave = noise
        notes = c5
        speed = 12
        """

    static func session(_ g: ScratchGame, limits: LuaVM.Limits = .init()) throws -> GameSession {
        try GameSession(entry: try #require(g.entry), options: .init(limits: limits))
    }

    @Test func soundsFromLuaAndFromSfxFilesPlayAndAreListed() throws {
        let g = try ScratchGame(files: ["main.lua": Self.chiming, "sfx/hiss.sfx": Self.hiss])
        let session = try Self.session(g)
        for _ in 0..<40 { session.step() }
        #expect(session.failure == nil)
        #expect(session.sound.started == [.init(name: "chime", step: 10, channel: 1), .init(name: "hiss", step: 30, channel: 5)])
        #expect(try session.state()["channel"] == .int(1))
        #expect(session.sound.sounds["hiss"]?.spec.wave == .noise)
    }

    @Test func theWAVIsTheSameBytesOnEveryRunAndHoldsTheSound() throws {
        let g = try ScratchGame(files: ["main.lua": Self.chiming, "hiss.sfx": Self.hiss])
        func render() throws -> [UInt8] {
            let wav = WAVRecorder(path: "/dev/null")
            var runner = HeadlessRunner(entry: try #require(g.entry), options: .init(), frames: 60)
            runner.soundSinks = [wav]
            _ = try runner.run()
            return wav.bytes
        }
        let a = try render(), b = try render()
        #expect(a == b)
        #expect(a.count == 44 + 60 * 800 * 2)
        let samples = stride(from: 44, to: a.count, by: 2).map { Int16(bitPattern: UInt16(a[$0]) | UInt16(a[$0 + 1]) << 8) }
        // silent until the chime's step (step 10 is samples 7200 on), sounding after
        #expect(samples[..<7200].allSatisfy { $0 == 0 })
        #expect(samples[7200..<8000].contains { $0 != 0 })
    }

    @Test func headlessPlayWritesTheWAVFile() throws {
        let g = try ScratchGame(files: ["main.lua": Self.chiming, "hiss.sfx": Self.hiss])
        let path = g.root + "/out.wav"
        var play = HeadlessPlay(entry: try #require(g.entry))
        play.frames = 40
        play.wavPath = path
        var err = ""
        let status = play.run(log: { _ in }, to: .init(out: { _ in }, outRaw: { _ in }, err: { err += $0 }))
        #expect(status == 0, "\(err)")
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.count == 44 + 40 * 800 * 2)
        #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8))
    }

    @Test func aMistakeInAnSfxFileNamesTheFileAndTheLine() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}", "sfx/coin.sfx": "notes = c5\nwav = saw\n"])
        #expect(throws: LuaError.self) { try Self.session(g) }
        do { _ = try Self.session(g) } catch let error as LuaError {
            #expect(error.message == "scratch/sfx/coin.sfx:2: unknown key 'wav' (did you mean 'wave'?)")
        }
    }

    @Test func anSfxFileIsHotReloaded() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}", "blip.sfx": "notes = c5\n"])
        let session = try Self.session(g)
        #expect(session.sound.sounds["blip"]?.spec.notes == [72])
        try g.write("blip.sfx", "notes = c6 g6\nwave = sine\n")
        #expect(session.reload() == nil)
        #expect(session.sound.sounds["blip"]?.spec.notes == [84, 91])
        #expect(session.sound.sounds["blip"]?.spec.wave == .sine)
        // a broken edit changes nothing and says why
        try g.write("blip.sfx", "notes = c6 q6\n")
        #expect(session.reload()?.message.hasPrefix("scratch/blip.sfx:1: notes: note 2 'q6'") == true)
        #expect(session.sound.sounds["blip"]?.spec.notes == [84, 91])
        // the watcher of `arcade dev` sees .sfx edits
        let watcher = FileWatcher(folders: [g.folder], mode: .polling)
        try g.write("blip.sfx", "notes = c4\n")
        #expect(watcher.changes(now: 1e9).contains(g.folder + "/blip.sfx"))
    }

    @Test func badArgumentsAreNamed() throws {
        func failure(_ code: String) throws -> String {
            let g = try ScratchGame(files: ["main.lua": """
                local game = {}
                function game.load() arcade.sfx.define("a", { notes = "c5" }) end
                function game.update() \(code) end
                return game
                """])
            let session = try Self.session(g)
            session.step()
            return session.failure?.message ?? "no error"
        }
        #expect(try failure("arcade.sfx.play('b')").contains("bad argument #1 to 'arcade.sfx.play' (no sound named 'b': define it with arcade.sfx.define or a b.sfx file)"))
        #expect(try failure("arcade.sfx.play('a', { channel = 9 })").contains("(field 'channel': channel from 1 to 8 expected, got 9)"))
        #expect(try failure("arcade.sfx.play('a', { volum = 1 })").contains("unknown option 'volum' (did you mean 'volume'?)"))
        #expect(try failure("arcade.sfx.define('c', { notes = 'c5 zz' })").contains("(field 'notes': note 2 'zz' is not a note"))
        #expect(try failure("arcade.sfx.define('c', { notes = 'c5', wave = 'organ' })").contains("field 'wave'"))
        #expect(try failure("arcade.sfx.define('c', { notes = 'c5', speed = 0 })").contains("field 'speed'"))
        #expect(try failure("arcade.sfx.define('c', { notes = '' })").contains("(field 'notes': a sound needs at least one note)"))
        #expect(try failure("arcade.sfx.music({ { 'a', 'x' } })").contains("pattern 1: no sound named 'x'"))
        #expect(try failure("arcade.sfx.stop(0)").contains("bad argument #1 to 'arcade.sfx.stop'"))
    }

    @Test func aGameSpammingPlayNeverHoldsMoreThanEightChannels() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              arcade.sfx.define("a", { notes = "c5 d5 e5 f5", speed = 60, loop = true })
            end
            function game.update()
              for i = 1, 5000 do arcade.sfx.play("a", { pitch = i % 24 }) end
            end
            return game
            """])
        let session = try Self.session(g)
        let wav = WAVRecorder(path: "/dev/null")
        session.soundSinks = [wav]
        for _ in 0..<3 { session.step() }
        #expect(session.failure == nil)
        #expect((0..<Mixer.channelCount).allSatisfy { session.sound.mixer.sound(on: $0) == "a" })
        #expect(session.sound.started.count == SoundModule.startedKept)
        #expect(wav.samples.count == 3 * 800)
    }

    @Test func hugeSoundsAreHeldByTheMemoryCap() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            local notes = string.rep("c5 ", 1024)
            function game.update()
              for i = 1, 100000 do arcade.sfx.define("s" .. i, { notes = notes }) end
            end
            return game
            """])
        let session = try Self.session(g, limits: .init(memoryBytes: 8 << 20, secondsPerCall: 30, secondsPerStep: 30))
        session.step()
        let failure = try #require(session.failure)
        #expect(failure.kind == .memory)
        #expect(failure.message.contains("exceeded its memory limit (8 MiB): a sound of 1024 notes needs"))
        // and more notes than a sound may hold is refused by name
        let g2 = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load() arcade.sfx.define("s", { notes = string.rep("c5 ", 1025) }) end
            return game
            """])
        #expect(throws: LuaError.self) { try Self.session(g2) }
    }

    @Test func withoutAnAudioDeviceTheSpeakerIsSilentAndLogsOneLine() throws {
        for (library, device) in [("libasound.so.2", "arcade-test-no-such-device"), ("libarcade-no-such-library.so", "default")] {
            let lines = LockedLines()
            let speaker = Speaker(library: library, device: device, log: { lines.append($0) })
            let samples = [Int16](repeating: 1000, count: 800)
            samples.withUnsafeBufferPointer { speaker.write($0) }
            // the device is opened on the speaker's own thread: wait for its verdict
            for _ in 0..<1000 where speaker.currentState != .silent { usleep(5_000) }
            #expect(speaker.currentState == .silent)
            for _ in 0..<10 { samples.withUnsafeBufferPointer { speaker.write($0) } }
            speaker.close()
            #expect(lines.lines.count == 1)
            #expect(lines.lines.first?.hasPrefix("sound: no audio") == true)
            #expect(lines.lines.first?.hasSuffix("the arcade plays silent") == true)
        }
    }

    @Test func silenceNeverOpensTheDevice() throws {
        let lines = LockedLines()
        let speaker = Speaker(device: "arcade-test-no-such-device", log: { lines.append($0) })
        let silence = [Int16](repeating: 0, count: 800)
        for _ in 0..<10 { silence.withUnsafeBufferPointer { speaker.write($0) } }
        #expect(speaker.currentState == .idle)
        #expect(lines.lines.isEmpty)
    }
}

/// Lines logged, kept under a lock (the speaker's verdict is read on the test's thread).
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}

/// The mute key on the pause card, on a pseudo-terminal.
@Suite(.serialized) struct MuteKeyTests {
    @Test func mOnThePauseCardMutesAndTheArcadeRemembersIt() throws {
        let store = SaveStore(location: .memory)
        var ptys: [PseudoTerminal] = []  // kept open while their arcades run
        func app() throws -> ArcadeApp {
            let pty = try PseudoTerminal(cols: 80, rows: 24)
            var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
            parts.removeLast(3)
            var o = ArcadeApp.Options(catalog: GameCatalog(searchDirs: [parts.joined(separator: "/") + "/games"]))
            o.gameID = "fishing"
            o.store = store
            let app = ArcadeApp(options: o, terminal: try Terminal(input: pty.secondary, output: pty.secondary))
            app.speaker = Speaker(device: "arcade-test-no-such-device", log: { _ in })
            app.start(try #require(o.catalog.game("fishing")))
            ptys.append(pty)
            return app
        }
        // the card's panel reads as blocks in the plain text: its spaces too
        func card(_ app: ArcadeApp) -> String { InteractiveAppTests.text(app).replacingOccurrences(of: "█", with: " ") }
        let first = try app()
        #expect(!first.muted)
        first.handle([.key(KeyEvent("esc"))])
        #expect(card(first).contains("m: sound on"))
        first.handle([.key(KeyEvent("m"))])
        #expect(first.muted && first.speaker?.muted == true)
        #expect(card(first).contains("m: sound off"))
        // the card stays up: m is not a choice
        if case .pause? = first.card {} else { Issue.record("the pause card closed") }
        // a later run starts muted
        let second = try app()
        #expect(second.muted)
        second.handle([.key(KeyEvent("esc")), .key(KeyEvent("m"))])
        #expect(!second.muted)
        #expect(try !app().muted)
    }
}

/// The speaker's output thread through a real ALSA device that needs no hardware: ALSA's
/// `file` plugin, which writes what it is sent to a file.
@Suite(.serialized) struct SpeakerOutputTests {
    @Test func theSamplesReachTheDeviceInOrder() throws {
        guard dlopen("libasound.so.2", RTLD_NOW) != nil else { return }  // no ALSA here: nothing to check
        let path = NSTemporaryDirectory() + "arcade-speaker-\(UUID().uuidString).raw"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = LockedLines()
        let speaker = Speaker(device: "file:FILE=\(path),FORMAT=raw", log: { lines.append($0) })
        let tone = (0..<800).map { Int16(($0 % 40) * 500 - 10_000) }
        tone.withUnsafeBufferPointer { speaker.write($0) }
        for _ in 0..<1000 where speaker.currentState == .opening { usleep(5_000) }
        #expect(speaker.currentState == .playing, "\(lines.lines)")
        for _ in 0..<3 {
            usleep(10_000)
            tone.withUnsafeBufferPointer { speaker.write($0) }
        }
        usleep(100_000)
        speaker.close()
        #expect(lines.lines == ["sound: playing through ALSA's 'file:FILE=\(path),FORMAT=raw' at 48000 Hz"])
        let data = try #require(FileManager.default.contents(atPath: path))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        // the first tone went out whole, before anything of the later ones
        let start = try #require(samples.firstIndex { $0 != 0 })
        #expect(Array(samples[start..<min(samples.count, start + 800)]) == tone)
        #expect(samples.filter { $0 == -10_000 }.count >= 20 * 4 - 20 * speaker.dropped / 800)
    }
}
