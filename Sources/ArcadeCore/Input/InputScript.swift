/// An input script or recording: timed input events, one a line.
///
/// The format (shared by headless `--input` scripts and `--record` files):
///
///     # comment
///     arcade-recording game=<id> seed=<n> size=<cols>x<rows> [speed=<percent>]   (header, recordings only)
///     <frame> key <name>
///     <frame> keyup <name>
///     <frame> mouse <press|release|drag|move|scroll_up|scroll_down> <col> <row> [left|middle|right|none]
///     <frame> resize <cols> <rows>
///     <frame> end                                                  (last line, recordings)
///
/// Key names may carry modifiers: `ctrl+c`, `alt+x`, `shift+tab`. A frame is the step
/// number (0 = the first step after `load`) at whose start the event is delivered.
/// `<n> end` says the recorded run stopped after `n` steps (the player left, or the run
/// was over): a replay runs exactly that many steps.
public struct InputScript: Equatable, Sendable {
    /// One timed event.
    public struct Entry: Equatable, Sendable {
        public var frame: Int
        public var event: InputEvent
        public init(frame: Int, event: InputEvent) {
            self.frame = frame
            self.event = event
        }
    }

    /// The recording header, when present.
    public struct Header: Equatable, Sendable {
        public var game: String
        public var seed: UInt64
        public var cols: Int
        public var rows: Int
        /// The game speed it was played at, in percent (`speed=50`; 100 when the header does
        /// not say): the same steps, slower in wall time.
        public var speed: Int
        public init(game: String, seed: UInt64, cols: Int, rows: Int, speed: Int = 100) {
            self.game = game
            self.seed = seed
            self.cols = cols
            self.rows = rows
            self.speed = speed
        }
    }

    public var header: Header?
    /// Entries in file order (frames never decrease).
    public var entries: [Entry]
    /// Steps the recorded run lasted (the `<n> end` line), when the script says.
    public var end: Int?

    public init(header: Header? = nil, entries: [Entry] = [], end: Int? = nil) {
        self.header = header
        self.entries = entries
        self.end = end
    }

    /// A parse failure with its 1-based line number.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Names the decoder and scripts agree on (single printable characters are also keys).
    public static let namedKeys: Set<String> = {
        var s: Set<String> = ["space", "enter", "esc", "tab", "backspace", "up", "down", "left", "right",
                              "home", "end", "pageup", "pagedown", "insert", "delete"]
        for i in 1...12 { s.insert("f\(i)") }
        return s
    }()

    /// The last step an event or the end may be at: 24 hours of game time at 60 steps a
    /// second. A recording or script further than that is no run anyone played, and a
    /// replay would run for ever.
    public static let maxFrame = 24 * 60 * 60 * 60

