import ArcadeCore

/// Turns the bytes a terminal sends into input events. Pure: no I/O, no clock.
///
/// Bytes may arrive in any chunking; a sequence cut by a read boundary is kept until the rest
/// arrives, so the same bytes give the same events however they are split. What it reads:
/// plain keys and UTF-8 text, Alt as an ESC prefix, the CSI and SS3 key sequences of xterm,
/// VTE, rxvt, tmux and the Linux console (with xterm's modifier parameter), the kitty keyboard
/// protocol (`CSI code;mods:event u`, with press, repeat and release), xterm's
/// modifyOtherKeys (`CSI 27;mods;code ~`), SGR mouse reports and the older X10 ones.
/// Sequences it does not know are swallowed whole and never leak out as keys: control strings
/// (DCS, OSC, APC, PM and SOS, such as another program's late colour or capability replies)
/// up to their terminator however long they are, C1 controls in their 8-bit and UTF-8 forms
/// (an 8-bit CSI or SS3 reads as its ESC form), and sequences with intermediate bytes.
///
/// A lone ESC cannot be told from the start of a sequence by its bytes, only by time: after an
/// ESC with nothing behind it the decoder waits (`hasPendingEscape`), and the reader calls
/// `flush()` once no further byte has arrived within a short timeout (about 25 ms), which then
/// yields the `esc` key.
public struct InputDecoder: Sendable {
    /// The longest sequence the decoder waits to complete. Anything longer is garbage; it is
    /// skipped up to its final byte, so the buffer never holds more than this many bytes
    /// between calls. Real key and mouse sequences are under 30 bytes.
    public static let maximumSequenceLength = 64

    /// Bytes of an unfinished sequence or character, waiting for the rest.
    private var pending: [UInt8] = []
    /// True while skipping the tail of an over-long sequence.
    private var isSkippingOverlong = false
    /// Set while dropping the body of a control string too long to hold: true when it began
    /// with an 8-bit introducer, whose 8-bit ST ends it too.
    private var skippingString: Bool? = nil
    /// True right after a control string that an ESC ended: an `ESC \` there is the
    /// string's terminator, not Alt+\.
    private var afterString = false
    /// The button of the last press, because X10 mouse releases do not say which one.
    private var lastPressedButton: MouseButton = .left
    /// Replies to our queries found in the stream, oldest first.
    private var replies: [TerminalReply] = []

    /// A decoder with nothing pending.
    public init() {
        pending.reserveCapacity(4 * Self.maximumSequenceLength)
    }

    /// True when the only pending byte is an ESC: it is either the Esc key or the start of a
    /// sequence whose remaining bytes have not arrived yet. `flush()` settles it as `esc`.
    public var hasPendingEscape: Bool {
        pending.count == 1 && pending[0] == Self.escape
    }

    /// True when bytes are held back (an unfinished sequence or character, or the tail of an
    /// over-long sequence being skipped). The reader flushes once input goes quiet.
    public var hasPendingInput: Bool {
        !pending.isEmpty || isSkippingOverlong || skippingString != nil
    }

    /// How many bytes are held back; never more than `maximumSequenceLength` between calls.
    public var pendingByteCount: Int { pending.count }

