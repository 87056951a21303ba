import ArcadeCore
import Testing

@testable import ArcadeTerminal

/// Decodes `chunks` one read at a time, then flushes as the reader would once input goes quiet.
private func decode(_ chunks: [[UInt8]], flush: Bool = true) -> [InputEvent] {
    var decoder = InputDecoder()
    var events: [InputEvent] = []
    for chunk in chunks { decoder.decode(chunk, into: &events) }
    if flush { decoder.flush(into: &events) }
    return events
}

@Suite("Input decoder: terminal samples")
struct InputDecoderSampleTests {
    @Test("decodes in one read", arguments: terminalSamples)
    func wholeRead(sample: Sample) {
        var decoder = InputDecoder()
        #expect(decoder.decode(sample.bytes) == sample.events)
        #expect(!decoder.hasPendingInput)
    }

    @Test("decodes the same split at every read boundary", arguments: terminalSamples)
    func everySplit(sample: Sample) {
        for cut in 1..<max(sample.bytes.count, 1) {
            let chunks = [Array(sample.bytes[..<cut]), Array(sample.bytes[cut...])]
            #expect(decode(chunks) == sample.events, "cut after byte \(cut)")
        }
        #expect(decode(sample.bytes.map { [$0] }) == sample.events, "one byte per read")
    }

    @Test("the whole table as one stream, in random chunkings")
    func concatenatedStream() {
        let stream = terminalSamples.flatMap(\.bytes)
        let expected = terminalSamples.flatMap(\.events)
        #expect(decode([stream]) == expected)
        var random = SeededRandom(seed: 7)
        for _ in 0..<200 {
            var chunks: [[UInt8]] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int(random.nextInt(in: 1, 24)))
                chunks.append(Array(stream[start..<end]))
                start = end
            }
            #expect(decode(chunks) == expected)
        }
    }
}

@Suite("Input decoder: escape handling")
struct InputDecoderEscapeTests {
    @Test("a lone ESC waits, and flush makes it the Esc key")
    func loneEscape() {
        var decoder = InputDecoder()
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.hasPendingEscape)
        #expect(decoder.hasPendingInput)
        #expect(decoder.flush() == [key("esc")])
        #expect(!decoder.hasPendingInput)
        #expect(decoder.flush().isEmpty)
    }

    @Test("an ESC whose sequence arrives in the next read is not a key")
    func escapeThenRestOfSequence() {
        var decoder = InputDecoder()
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.decode(bytes("[1;5")).isEmpty)
        #expect(!decoder.hasPendingEscape)
        #expect(decoder.hasPendingInput)
        #expect(decoder.decode(bytes("A")) == [key("up", .ctrl)])
        #expect(!decoder.hasPendingInput)
    }

    @Test("Esc pressed twice gives the first at once and holds the second")
    func doubleEscape() {
        var decoder = InputDecoder()
        #expect(decoder.decode([0x1B, 0x1B]) == [key("esc")])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flush() == [key("esc")])
    }

    @Test("Esc followed by a key in a later read is Alt+key; after a flush it is two keys")
    func escapeThenKey() {
        var decoder = InputDecoder()
        _ = decoder.decode([0x1B])
        #expect(decoder.decode(bytes("x")) == [key("x", .alt)])
        _ = decoder.decode([0x1B])
        #expect(decoder.flush() == [key("esc")])
        #expect(decoder.decode(bytes("x")) == [key("x")])
    }

    @Test("ESC [ and ESC O alone are what Alt+[ and Alt+Shift+O send")
    func introducersAlone() {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("\u{1B}[")).isEmpty)
        #expect(decoder.flush() == [key("[", .alt)])
        #expect(decoder.decode(bytes("\u{1B}O")).isEmpty)
        #expect(decoder.flush() == [key("o", [.alt, .shift])])
    }

    @Test("ESC O followed by a byte that ends no sequence is Alt+Shift+O, then that key")
    func escapeOThenEscape() {
        #expect(decode([bytes("\u{1B}O\u{1B}[A")]) == [key("o", [.alt, .shift]), key("up")])
    }

    @Test("an unfinished sequence is dropped by flush and does not taint later keys")
    func unfinishedSequenceDropped() {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("\u{1B}[1;5")).isEmpty)
        #expect(decoder.flush().isEmpty)
        #expect(decoder.decode(bytes("A")) == [key("a", .shift)])
    }

    @Test("a sequence cut off by a new one is dropped whole; the new one decodes")
    func sequenceCutOff() {
        #expect(decode([bytes("\u{1B}[1;5\u{1B}[B")]) == [key("down")])
        #expect(decode([bytes("\u{1B}[12\r")]) == [key("enter")])
    }

    @Test("Alt combines with every kind of plain key")
    func altCombinations() {
        let samples: [(String, InputEvent)] = [
            ("\u{1B}z", key("z", .alt)),
            ("\u{1B}Z", key("z", [.alt, .shift])),
            ("\u{1B}\u{1A}", key("z", [.alt, .ctrl])),
            ("\u{1B}\t", key("tab", .alt)),
            ("\u{1B}.", key(".", .alt)),
            ("\u{1B}9", key("9", .alt)),
            ("\u{1B}ü", key("ü", .alt)),
        ]
        for (text, event) in samples {
            #expect(decode([bytes(text)]) == [event], "\(Array(text.utf8))")
        }
    }

    @Test("a sequence longer than the limit is skipped to its end without leaking digits")
    func overlongSequence() {
        let garbage = bytes("\u{1B}[" + String(repeating: "1;", count: 200) + "A")
        let stream = garbage + bytes("b")
        #expect(decode([stream]) == [key("b")])
        for cut in stride(from: 1, to: stream.count, by: 7) {
            #expect(decode([Array(stream[..<cut]), Array(stream[cut...])]) == [key("b")])
        }
        var decoder = InputDecoder()
        for byte in garbage {
            _ = decoder.decode([byte])
            #expect(decoder.pendingByteCount <= InputDecoder.maximumSequenceLength)
        }
    }
}

