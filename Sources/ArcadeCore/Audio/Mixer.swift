/// The arcade's synth: eight channels, each playing one ``Sound`` at a time, mixed into
/// 16-bit mono samples. Pure computation: the host asks for each step's samples and sends
/// them where they go (a speaker, a WAV file), so the same steps give the same samples.
///
/// A sound played without a channel takes a free one, or else the one that has played
/// longest (music's channels last): a game can never play more than ``channelCount``
/// sounds at once, however often it asks.
///
/// Music is a list of patterns, each a few sounds started together on the top channels
/// (the first on channel 8, the next on 7...); when the longest of them has played its
/// notes, the next pattern starts, and after the last the first again if it loops.
public final class Mixer {
    public static let channelCount = 8
    /// 48 kHz: a 60 Hz step is exactly 800 samples, a note of speed 1 exactly 400.
    public static let defaultSampleRate = 48_000

    public let sampleRate: Int
    private var voices: [Voice?] = Array(repeating: nil, count: channelCount)
    /// The voices cut off on each channel, fading out for a couple of milliseconds.
    private var fading: [Voice?] = Array(repeating: nil, count: channelCount)
    private var started = 0
    private var music: MusicState?
    private var scratch: [Float] = []

    /// A music loop as it plays: its patterns, the one playing and how far into it.
    private struct MusicState {
        var patterns: [[Sound]]
        var loop: Bool
        var volume: Double
        var index = 0
        var position = 0
        var length = 0
    }

    public init(sampleRate: Int = defaultSampleRate) {
        self.sampleRate = sampleRate
    }

    // MARK: Playing

    /// Starts `sound` on `channel` (0-based; nil: a free one, else the oldest) at `volume`
    /// (times the sound's own) and `pitch` semitones up; returns the channel it took.
    @discardableResult
    public func play(_ sound: Sound, channel: Int? = nil, volume: Double = 1, pitch: Double = 0) -> Int {
        let ch = channel.map { clamp($0, 0, Self.channelCount - 1) } ?? freeChannel()
        start(sound, on: ch, volume: volume, pitch: pitch, isMusic: false)
        return ch
    }

    private func start(_ sound: Sound, on ch: Int, volume: Double, pitch: Double, isMusic: Bool) {
        cut(ch)
        started += 1
        voices[ch] = Voice(sound: sound, volume: volume, transpose: pitch, isMusic: isMusic, order: started,
                           sampleRate: sampleRate)
    }

    /// The lowest silent channel outside the music's, else the one playing longest (a sound
    /// before a music voice).
    private func freeChannel() -> Int {
        let musicChannels = music.map { min($0.patterns[$0.index].count, Self.channelCount) } ?? 0
        if let free = (0..<Self.channelCount - musicChannels).first(where: { voices[$0] == nil }) { return free }
        if let free = voices.indices.first(where: { voices[$0] == nil }) { return free }
        return voices.indices.min { a, b in
            let (va, vb) = (voices[a]!, voices[b]!)
            return va.isMusic != vb.isMusic ? !va.isMusic : va.order < vb.order
        }!
    }

    /// Moves the voice on channel `ch` to fade out.
    private func cut(_ ch: Int) {
        guard var v = voices[ch] else { return }
        v.cut()
        fading[ch] = v
        voices[ch] = nil
    }

    /// Silences `channel` (0-based).
    public func stop(channel: Int) {
        guard voices.indices.contains(channel) else { return }
        cut(channel)
    }

    /// Silences every channel playing a sound named `name`.
    public func stop(named name: String) {
        for i in voices.indices where voices[i]?.sound.name == name { cut(i) }
    }

    /// Silences everything, the music too.
    public func stopAll() {
        for i in voices.indices { cut(i) }
        music = nil
    }

