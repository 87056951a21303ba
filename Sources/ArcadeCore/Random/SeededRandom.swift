/// The host's seeded pseudo-random generator: xoshiro256** seeded through SplitMix64.
///
/// Integer-only arithmetic, so a seed gives the same sequence on every machine. All
/// randomness a game sees (Lua's `math.random` included) comes from one of these.
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        var sm = seed
        func splitMix() -> UInt64 {
            sm &+= 0x9E37_79B9_7F4A_7C15
            var z = sm
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
    }

    @inline(__always) private static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = Self.rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Self.rotl(s3, 45)
        return result
    }

    /// A double in `[0, 1)` with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A double in `[lower, upper)`.
    public mutating func nextDouble(in lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * nextUnit()
    }

    /// A uniformly distributed integer in `lower...upper` (unbiased; Lemire's method).
    public mutating func nextInt(in lower: Int64, _ upper: Int64) -> Int64 {
        precondition(lower <= upper, "empty range")
        let span = UInt64(bitPattern: upper &- lower) &+ 1
        if span == 0 { return Int64(bitPattern: next()) }  // the full 64-bit range
        var m = next().multipliedFullWidth(by: span)
        if m.low < span {
            let threshold = (0 &- span) % span
            while m.low < threshold {
                m = next().multipliedFullWidth(by: span)
            }
        }
        return lower &+ Int64(bitPattern: m.high)
    }
}
