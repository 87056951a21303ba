// The control sequences the terminal layer writes. Each mode we turn on has its "off" in the
// restore sequence, and the restore sequence is also what the signal handlers write.

extension Terminal {
    /// The kitty keyboard flags we push: disambiguate (1), report event types (2) and report
    /// all keys as escape codes (8). Event types alone only bring releases for keys that do not
    /// produce text; without flag 8 letters, digits and space still arrive as plain text with
    /// no release, and games hold exactly those keys (WASD, space).
    public static let kittyKeyboardFlags = 1 | 2 | 8

    /// Written by `enter()`: alternate screen, hidden cursor, mouse reports for press, release,
    /// drag and plain motion (so menus and cards follow a hovering pointer) in SGR encoding, bracketed paste off (a paste then types its keys), a cleared
    /// screen, then the kitty keyboard query followed by a primary device attributes query:
    /// every terminal answers the second, so an answer to it with none to the first before it
    /// means no kitty protocol.
    public static let enterSequence: [UInt8] = Array(
        ("\u{1B}[?1049h"  // alternate screen, cursor saved
            + "\u{1B}[?25l"  // hide the cursor
            + "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1003h\u{1B}[?1006h"  // mouse: buttons, drags, motion, SGR
            + "\u{1B}[?2004l"  // bracketed paste off
            + "\u{1B}[H\u{1B}[2J"  // home and clear
            + "\u{1B}[?u"  // kitty keyboard flags query
            + "\u{1B}[c"  // primary device attributes query
        ).utf8)

    /// Written when the process continues after a suspension (Ctrl-Z, then `fg`): the screen
    /// modes of `enterSequence` without its queries (the keyboard mode is known by then; the
    /// kitty flags are pushed again when they were before).
    public static let resumeSequence: [UInt8] = Array(
        ("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1003h\u{1B}[?1006h\u{1B}[?2004l\u{1B}[H\u{1B}[2J").utf8)

    /// Pushes `kittyKeyboardFlags` on the terminal's keyboard-mode stack, once the terminal has
    /// answered the query.
    static let kittyPushSequence: [UInt8] = Array("\u{1B}[>\(kittyKeyboardFlags)u".utf8)

    /// The start of `restoreSequence` that pops our kitty flags. Skipped until we pushed them,
    /// so we never pop an entry that belongs to someone else (the shell, say).
    static let kittyPopSequence: [UInt8] = Array("\u{1B}[<u".utf8)

    /// The tab stops terminals start with, a stop at every 8th column, set again on a screen up
    /// to ``defaultTabStopColumns`` wide (a frame encoder that uses tabs sets its own, see
    /// `FrameEncoder.usesTabs`): a carriage return, every stop cleared (`ESC [ 3 g`), then
    /// `ESC [ 8 C` and a stop (`ESC H`) again and again. A step stops at the last column, so on
    /// a narrower screen the last steps set a stop there, where a tab goes anyway.
    static let defaultTabStops: String = "\r\u{1B}[3g" + String(repeating: "\u{1B}[8C\u{1B}H", count: defaultTabStopColumns / 8 - 1)

    /// The widest screen whose tab stops the restore sets back to every 8th column.
    public static let defaultTabStopColumns = 512

    /// Undoes everything `enter()` and the renderer may have left on: pops the kitty flags,
    /// ends a synchronized update (a crash mid-frame would otherwise leave the screen frozen),
    /// disables the mouse, shows the cursor, sets the default tab stops again and turns
    /// autowrap on (a renderer may set its own stops and turn it off), leaves the alternate
    /// screen and resets colours and attributes. The
    /// terminal modes (termios) are restored separately.
    public static let restoreSequence: [UInt8] = kittyPopSequence + Array(
        ("\u{1B}[?2026l"  // end synchronized output
            + "\u{1B}[?1006l\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1000l"  // mouse off
            + "\u{1B}[?25h"  // show the cursor
            + defaultTabStops  // a stop at every 8th column, as the terminal started
            + "\u{1B}[?7h"  // autowrap on (a renderer may turn it off)
            + "\u{1B}[?1049l"  // leave the alternate screen, cursor restored
            + "\u{1B}[0m"  // plain attributes
        ).utf8)

    /// `restoreSequence` without the kitty pop: what the restore writes when the flags were
    /// never pushed (the terminal did not answer the query, or there was no terminal).
    public static let restoreSequenceWithoutKittyPop: [UInt8] = Array(restoreSequence.dropFirst(kittyPopSequence.count))
}
