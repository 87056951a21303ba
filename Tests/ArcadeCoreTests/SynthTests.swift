#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ArcadeCore

/// A spec of one note, the envelope flat unless given.
private func tone(_ wave: Waveform, _ notes: String = "a4", speed: Int = 12, volume: Double = 0.5,
                  envelope: Envelope = Envelope(attack: 0, decay: 0, sustain: 1, release: 0)) -> SoundSpec {
    var spec = SoundSpec()
    spec.wave = wave
    spec.notes = try! SoundSpec.parseNotes(notes)
    spec.speed = speed
    spec.volume = volume
    spec.envelope = envelope
    return spec
}

/// A sample as the mixer rounds it.
private func pcm(_ v: Double) -> Int { Int(max(-32768, min(32767, v * 32767))) }

@Suite struct NoteParsingTests {
    @Test func namesOctavesSharpsFlatsAndRests() throws {
        #expect(try SoundSpec.parseNotes("c5 e5 g5") == [72, 76, 79])
        #expect(try SoundSpec.parseNotes("C4 c#4 Db4 - . a4 bb3 b3") == [60, 61, 61, nil, nil, 69, 58, 59])
        #expect(try SoundSpec.parseNotes("c0 b8") == [12, 119])
    }

    @Test func aWrongNoteIsNamedWithItsPlace() {
        #expect(throws: SoundSpecError(key: "notes", "note 2 'h5' is not a note (like c5, f#4, eb3, or - for a rest)")) {
            try SoundSpec.parseNotes("c5 h5")
        }
        #expect(throws: SoundSpecError.self) { try SoundSpec.parseNotes("c9") }
        #expect(throws: SoundSpecError.self) { try SoundSpec.parseNotes("c") }
    }

    @Test func tooManyNotesAreRefused() {
        let many = Array(repeating: "c4", count: SoundSpec.maxNotes + 1).joined(separator: " ")
        #expect(throws: SoundSpecError(key: "notes", "at most \(SoundSpec.maxNotes) notes")) { try SoundSpec.parseNotes(many) }
    }

    @Test func a4IsConcertPitch() {
        #expect(SoundSpec.frequency(midi: 69) == 440)
        #expect(abs(SoundSpec.frequency(midi: 60) - 261.6256) < 1e-3)
    }
}

@Suite struct SynthWaveformTests {
    let rate = Double(Mixer.defaultSampleRate)

    /// Renders one sound alone.
    func render(_ spec: SoundSpec, samples: Int, pitch: Double = 0) -> [Int16] {
        let mixer = Mixer()
        mixer.play(Sound(name: "t", spec: spec), volume: 1, pitch: pitch)
        return mixer.render(count: samples)
    }

    /// The phase (0..<1) of sample `n` of a steady tone at `hz`.
    func phase(_ n: Int, _ hz: Double) -> Double {
        let p = Double(n) * hz / rate
        return p - p.rounded(.down)
    }

    /// Compares `samples` with `expected(n)` where the phase is not at an edge of the wave
    /// (the samples either side of a jump are smoothed against aliasing).
    func expectShape(_ samples: [Int16], hz: Double, edges: [Double], tolerance: Int = 2,
                     _ expected: (Double) -> Double) {
        var checked = 0
        let width = hz / rate + 1e-4
        for (n, s) in samples.enumerated() {
            let p = phase(n, hz)
            if edges.contains(where: { abs(p - $0) < width || abs(p - $0 - 1) < width || abs(p - $0 + 1) < width }) { continue }
            let want = pcm(0.5 * expected(p))
            if abs(Int(s) - want) > tolerance {
                Issue.record("sample \(n): \(s), expected \(want)")
                return
            }
            checked += 1
        }
        #expect(checked > samples.count * 9 / 10)
        #expect(checked < samples.count || edges.isEmpty)
    }

    @Test func sineMatchesTheClosedForm() {
        let out = render(tone(.sine), samples: 4800)
        expectShape(out, hz: 440, edges: []) { sin(2 * .pi * $0) }
    }

    @Test func squareHonoursItsDuty() {
        var spec = tone(.square)
        spec.duty = 0.25
        let out = render(spec, samples: 4800)
        expectShape(out, hz: 440, edges: [0, 0.25]) { $0 < 0.25 ? 1 : -1 }
        let high = out.filter { $0 > 0 }.count
        #expect(abs(Double(high) / 4800 - 0.25) < 0.01)
    }

