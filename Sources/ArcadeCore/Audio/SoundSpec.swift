#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sound as a game writes it: a short sequence of notes played by one voice, in the
/// spirit of a fantasy console's sound effects.
///
/// `notes = "c5 e5 g5"`, each note lasting `speed` / 120 seconds; `-` is a rest. The
/// waveform, its volume and an ADSR envelope (per note), a pitch slide (semitones over each
/// note) and vibrato (semitones, at `vibratoRate` Hz) shape it. A `loop`ing sound plays until
/// it is stopped.
public struct SoundSpec: Equatable, Sendable {
    public var wave: Waveform = .square
    /// The square's high share of each period, 0.05...0.95.
    public var duty: Double = 0.5
    /// Each note as a MIDI number (60 is c4), nil for a rest.
    public var notes: [Int?] = []
    /// How long each note lasts, in 1/120 s (8: 67 ms).
    public var speed: Int = 8
    public var volume: Double = 0.5
    public var envelope = Envelope()
    /// Semitones the pitch moves over each note (negative: down).
    public var slide: Double = 0
    /// How far the pitch wavers, in semitones either way.
    public var vibrato: Double = 0
    /// How often the pitch wavers, per second.
    public var vibratoRate: Double = 6
    /// Starts over after its last note until stopped.
    public var loop = false

    /// The most notes one sound holds.
    public static let maxNotes = 1024
    /// The longest note, in 1/120 s (about 2 s).
    public static let maxSpeed = 255
    /// The longest attack, decay or release, in seconds.
    public static let maxEnvelopeSeconds = 10.0
    /// The widest slide or vibrato, in semitones.
    public static let maxBend = 96.0

    /// The fields a spec or a `.sfx` file may set.
    public static let keys = ["attack", "decay", "duty", "loop", "notes", "release", "slide", "speed", "sustain",
                              "vibrato", "vibrato_rate", "volume", "wave"]

    public init() {}

    /// Seconds each note lasts.
    public var noteSeconds: Double { Double(speed) / 120 }

    /// Checks every field's range; the error names the field.
    public func validate() throws(SoundSpecError) {
        func check(_ ok: Bool, _ key: String, _ text: String) throws(SoundSpecError) {
            if !ok { throw SoundSpecError(key: key, text) }
        }
        try check(!notes.isEmpty, "notes", "a sound needs at least one note")
        try check(notes.count <= Self.maxNotes, "notes", "at most \(Self.maxNotes) notes, got \(notes.count)")
        try check((1...Self.maxSpeed).contains(speed), "speed", "a whole number from 1 to \(Self.maxSpeed) expected, got \(speed)")
        try check((0.05...0.95).contains(duty), "duty", "a number from 0.05 to 0.95 expected, got \(duty)")
        try check((0...1).contains(volume), "volume", "a number from 0 to 1 expected, got \(volume)")
        try check((0...1).contains(envelope.sustain), "sustain", "a number from 0 to 1 expected, got \(envelope.sustain)")
        for (key, v) in [("attack", envelope.attack), ("decay", envelope.decay), ("release", envelope.release)] {
            try check((0...Self.maxEnvelopeSeconds).contains(v), key,
                      "seconds from 0 to \(Int(Self.maxEnvelopeSeconds)) expected, got \(v)")
        }
        try check(abs(slide) <= Self.maxBend, "slide", "semitones from -\(Int(Self.maxBend)) to \(Int(Self.maxBend)) expected, got \(slide)")
        try check((0...Self.maxBend).contains(vibrato), "vibrato", "semitones from 0 to \(Int(Self.maxBend)) expected, got \(vibrato)")
        try check((0...100).contains(vibratoRate), "vibrato_rate", "a rate from 0 to 100 Hz expected, got \(vibratoRate)")
    }

    /// Sets field `key` from the text a `.sfx` file gives it.
    public mutating func set(_ key: String, text: String) throws(SoundSpecError) {
        func number() throws(SoundSpecError) -> Double {
            guard let v = Double(text), v.isFinite else { throw SoundSpecError(key: key, "number expected, got '\(text)'") }
            return v
        }
        switch key {
        case "wave": wave = try Self.waveform(text)
        case "notes": notes = try Self.parseNotes(text)
        case "speed":
            guard let v = Int(text) else { throw SoundSpecError(key: key, "whole number expected, got '\(text)'") }
            speed = v
        case "duty": duty = try number()
        case "volume": volume = try number()
        case "attack": envelope.attack = try number()
        case "decay": envelope.decay = try number()
        case "sustain": envelope.sustain = try number()
        case "release": envelope.release = try number()
        case "slide": slide = try number()
        case "vibrato": vibrato = try number()
        case "vibrato_rate": vibratoRate = try number()
        case "loop":
            switch text {
            case "true": loop = true
            case "false": loop = false
            default: throw SoundSpecError(key: key, "true or false expected, got '\(text)'")
            }
        default:
            throw SoundSpecError(key: key, "unknown key '\(key)'" + Self.hint(for: key))
        }
    }

