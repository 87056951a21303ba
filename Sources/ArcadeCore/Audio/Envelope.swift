/// An ADSR envelope, in seconds (attack, decay, release) and a level (sustain), applied to
/// each note: the level rises from 0 to 1 over `attack`, falls to `sustain` over `decay`,
/// holds while the note lasts, then falls from where it was to 0 over `release`. A note that
/// follows another (no rest between) rises from where the last one's level was instead of
/// from 0, so a melody does not click between its notes.
public struct Envelope: Equatable, Sendable {
    public var attack: Double
    public var decay: Double
    /// The level held after the decay, 0...1.
    public var sustain: Double
    public var release: Double

    public init(attack: Double = 0.005, decay: Double = 0.05, sustain: Double = 0.7, release: Double = 0.05) {
        self.attack = attack
        self.decay = decay
        self.sustain = sustain
        self.release = release
    }

    /// The level `t` seconds after a note began that is held for `gate` seconds: the closed
    /// form the synth's per-sample envelope follows.
    public func level(at t: Double, gate: Double) -> Double {
        guard t >= 0 else { return 0 }
        if t < gate { return held(at: t) }
        guard release > 0 else { return 0 }
        return max(0, held(at: gate) * (1 - (t - gate) / release))
    }

    /// The level while the note is held.
    func held(at t: Double) -> Double {
        if t < attack { return t / attack }
        let d = t - attack
        if d < decay { return 1 - (1 - sustain) * d / decay }
        return sustain
    }
}

/// ``Envelope`` counted in samples, as a voice steps through it.
struct SampleEnvelope: Sendable {
    var attack: Int
    var decay: Int
    var sustain: Float
    var release: Int

    init(_ e: Envelope, sampleRate: Int) {
        let rate = Double(sampleRate)
        attack = Int((e.attack * rate).rounded())
        decay = Int((e.decay * rate).rounded())
        sustain = Float(e.sustain)
        release = Int((e.release * rate).rounded())
    }

    /// The level `n` samples into a note held for `gate` samples, whose attack rises from
    /// `floor` (0 for a note after silence; where the last note's envelope was for a note that
    /// follows it, so a melody has no click between its notes).
    @inline(__always)
    func level(at n: Int, gate: Int, from floor: Float = 0) -> Float {
        if n < gate { return held(at: n, from: floor) }
        let past = n - gate
        guard past < release else { return 0 }
        return held(at: gate, from: floor) * (1 - Float(past) / Float(release))
    }

    @inline(__always)
    func held(at n: Int, from floor: Float = 0) -> Float {
        if n < attack { return floor + (1 - floor) * Float(n) / Float(attack) }
        let d = n - attack
        if d < decay { return 1 - (1 - sustain) * Float(d) / Float(decay) }
        return sustain
    }
}