    @Test func triangleAndSawMatchTheClosedForm() {
        expectShape(render(tone(.triangle), samples: 4800), hz: 440, edges: []) { 1 - 4 * abs($0 - 0.5) }
        expectShape(render(tone(.saw), samples: 4800), hz: 440, edges: [0]) { 2 * $0 - 1 }
    }

    @Test func pitchTransposesBySemitones() {
        let out = render(tone(.sine), samples: 4800, pitch: 12)
        expectShape(out, hz: 880, edges: []) { sin(2 * .pi * $0) }
    }

    @Test func noiseIsTheSameOnEveryRunAndNotSilent() {
        let a = render(tone(.noise, "c3"), samples: 4800)
        let b = render(tone(.noise, "c3"), samples: 4800)
        #expect(a == b)
        #expect(Set(a).count > 20)
        #expect(a.allSatisfy { abs(Int($0)) <= 16384 })
    }

    @Test func theEnvelopeMatchesItsClosedForm() {
        let env = Envelope(attack: 0.01, decay: 0.02, sustain: 0.6, release: 0.03)
        let spec = tone(.sine, speed: 12, envelope: env)  // one note of 0.1 s
        let out = render(spec, samples: 4800 + 1440 + 480)
        for (n, s) in out.enumerated() {
            let t = Double(n) / rate
            let want = pcm(0.5 * env.level(at: t, gate: 0.1) * sin(2 * .pi * phase(n, 440)))
            if abs(Int(s) - want) > 2 {
                Issue.record("sample \(n): \(s), expected \(want)")
                return
            }
        }
        // the release has ended: silence after the note and its release
        #expect(out[(4800 + 1440)...].allSatisfy { $0 == 0 })
    }

    @Test func envelopeClosedFormPoints() {
        let env = Envelope(attack: 0.1, decay: 0.1, sustain: 0.5, release: 0.2)
        #expect(env.level(at: 0, gate: 1) == 0)
        #expect(abs(env.level(at: 0.05, gate: 1) - 0.5) < 1e-12)
        #expect(abs(env.level(at: 0.15, gate: 1) - 0.75) < 1e-12)
        #expect(env.level(at: 0.5, gate: 1) == 0.5)
        #expect(abs(env.level(at: 1.1, gate: 1) - 0.25) < 1e-12)
        #expect(env.level(at: 1.3, gate: 1) == 0)
    }

    @Test func eachNoteLastsSpeedOver120Seconds() {
        // three notes of speed 8: 3 x 3200 samples, then silence (no release)
        let out = render(tone(.square, "c5 e5 g5", speed: 8), samples: 12_000)
        #expect(stride(from: 0, to: 9600, by: 100).allSatisfy { w in out[w..<(w + 100)].filter { $0 != 0 }.count > 90 })
        #expect(out[9600...].allSatisfy { $0 == 0 })
    }

    @Test func aJumpIsSmoothedOverTheSamplesBesideIt() {
        // the saw's drop from +1 to -1 passes through the middle rather than jumping
        let out = render(tone(.saw, volume: 0.5), samples: 4800)
        let inc = 440 / rate
        for n in 1..<4800 where phase(n, 440) < inc * 0.5 {
            #expect(abs(Int(out[n])) < 12_000, "sample \(n) just after the drop: \(out[n])")
        }
    }

    @Test func aNoteAfterAnotherRisesFromWhereItWasWithoutAClick() {
        let env = Envelope(attack: 0.005, decay: 0, sustain: 0.5, release: 0.05)
        let out = render(tone(.sine, "a4 a4", speed: 8, envelope: env), samples: 6400)
        let peak = out[3200..<3260].map { abs(Int($0)) }.max() ?? 0
        // sustain 0.5 of volume 0.5: the second note starts near a quarter of full scale, not at 0
        #expect(peak > 7000)
    }

    @Test func aRestIsSilentAfterTheReleaseRingsOut() {
        let out = render(tone(.square, "c5 - c5", speed: 8), samples: 9600)
        #expect(out[3200..<6400].allSatisfy { $0 == 0 })
        #expect(out[6400...].contains { $0 != 0 })
    }

