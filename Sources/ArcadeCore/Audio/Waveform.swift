#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shape of a voice's oscillator, as `wave = "square"` names it.
public enum Waveform: String, CaseIterable, Sendable {
    /// High for `duty` of each period, low for the rest: the classic chip lead.
    case square
    /// A linear rise and fall: soft, flute-like, good for bass.
    case triangle
    /// A linear rise and a drop: bright and buzzy.
    case saw
    /// A pure tone.
    case sine
    /// A new pseudo-random level many times a period: hiss at high pitches, rumble at low ones.
    case noise

    /// The level (-1...1) at `phase` (0..<1) of a period; `duty` is the square's high share.
    /// Noise has no shape of its own: ``Voice`` holds its random level.
    @inline(__always)
    public func level(phase p: Double, duty: Double) -> Double {
        switch self {
        case .square: return p < duty ? 1 : -1
        case .triangle: return 1 - 4 * abs(p - 0.5)
        case .saw: return 2 * p - 1
        case .sine: return sin(2 * Double.pi * p)
        case .noise: return 0
        }
    }
}
