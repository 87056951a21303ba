#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers for glyphs of several code points (a letter with its accents, an emoji with its
/// variation selector, a ZWJ sequence), so that a cell holds any glyph in one word.
///
/// A cell's character is a code point; a glyph of several is stored once and the cell holds
/// its number, a code point of plane 16's private use area: U+100000... for one-cell glyphs,
/// U+108000... for two-cell ones, so a glyph's width is read off its number. Any plane-16
/// code point a text holds is stored the same way (as a glyph of one code point), so a
/// number never stands for two things. U+10FFFF marks the right half of a wide glyph
/// (``Cell/continuation``).
///
/// Numbers are held by stores: ``shell`` for the host's own text (the menu, the cards),
/// kept for the life of the process, and one store per running game (its canvas's), which
/// may hold at most ``gameQuota`` numbers of each width and gives them all back when the
/// game ends (``release()``). A glyph held by several stores has one number, so frames of
/// two games compare by their cells; a number is only given to another glyph once no store
/// holds it, so one game can never change the text of another, of the menu or of the cards.
/// When a store can have no more numbers of a width, ``number(for:wide:)`` says nil and the
/// caller draws something simpler.
public final class GlyphStore: @unchecked Sendable {
    static let firstNarrow: UInt32 = 0x10_0000
    static let firstWide: UInt32 = 0x10_8000
    /// Just past the last number (U+10FFFE and U+10FFFF are noncharacters).
    static let end: UInt32 = 0x10_FFFE
    /// The right half of a wide glyph.
    static let continuation: UInt32 = 0x10_FFFF

    /// The most numbers of each width one game's store may hold: half of them, so the host's
    /// own text always finds numbers however many a game takes.
    public static let gameQuota = 16_384

    /// The host's store, never released.
    public static let shell = GlyphStore(quota: nil)

    /// A game's store, holding at most ``gameQuota`` numbers of each width.
    public static func forGame() -> GlyphStore { GlyphStore(quota: gameQuota) }

    /// True when `v` numbers a stored glyph.
    @inline(__always) static func isStored(_ v: UInt32) -> Bool {
        v >= firstNarrow && v < end
    }

    /// True when `v` numbers a stored glyph two cells wide.
    @inline(__always) static func isStoredWide(_ v: UInt32) -> Bool {
        v >= firstWide && v < end
    }

    /// True when a cell holding `v` shows a glyph two cells wide.
    @inline(__always) static func isWide(_ v: UInt32) -> Bool {
        v < firstNarrow ? TextWidth.isWide(v) : isStoredWide(v)
    }

    // MARK: The numbers of the process

    /// Every number given out, with its text and how many stores hold it.
    private final class Table: @unchecked Sendable {
        let lock: UnsafeMutablePointer<pthread_mutex_t>
        var numbers: [String: UInt32] = [:]
        /// By slot (``slot(_:)``): narrow numbers at even slots, wide ones at odd.
        var texts: [String] = []
        var bytes: [[UInt8]] = []
        var holders: [Int32] = []
        /// The next number never given out, of each width.
        var narrow: UInt32 = GlyphStore.firstNarrow
        var wide: UInt32 = GlyphStore.firstWide
        /// Numbers no store holds any more, to give out again.
        var freeNarrow: [UInt32] = []
        var freeWide: [UInt32] = []

        init() {
            lock = .allocate(capacity: 1)
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
        }

        func locked<R>(_ body: () -> R) -> R {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return body()
        }

        /// Where number `v`'s text is, if it was ever given out.
        func slot(_ v: UInt32) -> Int? {
            if v >= firstWide && v < wide { return Int(v - firstWide) * 2 + 1 }
            if v >= firstNarrow && v < narrow { return Int(v - firstNarrow) * 2 }
            return nil
        }

        /// A number for `key` (text `text`), new or given back; nil when there is none left.
        func give(_ key: String, _ text: String, wide isWide: Bool) -> UInt32? {
            let v: UInt32
            if let reused = isWide ? freeWide.popLast() : freeNarrow.popLast() {
                v = reused
            } else if isWide {
                guard wide < end else { return nil }
                v = wide
                wide += 1
            } else {
                guard narrow < firstWide else { return nil }
                v = narrow
                narrow += 1
            }
            numbers[key] = v
            let at = slot(v)!
            while texts.count <= at {
                texts.append("")
                bytes.append([])
                holders.append(0)
            }
            texts[at] = text
            bytes[at] = Array(text.utf8)
            holders[at] = 0
            return v
        }

        /// One store less holds number `v` of `key`; with none left, it may be given again.
        func drop(_ key: String, _ v: UInt32) {
            guard let at = slot(v) else { return }
            holders[at] -= 1
            guard holders[at] <= 0 else { return }
            numbers[key] = nil
            texts[at] = ""
            bytes[at] = []
            if isStoredWide(v) { freeWide.append(v) } else { freeNarrow.append(v) }
        }
    }

    private static let table = Table()

    // MARK: A store

    /// The most numbers of each width this store may hold; nil: no limit.
    private let quota: Int?
    /// The numbers this store holds, by key (width mark and text); guarded by the table's lock.
    private var held: [String: UInt32] = [:]
    private var heldNarrow = 0
    private var heldWide = 0

    private init(quota: Int?) {
        self.quota = quota
    }

    deinit { release() }

    /// How many numbers of each width this store holds.
    public var count: (narrow: Int, wide: Int) {
        Self.table.locked { (heldNarrow, heldWide) }
    }

    /// The number of the glyph `scalars`, one or two cells wide; nil when this store can have
    /// no more numbers of that width.
    func number(for scalars: String.UnicodeScalarView, wide: Bool) -> UInt32? {
        let text = String(scalars)
        let key = wide ? "2" + text : "1" + text
        let t = Self.table
        return t.locked {
            if let mine = held[key] { return mine }
            if let quota, (wide ? heldWide : heldNarrow) >= quota { return nil }
            let v: UInt32
            if let known = t.numbers[key] {
                v = known
            } else {
                guard let given = t.give(key, text, wide: wide) else { return nil }
                v = given
            }
            t.holders[t.slot(v)!] += 1
            held[key] = v
            if wide { heldWide += 1 } else { heldNarrow += 1 }
            return v
        }
    }

    /// Gives back every number this store holds (a game's, when it ends): the cells that
    /// show them must not be shown again. The store can be used afresh afterwards.
    public func release() {
        let t = Self.table
        t.locked {
            for (key, v) in held { t.drop(key, v) }
            held.removeAll()
            heldNarrow = 0
            heldWide = 0
        }
    }

    // MARK: Reading numbers back

    /// The text of a stored glyph, nil for a number not held by any store.
    static func text(of v: UInt32) -> String? {
        let t = table
        return t.locked {
            guard let at = t.slot(v), t.holders[at] > 0 else { return nil }
            return t.texts[at]
        }
    }

    /// Appends the UTF-8 of a stored glyph (nothing for a number not held by any store).
    static func appendUTF8(of v: UInt32, to out: inout ByteBuffer) {
        let t = table
        t.locked {
            guard let at = t.slot(v) else { return }
            let bytes = t.bytes[at]
            out.reserve(bytes.count)
            for b in bytes { out.append(b) }
        }
    }
}
