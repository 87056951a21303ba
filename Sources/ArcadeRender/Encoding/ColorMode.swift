/// How colours are written to the terminal.
public enum ColorMode: Hashable, Sendable {
    /// 24-bit `38;2;r;g;b` / `48;2;r;g;b`.
    case trueColor
    /// The xterm 256-colour palette (`38;5;n`), nearest entry of the 6x6x6 cube or the grey
    /// ramp, for terminals without truecolor.
    case palette256
}