@Suite("Input decoder: kitty, mouse, text, replies")
struct InputDecoderProtocolTests {
    @Test("a kitty key held: press, repeats, release")
    func kittyHold() {
        let stream = bytes("\u{1B}[119u\u{1B}[119;1:2u\u{1B}[119;1:2u\u{1B}[119;1:3u")
        #expect(
            decode([stream]) == [
                key("w"), key("w", repeat: true), key("w", repeat: true), keyUp("w"),
            ])
    }

    @Test("a kitty double tap: two presses, each with its release, however close together")
    func kittyDoubleTap() {
        let stream = bytes("\u{1B}[119u\u{1B}[119;1:3u\u{1B}[119;1:1u\u{1B}[119;1:3u")
        #expect(decode([stream]) == [key("w"), keyUp("w"), key("w"), keyUp("w")])
    }

    @Test("kitty modifiers and event types combine")
    func kittyModifiers() {
        let stream = bytes("\u{1B}[32;5u\u{1B}[32;5:3u\u{1B}[1;4:2B\u{1B}[5;7:3~")
        #expect(
            decode([stream]) == [
                key("space", .ctrl), keyUp("space", .ctrl),
                key("down", [.shift, .alt], repeat: true),
                keyUp("pageup", [.ctrl, .alt]),
            ])
    }

    @Test("mouse press, drag and release with modifiers")
    func mouseGesture() {
        let stream = bytes("\u{1B}[<4;3;4M\u{1B}[<36;4;4M\u{1B}[<36;5;5M\u{1B}[<4;5;5m")
        #expect(
            decode([stream]) == [
                mouse(.press, 2, 3, .left, .shift),
                mouse(.drag, 3, 3, .left, .shift),
                mouse(.drag, 4, 4, .left, .shift),
                mouse(.release, 4, 4, .left, .shift),
            ])
        let right = bytes("\u{1B}[<26;80;24M\u{1B}[<58;79;24M\u{1B}[<26;79;24m")
        #expect(
            decode([right]) == [
                mouse(.press, 79, 23, .right, [.ctrl, .alt]),
                mouse(.drag, 78, 23, .right, [.ctrl, .alt]),
                mouse(.release, 78, 23, .right, [.ctrl, .alt]),
            ])
    }

    @Test("mouse events carry canvas pixels two per row")
    func mousePixels() {
        guard case .mouse(let event) = decode([bytes("\u{1B}[<0;11;6M")]).first else {
            Issue.record("no mouse event")
            return
        }
        #expect(event.pixel == Vec2(10, 10))
    }

    @Test("UTF-8 text of every length, and malformed bytes dropped without losing neighbours")
    func utf8() {
        #expect(decode([bytes("aé€😀")]) == [key("a"), key("é"), key("€"), key("😀")])
        #expect(decode([[0xC3, 0x41]]) == [key("a", .shift)])  // cut short by an ASCII byte
        #expect(decode([[0xFF, 0x61]]) == [key("a")])  // a byte UTF-8 never uses
        #expect(decode([[0x80, 0x62]]) == [key("b")])  // a stray continuation byte
        #expect(decode([[0xC0, 0xAF, 0x63]]) == [key("c")])  // an overlong slash
        #expect(decode([[0xED, 0xA0, 0x80, 0x64]]) == [key("d")])  // a surrogate
        #expect(decode([[0xC2, 0x85, 0x65]]) == [key("e")])  // a C1 control
        #expect(decode([[0xE2, 0x82]]).isEmpty)  // unfinished at the end: dropped by flush
    }

    @Test("replies are taken out of the stream and kept for the asker")
    func replies() {
        var decoder = InputDecoder()
        let events = decoder.decode(bytes("a\u{1B}[?11ub\u{1B}[?62;22c"))
        #expect(events == [key("a"), key("b")])
        #expect(decoder.takeReplies() == [.keyboardFlags(11), .primaryDeviceAttributes])
        #expect(decoder.takeReplies().isEmpty)
        _ = decoder.decode(bytes("\u{1B}[?u"))
        #expect(decoder.takeReplies() == [.keyboardFlags(0)])
    }

    @Test("X10 releases name the button pressed before them")
    func x10Release() {
        func x10(_ code: UInt8) -> [UInt8] { [0x1B, 0x5B, 0x4D, 32 + code, 33, 33] }
        #expect(
            decode([x10(1) + x10(3) + x10(0) + x10(3)]) == [
                mouse(.press, 0, 0, .middle), mouse(.release, 0, 0, .middle),
                mouse(.press, 0, 0, .left), mouse(.release, 0, 0, .left),
            ])
    }

    @Test("reset forgets held-back bytes")
    func reset() {
        var decoder = InputDecoder()
        _ = decoder.decode(bytes("\u{1B}[1;"))
        decoder.reset()
        #expect(!decoder.hasPendingInput)
        #expect(decoder.decode(bytes("5A")) == [key("5"), key("a", .shift)])
    }
}
