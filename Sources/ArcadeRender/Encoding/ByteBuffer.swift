/// A growable byte buffer written through a raw pointer: the encoder's output while a frame
/// is being written. Callers reserve room once per cell (``reserve(_:)``), then append
/// without per-byte checks, which is what keeps encoding a few nanoseconds a byte.
///
/// Owned by one encoder, which frees it with ``deallocate()``.
struct ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// Makes room for `extra` more bytes, doubling the storage when needed.
    @inline(__always) mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte; room must have been reserved.
    @inline(__always) mutating func append(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    /// Appends the first `length` (up to 4) bytes of `word`, lowest first; room for 4 must
    /// have been reserved.
    @inline(__always) mutating func appendWord(_ word: UInt32, length: Int) {
        UnsafeMutableRawPointer(base + count).storeBytes(of: word.littleEndian, as: UInt32.self)
        count &+= length
    }

    /// Appends the first `length` (up to 8) bytes of `word`, lowest first; room for 8 must
    /// have been reserved.
    @inline(__always) mutating func appendDoubleWord(_ word: UInt64, length: Int) {
        UnsafeMutableRawPointer(base + count).storeBytes(of: word.littleEndian, as: UInt64.self)
        count &+= length
    }

    /// Appends bytes; room must have been reserved.
    @inline(__always) mutating func append(_ bytes: StaticBytes) {
        for i in 0..<bytes.count { append(bytes[i]) }
    }

    mutating func removeAll() { count = 0 }

    /// Drops the bytes after the first `length`.
    mutating func truncate(to length: Int) { count = min(count, max(0, length)) }

    /// Appends `bytes`, making room for them.
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        if let b = bytes.baseAddress { (base + count).update(from: b, count: bytes.count) }
        count &+= bytes.count
    }

    /// The bytes written so far.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    func deallocate() { base.deallocate() }
}

/// A few bytes known up front (a fixed escape sequence), stored inline.
struct StaticBytes {
    let count: Int
    private let storage: (UInt64, UInt64)

    init(_ string: StaticString) {
        precondition(string.utf8CodeUnitCount <= 16)
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            for i in 0..<string.utf8CodeUnitCount { raw[i] = string.utf8Start[i] }
        }
        count = string.utf8CodeUnitCount
        storage = words
    }

    @inline(__always) subscript(i: Int) -> UInt8 {
        withUnsafeBytes(of: storage) { $0[i] }
    }
}
