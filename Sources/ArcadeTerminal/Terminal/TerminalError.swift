#if canImport(Glibc)
import Glibc
#endif

/// Why the terminal could not be used.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input (normally standard input) is not a terminal, so there are no keys to read.
    case inputNotATerminal
    /// The output (normally standard output) is not a terminal, for example a pipe or a file;
    /// the arcade can only run headless then.
    case outputNotATerminal
    /// Another `Terminal` is already entered. Signal handlers restore one terminal, so only
    /// one may be in raw mode at a time.
    case alreadyActive
    /// The input reached end of file: the terminal went away.
    case inputClosed
    /// A system call failed; `errno` says why.
    case systemCall(String, errno: Int32)
    /// The terminal cannot show the arcade (`TERM=dumb`, no cursor addressing, no colours);
    /// what it lacks (``TerminalCapabilities/problem(term:terminfo:)``).
    case cannotShowTheArcade(String)

    /// A sentence for the user.
    public var description: String {
        switch self {
        case .inputNotATerminal:
            "standard input is not a terminal (use --headless to run without one)"
        case .outputNotATerminal:
            "standard output is not a terminal (use --headless to run without one)"
        case .alreadyActive:
            "the terminal is already in use by another session"
        case .inputClosed:
            "the terminal closed its input"
        case .systemCall(let name, let code):
            "\(name) failed: \(String(cString: strerror(code)))"
        case .cannotShowTheArcade(let problem):
            TerminalCapabilities.refusal(problem)
        }
    }
}
