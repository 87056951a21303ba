/// Text from a game (its `print` and `arcade.log` lines, error messages, manifest titles,
/// descriptions and folder names) must never reach the user's terminal as raw control
/// bytes: an `ESC ] 52` would write the clipboard, an `ESC [ 2 J` clear the screen. Every
/// path that writes such text outside the frame goes through `escapingControls`.
public enum ControlEscaping {
    /// `text` with each control character shown as a Lua-style escape: C0 bytes and DEL as
    /// `\27`, C1 characters as `\u{9B}`. Newlines and tabs are kept unless `keepLayout`
    /// is false (a one-line field such as a title shows them escaped too).
    public static func escapingControls(_ text: String, keepLayout: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepLayout: keepLayout) }) else { return text }
        var out = String.UnicodeScalarView()
        out.reserveCapacity(text.unicodeScalars.count + 8)
        for s in text.unicodeScalars {
            if needsEscape(s, keepLayout: keepLayout) {
                let v = s.value
                let escape = v < 0x80 ? "\\\(v)" : "\\u{\(String(v, radix: 16, uppercase: true))}"
                out.append(contentsOf: escape.unicodeScalars)
            } else {
                out.append(s)
            }
        }
        return String(out)
    }

    @inline(__always)
    static func needsEscape(_ s: Unicode.Scalar, keepLayout: Bool) -> Bool {
        let v = s.value
        if v == 0x0A || v == 0x09 { return !keepLayout }
        return v < 0x20 || v == 0x7F || (v >= 0x80 && v <= 0x9F)
    }
}
