/// A ``SoundSpec`` made ready to play at one sample rate: note lengths and the envelope in
/// samples. A value: a voice keeps the sound it started with, whatever is defined later
/// under the same name.
public struct Sound: Sendable {
    public let name: String
    public let spec: SoundSpec
    /// Samples each note lasts.
    public let noteSamples: Int
    let envelope: SampleEnvelope
    /// Each note's MIDI number, nil for a rest.
    let notes: [Int?]

    public init(name: String, spec: SoundSpec, sampleRate: Int = Mixer.defaultSampleRate) {
        self.name = name
        self.spec = spec
        noteSamples = max(1, Int((spec.noteSeconds * Double(sampleRate)).rounded()))
        envelope = SampleEnvelope(spec.envelope, sampleRate: sampleRate)
        notes = spec.notes
    }

    /// Samples from the first note's start to the last note's end (the last release rings
    /// on past it).
    public var lengthSamples: Int { notes.count * noteSamples }
}
