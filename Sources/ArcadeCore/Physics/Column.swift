/// Growable contiguous storage of plain values, read and written through a raw pointer.
///
/// The physics world keeps its per-body and per-contact data here rather than in `Array`
/// because its inner loops touch several columns at once: a pointer has no copy-on-write
/// check, no exclusivity check and, in release builds, no bounds check. Capacity is kept
/// when the column is emptied, so a steady-state step never allocates. A column does not
/// free itself: its owner calls ``deallocate()`` exactly once.
struct Column<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 16) {
        self.capacity = max(capacity, 1)
        base = Self.allocate(self.capacity)
    }

    /// Cache-line aligned, so a 64-byte element never straddles two lines.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: capacity * MemoryLayout<Element>.stride,
            alignment: max(64, MemoryLayout<Element>.alignment))
        return raw.bindMemory(to: Element.self, capacity: capacity)
    }

    @inline(__always) subscript(i: Int) -> Element {
        get {
            assert(i >= 0 && i < count, "column index out of range")
            return base[i]
        }
        nonmutating set {
            assert(i >= 0 && i < count, "column index out of range")
            base[i] = newValue
        }
    }

    /// Makes room for `minimumCapacity` elements, keeping the contents.
    mutating func reserve(_ minimumCapacity: Int) {
        guard minimumCapacity > capacity else { return }
        var newCapacity = capacity
        while newCapacity < minimumCapacity { newCapacity *= 2 }
        let newBase = Self.allocate(newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always) mutating func append(_ element: Element) {
        if count == capacity { reserve(capacity * 2) }
        base[count] = element
        count += 1
    }

    /// Writes `element` past the end and keeps it only when `keep` is true, without a branch:
    /// for filters whose outcome the processor cannot predict. Room must have been reserved.
    @inline(__always) mutating func append(_ element: Element, keeping keep: Bool) {
        assert(count < capacity)
        base[count] = element
        count &+= keep ? 1 : 0
    }

    /// Sets the count to `newCount` with every element equal to `value`.
    mutating func fill(count newCount: Int, with value: Element) {
        reserve(newCount)
        base.update(repeating: value, count: newCount)
        count = newCount
    }

    /// Sets the count to `newCount` without writing anything: the caller writes every
    /// element before reading it.
    mutating func resizeUninitialized(to newCount: Int) {
        reserve(newCount)
        count = newCount
    }

    /// Drops everything from `newCount` on.
    @inline(__always) mutating func truncate(to newCount: Int) {
        assert(newCount >= 0 && newCount <= count)
        count = newCount
    }

    @inline(__always) mutating func removeAll() {
        count = 0
    }

    /// Frees the storage; the column must not be used afterwards.
    func deallocate() {
        base.deallocate()
    }
}
