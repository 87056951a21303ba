import ArcadeCore

// The grammar: what one event's worth of bytes looks like. Every scan looks only at bytes from
// its start onwards and answers "incomplete" only when the buffer ends before the event does,
// which is what makes the result independent of how the bytes were chunked.

extension InputDecoder {
    /// What the bytes at one position turned out to be.
    enum Scan {
        /// An event, `length` bytes long.
        case event(InputEvent, length: Int)
        /// A reply to one of our queries.
        case reply(TerminalReply, length: Int)
        /// Bytes that mean nothing to us (unknown or broken sequences), dropped whole.
        case ignore(length: Int)
        /// The first `length` bytes of a sequence too long to be real; skip up to its end.
        case overlong(length: Int)
        /// A control string (DCS, OSC, APC, PM, SOS) whose body runs on past `length` bytes
        /// without its terminator: drop bytes up to the terminator. `eightBit`: it began with
        /// an 8-bit introducer, so a raw 0x9C byte ends it too.
        case overlongString(length: Int, eightBit: Bool)
        /// A control string ended by an ESC that is not part of it (`length` bytes up to it):
        /// the ESC is decoded afresh, and `ESC \` right there is its terminator.
        case stringUntilEscape(length: Int)
        /// The buffer ends before the event does; wait for more bytes.
        case incomplete
    }

    static let escape: UInt8 = 0x1B

    /// The longest SS3 sequence (`ESC O 1;5 A` is six bytes); anything longer is garbage.
    private static let ss3Limit = 8

