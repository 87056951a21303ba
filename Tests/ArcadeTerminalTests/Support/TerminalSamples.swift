import ArcadeCore
import Testing

/// One real byte sequence a terminal sends, and the events it means.
struct Sample: Sendable, CustomTestStringConvertible {
    let terminal: String
    let what: String
    let bytes: [UInt8]
    let events: [InputEvent]

    init(_ terminal: String, _ what: String, _ text: String, _ events: [InputEvent]) {
        self.init(terminal, what, Array(text.utf8), events)
    }

    init(_ terminal: String, _ what: String, _ bytes: [UInt8], _ events: [InputEvent]) {
        self.terminal = terminal
        self.what = what
        self.bytes = bytes
        self.events = events
    }

    var testDescription: String { "\(terminal): \(what)" }
}

/// What common terminals send for keys and the mouse, gathered from their documentation and
/// terminfo entries: xterm, VTE (GNOME Terminal), the Linux console, rxvt, tmux, kitty and
/// iTerm2.
let terminalSamples: [Sample] = [
    // Plain bytes: the same everywhere.
    Sample("any", "letter", "a", [key("a")]),
    Sample("any", "capital letter", "Q", [key("q", .shift)]),
    Sample("any", "digit", "7", [key("7")]),
    Sample("any", "space", " ", [key("space")]),
    Sample("any", "enter as CR", "\r", [key("enter")]),
    Sample("any", "enter as LF", "\n", [key("enter")]),
    Sample("any", "tab", "\t", [key("tab")]),
    Sample("any", "backspace as DEL", "\u{7F}", [key("backspace")]),
    Sample("any", "backspace as BS", "\u{08}", [key("backspace")]),
    Sample("any", "ctrl+a", "\u{01}", [key("a", .ctrl)]),
    Sample("any", "ctrl+c", "\u{03}", [key("c", .ctrl)]),
    Sample("any", "ctrl+z", "\u{1A}", [key("z", .ctrl)]),
    Sample("any", "ctrl+space", "\u{00}", [key("space", .ctrl)]),
    Sample("any", "ctrl+backslash", "\u{1C}", [key("\\", .ctrl)]),
    Sample("any", "punctuation", "-+~/", [key("-"), key("+"), key("~"), key("/")]),
    Sample("any", "several keys in one read", "wasd", [key("w"), key("a"), key("s"), key("d")]),

    // xterm.
    Sample("xterm", "up", "\u{1B}[A", [key("up")]),
    Sample("xterm", "down", "\u{1B}[B", [key("down")]),
    Sample("xterm", "right", "\u{1B}[C", [key("right")]),
    Sample("xterm", "left", "\u{1B}[D", [key("left")]),
    Sample("xterm", "up in application cursor mode", "\u{1B}OA", [key("up")]),
    Sample("xterm", "left in application cursor mode", "\u{1B}OD", [key("left")]),
    Sample("xterm", "ctrl+up", "\u{1B}[1;5A", [key("up", .ctrl)]),
    Sample("xterm", "shift+down", "\u{1B}[1;2B", [key("down", .shift)]),
    Sample("xterm", "alt+right", "\u{1B}[1;3C", [key("right", .alt)]),
    Sample("xterm", "ctrl+alt+shift+left", "\u{1B}[1;8D", [key("left", [.ctrl, .alt, .shift])]),
    Sample("xterm", "home", "\u{1B}[H", [key("home")]),
    Sample("xterm", "end", "\u{1B}[F", [key("end")]),
    Sample("xterm", "home in application mode", "\u{1B}OH", [key("home")]),
    Sample("xterm", "end in application mode", "\u{1B}OF", [key("end")]),
    Sample("xterm", "insert", "\u{1B}[2~", [key("insert")]),
    Sample("xterm", "delete", "\u{1B}[3~", [key("delete")]),
    Sample("xterm", "page up", "\u{1B}[5~", [key("pageup")]),
    Sample("xterm", "page down", "\u{1B}[6~", [key("pagedown")]),
    Sample("xterm", "ctrl+delete", "\u{1B}[3;5~", [key("delete", .ctrl)]),
    Sample("xterm", "shift+page up", "\u{1B}[5;2~", [key("pageup", .shift)]),
    Sample("xterm", "f1", "\u{1B}OP", [key("f1")]),
    Sample("xterm", "f2", "\u{1B}OQ", [key("f2")]),
    Sample("xterm", "f3", "\u{1B}OR", [key("f3")]),
    Sample("xterm", "f4", "\u{1B}OS", [key("f4")]),
    Sample("xterm", "shift+f1", "\u{1B}[1;2P", [key("f1", .shift)]),
    Sample("xterm", "ctrl+f3", "\u{1B}[1;5R", [key("f3", .ctrl)]),
    Sample("xterm", "f5", "\u{1B}[15~", [key("f5")]),
    Sample("xterm", "f6", "\u{1B}[17~", [key("f6")]),
    Sample("xterm", "f7", "\u{1B}[18~", [key("f7")]),
    Sample("xterm", "f8", "\u{1B}[19~", [key("f8")]),
    Sample("xterm", "f9", "\u{1B}[20~", [key("f9")]),
    Sample("xterm", "f10", "\u{1B}[21~", [key("f10")]),
    Sample("xterm", "f11", "\u{1B}[23~", [key("f11")]),
    Sample("xterm", "f12", "\u{1B}[24~", [key("f12")]),
    Sample("xterm", "ctrl+f12", "\u{1B}[24;5~", [key("f12", .ctrl)]),
    Sample("xterm", "shift+tab", "\u{1B}[Z", [key("tab", .shift)]),
    Sample("xterm", "alt+a", "\u{1B}a", [key("a", .alt)]),
    Sample("xterm", "alt+shift+a", "\u{1B}A", [key("a", [.alt, .shift])]),
    Sample("xterm", "ctrl+alt+a", "\u{1B}\u{01}", [key("a", [.ctrl, .alt])]),
    Sample("xterm", "alt+backspace", "\u{1B}\u{7F}", [key("backspace", .alt)]),
    Sample("xterm", "alt+enter", "\u{1B}\r", [key("enter", .alt)]),
    Sample("xterm", "alt+1", "\u{1B}1", [key("1", .alt)]),
    Sample("xterm", "alt+minus", "\u{1B}-", [key("-", .alt)]),
    Sample("xterm", "alt+space", "\u{1B} ", [key("space", .alt)]),
    Sample("xterm", "modifyOtherKeys ctrl+tab", "\u{1B}[27;5;9~", [key("tab", .ctrl)]),
    Sample("xterm", "modifyOtherKeys ctrl+shift+a", "\u{1B}[27;6;65~", [key("a", [.ctrl, .shift])]),
    Sample("xterm", "mouse left press", "\u{1B}[<0;10;5M", [mouse(.press, 9, 4)]),
    Sample("xterm", "mouse left release", "\u{1B}[<0;10;5m", [mouse(.release, 9, 4)]),
    Sample("xterm", "mouse left drag", "\u{1B}[<32;12;6M", [mouse(.drag, 11, 5)]),
    Sample("xterm", "mouse right press at the corner", "\u{1B}[<2;1;1M", [mouse(.press, 0, 0, .right)]),
    Sample("xterm", "mouse middle press", "\u{1B}[<1;3;3M", [mouse(.press, 2, 2, .middle)]),
    Sample("xterm", "wheel up", "\u{1B}[<64;5;6M", [mouse(.scrollUp, 4, 5, .none)]),
    Sample("xterm", "wheel down", "\u{1B}[<65;5;6M", [mouse(.scrollDown, 4, 5, .none)]),
    Sample("xterm", "ctrl+shift+click", "\u{1B}[<20;7;8M", [mouse(.press, 6, 7, .left, [.ctrl, .shift])]),
    Sample("xterm", "alt+drag", "\u{1B}[<40;2;2M", [mouse(.drag, 1, 1, .left, .alt)]),
    Sample("xterm", "right drag with ctrl", "\u{1B}[<50;300;100M", [mouse(.drag, 299, 99, .right, .ctrl)]),
    Sample("xterm", "motion without a button", "\u{1B}[<35;4;4M", [mouse(.move, 3, 3, .none)]),
    Sample("xterm", "X10 mouse press", [0x1B, 0x5B, 0x4D, 0x20, 0x21, 0x21], [mouse(.press, 0, 0)]),
    Sample(
        "xterm", "X10 mouse right press then release",
        [0x1B, 0x5B, 0x4D, 0x22, 0x2A, 0x25, 0x1B, 0x5B, 0x4D, 0x23, 0x2A, 0x25],
        [mouse(.press, 9, 4, .right), mouse(.release, 9, 4, .right)]),

    // VTE (GNOME Terminal, Tilix, ...).
    Sample("VTE", "ctrl+home", "\u{1B}[1;5H", [key("home", .ctrl)]),
    Sample("VTE", "alt+up", "\u{1B}[1;3A", [key("up", .alt)]),
    Sample("VTE", "ctrl+f1", "\u{1B}[1;5P", [key("f1", .ctrl)]),
    Sample("VTE", "shift+f5", "\u{1B}[15;2~", [key("f5", .shift)]),
    Sample("VTE", "e acute", "é", [key("é")]),
    Sample("VTE", "euro sign", "€", [key("€")]),
    Sample("VTE", "alt+e acute", "\u{1B}é", [key("é", .alt)]),

    // The Linux console.
    Sample("linux", "f1", "\u{1B}[[A", [key("f1")]),
    Sample("linux", "f5", "\u{1B}[[E", [key("f5")]),
    Sample("linux", "home", "\u{1B}[1~", [key("home")]),
    Sample("linux", "end", "\u{1B}[4~", [key("end")]),

    // rxvt / urxvt.
    Sample("rxvt", "home", "\u{1B}[7~", [key("home")]),
    Sample("rxvt", "end", "\u{1B}[8~", [key("end")]),
    Sample("rxvt", "f1", "\u{1B}[11~", [key("f1")]),
    Sample("rxvt", "f4", "\u{1B}[14~", [key("f4")]),
    Sample("rxvt", "shift+up", "\u{1B}[a", [key("up", .shift)]),
    Sample("rxvt", "ctrl+up", "\u{1B}Oa", [key("up", .ctrl)]),
    Sample("rxvt", "ctrl+page up", "\u{1B}[5^", [key("pageup", .ctrl)]),
    Sample("rxvt", "shift+insert", "\u{1B}[2$", [key("insert", .shift)]),
    Sample("rxvt", "ctrl+shift+delete", "\u{1B}[3@", [key("delete", [.ctrl, .shift])]),
    Sample("rxvt", "keypad 5 in application mode", "\u{1B}Ou", [key("5")]),
    Sample("rxvt", "keypad enter in application mode", "\u{1B}OM", [key("enter")]),

    // tmux.
    Sample("tmux", "home", "\u{1B}[1~", [key("home")]),
    Sample("tmux", "end", "\u{1B}[4~", [key("end")]),
    Sample("tmux", "extended keys ctrl+j (CSI u)", "\u{1B}[106;5u", [key("j", .ctrl)]),
    Sample("tmux", "extended keys ctrl+j (xterm)", "\u{1B}[27;5;106~", [key("j", .ctrl)]),
    Sample("tmux", "ctrl+right", "\u{1B}[1;5C", [key("right", .ctrl)]),

    // kitty keyboard protocol (flags 1|2|8).
    Sample("kitty", "a pressed", "\u{1B}[97u", [key("a")]),
    Sample("kitty", "a repeated", "\u{1B}[97;1:2u", [key("a", repeat: true)]),
    Sample("kitty", "a released", "\u{1B}[97;1:3u", [keyUp("a")]),
    Sample("kitty", "shift+a pressed", "\u{1B}[97;2u", [key("a", .shift)]),
    Sample("kitty", "ctrl+shift+a released", "\u{1B}[97;6:3u", [keyUp("a", [.ctrl, .shift])]),
    Sample("kitty", "alternate keys reported", "\u{1B}[97:65;2u", [key("a", .shift)]),
    Sample("kitty", "esc", "\u{1B}[27u", [key("esc")]),
    Sample("kitty", "enter", "\u{1B}[13u", [key("enter")]),
    Sample("kitty", "shift+tab", "\u{1B}[9;2u", [key("tab", .shift)]),
    Sample("kitty", "backspace", "\u{1B}[127u", [key("backspace")]),
    Sample("kitty", "space released", "\u{1B}[32;1:3u", [keyUp("space")]),
    Sample("kitty", "ctrl+c", "\u{1B}[99;5u", [key("c", .ctrl)]),
    Sample("kitty", "e acute", "\u{1B}[233u", [key("é")]),
    Sample("kitty", "up", "\u{1B}[A", [key("up")]),
    Sample("kitty", "up released", "\u{1B}[1;1:3A", [keyUp("up")]),
    Sample("kitty", "ctrl+right repeated", "\u{1B}[1;5:2C", [key("right", .ctrl, repeat: true)]),
    Sample("kitty", "delete released", "\u{1B}[3;1:3~", [keyUp("delete")]),
    Sample("kitty", "f1", "\u{1B}[P", [key("f1")]),
    Sample("kitty", "f1 released", "\u{1B}[1;1:3P", [keyUp("f1")]),
    Sample("kitty", "f5 released", "\u{1B}[15;1:3~", [keyUp("f5")]),
    Sample("kitty", "keypad 5", "\u{1B}[57404u", [key("5")]),
    Sample("kitty", "keypad enter", "\u{1B}[57414u", [key("enter")]),
    Sample("kitty", "keypad left released", "\u{1B}[57417;1:3u", [keyUp("left")]),
    Sample("kitty", "caps lock is not a modifier", "\u{1B}[97;65u", [key("a")]),
    Sample("kitty", "left shift alone", "\u{1B}[57441;2u", []),
    Sample("kitty", "left shift released", "\u{1B}[57441;1:3u", []),

    // F3, the profiler's key, as each terminal sends it.
    Sample("xterm", "f3 in normal cursor mode", "\u{1B}[R", [key("f3")]),
    Sample("xterm", "shift+f3", "\u{1B}[1;2R", [key("f3", .shift)]),
    Sample("VTE", "f3", "\u{1B}OR", [key("f3")]),
    Sample("linux", "f3", "\u{1B}[[C", [key("f3")]),
    Sample("rxvt", "f3", "\u{1B}[13~", [key("f3")]),
    Sample("tmux", "f3", "\u{1B}OR", [key("f3")]),
    Sample("kitty", "f3", "\u{1B}[13~", [key("f3")]),
    Sample("kitty", "f3 repeated", "\u{1B}[13;1:2~", [key("f3", repeat: true)]),
    Sample("kitty", "f3 released", "\u{1B}[13;1:3~", [keyUp("f3")]),
    Sample("iTerm2", "f3", "\u{1B}OR", [key("f3")]),

    // iTerm2.
    Sample("iTerm2", "f1", "\u{1B}OP", [key("f1")]),
    Sample("iTerm2", "option as meta: alt+f", "\u{1B}f", [key("f", .alt)]),
    Sample("iTerm2", "emoji", "😀", [key("😀")]),
    Sample("iTerm2", "command (super) is dropped", "\u{1B}[1;9C", [key("right")]),
    Sample("iTerm2", "meta counts as alt", "\u{1B}[1;33D", [key("left", .alt)]),

    // Sequences that are not keys: swallowed whole, nothing leaks.
    Sample("any", "device attributes reply", "\u{1B}[?62;22c", []),
    Sample("any", "secondary device attributes reply", "\u{1B}[>1;4000;15c", []),
    Sample("any", "kitty flags reply", "\u{1B}[?11u", []),
    Sample("any", "mode report", "\u{1B}[?2026;2$y", []),
    Sample("any", "bracketed paste start", "\u{1B}[200~", []),
    Sample("any", "bracketed paste end", "\u{1B}[201~", []),
    Sample("any", "focus in", "\u{1B}[I", []),
    Sample("any", "focus out", "\u{1B}[O", []),
    Sample("any", "keypad begin", "\u{1B}[E", []),
    Sample("any", "ctrl+keypad begin", "\u{1B}[1;5E", []),
    Sample("any", "keypad begin in application mode", "\u{1B}OE", []),
    Sample("any", "f13", "\u{1B}[57376u", []),
    Sample("any", "f13 as tilde", "\u{1B}[25~", []),
    Sample("any", "unknown final byte", "\u{1B}[99x", []),
    Sample("any", "horizontal wheel", "\u{1B}[<66;1;1M", []),
    Sample("any", "mouse button 8", "\u{1B}[<128;1;1M", []),
]
