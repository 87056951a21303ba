/// A growable buffer the engine owns by pointer, for its per-step data.
///
/// Swift arrays held in a class cost an exclusivity check and a bounds check per access
/// inside a loop that calls out to targets; the step instead reads through pointers taken
/// once. The owner calls ``destroy()`` exactly once; copies of the struct alias the same
/// memory, so it never leaves the ``Animator``. Storage moves only when it grows, which
/// happens when an animation starts, never during a step.
struct RawBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 16) {
        self.capacity = max(capacity, 1)
        base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
    }

    @inline(__always)
    subscript(i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(repeating element: Element, count n: Int) {
        if count + n > capacity { grow(to: count + n) }
        (base + count).initialize(repeating: element, count: n)
        count += n
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Deinitializes the elements and frees the memory.
    func destroy() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
