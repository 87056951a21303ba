import ArcadeLua
import ArcadeTerminal

extension ArcadeApp {
    /// What keeps the terminal that `term` (`$TERM`) names from showing the arcade, or nil
    /// (see ``TerminalCapabilities``); its terminfo entry is read here, as every file is read
    /// by the host, not by the terminal layer.
    static func terminalProblem(term: String?) -> String? {
        let entry = term.flatMap { name in
            TerminalCapabilities.terminfoPaths(term: name, environment: environment)
                .lazy.compactMap { FileBytes.read($0, limit: 1 << 16) }.first
        }
        return TerminalCapabilities.problem(term: term, terminfo: entry)
    }
}