    /// Decodes `bytes` and returns the events they complete.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        var events: [InputEvent] = []
        decode(bytes, into: &events)
        return events
    }

    /// Decodes `bytes`, appending the events they complete to `events` (so a reader can reuse
    /// one array and allocate nothing per read).
    public mutating func decode(_ bytes: some Sequence<UInt8>, into events: inout [InputEvent]) {
        pending.append(contentsOf: bytes)
        drain(into: &events)
    }

    /// Settles what is held back because no more bytes are coming: a lone ESC becomes `esc`;
    /// `ESC [` and `ESC O` become Alt+`[` and Alt+Shift+`o` (what those keys send), and so do
    /// the control string introducers `ESC P`, `ESC X`, `ESC ]`, `ESC ^` and `ESC _` (Alt+Shift+P,
    /// Alt+]...); any other unfinished sequence or character is dropped, and a control string
    /// that never ended ends here.
    public mutating func flush() -> [InputEvent] {
        var events: [InputEvent] = []
        flush(into: &events)
        return events
    }

    /// `flush()`, appending to `events`.
    public mutating func flush(into events: inout [InputEvent]) {
        defer {
            pending.removeAll(keepingCapacity: true)
            isSkippingOverlong = false
            skippingString = nil
            afterString = false
        }
        guard pending.first == Self.escape else { return }
        if pending.count == 1 {
            events.append(.key(KeyEvent("esc")))
        } else if pending.count == 2 && pending[1] == UInt8(ascii: "[") {
            events.append(.key(KeyEvent("[", modifiers: .alt)))
        } else if pending.count == 2 && pending[1] == UInt8(ascii: "O") {
            events.append(.key(KeyEvent("o", modifiers: [.alt, .shift])))
        } else if pending.count == 2 && Self.isStringIntroducer(pending[1]),
                  let key = KeyNames.singleByte(pending[1]) {
            events.append(.key(KeyEvent(key.key, modifiers: key.modifiers.union(.alt))))
        }
    }

    /// Forgets everything held back, without emitting it.
    public mutating func reset() {
        pending.removeAll(keepingCapacity: true)
        isSkippingOverlong = false
        skippingString = nil
        afterString = false
    }

    /// Returns the terminal's replies found so far and forgets them.
    public mutating func takeReplies() -> [TerminalReply] {
        defer { replies.removeAll() }
        return replies
    }

    /// Decodes as much of `pending` as is complete and keeps the unfinished rest.
    private mutating func drain(into events: inout [InputEvent]) {
        var skipping = isSkippingOverlong
        var inString = skippingString
        var stringEnded = afterString
        var button = lastPressedButton
        var found: [TerminalReply] = []
        let consumed = pending.withUnsafeBufferPointer { bytes -> Int in
            var index = 0
            while index < bytes.count {
                if let eightBit = inString {
                    // The body of a long control string: dropped up to its terminator.
                    guard let end = Self.stringTerminator(bytes, at: index, eightBit: eightBit) else {
                        return index  // C2 at the end of a read: is it the start of ST?
                    }
                    if end == 0 {
                        index += 1
                        continue
                    }
                    inString = nil
                    if end < 0 {
                        stringEnded = true
                    } else {
                        index += end
                    }
                    continue
                }
                if stringEnded {
                    // `ESC \` just after a string an ESC ended is that string's terminator.
                    if bytes[index] == Self.escape {
                        guard index + 1 < bytes.count else { return index }
                        if bytes[index + 1] == UInt8(ascii: "\\") {
                            stringEnded = false
                            index += 2
                            continue
                        }
                    }
                    stringEnded = false
                }
                if skipping {
                    // Parameter and intermediate bytes belong to the garbage; its final byte
                    // ends it; anything else means it was cut off, and that byte is input again.
                    let byte = bytes[index]
                    if (0x20...0x3F).contains(byte) {
                        index += 1
                        continue
                    }
                    skipping = false
                    if (0x40...0x7E).contains(byte) { index += 1 }
                    continue
                }
                switch Self.scan(bytes, at: index, lastPressedButton: &button) {
                case .event(let event, let length):
                    events.append(event)
                    index += length
                case .reply(let reply, let length):
                    found.append(reply)
                    index += length
                case .ignore(let length):
                    index += length
                case .overlong(let length):
                    index += length
                    skipping = true
                case .overlongString(let length, let eightBit):
                    index += length
                    inString = eightBit
                case .stringUntilEscape(let length):
                    index += length
                    stringEnded = true
                case .incomplete:
                    return index
                }
            }
            return index
        }
        pending.removeFirst(consumed)
        isSkippingOverlong = skipping
        skippingString = inString
        afterString = stringEnded
        lastPressedButton = button
        if !found.isEmpty { replies.append(contentsOf: found) }
    }
}
