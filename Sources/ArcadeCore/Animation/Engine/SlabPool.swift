/// Contiguous storage handed out in blocks of a few fixed sizes, with a free list per size.
///
/// Animations of every shape keep their numbers in one buffer instead of one small heap
/// array each: evaluation walks contiguous memory, and a block freed by a finished
/// animation is reused by the next one of the same size class, so storage stays at its
/// high-water mark however many animations come and go.
struct SlabPool<Element> {
    /// The blocks, back to back. Indices handed out stay valid while the block is held.
    private(set) var storage: RawBuffer<Element>
    /// Free block starts, by size class (see ``sizeClass(_:)``).
    private var freeBlocks: [[Int32]]
    private let filler: Element

    init(filler: Element) {
        self.filler = filler
        storage = RawBuffer(capacity: 256)
        freeBlocks = Array(repeating: [], count: 40)
    }

    /// The size class holding `count` elements, and its block size: 1, 2, 4, 8, then
    /// multiples of 8 up to 64 (a typical animation's numbers waste little), then powers of two.
    static func sizeClass(_ count: Int) -> (index: Int, size: Int) {
        if count <= 8 {
            let k = count <= 1 ? 0 : Int.bitWidth - (count - 1).leadingZeroBitCount
            return (k, 1 << k)
        }
        if count <= 64 {
            let eighths = (count + 7) / 8
            return (2 + eighths, eighths * 8)
        }
        let k = Int.bitWidth - (count - 1).leadingZeroBitCount
        return (10 + k - 6, 1 << k)
    }

    /// Reserves a block for `count` elements (at least 1) and returns its first index.
    mutating func allocate(_ count: Int) -> Int {
        let c = Self.sizeClass(count)
        if let start = freeBlocks[c.index].popLast() {
            return Int(start)
        }
        let start = storage.count
        precondition(start + c.size <= Int(Int32.max), "animation storage exhausted")
        storage.append(repeating: filler, count: c.size)
        return start
    }

    /// Returns the block at `start` that was allocated for `count` elements.
    mutating func release(_ start: Int, count: Int) {
        freeBlocks[Self.sizeClass(count).index].append(Int32(start))
    }

    /// Element access; the caller stays inside its blocks.
    @inline(__always)
    subscript(i: Int) -> Element {
        get { storage[i] }
        nonmutating set { storage[i] = newValue }
    }

    /// The first element, for pointer access during a step.
    var base: UnsafeMutablePointer<Element> { storage.base }

    /// Elements reserved, in use or free.
    var footprint: Int { storage.count }

    func destroy() { storage.destroy() }
}
