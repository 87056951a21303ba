import ArcadeCore
import Testing

@testable import ArcadeTerminal

@Suite("Input decoder: random input")
struct InputDecoderFuzzTests {
    /// Bytes that make up escape sequences, so random input often starts and half-finishes
    /// real-looking ones instead of only ever producing single keys.
    private static let sequenceAlphabet =
        bytes("\u{1B}\u{1B}\u{1B}[[[OO0123456789;;::<?>$~uMmABCDHFPZa~^@ \r\u{7F}")
        + [0x80, 0xC3, 0xE2, 0xF0, 0x9F, 0xFF, 0x00]

    /// 10^6 bytes: half uniform, half drawn from `sequenceAlphabet`.
    private static func randomStream(seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var stream: [UInt8] = []
        stream.reserveCapacity(1_000_000)
        for _ in 0..<500_000 { stream.append(UInt8(truncatingIfNeeded: random.next())) }
        let alphabet = sequenceAlphabet
        for _ in 0..<500_000 {
            stream.append(alphabet[Int(random.nextInt(in: 0, Int64(alphabet.count - 1)))])
        }
        return stream
    }

    /// Decodes `stream` in random chunks of 1...`largest` bytes, checking the buffer bound
    /// after every read.
    private static func decodeInChunks(
        _ stream: [UInt8], seed: UInt64, largest: Int64
    ) -> (events: [InputEvent], largestPending: Int) {
        var random = SeededRandom(seed: seed)
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        var largestPending = 0
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + Int(random.nextInt(in: 1, largest)))
            decoder.decode(stream[start..<end], into: &events)
            largestPending = max(largestPending, decoder.pendingByteCount)
            start = end
        }
        decoder.flush(into: &events)
        return (events, largestPending)
    }

    @Test("10^6 random bytes in random chunks: no crash, bounded buffer, chunking irrelevant")
    func randomBytes() {
        let stream = Self.randomStream(seed: 2024)
        let small = Self.decodeInChunks(stream, seed: 1, largest: 8)
        let large = Self.decodeInChunks(stream, seed: 2, largest: 4096)
        #expect(small.largestPending <= InputDecoder.maximumSequenceLength)
        #expect(large.largestPending <= InputDecoder.maximumSequenceLength)
        #expect(!small.events.isEmpty)
        #expect(small.events == large.events)
        // Whatever garbage went in, every key that came out has a name.
        for event in small.events {
            switch event {
            case .key(let key), .keyUp(let key): #expect(!key.key.isEmpty)
            case .mouse(let mouse): #expect(mouse.col >= 0 && mouse.row >= 0)
            case .resize: Issue.record("the decoder never reports a resize")
            }
        }
    }
}
