import ArcadeCore
import Testing

@testable import ArcadeTerminal

/// Decodes `chunks` one read at a time, then flushes as the reader does once input goes quiet.
private func decoded(_ chunks: [[UInt8]], flush: Bool = true) -> (events: [InputEvent], replies: [TerminalReply]) {
    var decoder = InputDecoder()
    var events: [InputEvent] = []
    for chunk in chunks { decoder.decode(chunk, into: &events) }
    if flush { decoder.flush(into: &events) }
    return (events, decoder.takeReplies())
}

private let esc = "\u{1B}"

/// Replies and strings a terminal sends unasked or to another program's queries: none of
/// them is a key.
private let unaskedReplies: [(what: String, bytes: [UInt8])] = [
    ("OSC 11 background colour, BEL", bytes("\(esc)]11;rgb:1c1c/1c1c/1c1c\u{07}")),
    ("OSC 10 foreground colour, ST", bytes("\(esc)]10;rgb:ffff/ffff/ffff\(esc)\\")),
    ("OSC 4 palette entry", bytes("\(esc)]4;1;rgb:cdcd/0000/0000\(esc)\\")),
    ("DCS XTGETTCAP answer", bytes("\(esc)P1+r544e=787465726d\(esc)\\")),
    ("DCS DECRQSS answer", bytes("\(esc)P1$r0;1m\(esc)\\")),
    ("APC kitty graphics answer", bytes("\(esc)_Gi=31;OK\(esc)\\")),
    ("PM", bytes("\(esc)^privacy message\(esc)\\")),
    ("SOS", bytes("\(esc)Xstart of string\(esc)\\")),
    ("8-bit CSI status answer", [0x9B] + bytes("0n")),
    ("UTF-8 CSI status answer", [0xC2, 0x9B] + bytes("0n")),
    ("8-bit OSC ended by 8-bit ST", [0x9D] + bytes("11;rgb:0000/0000/0000") + [0x9C]),
    ("UTF-8 OSC ended by UTF-8 ST", [0xC2, 0x9D] + bytes("11;rgb:0000/0000/0000") + [0xC2, 0x9C]),
    ("8-bit DCS ended by BEL", [0x90] + bytes("1+r436f=38") + [0x07]),
    ("stray 8-bit ST", [0x9C]),
    ("stray UTF-8 C1", [0xC2, 0x85]),
    ("CSI with an intermediate before its parameter", bytes("\(esc)[ 0n")),
    ("cursor position report with intermediates", bytes("\(esc)[?1;2$y")),
    ("OSC cancelled by CAN", bytes("\(esc)]0;title") + [0x18]),
    ("a long OSC (a 300-byte title)", bytes("\(esc)]2;" + String(repeating: "long title ", count: 27) + "\u{07}")),
    ("a long DCS ended by ESC \\", bytes("\(esc)P" + String(repeating: "0123456789", count: 20) + "\(esc)\\")),
    ("a long 8-bit APC ended by 8-bit ST", [0x9F] + bytes(String(repeating: "x", count: 150)) + [0x9C]),
]

@Suite("Input decoder: control strings and C1 controls")
struct InputDecoderStringTests {
    @Test("no reply or string becomes a key, in one read or split anywhere")
    func repliesAreNoKeys() {
        for reply in unaskedReplies {
            let stream = bytes("a") + reply.bytes + bytes("b")
            #expect(decoded([stream]).events == [key("a"), key("b")], "\(reply.what)")
            for cut in 1..<stream.count {
                let split = decoded([Array(stream[..<cut]), Array(stream[cut...])])
                #expect(split.events == [key("a"), key("b")], "\(reply.what), split at \(cut)")
            }
            // fed a byte at a time, with no flush until the end
            #expect(decoded(stream.map { [$0] }).events == [key("a"), key("b")], "\(reply.what), byte by byte")
        }
    }

