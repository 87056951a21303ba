import ArcadeCore

extension NativeCost {
    /// A defined sound, before its notes and its name.
    public static let sound = 256
    /// Per note of a defined sound (kept twice over: as written and as played).
    public static let note = 16
    /// Per pattern of the music playing.
    public static let pattern = 64
}

/// `arcade.sfx`: sounds defined as data and played by the native synth (``Mixer``).
///
/// The binding only reads arguments and calls the mixer; the host mixes each step's samples
/// after the step and sends them to the speaker or a WAV file. Defined sounds and the music
/// count against the game's memory cap; the mixer's eight channels bound what plays.
public final class SoundModule {
    /// A sound the game started: its name, the step and the channel (1 to 8).
    public struct Started: Equatable, Sendable {
        public var name: String
        public var step: Int
        public var channel: Int

        public init(name: String, step: Int, channel: Int) {
            self.name = name
            self.step = step
            self.channel = channel
        }
    }

    /// The most started sounds ``started`` keeps (the latest).
    public static let startedKept = 4096
    /// The most patterns a music holds.
    public static let maxPatterns = 256
    /// The longest sound name, in bytes.
    public static let maxNameBytes = 64
    /// What `define`'s spec, `play`'s options and `music`'s options may hold.
    public static let specNames = LuaOptionNames(SoundSpec.keys)
    public static let playOptions: LuaOptionNames = ["channel", "volume", "pitch"]
    public static let musicOptions: LuaOptionNames = ["loop", "volume"]

    private unowned let vm: LuaVM
    public let mixer: Mixer
    /// The sounds by name.
    public private(set) var sounds: [String: Sound] = [:]
    /// The sounds started, oldest first (at most ``startedKept``): what `g:sounds()` lists.
    public private(set) var started: [Started] = []
    /// The step running now (the host's count of steps, 0 during `load`): where a sound
    /// started now is listed.
    public var currentStep: () -> Int = { 0 }
    private var definedBytes = 0
    private var musicBytes = 0
    private var account = NativeAccount()

    public init(vm: LuaVM, sampleRate: Int = Mixer.defaultSampleRate) {
        self.vm = vm
        mixer = Mixer(sampleRate: sampleRate)
        vm.register(in: "arcade.sfx", [
            ("define", { s in
                let name = try Self.soundName(s, 1)
                let spec = try Self.spec(s, 2)
                try self.define(name, spec)
                return 0
            }),
            ("play", { s in
                let sound = try self.sound(s, 1)
                let o = try s.optOptions(2, known: Self.playOptions)
                let channel = try o.field("channel") { i throws(LuaValueProblem) in
                    try s.readInteger(at: i, "channel from 1 to \(Mixer.channelCount)", where: { (1...Int64(Mixer.channelCount)).contains($0) })
                }
                let volume = try o.number("volume", "number from 0 to 1", where: { (0...1).contains($0) }) ?? 1
                let pitch = try o.number("pitch", "semitones from -48 to 48", where: { abs($0) <= 48 }) ?? 0
                let ch = self.mixer.play(sound, channel: channel.map { Int($0) - 1 }, volume: volume, pitch: pitch)
                self.note(sound.name, channel: ch)
                s.push(ch + 1)
                return 1
            }),
            ("stop", { s in
                if s.isNoneOrNil(1) {
                    self.mixer.stopAll()
                    self.setMusicBytes(0)
                } else if s.type(at: 1) == .string {
                    self.mixer.stop(named: try s.checkString(1))
                } else {
                    let ch = try s.argument(1) { i throws(LuaValueProblem) in
                        try s.readInteger(at: i, "channel from 1 to \(Mixer.channelCount) or a sound's name",
                                          where: { (1...Int64(Mixer.channelCount)).contains($0) })
                    }
                    self.mixer.stop(channel: Int(ch) - 1)
                }
                return 0
            }),
            ("music", { s in
                if s.isNoneOrNil(1) {
                    self.mixer.stopMusic()
                    self.setMusicBytes(0)
                    return 0
                }
                let patterns = try self.patterns(s, 1)
                let o = try s.optOptions(2, known: Self.musicOptions)
                let loop = try o.bool("loop") ?? true
                let volume = try o.number("volume", "number from 0 to 1", where: { (0...1).contains($0) }) ?? 1
                let bytes = NativeCost.product(patterns.count, NativeCost.pattern)
                try self.vm.reserveNative(bytes - self.musicBytes, for: "music of \(patterns.count) patterns")
                self.mixer.playMusic(patterns, loop: loop, volume: volume)
                self.setMusicBytes(bytes)
                for (k, sound) in (patterns.first ?? []).enumerated() { self.note(sound.name, channel: Mixer.channelCount - 1 - k) }
                return 0
            }),
            ("is_playing", { s in
                if s.isNoneOrNil(1) {
                    s.push(self.mixer.isPlaying)
                } else if s.type(at: 1) == .string {
                    let name = try s.checkString(1)
                    s.push((0..<Mixer.channelCount).contains { self.mixer.sound(on: $0) == name })
                } else {
                    let ch = try s.argument(1) { i throws(LuaValueProblem) in
                        try s.readInteger(at: i, "channel from 1 to \(Mixer.channelCount) or a sound's name",
                                          where: { (1...Int64(Mixer.channelCount)).contains($0) })
                    }
                    s.push(self.mixer.sound(on: Int(ch) - 1) != nil)
                }
                return 1
            }),
        ])
    }

    // MARK: Defining

