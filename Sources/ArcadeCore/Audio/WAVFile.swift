/// The bytes of a WAV file (RIFF, PCM, 16-bit, mono): what `--wav` writes.
public enum WAVFile {
    /// `samples` at `sampleRate`, as a complete file.
    public static func encode(_ samples: [Int16], sampleRate: Int) -> [UInt8] {
        let dataBytes = samples.count * 2
        var b: [UInt8] = []
        b.reserveCapacity(44 + dataBytes)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { b += $0 } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian) { b += $0 } }
        b += Array("RIFF".utf8)
        u32(36 + dataBytes)
        b += Array("WAVE".utf8)
        b += Array("fmt ".utf8)
        u32(16)
        u16(1)                // PCM
        u16(1)                // mono
        u32(sampleRate)
        u32(sampleRate * 2)   // bytes per second
        u16(2)                // bytes per frame
        u16(16)               // bits per sample
        b += Array("data".utf8)
        u32(dataBytes)
        for s in samples { withUnsafeBytes(of: s.littleEndian) { b += $0 } }
        return b
    }
}