    /// Parses a script. A UTF-8 byte order mark at the start (some editors write one) is
    /// skipped. Messages quote at most ``shown(_:)`` of a word.
    public static func parse(_ text: String) throws(ParseError) -> InputScript {
        var script = InputScript()
        var lastFrame = 0
        var lineNumber = 0
        let body = text.hasPrefix("\u{FEFF}") ? Substring(text.unicodeScalars.dropFirst()) : Substring(text)
        for rawLine in body.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.isEmpty { continue }
            func fail(_ m: String) -> ParseError { ParseError(line: lineNumber, message: m) }
            guard script.end == nil else { throw fail("nothing may follow the 'end' line") }
            if words[0] == "arcade-recording" {
                guard script.header == nil, script.entries.isEmpty else { throw fail("the header must come first, once") }
                var fields: [String: String] = [:]
                for w in words.dropFirst() {
                    let kv = w.split(separator: "=", maxSplits: 1).map(String.init)
                    guard kv.count == 2 else { throw fail("header field '\(shown(w))' is not name=value") }
                    fields[kv[0]] = kv[1]
                }
                guard let game = fields["game"], !game.isEmpty else { throw fail("header needs game=<id>") }
                guard let seedText = fields["seed"], let seed = UInt64(seedText) else { throw fail("header needs seed=<number>") }
                guard let size = fields["size"], let (c, r) = parseSize(size) else { throw fail("header needs size=<cols>x<rows>") }
                guard isPlayableSize(cols: c, rows: r) else { throw fail("header size \(c)x\(r) is not \(sizeRule)") }
                var speed = 100
                if let text = fields["speed"] {
                    guard let n = Int(text), n >= 1, n <= 100 else { throw fail("header speed=\(shown(text)) is not a percentage from 1 to 100") }
                    speed = n
                }
                script.header = Header(game: game, seed: seed, cols: c, rows: r, speed: speed)
                continue
            }
            guard let frame = Int(words[0]), frame >= 0 else {
                throw fail("expected a frame number, got '\(shown(words[0]))'")
            }
            guard frame <= maxFrame else {
                throw fail("step \(frame) is too far away: a script or recording goes up to step \(maxFrame) (24 hours of game time)")
            }
            guard frame >= lastFrame else { throw fail("frame \(frame) comes after frame \(lastFrame): frames must not go back") }
            lastFrame = frame
            guard words.count >= 2 else { throw fail("missing event after the frame number") }
            if words[1] == "end" {
                guard words.count == 2 else { throw fail("'end' takes nothing after it") }
                script.end = frame
                continue
            }
            let args = Array(words.dropFirst(2))
            let event: InputEvent
            switch words[1] {
            case "key", "keyup":
                guard args.count == 1 else { throw fail("'\(words[1])' takes one key name") }
                guard let k = parseKey(args[0]) else { throw fail("unknown key '\(shown(args[0]))'") }
                event = words[1] == "key" ? .key(k) : .keyUp(k)
            case "mouse":
                guard args.count == 3 || args.count == 4 else { throw fail("'mouse' takes an action, a column, a row and an optional button") }
                guard let action = MouseAction(rawValue: args[0]) else { throw fail("unknown mouse action '\(shown(args[0]))'") }
                guard let col = Int(args[1]), let row = Int(args[2]), (0...maxCols).contains(col), (0...maxRows).contains(row) else {
                    throw fail("mouse column and row must be whole numbers from 0 to \(maxCols) and \(maxRows)")
                }
                var button = MouseButton.left
                if args.count == 4 {
                    guard let b = MouseButton(rawValue: args[3]) else { throw fail("unknown mouse button '\(shown(args[3]))'") }
                    button = b
                }
                event = .mouse(MouseEvent(action, col: col, row: row, button: button))
            case "resize":
                guard args.count == 2, let c = Int(args[0]), let r = Int(args[1]) else {
                    throw fail("'resize' takes a column count and a row count")
                }
                guard isPlayableSize(cols: c, rows: r) else { throw fail("resize to \(c)x\(r): a size must be \(sizeRule)") }
                event = .resize(cols: c, rows: r)
            default:
                throw fail("unknown event '\(shown(words[1]))' (expected key, keyup, mouse, resize or end)")
            }
            script.entries.append(Entry(frame: frame, event: event))
        }
        return script
    }

    /// `word` as a message quotes it: at most 40 characters (then how long it was), with what
    /// cannot be seen (control characters, a byte order mark, other format characters)
    /// written as `\u{FEFF}`, so a message is short and names what is in the way.
    public static func shown(_ word: String) -> String {
        var out = ""
        var count = 0
        for scalar in word.unicodeScalars {
            if count == 40 { return out + "... (\(word.utf8.count) bytes)" }
            count += 1
            let invisible = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.properties.generalCategory == .format
            out += invisible ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }
        return out
    }

    /// The canvas sizes the arcade runs at, in cells: `--size`, a recording's header and a
    /// script's `resize` are all held to them (recordings are shared, so untrusted).
    public static let minCols = 20, minRows = 10, maxCols = 1000, maxRows = 500

    /// True when `cols` x `rows` is a size the arcade runs at.
    public static func isPlayableSize(cols: Int, rows: Int) -> Bool {
        (minCols...maxCols).contains(cols) && (minRows...maxRows).contains(rows)
    }

    static var sizeRule: String { "between \(minCols)x\(minRows) and \(maxCols)x\(maxRows)" }

    /// `80x24` -> (80, 24).
    public static func parseSize(_ text: String) -> (Int, Int)? {
        let p = text.split(separator: "x")
        guard p.count == 2, let c = Int(p[0]), let r = Int(p[1]), c > 0, r > 0 else { return nil }
        return (c, r)
    }

    /// `ctrl+c` -> KeyEvent("c", [.ctrl]); nil for an unknown name.
    public static func parseKey(_ text: String) -> KeyEvent? {
        var mods: KeyModifiers = []
        var rest = Substring(text)
        while let plus = rest.firstIndex(of: "+"), plus != rest.startIndex, rest.index(after: plus) != rest.endIndex {
            switch rest[..<plus] {
            case "ctrl": mods.insert(.ctrl)
            case "alt": mods.insert(.alt)
            case "shift": mods.insert(.shift)
            default: return nil
            }
            rest = rest[rest.index(after: plus)...]
        }
        let name = String(rest)
        if namedKeys.contains(name) { return KeyEvent(name, modifiers: mods) }
        if name.count == 1, let u = name.unicodeScalars.first, u.value > 32, u.value < 127 {
            if u.properties.isUppercase {
                return KeyEvent(name.lowercased(), modifiers: mods.union(.shift))
            }
            return KeyEvent(name, modifiers: mods)
        }
        if name.unicodeScalars.first.map({ $0.value >= 0x80 }) == true { return KeyEvent.printable(name, modifiers: mods) }
        return nil
    }

    /// The script as text (round-trips through ``parse(_:)``).
    public func text() -> String {
        var out = ""
        if let h = header {
            out += "arcade-recording game=\(h.game) seed=\(h.seed) size=\(h.cols)x\(h.rows)"
                + (h.speed == 100 ? "" : " speed=\(h.speed)") + "\n"
        }
        for e in entries { out += "\(e.frame) \(InputScript.describe(e.event))\n" }
        if let end { out += "\(end) end\n" }
        return out
    }

    /// One event in script form, without the frame.
    public static func describe(_ event: InputEvent) -> String {
        func keyName(_ k: KeyEvent) -> String {
            var s = ""
            if k.modifiers.contains(.ctrl) { s += "ctrl+" }
            if k.modifiers.contains(.alt) { s += "alt+" }
            if k.modifiers.contains(.shift) { s += "shift+" }
            return s + k.key
        }
        switch event {
        case .key(let k): return "key \(keyName(k))"
        case .keyUp(let k): return "keyup \(keyName(k))"
        case .mouse(let m): return "mouse \(m.action.rawValue) \(m.col) \(m.row) \(m.button.rawValue)"
        case .resize(let c, let r): return "resize \(c) \(r)"
        }
    }
}
