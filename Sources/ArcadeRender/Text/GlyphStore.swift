#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers for glyphs of several code points (a letter with its accents, an emoji with its
/// variation selector, a ZWJ sequence), so that a cell holds any glyph in one word.
///
/// A cell's character is a code point; a glyph of several is stored here once and the cell
/// holds its number, a code point of plane 16's private use area: U+100000... for one-cell
/// glyphs, U+108000... for two-cell ones, so a glyph's width is read off its number. Any
/// plane-16 code point a text holds is stored the same way (as a glyph of one code point), so
/// a number never stands for two things. U+10FFFF marks the right half of a wide glyph
/// (``Cell/continuation``).
///
/// Numbers are given out once per process and never taken back: the same glyph always has
/// the same number, so frames compare by their cells. When all 32,767 numbers of a width are
/// given out, ``number(for:wide:)`` says nil and the caller draws something simpler.
enum GlyphStore {
    static let firstNarrow: UInt32 = 0x10_0000
    static let firstWide: UInt32 = 0x10_8000
    /// Just past the last number (U+10FFFE and U+10FFFF are noncharacters).
    static let end: UInt32 = 0x10_FFFE
    /// The right half of a wide glyph.
    static let continuation: UInt32 = 0x10_FFFF

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

    private final class Storage: @unchecked Sendable {
        let lock: UnsafeMutablePointer<pthread_mutex_t>
        var numbers: [String: UInt32] = [:]
        var texts: [String] = []
        var bytes: [[UInt8]] = []
        var narrow: UInt32 = GlyphStore.firstNarrow
        var wide: UInt32 = GlyphStore.firstWide

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
    }

    private static let storage = Storage()
    /// Where each number's text is in `texts`: numbers of both widths share the arrays.
    private static func slot(_ v: UInt32, _ s: Storage) -> Int? {
        if v >= firstWide && v < s.wide { return Int(v - firstWide) * 2 + 1 }
        if v >= firstNarrow && v < s.narrow { return Int(v - firstNarrow) * 2 }
        return nil
    }

    /// The number of the glyph `scalars`, one or two cells wide; nil when the numbers of
    /// that width are all given out.
    static func number(for scalars: String.UnicodeScalarView, wide: Bool) -> UInt32? {
        let text = String(scalars)
        let key = wide ? "2" + text : "1" + text
        let s = storage
        return s.locked {
            if let known = s.numbers[key] { return known }
            let v: UInt32
            if wide {
                guard s.wide < end else { return nil }
                v = s.wide
                s.wide += 1
            } else {
                guard s.narrow < firstWide else { return nil }
                v = s.narrow
                s.narrow += 1
            }
            s.numbers[key] = v
            let at = wide ? Int(v - firstWide) * 2 + 1 : Int(v - firstNarrow) * 2
            while s.texts.count <= at {
                s.texts.append("")
                s.bytes.append([])
            }
            s.texts[at] = text
            s.bytes[at] = Array(text.utf8)
            return v
        }
    }

    /// The text of a stored glyph, nil for a number not given out.
    static func text(of v: UInt32) -> String? {
        let s = storage
        return s.locked { slot(v, s).map { s.texts[$0] } }
    }

    /// Appends the UTF-8 of a stored glyph (nothing for a number not given out).
    static func appendUTF8(of v: UInt32, to out: inout ByteBuffer) {
        let s = storage
        s.locked {
            guard let at = slot(v, s) else { return }
            let bytes = s.bytes[at]
            out.reserve(bytes.count)
            for b in bytes { out.append(b) }
        }
    }
}
