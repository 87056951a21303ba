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
    /// Where the sounding note's attack started from.
    private var attackFloor: Float = 0
    /// The oscillator: where in its period, and how far a sample moves it.
    private var phase = 0.0
    private var increment = 0.0
    /// The noise generator's state and the level it holds.
    private var noiseState: UInt32 = 0x2545_F491
    private var noiseLevel: Float = 0
    private(set) var isActive = true
    /// A voice cut off (its channel taken, or stopped) fades out over this many samples
    /// rather than stopping dead, which would click: what is left of the fade, and its length.
    private var fadeLeft = 0
    private var fadeLength = 0
    static let fadeSamples = 96

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
            if fadeLength > 0 {
                guard fadeLeft > 0 else {
                    isActive = false
                    break
                }
                segment = min(segment, fadeLeft)
            }
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
            if fadeLength > 0 { fadeLeft -= segment }
        }
    }

    /// Starts fading out (the voice ends when the fade does).
    mutating func cut() {
        guard fadeLength == 0 else { return }
        fadeLength = Self.fadeSamples
        fadeLeft = Self.fadeSamples
    }

    /// Note `index` begins: a pitch starts its envelope again, a rest lets the last ring out.
    private mutating func startNote(_ index: Int) {
        handled = position
        guard let note = sound.notes[index] else { return }
        attackFloor = midi == nil ? 0 : sound.envelope.level(at: envelopeTime, gate: sound.noteSamples, from: attackFloor)
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

    /// The correction that smooths a jump of the wave from -1 to 1 at phase 0 over the
    /// samples either side of it (polyBLEP), so high square and saw notes do not fold their
    /// overtones back into the audible range as harsh, off-key tones.
    @inline(__always)
    static func blep(_ p: Double, _ inc: Double) -> Double {
        if p < inc {
            let x = p / inc
            return x + x - x * x - 1
        }
        if p > 1 - inc {
            let x = (p - 1) / inc
            return x * x + x + x + 1
        }
        return 0
    }

    /// Adds `count` samples of the sounding note into `out`.
    private mutating func fill(_ out: UnsafeMutablePointer<Float>, count: Int, env: SampleEnvelope, gate: Int) {
        let spec = sound.spec
        var p = phase
        let inc = increment
        var t = envelopeTime
        let floor = attackFloor
        // the gain, and what it loses each sample while fading out
        let fall = fadeLength > 0 ? gain / Float(fadeLength) : 0
        var g = fadeLength > 0 ? gain * Float(fadeLeft) / Float(fadeLength) : gain
        switch spec.wave {
        case .square:
            let duty = spec.duty
            for i in 0..<count {
                var down = p - duty
                if down < 0 { down += 1 }
                let v = (p < duty ? 1 : -1) + Self.blep(p, inc) - Self.blep(down, inc)
                out[i] += g * env.level(at: t, gate: gate, from: floor) * Float(v)
                p += inc
                if p >= 1 { p -= 1 }
                t += 1
                g -= fall
            }
        case .triangle:
            for i in 0..<count {
                out[i] += g * env.level(at: t, gate: gate, from: floor) * Float(1 - 4 * abs(p - 0.5))
                p += inc
                if p >= 1 { p -= 1 }
                t += 1
                g -= fall
            }
        case .saw:
            for i in 0..<count {
                out[i] += g * env.level(at: t, gate: gate, from: floor) * Float(2 * p - 1 - Self.blep(p, inc))
                p += inc
                if p >= 1 { p -= 1 }
                t += 1
                g -= fall
            }
        case .sine:
            for i in 0..<count {
                out[i] += g * env.level(at: t, gate: gate, from: floor) * Float(sin(2 * Double.pi * p))
                p += inc
                if p >= 1 { p -= 1 }
                t += 1
                g -= fall
            }
        case .noise:
            var state = noiseState, level = noiseLevel
            for i in 0..<count {
                out[i] += g * env.level(at: t, gate: gate, from: floor) * level
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
                g -= fall
            }
            noiseState = state
            noiseLevel = level
        }
        phase = p
    }
}
