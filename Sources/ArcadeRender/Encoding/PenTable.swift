/// The colour pairs (foreground, background) that can show the frame's waiting cells, and how
/// many waiting cells each shows: what the frame writer chooses its next colours from.
///
/// A glyph is shown by its own pair; a split pixel cell by its two colours either way round
/// (`▀` or `▄`); a cell of one colour by any pair with that background, counted under
/// ``anyForeground``. Built once per frame, then counted down as cells are written, so
/// choosing the next colours looks at the pairs, not at the cells; and each pair lists its
/// cells in reading order, so a pass in some colours visits only the cells they show. A
/// frame with more pairs than ``maxPens`` (every cell its own colours) fills the table: then
/// it reports ``overflowed`` and the frame is written another way.
struct PenTable {
    /// Slots, a power of two, twice ``maxPens`` so probes stay short.
    static let slots = 256
    static let maxPens = 128
    /// The foreground of the entry counting cells of one colour (never a colour key).
    static let anyForeground: UInt32 = 0xFFFF_FFFE
    private static let empty = UInt64.max

    private let keys: UnsafeMutablePointer<UInt64>
    private let counts: UnsafeMutablePointer<Int32>
    /// Per slot: the slot counting cells of one colour with its background, or -1.
    private let wild: UnsafeMutablePointer<Int16>
    /// The slots in use, in the order they were filled.
    private let used: UnsafeMutablePointer<Int16>
    private(set) var usedCount = 0
    private(set) var overflowed = false
    /// Looks seen this frame and their slots, by a hash of the look: most frames have few
    /// looks, so a cell's slots are one comparison away.
    private let cacheLooks: UnsafeMutablePointer<TerminalCell>
    private let cachePens: UnsafeMutablePointer<SIMD2<Int16>>
    private static let cacheSize = 64
    private static let noLook = TerminalCell(scalar: 0, first: PenState.unknown, second: PenState.unknown)
    /// Where ``counts`` and ``fill`` count a cell's missing second slot (-1, masked), so
    /// counting needs no test; its list entry goes to ``spareCell``, never read.
    private static let spare = 511
    private let spareCell: Int32
    /// Per slot: where its cells start in ``cells``, how many there are, and where the next
    /// goes while the lists are filled.
    private let starts: UnsafeMutablePointer<Int32>
    private let lengths: UnsafeMutablePointer<Int32>
    private let fill: UnsafeMutablePointer<Int32>
    /// Per slot: the length of its foreground's and its background's SGR parameters.
    private let colorLengths: UnsafeMutablePointer<SIMD2<Int16>>
    /// The cells (their places in the scratch) of each pair, pair after pair, each in reading
    /// order; room for two per cell.
    private let cells: UnsafeMutablePointer<Int32>
    /// Per cell: 1 once written.
    let done: UnsafeMutablePointer<UInt8>
    /// Room for one pass's cells (places in the scratch), in the order it writes them.
    let order: UnsafeMutablePointer<Int32>
    /// The slots that may still show waiting cells, and how many.
    private let liveSlots: UnsafeMutablePointer<Int16>
    private let live: UnsafeMutablePointer<Int>

    init(capacity: Int = 0) {
        let n = max(capacity, 1)
        starts = .allocate(capacity: PenTable.slots)
        lengths = .allocate(capacity: PenTable.slots)
        fill = .allocate(capacity: PenTable.spare + 1)
        colorLengths = .allocate(capacity: PenTable.slots)
        cells = .allocate(capacity: 2 * n + 1)
        spareCell = Int32(truncatingIfNeeded: 2 * n)
        done = .allocate(capacity: n)
        order = .allocate(capacity: n)
        liveSlots = .allocate(capacity: PenTable.maxPens)
        live = .allocate(capacity: 1)
        live.initialize(to: 0)
        keys = .allocate(capacity: PenTable.slots)
        keys.initialize(repeating: PenTable.empty, count: PenTable.slots)
        counts = .allocate(capacity: PenTable.countParts * (PenTable.spare + 1))
        counts.initialize(repeating: 0, count: PenTable.countParts * (PenTable.spare + 1))
        cacheLooks = .allocate(capacity: PenTable.cacheSize)
        cacheLooks.initialize(repeating: PenTable.noLook, count: PenTable.cacheSize)
        cachePens = .allocate(capacity: PenTable.cacheSize)
        cachePens.initialize(repeating: SIMD2(-1, -1), count: PenTable.cacheSize)
        wild = .allocate(capacity: PenTable.slots)
        used = .allocate(capacity: PenTable.maxPens)
    }

