#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@testable import ArcadeTerminal

/// A compiled terminfo entry in the legacy format (term(5)): `numbers` and `strings` are the
/// capabilities by index (nil: absent), with `cup` given as its text.
private func terminfo(names: String, numbers: [Int?], strings: [String?], extended: Bool = false) -> [UInt8] {
    func short(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    var bytes = short(extended ? 0o1036 : 0o432)
    var table: [UInt8] = []
    var offsets: [UInt8] = []
    for s in strings {
        if let s {
            offsets += short(table.count)
            table += Array(s.utf8) + [0]
        } else {
            offsets += short(0xFFFF)
        }
    }
    let nameBytes = Array(names.utf8) + [0]
    bytes += short(nameBytes.count) + short(1) + short(numbers.count) + short(strings.count) + short(table.count)
    bytes += nameBytes + [1]  // one boolean
    if bytes.count % 2 == 1 { bytes.append(0) }
    for n in numbers {
        let v = n ?? -1
        bytes += extended ? short(v & 0xFFFF) + short((v >> 16) & 0xFFFF) : short(v & 0xFFFF)
    }
    return bytes + offsets + table
}

/// Numbers with `colors` (index 13) set, and strings with `cup` (index 10) set or not.
private func numbers(colors: Int?) -> [Int?] { [80, 8, 24] + Array(repeating: nil, count: 10) + [colors, 64] }
private func strings(cup: Bool) -> [String?] {
    Array(repeating: nil, count: 10) + [cup ? "\u{1B}[%i%p1%d;%p2%dH" : nil, "\u{1B}[K"]
}

@Suite struct TerminalCapabilitiesTests {
    @Test func dumbUnknownAndUnsetNeverShowTheArcade() throws {
        for term in ["dumb", "unknown", "dumb-emacs-ansi"] {
            let problem = try #require(TerminalCapabilities.problem(term: term, terminfo: nil), "\(term)")
            #expect(problem == "TERM=\(term) cannot move the cursor or show colours")
        }
        #expect(TerminalCapabilities.problem(term: nil, terminfo: nil)?.hasPrefix("TERM is not set") == true)
        #expect(TerminalCapabilities.problem(term: "", terminfo: nil)?.hasPrefix("TERM is not set") == true)
        let refusal = TerminalCapabilities.refusal("TERM=dumb cannot move the cursor or show colours")
        #expect(refusal.hasPrefix("this terminal cannot show the arcade: TERM=dumb"))
        #expect(refusal.hasSuffix("or use --headless"))
        #expect(TerminalError.cannotShowTheArcade("x").description == TerminalCapabilities.refusal("x"))
    }

    @Test func theEntrySaysWhatTheTerminalLacks() {
        let good = terminfo(names: "good|a good one", numbers: numbers(colors: 256), strings: strings(cup: true))
        #expect(TerminalCapabilities.problem(term: "good", terminfo: good) == nil)
        let extended = terminfo(names: "wide", numbers: numbers(colors: 1 << 24), strings: strings(cup: true), extended: true)
        #expect(TerminalCapabilities.problem(term: "wide", terminfo: extended) == nil)
        let mono = terminfo(names: "mono", numbers: numbers(colors: nil), strings: strings(cup: true))
        #expect(TerminalCapabilities.problem(term: "mono", terminfo: mono) == "TERM=mono cannot show colours")
        let glass = terminfo(names: "glass", numbers: numbers(colors: 8), strings: strings(cup: false))
        #expect(TerminalCapabilities.problem(term: "glass", terminfo: glass) == "TERM=glass cannot move the cursor")
        let short = terminfo(names: "short", numbers: [80], strings: [nil])
        #expect(TerminalCapabilities.problem(term: "short", terminfo: short) == "TERM=short cannot move the cursor or show colours")
        // no entry on this machine, or not an entry at all: taken on trust
        #expect(TerminalCapabilities.problem(term: "xterm-kitty", terminfo: nil) == nil)
        #expect(TerminalCapabilities.problem(term: "odd", terminfo: Array("not terminfo".utf8)) == nil)
        #expect(TerminalCapabilities.problem(term: "cut", terminfo: Array(good.prefix(30))) == nil)
    }

    /// The entries this machine has, read as the arcade reads them.
    @Test(arguments: [("xterm-256color", true), ("xterm", true), ("screen", true), ("linux", true),
                      ("tmux-256color", true), ("vt100", false), ("vt220", false), ("xterm-mono", false),
                      ("dumb", false)])
    func systemEntries(term: String, shows: Bool) throws {
        let paths = TerminalCapabilities.terminfoPaths(term: term) { _ in nil }
        guard let entry = paths.lazy.compactMap({ FileManager.default.contents(atPath: $0) }).first else {
            return  // not installed here
        }
        #expect((TerminalCapabilities.problem(term: term, terminfo: Array(entry)) == nil) == shows)
    }

    @Test func terminfoIsLookedForWhereNcursesLooks() {
        let env = ["TERMINFO": "/own", "HOME": "/home/u", "TERMINFO_DIRS": "/a::/b"]
        let paths = TerminalCapabilities.terminfoPaths(term: "xterm") { env[$0] }
        #expect(paths.prefix(4) == ["/own/x/xterm", "/own/78/xterm", "/home/u/.terminfo/x/xterm", "/home/u/.terminfo/78/xterm"])
        #expect(paths.contains("/a/x/xterm") && paths.contains("/b/x/xterm") && paths.contains("/lib/terminfo/x/xterm"))
        #expect(paths.firstIndex(of: "/a/x/xterm")! < paths.firstIndex(of: "/usr/share/terminfo/x/xterm")!)
        // a name that would reach outside the folders is never looked up
        #expect(TerminalCapabilities.terminfoPaths(term: "../../etc/passwd") { _ in nil }.isEmpty)
        #expect(TerminalCapabilities.terminfoPaths(term: "x/y") { _ in nil }.isEmpty)
        #expect(TerminalCapabilities.terminfoPaths(term: "") { _ in nil }.isEmpty)
    }
}

@Suite struct TerminalResizeTests {
    /// A window that changed size since the last read is reported once, by whoever asks first.
    @Test func aResizeNotYetReadIsTakenOnce() throws {
        let tty = try #require(PseudoTerminal(cols: 120, rows: 40))
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        #expect(terminal.takeResize() == nil)  // the size it was opened at is no resize
        tty.resize(cols: 100, rows: 30)
        #expect(terminal.takeResize() == .resize(cols: 100, rows: 30))
        #expect(terminal.takeResize() == nil)
    }
}