    /// The waveform named `name`.
    public static func waveform(_ name: String) throws(SoundSpecError) -> Waveform {
        guard let w = Waveform(rawValue: name) else {
            throw SoundSpecError(key: "wave", "unknown wave '\(name)' (square, triangle, saw, sine or noise)")
        }
        return w
    }

    /// " (did you mean 'wave'?)" for a near miss of a known key, else the keys there are.
    static func hint(for key: String) -> String {
        if let near = keys.first(where: { closeEnough(key, $0) }) { return " (did you mean '\(near)'?)" }
        return " (keys: " + keys.joined(separator: ", ") + ")"
    }

    /// One letter added, dropped, changed, or two neighbours swapped.
    private static func closeEnough(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        if x.count == y.count {
            let diffs = x.indices.filter { x[$0] != y[$0] }
            return diffs.count == 1 || (diffs.count == 2 && diffs[1] == diffs[0] + 1 && x[diffs[0]] == y[diffs[1]] && x[diffs[1]] == y[diffs[0]])
        }
        let (short, long) = x.count < y.count ? (x, y) : (y, x)
        guard long.count == short.count + 1 else { return false }
        var i = 0
        while i < short.count, short[i] == long[i] { i += 1 }
        return short[i...].elementsEqual(long[(i + 1)...])
    }

    // MARK: Notes

    /// `"c5 e5 g5 - c6"`: notes `a` to `g` (upper or lower case) with `#` (sharp) or `b`
    /// (flat) and an octave 0 to 8 (`c4` is middle C, MIDI 60), and `-` or `.` for a rest,
    /// separated by spaces.
    public static func parseNotes(_ text: String) throws(SoundSpecError) -> [Int?] {
        var notes: [Int?] = []
        var position = 0
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if [32, 9, 10, 13, 44].contains(bytes[i]) {  // space, tab, newline, comma
                i += 1
                continue
            }
            var end = i
            while end < bytes.count, ![32, 9, 10, 13, 44].contains(bytes[end]) { end += 1 }
            let token = bytes[i..<end]
            i = end
            position += 1
            if notes.count >= maxNotes {
                throw SoundSpecError(key: "notes", "at most \(maxNotes) notes")
            }
            if token.count == 1, token.first == UInt8(ascii: "-") || token.first == UInt8(ascii: ".") {
                notes.append(nil)
                continue
            }
            guard let midi = midiNumber(token) else {
                let word = String(decoding: token, as: UTF8.self)
                let shown = word.count > 12 ? word.prefix(12) + "..." : Substring(word)
                throw SoundSpecError(key: "notes", "note \(position) '\(shown)' is not a note (like c5, f#4, eb3, or - for a rest)")
            }
            notes.append(midi)
        }
        return notes
    }

    /// The MIDI number of a note like `c5`, `F#4` or `eb3`.
    public static func midiNumber(_ token: Substring) -> Int? {
        midiNumber(Array(token.utf8)[...])
    }

    /// The MIDI number of a note spelled in `token`'s bytes.
    static func midiNumber(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count == 2 || token.count == 3 else { return nil }
        let letters: [UInt8: Int] = [99: 0, 100: 2, 101: 4, 102: 5, 103: 7, 97: 9, 98: 11]  // c d e f g a b
        var k = token.startIndex
        guard let base = letters[token[k] | 0x20] else { return nil }  // either case
        var semitone = base
        k += 1
        if token.count == 3 {
            switch token[k] {
            case UInt8(ascii: "#"): semitone += 1
            case UInt8(ascii: "b"): semitone -= 1
            default: return nil
            }
            k += 1
        }
        let digit = Int(token[k]) - 48
        guard (0...8).contains(digit) else { return nil }
        return 12 * (digit + 1) + semitone
    }

    /// Hz of MIDI note `midi`, which may fall between notes (a4, MIDI 69, is 440 Hz).
    public static func frequency(midi: Double) -> Double {
        440 * exp2((midi - 69) / 12)
    }
}

/// What was wrong with a sound's spec: the field and why.
public struct SoundSpecError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The field (`notes`, `speed`...).
    public var key: String
    public var text: String

    public init(key: String, _ text: String) {
        self.key = key
        self.text = text
    }

    public var description: String { text.hasPrefix("unknown key") ? text : "\(key): \(text)" }
}