    @Test func slideBendsThePitchOverTheNote() {
        var spec = tone(.sine, "a4", speed: 120)  // one second
        spec.slide = 12
        let out = render(spec, samples: 48_000)
        func crossings(_ r: Range<Int>) -> Int {
            r.dropFirst().filter { (out[$0 - 1] < 0) != (out[$0] < 0) }.count
        }
        // an octave up by the end: the last tenth has about twice the first tenth's crossings
        let first = crossings(0..<4800), last = crossings(43_200..<48_000)
        #expect(first >= 88 && first <= 94)  // 455 Hz on average: 91
        #expect(last >= 166 && last <= 174)  // 851 Hz on average: 170
    }

    @Test func vibratoWavers() {
        var spec = tone(.sine, "a4", speed: 120)
        spec.vibrato = 1
        let plain = render(tone(.sine, "a4", speed: 120), samples: 48_000)
        let wavering = render(spec, samples: 48_000)
        #expect(plain != wavering)
        #expect(plain[..<64] == wavering[..<64])
    }
}

@Suite struct MixerTests {
    @Test func channelsAddUp() {
        let a = Sound(name: "a", spec: tone(.sine, "a4", volume: 0.3))
        let b = Sound(name: "b", spec: tone(.triangle, "e5", volume: 0.3))
        let alone: ([Sound]) -> [Int16] = { sounds in
            let m = Mixer()
            for s in sounds { m.play(s) }
            return m.render(count: 4800)
        }
        let sum = zip(alone([a]), alone([b])).map { Int($0) + Int($1) }
        let both = alone([a, b])
        for (x, y) in zip(both, sum) where abs(Int(x) - y) > 2 {
            Issue.record("\(x) is not \(y)")
            return
        }
    }

    @Test func aLoudMixIsClippedNotWrapped() {
        let one = Mixer()
        one.play(Sound(name: "quiet", spec: tone(.square, volume: 0.125)))
        let single = one.render(count: 4800)
        let m = Mixer()
        for _ in 0..<Mixer.channelCount { m.play(Sound(name: "loud", spec: tone(.square, volume: 1))) }
        let out = m.render(count: 4800)
        // eight voices at full volume: 64 times the eighth-volume voice, clamped to 16 bits
        for (mixed, alone) in zip(out, single) {
            let want = max(-32768, min(32767, 64 * Int(alone)))
            if abs(Int(mixed) - want) > 64 {
                Issue.record("\(mixed) is not \(want)")
                return
            }
        }
        #expect(out.filter { $0 == 32767 || $0 == -32768 }.count > 4500)
    }

    @Test func noMoreThanEightChannelsTheOldestGivesWay() {
        let m = Mixer()
        let sounds = (0..<20).map { Sound(name: "s\($0)", spec: tone(.square, speed: 60)) }
        var channels: [Int] = []
        for s in sounds { channels.append(m.play(s)) }
        #expect(Array(channels[..<8]) == Array(0..<8))
        #expect(Set(channels).count == 8)
        #expect(channels[8] == 0)  // s0 was the oldest
        #expect((0..<8).compactMap { m.sound(on: $0) }.sorted() == (12..<20).map { "s\($0)" }.sorted())
    }

    @Test func stopSilences() {
        let m = Mixer()
        let ch = m.play(Sound(name: "x", spec: tone(.square, speed: 60)))
        m.play(Sound(name: "y", spec: tone(.square, speed: 60)))
        m.stop(named: "y")
        #expect(m.sound(on: 1) == nil)
        m.stop(channel: ch)
        #expect(!m.isPlaying)
        // a stopped sound fades out over 2 ms rather than clicking, then is silent
        let tail = m.render(count: 200)
        #expect(tail[..<96].contains { $0 != 0 })
        #expect(tail[96...].allSatisfy { $0 == 0 })
    }

    @Test func aSoundCutOffByTheNextFadesOutWithoutAJump() {
        let a = Sound(name: "a", spec: tone(.sine, "a4", speed: 60, volume: 1))
        let m = Mixer()
        m.play(a, channel: 0)
        let before = m.render(count: 1000)
        m.play(Sound(name: "b", spec: tone(.sine, "a5", speed: 60, volume: 1, envelope: Envelope(attack: 0.01))), channel: 0)
        let after = m.render(count: 200)
        // the first sample after the cut continues the old wave rather than dropping to 0
        #expect(abs(Int(after[0]) - Int(before[999])) < 1500)
        #expect(m.sound(on: 0) == "b")
    }