    /// Scans the event that starts at `index`.
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, lastPressedButton: inout MouseButton
    ) -> Scan {
        if bytes[index] == escape {
            return scanEscape(bytes, at: index, lastPressedButton: &lastPressedButton)
        }
        // A C1 control, as one 8-bit byte (0x80-0x9F, which never starts a UTF-8 character)
        // or in UTF-8 (C2 80 - C2 9F): the same as ESC and the byte 0x40 lower.
        if (0x80...0x9F).contains(bytes[index]) {
            return scanC1(bytes[index], bytes, at: index, introducer: 1, lastPressedButton: &lastPressedButton)
        }
        if bytes[index] == 0xC2 {
            guard index + 1 < bytes.count else { return .incomplete }
            if (0x80...0x9F).contains(bytes[index + 1]) {
                return scanC1(bytes[index + 1], bytes, at: index, introducer: 2, lastPressedButton: &lastPressedButton)
            }
        }
        return scanPlain(bytes, at: index)
    }

    /// A C1 control `c1` that starts `introducer` bytes at `index`: CSI and SS3 introduce the
    /// sequences their ESC forms do, the string introducers a control string; every other
    /// C1 control (a stray ST among them) means nothing to a game and is dropped.
    private static func scanC1(
        _ c1: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, introducer: Int,
        lastPressedButton: inout MouseButton
    ) -> Scan {
        switch c1 - 0x40 {
        case UInt8(ascii: "["):
            return scanCSI(bytes, at: index, body: index + introducer, lastPressedButton: &lastPressedButton)
        case UInt8(ascii: "O"):
            return scanSS3(bytes, at: index, body: index + introducer)
        case let kind where isStringIntroducer(kind):
            return scanString(bytes, at: index, body: index + introducer, eightBit: introducer == 1)
        default:
            return .ignore(length: introducer)
        }
    }

    /// The final bytes of `ESC P` (DCS), `ESC X` (SOS), `ESC ]` (OSC), `ESC ^` (PM) and
    /// `ESC _` (APC): each opens a control string that runs to its terminator. Terminals send
    /// them as replies to queries the arcade never makes (another program's, arriving late).
    static func isStringIntroducer(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "P") || byte == UInt8(ascii: "X") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: "^") || byte == UInt8(ascii: "_")
    }

    /// How a control string's body ends at `bytes[i]`: the length of its terminator (BEL, the
    /// UTF-8 ST C2 9C, the 8-bit ST 0x9C after an 8-bit introducer, or CAN and SUB, which
    /// cancel it); 0 when the string goes on; nil when the buffer ends inside a terminator.
    /// An ESC is reported as -1: it ends the string but is not part of it.
    static func stringTerminator(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, eightBit: Bool) -> Int? {
        switch bytes[i] {
        case 0x07, 0x18, 0x1A: return 1
        case escape: return -1
        case 0x9C where eightBit: return 1
        case 0xC2:
            guard i + 1 < bytes.count else { return nil }
            return bytes[i + 1] == 0x9C ? 2 : 0
        default: return 0
        }
    }

    /// A control string from `index` whose body starts at `body`: dropped whole, terminator
    /// included; a body longer than ``InputDecoder/maximumSequenceLength`` is dropped as it
    /// arrives, so the buffer stays bounded.
    private static func scanString(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, body: Int, eightBit: Bool
    ) -> Scan {
        let limit = min(bytes.count, index + maximumSequenceLength)
        var i = body
        while i < limit {
            guard let end = stringTerminator(bytes, at: i, eightBit: eightBit) else { return .incomplete }
            if end < 0 { return .stringUntilEscape(length: i - index) }
            if end > 0 { return .ignore(length: i + end - index) }
            i += 1
        }
        return limit < index + maximumSequenceLength ? .incomplete : .overlongString(length: limit - index, eightBit: eightBit)
    }

    /// A key that is not an escape sequence: one ASCII byte or one UTF-8 character.
    private static func scanPlain(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Scan {
        let byte = bytes[index]
        if byte >= 0x80 { return scanUTF8(bytes, at: index) }
        if let key = KeyNames.singleByte(byte) { return .event(.key(key), length: 1) }
        return .ignore(length: 1)
    }

    /// One UTF-8 character, which is a key of its own name (``KeyEvent/printable(_:modifiers:)``;
    /// a lone combining mark or format character is no key and is dropped). Malformed bytes are dropped: a
    /// byte that cuts a character short is decoded again by itself, so one lost byte in the
    /// stream costs one character, not the keys after it.
    private static func scanUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Scan {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, value) = (4, UInt32(lead & 0x07))
        default: return .ignore(length: 1)  // a stray continuation byte, or one UTF-8 never uses
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else { return .incomplete }
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return .ignore(length: offset) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let shortest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x1_0000
        // Overlong forms and surrogates are invalid; C1 controls (U+0080-U+009F) are not keys.
        guard value >= shortest, value >= 0xA0, let scalar = UnicodeScalar(value) else {
            return .ignore(length: length)
        }
        guard let key = KeyEvent.printable(String(Character(scalar))) else { return .ignore(length: length) }
        return .event(.key(key), length: length)
    }

    /// What follows an ESC: a CSI or SS3 sequence, a control string, an Alt+key, or (ESC ESC)
    /// the Esc key.
    private static func scanEscape(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, lastPressedButton: inout MouseButton
    ) -> Scan {
        guard index + 1 < bytes.count else { return .incomplete }
        switch bytes[index + 1] {
        case UInt8(ascii: "["):
            return scanCSI(bytes, at: index, body: index + 2, lastPressedButton: &lastPressedButton)
        case UInt8(ascii: "O"):
            return scanSS3(bytes, at: index, body: index + 2)
        case let kind where isStringIntroducer(kind):
            // Alone, these two bytes are what Alt+P, Alt+] and the like send: `flush()` makes
            // them that key once input goes quiet.
            return scanString(bytes, at: index, body: index + 2, eightBit: false)
        case escape:
            // Esc pressed twice: the first is a key, the second starts afresh.
            return .event(.key(KeyEvent("esc")), length: 1)
        default:
            switch scanPlain(bytes, at: index + 1) {
            case .event(.key(var key), let length):
                key.modifiers.insert(.alt)
                return .event(.key(key), length: length + 1)
            case .incomplete:
                return .incomplete
            default:
                return .event(.key(KeyEvent("esc")), length: 1)
            }
        }
    }

    /// `ESC O x`: arrows, Home/End and F1-F4 in application mode, the application keypad,
    /// rxvt's Ctrl+arrows (`ESC O a`...`d`), and the rare `ESC O 1;5 A` with modifiers.
    /// `body`: where the sequence's bytes after `ESC O` (or the 8-bit SS3) begin.
    private static func scanSS3(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, body: Int) -> Scan {
        let limit = min(bytes.count, index + ss3Limit)
        var end = body
        while end < limit, (0x30...0x3B).contains(bytes[end]) { end += 1 }
        guard end < limit else {
            return limit < index + ss3Limit ? .incomplete : .ignore(length: limit - index)
        }
        let final = bytes[end]
        guard (0x40...0x7E).contains(final) else {
            // Not a sequence after all: ESC O is what Alt+Shift+O sends (an 8-bit SS3 is no key).
            if end == body {
                if body == index + 2 && bytes[index] == escape {
                    return .event(.key(KeyEvent("o", modifiers: [.alt, .shift])), length: 2)
                }
                return .ignore(length: body - index)
            }
            return .ignore(length: end - index)
        }
        let length = end - index + 1
        let parameters = ControlParameters(bytes: bytes, range: body..<end)
        let fields = parameters.fieldCount
        let modifiers =
            fields == 0 ? [] : KeyNames.modifiers(parameter: parameters.value(fields - 1) ?? 1)
        if let name = KeyNames.final(final) ?? KeyNames.keypad(final) {
            return .event(.key(KeyEvent(name, modifiers: modifiers)), length: length)
        }
        if let name = rxvtArrow(final) {
            return .event(.key(KeyEvent(name, modifiers: modifiers.union(.ctrl))), length: length)
        }
        return .ignore(length: length)
    }

    /// `ESC [ ...`: parameters, optional intermediates, one final byte; plus two older forms
    /// that break that grammar (X10 mouse and the Linux console's F1-F5).
    /// `body`: where the bytes after `ESC [` (or the 8-bit CSI) begin.
    private static func scanCSI(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, body start: Int, lastPressedButton: inout MouseButton
    ) -> Scan {
        guard start < bytes.count else { return .incomplete }
        if bytes[start] == UInt8(ascii: "M") {
            return scanX10Mouse(bytes, at: index, body: start, lastPressedButton: &lastPressedButton)
        }
        if bytes[start] == UInt8(ascii: "[") {
            // Linux console: ESC [ [ A ... ESC [ [ E are F1-F5.
            guard start + 1 < bytes.count else { return .incomplete }
            let key = bytes[start + 1]
            let length = start + 2 - index
            if (UInt8(ascii: "A")...UInt8(ascii: "E")).contains(key) {
                return .event(.key(KeyEvent("f\(key - UInt8(ascii: "A") + 1)")), length: length)
            }
            return .ignore(length: (0x40...0x7E).contains(key) ? length : length - 1)
        }

        let limit = min(bytes.count, index + maximumSequenceLength)
        var end = start
        var marker: UInt8 = 0
        if (0x3C...0x3F).contains(bytes[end]) {
            marker = bytes[end]
            end += 1
        }
        let parameterStart = end
        while end < limit, (0x30...0x3F).contains(bytes[end]) { end += 1 }
        let parameters = ControlParameters(bytes: bytes, range: parameterStart..<end)
        // rxvt's Shift+Insert etc. end in '$', which the grammar calls an intermediate byte.
        if marker == 0, end < limit, bytes[end] == UInt8(ascii: "$"), parameters.fieldCount == 1,
            let name = parameters.value(0).flatMap(KeyNames.tilde)
        {
            return .event(.key(KeyEvent(name, modifiers: .shift)), length: end - index + 1)
        }
        let parameterEnd = end
        // Intermediate bytes, and anything of the parameter range after them (`CSI SP 0 n`
        // breaks the grammar's order), belong to the sequence up to its final byte.
        while end < limit, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        guard end < limit else {
            return limit < index + maximumSequenceLength
                ? .incomplete : .overlong(length: limit - index)
        }
        let final = bytes[end]
        // A byte outside the grammar means the sequence was cut off: drop what we have and
        // decode that byte afresh.
        guard (0x40...0x7E).contains(final) else { return .ignore(length: end - index) }
        let length = end - index + 1
        // Intermediates only appear in replies to queries we never send, and sequences
        // with them are no keys.
        guard parameterEnd == end else { return .ignore(length: length) }

        switch marker {
        case 0:
            // `CSI 0 n` / `CSI 3 n` answer our status query; no key ends in `n`
            if final == UInt8(ascii: "n") { return .reply(.deviceStatus, length: length) }
            return scanCSIKey(final: final, parameters: parameters, length: length)
        case UInt8(ascii: "<"):
            guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m"),
                let code = parameters.value(0), let x = parameters.value(1),
                let y = parameters.value(2),
                let event = mouse(
                    code: code, col: max(x - 1, 0), row: max(y - 1, 0),
                    released: final == UInt8(ascii: "m"), lastPressedButton: &lastPressedButton)
            else { return .ignore(length: length) }
            return .event(.mouse(event), length: length)
        case UInt8(ascii: "?"):
            if final == UInt8(ascii: "u") {
                return .reply(.keyboardFlags(parameters.value(0) ?? 0), length: length)
            }
            if final == UInt8(ascii: "c") {
                return .reply(.primaryDeviceAttributes, length: length)
            }
            return .ignore(length: length)
        default:
            return .ignore(length: length)
        }
    }

    /// A CSI key sequence without a private marker.
    private static func scanCSIKey(
        final: UInt8, parameters: ControlParameters, length: Int
    ) -> Scan {
        let key: KeyEvent?
        switch final {
        case UInt8(ascii: "u"):
            // kitty: CSI code[:shifted[:base]] ; mods[:event] ; text u
            key = parameters.value(0).flatMap(KeyNames.kitty)
        case UInt8(ascii: "~"):
            if parameters.value(0) == 27 {
                // xterm modifyOtherKeys (tmux's extended keys too): CSI 27 ; mods ; code ~
                key = parameters.value(2).flatMap(KeyNames.kitty)
            } else {
                key = parameters.value(0).flatMap(KeyNames.tilde).map { KeyEvent($0) }
            }
        case UInt8(ascii: "^"), UInt8(ascii: "@"):
            // rxvt: Ctrl (^) and Ctrl+Shift (@) in place of the ~.
            guard parameters.fieldCount == 1, let name = parameters.value(0).flatMap(KeyNames.tilde)
            else { return .ignore(length: length) }
            let modifiers: KeyModifiers = final == UInt8(ascii: "^") ? .ctrl : [.ctrl, .shift]
            return .event(.key(KeyEvent(name, modifiers: modifiers)), length: length)
        case UInt8(ascii: "Z"):
            key = KeyEvent("tab", modifiers: .shift)  // back-tab
        case UInt8(ascii: "a")...UInt8(ascii: "d"):
            // rxvt: Shift+arrows.
            guard parameters.fieldCount == 0, let name = rxvtArrow(final) else {
                return .ignore(length: length)
            }
            return .event(.key(KeyEvent(name, modifiers: .shift)), length: length)
        default:
            key = KeyNames.final(final).map { KeyEvent($0) }
        }
        guard var key else { return .ignore(length: length) }
        // The modifier field is the second one in every form that has one (`CSI 27;m;c~` too).
        if let modifiers = parameters.value(1) {
            key.modifiers.formUnion(KeyNames.modifiers(parameter: modifiers))
        }
        switch parameters.value(1, 1) ?? 1 {
        case 2:
            key.isRepeat = true
            return .event(.key(key), length: length)
        case 3:
            return .event(.keyUp(key), length: length)
        default:
            return .event(.key(key), length: length)
        }
    }

    /// `ESC [ M b x y`: the X10 mouse encoding, each value a byte offset by 32, for terminals
    /// that ignore the SGR mode we ask for.
    private static func scanX10Mouse(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, body: Int, lastPressedButton: inout MouseButton
    ) -> Scan {
        guard body + 3 < bytes.count else { return .incomplete }
        let code = Int(bytes[body + 1]) - 32
        let x = Int(bytes[body + 2]) - 32
        let y = Int(bytes[body + 3]) - 32
        let length = body + 4 - index
        guard code >= 0, x >= 1, y >= 1,
            let event = mouse(
                code: code, col: x - 1, row: y - 1, released: false,
                lastPressedButton: &lastPressedButton)
        else { return .ignore(length: length) }
        return .event(.mouse(event), length: length)
    }

    /// A mouse event from an xterm button code: low bits the button (3 = released, button
    /// unknown), +4 Shift, +8 Alt, +16 Ctrl, +32 motion, +64 wheel, +128 extra buttons.
    private static func mouse(
        code: Int, col: Int, row: Int, released: Bool, lastPressedButton: inout MouseButton
    ) -> MouseEvent? {
        guard code & 128 == 0 else { return nil }  // buttons 8-11 have no name
        let modifiers = KeyNames.mouseModifiers(code)
        let low = code & 3
        if code & 64 != 0 {
            // Wheel "buttons" only press; 66 and 67 are the horizontal wheel.
            guard !released, low < 2 else { return nil }
            return MouseEvent(
                low == 0 ? .scrollUp : .scrollDown, col: col, row: row, button: .none,
                modifiers: modifiers)
        }
        if code & 32 != 0 {
            if low == 3 {
                return MouseEvent(.move, col: col, row: row, button: .none, modifiers: modifiers)
            }
            return MouseEvent(
                .drag, col: col, row: row, button: mouseButton(low), modifiers: modifiers)
        }
        if low == 3 {
            return MouseEvent(
                .release, col: col, row: row, button: lastPressedButton, modifiers: modifiers)
        }
        let button = mouseButton(low)
        if released {
            return MouseEvent(.release, col: col, row: row, button: button, modifiers: modifiers)
        }
        lastPressedButton = button
        return MouseEvent(.press, col: col, row: row, button: button, modifiers: modifiers)
    }

    private static func mouseButton(_ low: Int) -> MouseButton {
        switch low {
        case 0: .left
        case 1: .middle
        default: .right
        }
    }

    /// rxvt's lower-case arrow finals (`a` up ... `d` left).
    private static func rxvtArrow(_ final: UInt8) -> String? {
        switch final {
        case UInt8(ascii: "a"): "up"
        case UInt8(ascii: "b"): "down"
        case UInt8(ascii: "c"): "right"
        case UInt8(ascii: "d"): "left"
        default: nil
        }
    }
}