    @Test("8-bit and UTF-8 CSI and SS3 read as their ESC forms")
    func eightBitIntroducers() {
        #expect(decoded([[0x9B] + bytes("A")]).events == [key("up")])
        #expect(decoded([[0xC2, 0x9B] + bytes("1;5C")]).events == [key("right", .ctrl)])
        #expect(decoded([[0x8F] + bytes("P")]).events == [key("f1")])
        #expect(decoded([[0x9B] + bytes("<0;3;4M")]).events == [mouse(.press, 2, 3)])
        let status = decoded([[0x9B] + bytes("0n"), [0xC2, 0x9B] + bytes("3n")])
        #expect(status.events.isEmpty)
        #expect(status.replies == [.deviceStatus, .deviceStatus])
    }

    @Test("the introducers alone are what Alt+P, Alt+] and the like send")
    func introducersAloneAreAltKeys() {
        #expect(decoded([bytes("\(esc)P")]).events == [key("p", [.alt, .shift])])
        #expect(decoded([bytes("\(esc)]")]).events == [key("]", .alt)])
        #expect(decoded([bytes("\(esc)_")]).events == [key("_", .alt)])
        #expect(decoded([bytes("\(esc)^")]).events == [key("^", .alt)])
        #expect(decoded([bytes("\(esc)X")]).events == [key("x", [.alt, .shift])])
        // with nothing after them they wait, as a lone ESC does
        #expect(decoded([bytes("\(esc)]")], flush: false).events.isEmpty)
    }

    @Test("a string cut short by another sequence drops only itself")
    func stringCutByEscape() {
        // the ESC that is not ST ends the string and starts the next sequence
        #expect(decoded([bytes("\(esc)]11;rgb:00\(esc)[Aq")]).events == [key("up"), key("q")])
        #expect(decoded([bytes("\(esc)]11;rgb:00\(esc)"), bytes("[A")]).events == [key("up")])
        // a long one too
        let long = bytes("\(esc)P" + String(repeating: "z", count: 100) + "\(esc)[B")
        #expect(decoded([long]).events == [key("down")])
        // and Alt+\ right after a string is still the terminator, but elsewhere a key
        #expect(decoded([bytes("\(esc)\\")]).events == [key("\\", .alt)])
    }

    @Test("a string that never ends is given up when input goes quiet")
    func unterminatedStringEndsAtFlush() {
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        decoder.decode(bytes("\(esc)]2;" + String(repeating: "t", count: 200)), into: &events)
        #expect(decoder.hasPendingInput)
        #expect(decoder.pendingByteCount <= InputDecoder.maximumSequenceLength)
        decoder.flush(into: &events)
        decoder.decode(bytes("k"), into: &events)
        #expect(events == [key("k")])
    }

    /// Keys that decode the same whatever comes before and after them (no lone ESC, no
    /// half sequences): the terminal samples that pass that check.
    static let selfContainedKeys: [Sample] = terminalSamples.filter { sample in
        let a = bytes("a"), b = bytes("b")
        return !sample.events.isEmpty
            && decoded([a + sample.bytes + b]).events == [key("a")] + sample.events + [key("b")]
    }

    @Test("keys typed between random replies, strings and C1 controls all arrive, and nothing else")
    func randomMixKeepsExactlyTheTypedKeys() {
        let keys = Self.selfContainedKeys
        #expect(keys.count > 40)
        for seed in UInt64(1)...40 {
            var random = SeededRandom(seed: seed)
            var stream: [UInt8] = []
            var typed: [InputEvent] = []
            for _ in 0..<60 {
                if random.nextInt(in: 0, 2) == 0 {
                    let reply = unaskedReplies[Int(random.nextInt(in: 0, Int64(unaskedReplies.count - 1)))]
                    stream += reply.bytes
                } else {
                    let sample = keys[Int(random.nextInt(in: 0, Int64(keys.count - 1)))]
                    stream += sample.bytes
                    typed += sample.events
                }
            }
            var chunks: [[UInt8]] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int(random.nextInt(in: 1, 40)))
                chunks.append(Array(stream[start..<end]))
                start = end
            }
            #expect(decoded(chunks).events == typed, "seed \(seed)")
        }
    }
}