    @Test func aLoopingSoundPlaysUntilStopped() {
        var spec = tone(.square, "c5", speed: 1)
        spec.loop = true
        let m = Mixer()
        m.play(Sound(name: "hum", spec: spec))
        m.advance(48_000)
        #expect(m.isPlaying)
        #expect(m.render(count: 400).contains { $0 != 0 })
        m.stopAll()
        #expect(!m.isPlaying)
    }

    @Test func advancingWithoutSoundEndsSoundsOnTime() {
        let m = Mixer()
        m.play(Sound(name: "x", spec: tone(.square, "c5 e5", speed: 8)))
        m.advance(6399)
        #expect(m.isPlaying)
        m.advance(1)
        m.advance(1)
        #expect(!m.isPlaying)
    }

    @Test func musicPlaysItsPatternsInTurnAndLoops() {
        let bass = Sound(name: "bass", spec: tone(.triangle, "c3 g3", speed: 8))      // 6400 samples
        let lead = Sound(name: "lead", spec: tone(.square, "c5", speed: 8))           // 3200 samples
        let other = Sound(name: "other", spec: tone(.saw, "e4", speed: 4))            // 1600 samples
        let m = Mixer()
        m.playMusic([[bass, lead], [other]], loop: true)
        #expect(m.sound(on: 7) == "bass" && m.sound(on: 6) == "lead")
        // a sound played meanwhile stays off the music's channels
        #expect(m.play(Sound(name: "fx", spec: tone(.sine))) == 0)
        m.advance(6400)
        #expect(m.sound(on: 7) == "other")
        m.advance(1600)
        #expect(m.sound(on: 7) == "bass")
        m.stopMusic()
        #expect(m.sound(on: 7) == nil && !m.isPlayingMusic)
    }

    @Test func musicWithoutLoopEnds() {
        let m = Mixer()
        m.playMusic([[Sound(name: "a", spec: tone(.square, "c4", speed: 8))]], loop: false)
        m.advance(3200)
        #expect(!m.isPlayingMusic)
    }
}

@Suite struct SoundFileTests {
    @Test func aFileParses() throws {
        let spec = try SoundFile.parse("""
            # the coin
            wave = triangle
            notes = c5 e5 g5   # up
            speed = 6
            volume = 0.6
            attack = 0.01
            release = 0.1
            loop = false
            """, name: "coin.sfx")
        #expect(spec.wave == .triangle && spec.notes == [72, 76, 79] && spec.speed == 6 && spec.volume == 0.6)
        #expect(spec.envelope.attack == 0.01 && spec.envelope.release == 0.1)
    }

    @Test func errorsNameTheFileTheLineAndTheKey() {
        func problem(_ text: String) -> String {
            do { _ = try SoundFile.parse(text, name: "coin.sfx") } catch { return error.description }
            return "no error"
        }
        #expect(problem("notes = c5\nwav = saw") == "coin.sfx:2: unknown key 'wav' (did you mean 'wave'?)")
        #expect(problem("notes = c5 x4") == "coin.sfx:1: notes: note 2 'x4' is not a note (like c5, f#4, eb3, or - for a rest)")
        #expect(problem("wave = square") == "coin.sfx: notes: a sound needs at least one note")
        #expect(problem("notes = c5\nspeed = 0") == "coin.sfx:2: speed: a whole number from 1 to 255 expected, got 0")
        #expect(problem("notes = c5\nvolume = loud") == "coin.sfx:2: volume: number expected, got 'loud'")
        #expect(problem("notes = c5\nnotes = c6") == "coin.sfx:2: 'notes' is set twice (first on line 1)")
        #expect(problem("notes c5") == "coin.sfx:1: expected 'key = value', got 'notes c5'")
        #expect(problem("notes = c5\nwave = organ") == "coin.sfx:2: wave: unknown wave 'organ' (square, triangle, saw, sine or noise)")
    }
}

@Suite struct WAVFileTests {
    @Test func headerAndSamples() {
        let bytes = WAVFile.encode([1, -2], sampleRate: 48_000)
        #expect(bytes.count == 48)
        #expect(Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(Array(bytes[24..<28]) == [0x80, 0xBB, 0x00, 0x00])  // 48000
        #expect(Array(bytes[40..<48]) == [4, 0, 0, 0, 1, 0, 0xFE, 0xFF])
    }
}