    /// Defines (or replaces) the sound `name`, charging its memory.
    public func define(_ name: String, _ spec: SoundSpec) throws(LuaMemoryLimitError) {
        let cost = Self.cost(name, spec)
        let old = sounds[name].map { Self.cost(name, $0.spec) } ?? 0
        try vm.reserveNative(cost - old, for: "a sound of \(spec.notes.count) notes")
        sounds[name] = Sound(name: name, spec: spec, sampleRate: mixer.sampleRate)
        definedBytes += cost - old
        syncNative()
    }

    /// What a sound is charged.
    static func cost(_ name: String, _ spec: SoundSpec) -> Int {
        NativeCost.sound + NativeCost.product(spec.notes.count, NativeCost.note) + name.utf8.count
    }

    private func setMusicBytes(_ bytes: Int) {
        musicBytes = bytes
        syncNative()
    }

    private func syncNative() { account.report(definedBytes + musicBytes, to: vm) }

    /// Notes a sound started on `channel` (0-based) for `g:sounds()`.
    private func note(_ name: String, channel: Int) {
        if started.count >= Self.startedKept { started.removeFirst(started.count - Self.startedKept + 1) }
        started.append(Started(name: name, step: currentStep(), channel: channel + 1))
    }

    /// Silences everything (the game stopped or left).
    public func stopAll() {
        mixer.stopAll()
        setMusicBytes(0)
    }

    // MARK: Arguments

    /// Argument `index`: a sound's name.
    private static func soundName(_ s: LuaStack, _ index: Int32) throws(LuaArgumentError) -> String {
        try s.argument(index) { i throws(LuaValueProblem) in
            guard let name = s.string(at: i), !name.isEmpty, name.utf8.count <= maxNameBytes else {
                throw s.problem(expected: "sound name of 1 to \(maxNameBytes) bytes", at: i)
            }
            return name
        }
    }

    /// Argument `index`: the name of a defined sound.
    private func sound(_ s: LuaStack, _ index: Int32) throws(LuaArgumentError) -> Sound {
        let name = try Self.soundName(s, index)
        guard let sound = sounds[name] else { throw LuaArgumentError(index, Self.unknown(name)) }
        return sound
    }

    private static func unknown(_ name: String) -> String {
        "no sound named '\(name)': define it with arcade.sfx.define or a \(name).sfx file"
    }

    /// Argument `index`: a sound's spec table.
    private static func spec(_ s: LuaStack, _ index: Int32) throws(LuaArgumentError) -> SoundSpec {
        let o = try s.checkOptions(index, known: specNames)
        var spec = SoundSpec()
        if let wave = try o.field("wave", { i throws(LuaValueProblem) in try s.readName(Waveform.self, at: i) }) { spec.wave = wave }
        spec.notes = try o.required("notes") { i throws(LuaValueProblem) in
            let text = try s.readString(at: i)
            do throws(SoundSpecError) { return try SoundSpec.parseNotes(text) } catch { throw LuaValueProblem(error.text) }
        }
        if let v = try o.field("speed", { i throws(LuaValueProblem) in
            try s.readInteger(at: i, "whole number from 1 to \(SoundSpec.maxSpeed)", where: { (1...Int64(SoundSpec.maxSpeed)).contains($0) })
        }) { spec.speed = Int(v) }
        if let v = try o.number("duty") { spec.duty = v }
        if let v = try o.number("volume") { spec.volume = v }
        if let v = try o.number("attack") { spec.envelope.attack = v }
        if let v = try o.number("decay") { spec.envelope.decay = v }
        if let v = try o.number("sustain") { spec.envelope.sustain = v }
        if let v = try o.number("release") { spec.envelope.release = v }
        if let v = try o.number("slide") { spec.slide = v }
        if let v = try o.number("vibrato") { spec.vibrato = v }
        if let v = try o.number("vibrato_rate") { spec.vibratoRate = v }
        if let v = try o.bool("loop") { spec.loop = v }
        do { try spec.validate() } catch { throw o.fieldError(error.key, error.text) }
        return spec
    }

    /// Argument `index`: music patterns, a list of lists of sound names.
    private func patterns(_ s: LuaStack, _ index: Int32) throws(LuaArgumentError) -> [[Sound]] {
        try s.checkTable(index)
        let count = s.rawLength(at: index)
        guard count >= 1, count <= Self.maxPatterns else {
            throw LuaArgumentError(index, "a list of 1 to \(Self.maxPatterns) patterns expected, got \(count)")
        }
        s.reserve(3)
        var patterns: [[Sound]] = []
        for p in 1...count {
            defer { s.pop() }
            guard s.getIndex(p, in: index) == .table else {
                throw LuaArgumentError(index, "pattern \(p): a list of sound names expected, got \(s.typeName(at: -1))")
            }
            let n = s.rawLength(at: -1)
            guard n >= 1, n <= Mixer.channelCount else {
                throw LuaArgumentError(index, "pattern \(p): 1 to \(Mixer.channelCount) sounds expected, got \(n)")
            }
            var pattern: [Sound] = []
            for k in 1...n {
                s.getIndex(k, in: -1)
                defer { s.pop() }
                guard let name = s.string(at: -1) else {
                    throw LuaArgumentError(index, "pattern \(p), sound \(k): sound name expected, got \(s.typeName(at: -1))")
                }
                guard let sound = sounds[name] else { throw LuaArgumentError(index, "pattern \(p): " + Self.unknown(name)) }
                pattern.append(sound)
            }
            patterns.append(pattern)
        }
        return patterns
    }
}
