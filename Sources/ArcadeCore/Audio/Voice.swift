#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One channel's playing sound: where it is in its notes, its oscillator and its envelope.
struct Voice {
    /// Samples between two recomputations of a bending pitch (slide, vibrato): 1.5 ms at 48 kHz.
    static let controlSamples = 64

    let sound: Sound
    /// The sound's volume times the volume it was played at.
    let gain: Float
    /// Semitones added to every note.
    let transpose: Double
    /// Played by the music, not by `play`.
    let isMusic: Bool
    /// When it started, to pick the oldest voice to give way.
    let order: Int
    private let sampleRate: Double

    /// Samples since the sound (or its last loop) started.
    private var position = 0
    /// The position whose note start was handled last.
    private var handled = -1
    /// Samples since the sounding note began, and its MIDI number (nil: none yet).
    private var envelopeTime = 0
    private var midi: Double?
    /// The oscillator: where in its period, and how far a sample moves it.
    private var phase = 0.0
    private var increment = 0.0
    /// The noise generator's state and the level it holds.
    private var noiseState: UInt32 = 0x2545_F491
    private var noiseLevel: Float = 0
    private(set) var isActive = true

    init(sound: Sound, volume: Double, transpose: Double, isMusic: Bool, order: Int, sampleRate: Int) {
        self.sound = sound
        gain = Float(sound.spec.volume * volume)
        self.transpose = transpose
        self.isMusic = isMusic
        self.order = order
        self.sampleRate = Double(sampleRate)
    }

    /// Adds the next `count` samples into `out` (nil: moves on without sound), and returns
    /// whether it is still playing.
    mutating func render(into out: UnsafeMutablePointer<Float>?, count: Int) {
        var done = 0
        let noteSamples = sound.noteSamples
        let length = sound.lengthSamples
        let env = sound.envelope
        let bends = sound.spec.slide != 0 || sound.spec.vibrato != 0
        while done < count, isActive {
            var segment = count - done
            if position < length {
                if position % noteSamples == 0, handled != position { startNote(position / noteSamples) }
                segment = min(segment, noteSamples - position % noteSamples)
            } else if sound.spec.loop {
                position = 0
                handled = -1
                continue
            } else if midi == nil || envelopeTime >= noteSamples + env.release {
                isActive = false
                break
            } else {
                segment = min(segment, noteSamples + env.release - envelopeTime)
            }
            if bends { segment = min(segment, Self.controlSamples) }
            if let midi {
                if bends || increment == 0 { tune(midi) }
                if let out { fill(out + done, count: segment, env: env, gate: noteSamples) }
            }
            position += segment
            envelopeTime += segment
            done += segment
        }
    }

    /// Note `index` begins: a pitch starts its envelope again, a rest lets the last ring out.
    private mutating func startNote(_ index: Int) {
        handled = position
        guard let note = sound.notes[index] else { return }
        midi = Double(note) + transpose
        envelopeTime = 0
        increment = 0
    }

    /// The oscillator's step for `midi` bent by the slide and the vibrato where the note is now.
    private mutating func tune(_ midi: Double) {
        let spec = sound.spec
        let t = Double(envelopeTime)
        var pitch = midi + spec.slide * t / Double(sound.noteSamples)
        if spec.vibrato != 0 { pitch += spec.vibrato * sin(2 * Double.pi * spec.vibratoRate * t / sampleRate) }
        var hz = SoundSpec.frequency(midi: pitch)
        // noise holds each random level for a 32nd of the note's period: hiss high, rumble low
        if spec.wave == .noise { hz *= 32 }
        increment = min(hz / sampleRate, 1)
    }

    /// Adds `count` samples of the sounding note into `out`.
    private mutating func fill(_ out: UnsafeMutablePointer<Float>, count: Int, env: SampleEnvelope, gate: Int) {
        let spec = sound.spec
        var p = phase
        let inc = increment
        var t = envelopeTime
        switch spec.wave {
        case .square:
            let duty = spec.duty
            for i in 0..<count {
                out[i] += gain * env.level(at: t, gate: gate) * (p < duty ? 1 : -1)
                p += inc
                if p >= 1 { p -= 1 }
                t += 1
            }
        case .triangle:
            for i in 0..<count {
                out[i] += gain * env.level(at: t, gate: gate) * Float(1 - 4 * abs(p - 0.5))
                p += inc
                if p >= 1 { p -= 1 }
                t += 1
            }
        case .saw:
            for i in 0..<count {
                out[i] += gain * env.level(at: t, gate: gate) * Float(2 * p - 1)
                p += inc
                if p >= 1 { p -= 1 }
                t += 1
            }
        case .sine:
            for i in 0..<count {
                out[i] += gain * env.level(at: t, gate: gate) * Float(sin(2 * Double.pi * p))
                p += inc
                if p >= 1 { p -= 1 }
                t += 1
            }
        case .noise:
            var state = noiseState, level = noiseLevel
            for i in 0..<count {
                out[i] += gain * env.level(at: t, gate: gate) * level
                p += inc
                if p >= 1 {
                    p -= 1
                    // xorshift32: the same hiss on every run
                    state ^= state << 13
                    state ^= state >> 17
                    state ^= state << 5
                    level = Float(Int32(bitPattern: state)) / Float(Int32.max)
                }
                t += 1
            }
            noiseState = state
            noiseLevel = level
        }
        phase = p
    }
}