    func deallocate() {
        keys.deallocate()
        counts.deallocate()
        wild.deallocate()
        used.deallocate()
        starts.deallocate()
        lengths.deallocate()
        fill.deallocate()
        colorLengths.deallocate()
        cells.deallocate()
        done.deallocate()
        order.deallocate()
        cacheLooks.deallocate()
        cachePens.deallocate()
        liveSlots.deallocate()
        live.deallocate()
    }

    /// Empties the table (only the slots in use are touched).
    mutating func reset() {
        for k in 0..<usedCount {
            let s = Int(used[k])
            keys[s] = PenTable.empty
            counts[s] = 0
        }
        usedCount = 0
        overflowed = false
        cacheLooks.update(repeating: PenTable.noLook, count: PenTable.cacheSize)
    }

    /// The slot of a pair, added when new; -1 once the table is full.
    @inline(__always) private mutating func slot(_ fg: UInt32, _ bg: UInt32) -> Int16 {
        let key = UInt64(fg) << 32 | UInt64(bg)
        var s = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 56) & (PenTable.slots - 1)
        while true {
            let k = keys[s]
            if k == key { return Int16(truncatingIfNeeded: s) }
            if k == PenTable.empty {
                guard usedCount < PenTable.maxPens else {
                    overflowed = true
                    return -1
                }
                keys[s] = key
                used[usedCount] = Int16(truncatingIfNeeded: s)
                usedCount &+= 1
                return Int16(truncatingIfNeeded: s)
            }
            s = (s &+ 1) & (PenTable.slots - 1)
        }
    }

    /// Counts the first `count` cells of `scratch`, after ``reset()``, noting in the scratch
    /// the slots of the pairs that show each; once the table has ``overflowed`` the rest are
    /// not counted.
    ///
    /// Neighbouring cells mostly share their pairs: they are counted in ``countParts``
    /// separate tables, one per cell in turn, added up at the end, so no count waits for the
    /// one before it.
    mutating func noteAll(_ count: Int, in scratch: RowScratch) {
        let scalars = scratch.scalars, firsts = scratch.firsts, seconds = scratch.seconds, pensOut = scratch.pens
        let counts = self.counts, cacheLooks = self.cacheLooks, cachePens = self.cachePens
        let part = PenTable.spare + 1
        defer {
            for k in 0..<usedCount {
                let s = Int(used[k])
                for p in 1..<PenTable.countParts {
                    counts[s] &+= counts[p &* part &+ s]
                    counts[p &* part &+ s] = 0
                }
            }
        }
        for j in 0..<count {
            let look = TerminalCell(scalar: scalars[j], first: firsts[j], second: seconds[j])
            let h = PenTable.cacheIndex(look)
            var pens = cachePens[h]
            if cacheLooks[h] != look {
                pens = slots(of: look)
                // a frame this colourful goes out another way: no need to count the rest
                if overflowed { return }
                cacheLooks[h] = look
                cachePens[h] = pens
            }
            let table = counts + (j & (PenTable.countParts &- 1)) &* part
            table[Int(pens.x)] &+= 1
            table[Int(pens.y) & PenTable.spare] &+= 1
            pensOut[j] = pens
        }
    }

    /// The count tables ``noteAll(_:in:)`` spreads its counting over (a power of two).
    private static let countParts = 4

    @inline(__always) private static func cacheIndex(_ look: TerminalCell) -> Int {
        let mixed = (UInt64(look.first) << 32 | UInt64(look.second)) ^ UInt64(look.scalar) &* 0x9E37_79B9
        return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// The slots of the pairs that show a look, added when new.
    @inline(never) private mutating func slots(of look: TerminalCell) -> SIMD2<Int16> {
        var pens = SIMD2<Int16>(-1, -1)
        if look.scalar != 0 {
            pens.x = slot(look.first, look.second)
        } else if look.first == look.second {
            pens.x = slot(PenTable.anyForeground, look.first)
        } else {
            pens.x = slot(look.first, look.second)
            pens.y = slot(look.second, look.first)
        }
        return pens
    }

    /// Counts the first `count` cells of `scratch` (``noteAll(_:in:)``) and lists them
    /// (``finish(_:from:cost:)``).
    mutating func add(_ count: Int, from scratch: RowScratch, cost: (UInt32) -> Int) {
        noteAll(count, in: scratch)
        if !overflowed { finish(count, from: scratch, cost: cost) }
    }

    /// After the first `count` cells of `scratch` are counted (``noteAll(_:in:)``): the lists
    /// of each pair's cells; `cost` is the length of a colour's SGR parameters.
    mutating func finish(_ count: Int, from scratch: RowScratch, cost: (UInt32) -> Int) {
        // each pair's slot for the cells of one colour its background shows
        for k in 0..<usedCount {
            let s = Int(used[k])
            wild[s] = -1
            let fg = UInt32(truncatingIfNeeded: keys[s] >> 32), bg = UInt32(truncatingIfNeeded: keys[s])
            colorLengths[s] = SIMD2(fg == PenTable.anyForeground ? 0 : Int16(truncatingIfNeeded: cost(fg)),
                                    Int16(truncatingIfNeeded: cost(bg)))
            if fg == PenTable.anyForeground { continue }
            let key = UInt64(PenTable.anyForeground) << 32 | (keys[s] & 0xFFFF_FFFF)
            var p = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 56) & (PenTable.slots - 1)
            while keys[p] != PenTable.empty {
                if keys[p] == key {
                    wild[s] = Int16(truncatingIfNeeded: p)
                    break
                }
                p = (p &+ 1) & (PenTable.slots - 1)
            }
        }
        liveSlots.update(from: used, count: usedCount)
        live.pointee = usedCount
        // the lists: each pair's cells after the pairs filled before it
        var at: Int32 = 0
        for k in 0..<usedCount {
            let s = Int(used[k])
            starts[s] = at
            lengths[s] = counts[s]
            at &+= counts[s]
        }
        for k in 0..<usedCount { fill[Int(used[k])] = starts[Int(used[k])] }
        done.update(repeating: 0, count: count)
        fill[PenTable.spare] = spareCell
        let pensOf = scratch.pens, fill = self.fill, cells = self.cells
        for j in 0..<count {
            let pens = pensOf[j]
            let x = Int(pens.x)
            // A cell without a second slot goes to the spare cell, read from the spare slot
            // and counted in another entry no slot uses, never read: so cells of one colour
            // after one another do not each wait for the spare's count to be stored.
            let second = pens.y >= 0
            let from = second ? Int(pens.y) : PenTable.spare, to = second ? Int(pens.y) : PenTable.spare &- 1
            let at = fill[x]
            cells[Int(at)] = Int32(truncatingIfNeeded: j)
            fill[x] = at &+ 1
            let atSecond = fill[from]
            cells[Int(atSecond)] = Int32(truncatingIfNeeded: j)
            fill[to] = atSecond &+ 1
        }
    }

    /// The slot of a pair, or -1 when no waiting cell was counted under it.
    @inline(__always) func find(_ fg: UInt32, _ bg: UInt32) -> Int {
        let key = UInt64(fg) << 32 | UInt64(bg)
        var s = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 56) & (PenTable.slots - 1)
        while true {
            let k = keys[s]
            if k == key { return s }
            if k == PenTable.empty { return -1 }
            s = (s &+ 1) & (PenTable.slots - 1)
        }
    }

    /// The cells of a pair's slot (all it had when the table was built, written or not).
    @inline(__always) func list(_ slot: Int) -> (start: UnsafeMutablePointer<Int32>, count: Int) {
        slot < 0 ? (cells, 0) : (cells + Int(starts[slot]), Int(lengths[slot]))
    }

    /// Forgets a slot's list once every cell on it is written, so later passes do not walk it.
    @inline(__always) func emptied(_ slot: Int) {
        if slot >= 0 { lengths[slot] = 0 }
    }

    /// Before a pass writes the cells of a slot's list (``list(_:)``): keeps on the list, in
    /// place and in order, only the cells not written yet, marks them written (``done``) and
    /// takes them off the counts; returns how many
    /// it kept.
    ///
    /// Every cell on a pair's list that has a second pair (a split cell) has the same one,
    /// the pair the other way round, so its count falls by one sum.
    @inline(__always) func take(_ list: (start: UnsafeMutablePointer<Int32>, count: Int), slot: Int,
                                of scratch: RowScratch) -> Int {
        guard list.count > 0 else { return 0 }
        let pensOf = scratch.pens
        var kept = 0, split: Int32 = 0
        var other = PenTable.spare
        for k in 0..<list.count {
            let j = Int(list.start[k])
            list.start[kept] = Int32(truncatingIfNeeded: j)
            let waiting = done[j] == 0
            done[j] = 1
            kept &+= waiting ? 1 : 0
            let pens = pensOf[j]
            let both = waiting && pens.y >= 0
            split &+= both ? 1 : 0
            other = both ? Int(Int(pens.x) == slot ? pens.y : pens.x) : other
        }
        counts[slot] &-= Int32(truncatingIfNeeded: kept)
        counts[other] &-= split
        return kept
    }

    /// Marks the waiting cell of one colour at place `j` of the scratch written by a pass that
    /// does not list it (crossed as `█` in the pass's foreground): done, and off the count of
    /// the one entry that shows it, so no later pass writes it again.
    @inline(__always) func wroteUniform(_ j: Int, of scratch: RowScratch) {
        done[j] = 1
        counts[Int(scratch.pens[j].x)] &-= 1
    }

    /// What a waiting cell a pass shows is worth against a byte of the pass's colour change
    /// (``best(from:)``). Measured on the render benchmarks' frames: 2 writes 1.5-3.5 % fewer
    /// bytes than ranking by cells alone on the busy 80x24 scenes, and a little fewer on the
    /// coin bursts; 1, 4, 8 and 16 did no better.
    static let cellWorth = 2

    /// The colours to set next, from `pen`: of the pairs that show at least two waiting
    /// cells, the one scoring highest, ``cellWorth`` for each cell it shows less a point for
    /// each byte of its colour change (among equals the one whose change is shortest, then
    /// the pair seen first); `foreground` nil when only the background need change (cells
    /// of one colour). `served` is how many cells those colours show; 0 when no pair shows
    /// two.
    ///
    /// Mostly the most cells, not the most per byte of the change: a change costs a few
    /// dozen bytes once, while every pass costs a move into each row it writes and one over
    /// each stretch of other colours' cells, so a frame goes out shortest in few passes that
    /// each write much. Between pairs that show about as many, the shorter change wins
    /// (changing one colour of the pair rather than both, say).
    ///
    /// Pairs showing fewer than two waiting cells leave the list looked at for good (their
    /// counts only fall), so a colourful frame's many pairs of one cell are looked at once.
    func best(from pen: PenState) -> (foreground: UInt32?, background: UInt32, served: Int) {
        var best: (foreground: UInt32?, background: UInt32, served: Int) = (nil, 0, 0)
        var bestCost = Int.max, bestScore = Int.min
        var kept = 0
        for k in 0..<live.pointee {
            let s = Int(liveSlots[k])
            let own = Int(counts[s])
            if own <= 0 { continue }
            let fg = UInt32(truncatingIfNeeded: keys[s] >> 32), bg = UInt32(truncatingIfNeeded: keys[s])
            var served = own
            let w = wild[s]
            if w >= 0 { served += Int(counts[Int(w)]) }
            if served <= 1 { continue }
            liveSlots[kept] = Int16(truncatingIfNeeded: s)
            kept &+= 1
            let setBg = bg != pen.background
            var bytes = 0, foreground: UInt32? = nil
            let lengths = colorLengths[s]
            if fg == PenTable.anyForeground {
                bytes = setBg ? 3 + Int(lengths.y) : 0
            } else {
                let setFg = fg != pen.foreground
                if setFg || setBg {
                    bytes = 3 + (setFg && setBg ? 1 : 0) + (setFg ? Int(lengths.x) : 0) + (setBg ? Int(lengths.y) : 0)
                }
                foreground = fg
            }
            let score = served &* PenTable.cellWorth &- bytes
            if score > bestScore || (score == bestScore && bytes < bestCost) {
                best = (foreground, bg, served)
                bestCost = bytes
                bestScore = score
            }
        }
        live.pointee = kept
        return best
    }
}
