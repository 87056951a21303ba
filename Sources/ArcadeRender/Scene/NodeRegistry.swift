/// The nodes of a ``Scene`` by id: an open-addressing table (linear probing, deletion by
/// shifting back, so no tombstones), sized to at most half full.
///
/// A particle burst adds and removes dozens of nodes a frame and a script resolves a
/// handle on every property it touches, so this lookup is on the hot path: ids are
/// integers handed out in order, which a multiplicative hash spreads over the table with
/// no hashing of their bytes. Like a dictionary it keeps its capacity when nodes go.
struct NodeRegistry {
    private struct Entry {
        /// 0 for an empty place (ids start at 1).
        var id: Int
        var node: Node?
    }

    private var entries: [Entry]
    /// `entries.count - 1`; the count is a power of two.
    private var mask: Int
    /// `64 - log2(entries.count)`: the hash keeps the product's top bits.
    private var shift: Int
    /// Nodes held.
    private(set) var count = 0

    init() {
        entries = Array(repeating: Entry(id: 0, node: nil), count: 16)
        mask = 15
        shift = 64 - 4
    }

    /// Where the search for `id` starts.
    @inline(__always) private func home(_ id: Int) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))
    }

    /// The node with `id`, or nil.
    func node(_ id: Int) -> Node? {
        guard id != 0 else { return nil }
        return entries.withUnsafeBufferPointer { e in
            var i = home(id)
            while true {
                let k = e[i].id
                if k == id { return e[i].node }
                if k == 0 { return nil }
                i = (i &+ 1) & mask
            }
        }
    }

    /// Adds `node` under `id` (not 0), replacing any node held under it.
    mutating func insert(_ node: Node, id: Int) {
        precondition(id != 0, "node ids start at 1")
        if (count + 1) * 2 > entries.count { grow() }
        var i = home(id)
        while entries[i].id != 0 && entries[i].id != id { i = (i &+ 1) & mask }
        if entries[i].id == 0 { count += 1 }
        entries[i] = Entry(id: id, node: node)
    }

    /// Drops the node under `id`, if any.
    mutating func remove(_ id: Int) {
        guard id != 0 else { return }
        var i = home(id)
        while entries[i].id != id {
            if entries[i].id == 0 { return }
            i = (i &+ 1) & mask
        }
        count -= 1
        // Later entries of the same run move back into the gap unless their search starts
        // after it (cyclically, within the stretch from the gap to them).
        var j = i
        while true {
            j = (j &+ 1) & mask
            let k = entries[j].id
            if k == 0 { break }
            let h = home(k)
            let stays = i <= j ? (i < h && h <= j) : (i < h || h <= j)
            if stays { continue }
            entries[i] = entries[j]
            i = j
        }
        entries[i] = Entry(id: 0, node: nil)
    }

    /// Every node held, in no particular order.
    func forEach(_ body: (Node) -> Void) {
        for e in entries where e.id != 0 {
            if let n = e.node { body(n) }
        }
    }

    private mutating func grow() {
        let old = entries
        let size = entries.count * 2
        entries = Array(repeating: Entry(id: 0, node: nil), count: size)
        mask = size - 1
        shift = 64 - size.trailingZeroBitCount
        count = 0
        for e in old where e.id != 0 {
            if let n = e.node { insert(n, id: e.id) }
        }
    }
}
