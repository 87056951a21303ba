/// The ways forward along a row where the encoder set the tab stops, worked out once for every
/// gap below ``gaps`` cells from each column within a stop's ``TerminalWriter/tabWidth``:
/// where a tab lands depends only on the cursor's column within the stop's width and on the
/// gap. Per entry, the bytes and length (its cost) of
/// - the shortest move (``TerminalWriter/along(from:to:)``, stop after the cell included), and
/// - tabs to the last stop before the cell with spaces over the rest (a reprint of cells a
///   space shows), where there are both, and
/// - the shortest way where every cell of the gap takes a space: spaces, the move, or tabs
///   and spaces, the first of the shortest in ``TerminalWriter``'s order (below
///   ``TerminalWriter/maxReprint`` cells; the move from there on).
///
/// The frame writer's fast path reads a hop from here instead of working it out per cell. The
/// table assumes the stop after the cell is inside the row, so a cell in the row's last
/// stop's width takes the worked-out path.
struct TabHops: @unchecked Sendable {
    static let gaps = 64
    /// Three words per entry, `[move, tabs then spaces, over a blank gap]`, at
    /// `3 * (fromInStop * gaps + gap)`.
    let words: UnsafeMutablePointer<UInt64>
    /// The words' lengths (0: no such way).
    let lengths: UnsafeMutablePointer<UInt8>

    static let shared = TabHops()

    private init() {
        let width = TerminalWriter.tabWidth, count = 3 * width * TabHops.gaps
        words = .allocate(capacity: count)
        words.initialize(repeating: 0, count: count)
        lengths = .allocate(capacity: count)
        lengths.initialize(repeating: 0, count: count)
        var bytes = ByteBuffer(capacity: 64)
        defer { bytes.deallocate() }
        for from in 0..<width {
            for gap in 1..<TabHops.gaps {
                let to = from + gap, k = 3 * (from * TabHops.gaps + gap)
                bytes.removeAll()
                bytes.reserve(32)
                // in a row wide enough that the stop after any cell is inside it
                let way = TerminalWriter.along(from: from, to: to, columns: Int.max)
                TerminalWriter.appendAlong(tabs: way.tabs, rest: way.rest, to: &bytes)
                precondition(bytes.count == way.cost && way.cost <= 8)
                (words[k], lengths[k]) = (TabHops.word(bytes), UInt8(way.cost))
                let shift = TerminalWriter.tabShift
                let rest = to & (width - 1), tabs = (to >> shift) - (from >> shift)
                if tabs > 0 && rest > 0 && TerminalWriter.tabCost(tabs) + rest <= 8 {
                    bytes.removeAll()
                    bytes.reserve(32)
                    TerminalWriter.appendAlong(tabs: tabs, rest: 0, to: &bytes)
                    for _ in 0..<rest { bytes.append(0x20) }
                    (words[k + 1], lengths[k + 1]) = (TabHops.word(bytes), UInt8(bytes.count))
                }
                // over a blank gap
                switch TerminalWriter.blankHop(gap: gap, moveCost: Int(lengths[k]),
                                               tabsThenSpacesCost: lengths[k + 1] == 0 ? Int.max : Int(lengths[k + 1])) {
                case .spaces: (words[k + 2], lengths[k + 2]) = (0x2020_2020_2020_2020, UInt8(gap))
                case .move: (words[k + 2], lengths[k + 2]) = (words[k], lengths[k])
                case .tabsThenSpaces: (words[k + 2], lengths[k + 2]) = (words[k + 1], lengths[k + 1])
                }
            }
        }
    }

    private static func word(_ bytes: ByteBuffer) -> UInt64 {
        var word: UInt64 = 0
        for i in 0..<bytes.count { word |= UInt64(bytes.bytes[i]) << (8 * UInt64(i)) }
        return word
    }
}
