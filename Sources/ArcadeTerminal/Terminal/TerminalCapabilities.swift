/// Whether the terminal `$TERM` names can show the arcade: it must move the cursor anywhere
/// (every frame is drawn by cursor addressing) and show colours (every pixel is one). A
/// terminal that cannot (`TERM=dumb`, a printing or glass terminal, `vt100`, `xterm-mono`)
/// would get a screenful of escape sequences, so the arcade says so and never starts.
///
/// What a terminal can do comes from its terminfo entry (the compiled file the system keeps
/// for each `TERM`), read by the caller (see ``terminfoPaths(term:environment:)``) and parsed
/// here; a name with no entry on this machine is taken on trust, since newer emulators often
/// ship theirs only where they are installed.
public enum TerminalCapabilities {
    /// What `term` lacks, as words for the user ("cannot move the cursor"), or nil when it
    /// can show the arcade. `terminfo` is the compiled entry for `term`, nil when there is
    /// none to read. An unset or empty `TERM`, `dumb` and `unknown` never can.
    public static func problem(term: String?, terminfo: [UInt8]?) -> String? {
        guard let term, !term.isEmpty else { return "TERM is not set, so nothing says what this terminal can do" }
        if ["dumb", "unknown"].contains(term) || term.hasPrefix("dumb-") {
            return "TERM=\(term) cannot move the cursor or show colours"
        }
        guard let terminfo, let entry = Entry(terminfo) else { return nil }
        var lacks: [String] = []
        if !entry.canAddressCursor { lacks.append("move the cursor") }
        if entry.colors < 8 { lacks.append("show colours") }
        guard !lacks.isEmpty else { return nil }
        return "TERM=\(term) cannot " + lacks.joined(separator: " or ")
    }

    /// How many colours the terminal shows by its terminfo entry (`colors`), or nil when
    /// there is no entry to read or it does not say.
    public static func colors(terminfo: [UInt8]?) -> Int? {
        guard let terminfo, let entry = Entry(terminfo), entry.colors > 0 else { return nil }
        return entry.colors
    }

    /// The sentence the arcade prints instead of starting on such a terminal.
    public static func refusal(_ problem: String) -> String {
        "this terminal cannot show the arcade: \(problem); run it in a terminal emulator with colours "
            + "(TERM=xterm-256color, say), or use --headless"
    }

    /// Where the terminfo entry for `term` may be, in the order ncurses looks: `$TERMINFO`,
    /// `~/.terminfo`, each folder of `$TERMINFO_DIRS` (an empty one means the system's), then
    /// the system's folders; in each, `<first letter>/<name>` and the two hex digits of the
    /// first letter as the folder. Empty for a name that could reach outside those folders.
    public static func terminfoPaths(term: String, environment: (String) -> String?) -> [String] {
        guard let first = term.utf8.first, !term.contains("/"), !term.hasPrefix("."), term.utf8.count <= 128 else {
            return []
        }
        let system = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
        var folders: [String] = []
        if let own = environment("TERMINFO") { folders.append(own) }
        if let home = environment("HOME") { folders.append(home + "/.terminfo") }
        if let dirs = environment("TERMINFO_DIRS") {
            for dir in dirs.split(separator: ":", omittingEmptySubsequences: false) {
                folders += dir.isEmpty ? system : [String(dir)]
            }
        }
        folders += system
        let hex = String(first, radix: 16)
        return folders.flatMap { ["\($0)/\(Character(Unicode.Scalar(first)))/\(term)", "\($0)/\(hex)/\(term)"] }
    }

    /// The two capabilities the arcade needs from a compiled terminfo entry (term(5)): the
    /// legacy format (16-bit numbers) and the extended one (32-bit numbers).
    struct Entry {
        /// `cup`: the cursor can be moved to any cell.
        var canAddressCursor: Bool
        /// `colors`: how many colours it shows (0 when it does not say).
        var colors: Int

        /// The string capability `cup` and the number capability `colors`, by their place in
        /// the standard order.
        private static let cupIndex = 10, colorsIndex = 13

        /// Parses `bytes`; nil when they are not a compiled terminfo entry.
        init?(_ bytes: [UInt8]) {
            func short(_ at: Int) -> Int? {
                guard at >= 0, at + 1 < bytes.count else { return nil }
                return Int(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8))
            }
            guard let magic = short(0), magic == 0o432 || magic == 0o1036,
                  let namesSize = short(2), let boolCount = short(4), let numberCount = short(6),
                  let stringCount = short(8), namesSize >= 0, boolCount >= 0, numberCount >= 0, stringCount >= 0
            else { return nil }
            let numberSize = magic == 0o1036 ? 4 : 2
            var at = 12 + namesSize + boolCount
            if at % 2 == 1 { at += 1 }  // numbers start on an even byte
            colors = 0
            if numberCount > Self.colorsIndex {
                let place = at + Self.colorsIndex * numberSize
                guard place + numberSize <= bytes.count else { return nil }
                var value = 0
                for i in (0..<numberSize).reversed() { value = value << 8 | Int(bytes[place + i]) }
                let negative = value >> (numberSize * 8 - 1) == 1
                colors = negative ? 0 : value
            }
            at += numberCount * numberSize
            canAddressCursor = false
            if stringCount > Self.cupIndex {
                guard let offset = short(at + Self.cupIndex * 2) else { return nil }
                canAddressCursor = offset >= 0  // -1: absent, -2: cancelled
            }
        }
    }
}