    /// Plays `patterns` (each a few sounds played together) one after the other, from the
    /// first again after the last when `loop`. Replaces the music playing.
    public func playMusic(_ patterns: [[Sound]], loop: Bool = true, volume: Double = 1) {
        stopMusic()
        let patterns = patterns.map { Array($0.prefix(Self.channelCount)) }.filter { !$0.isEmpty }
        guard !patterns.isEmpty else { return }
        music = MusicState(patterns: patterns, loop: loop, volume: volume)
        startPattern()
    }

    /// Stops the music and its voices.
    public func stopMusic() {
        music = nil
        for i in voices.indices where voices[i]?.isMusic == true { cut(i) }
    }

    private func startPattern() {
        guard var m = music else { return }
        let pattern = m.patterns[m.index]
        for (k, sound) in pattern.enumerated() {
            start(sound, on: Self.channelCount - 1 - k, volume: m.volume, pitch: 0, isMusic: true)
        }
        m.position = 0
        m.length = max(1, pattern.map(\.lengthSamples).max() ?? 1)
        music = m
    }

    /// True while any channel plays a sound (a sound cut off and fading out does not count).
    public var isPlaying: Bool { voices.contains { $0 != nil } }

    /// True while anything is heard, the fading of sounds cut off included.
    private var isSounding: Bool { isPlaying || fading.contains { $0 != nil } }

    /// The name of the sound on `channel` (0-based), if one plays there.
    public func sound(on channel: Int) -> String? {
        voices.indices.contains(channel) ? voices[channel]?.sound.name : nil
    }

    /// True while music plays.
    public var isPlayingMusic: Bool { music != nil }

    // MARK: Mixing

    /// Mixes the next `out.count` samples into `out`: the channels summed, clipped to 16 bits.
    public func render(into out: UnsafeMutableBufferPointer<Int16>) {
        let count = out.count
        guard count > 0 else { return }
        if !isSounding && music == nil {
            out.initialize(repeating: 0)
            return
        }
        if scratch.count < count { scratch = Array(repeating: 0, count: count) }
        scratch.withUnsafeMutableBufferPointer { mix in
            mix.baseAddress!.update(repeating: 0, count: count)
            run(count) { offset, n in
                for i in voices.indices {
                    if fading[i] != nil {
                        fading[i]!.render(into: mix.baseAddress! + offset, count: n)
                        if !fading[i]!.isActive { fading[i] = nil }
                    }
                    if voices[i] != nil {
                        voices[i]!.render(into: mix.baseAddress! + offset, count: n)
                        if !voices[i]!.isActive { voices[i] = nil }
                    }
                }
            }
            for i in 0..<count {
                let v = mix[i] * 32767
                out[i] = v >= 32767 ? 32767 : v <= -32768 ? -32768 : Int16(v)
            }
        }
    }

    /// The next `count` samples, mixed.
    public func render(count: Int) -> [Int16] {
        var out = [Int16](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { render(into: $0) }
        return out
    }

    /// Moves every channel and the music on by `count` samples without making them: what
    /// nobody listens to still starts, ends and loops on time.
    public func advance(_ count: Int) {
        fading = Array(repeating: nil, count: Self.channelCount)
        guard count > 0, isPlaying || music != nil else { return }
        run(count) { _, n in
            for i in voices.indices where voices[i] != nil {
                voices[i]!.render(into: nil, count: n)
                if !voices[i]!.isActive { voices[i] = nil }
            }
        }
    }

    /// Runs `body(offset, n)` over `count` samples in pieces that end where a music pattern
    /// ends, starting the next pattern there.
    private func run(_ count: Int, _ body: (Int, Int) -> Void) {
        var done = 0
        while done < count {
            var n = count - done
            if let m = music { n = min(n, m.length - m.position) }
            body(done, n)
            done += n
            guard var m = music else { continue }
            m.position += n
            if m.position >= m.length {
                m.index += 1
                if m.index == m.patterns.count {
                    guard m.loop else {
                        music = nil
                        continue
                    }
                    m.index = 0
                }
                music = m
                startPattern()
            } else {
                music = m
            }
        }
    }
}
