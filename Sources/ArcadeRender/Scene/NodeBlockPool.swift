#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where every node's ``NodeBlock`` comes from: slabs of 64 KB, each in two planes of
/// 32 KB, whose 64-byte lines pair up (a block's first line in the first plane, its second
/// ``planeOffset`` bytes on, in the second). Blocks are handed out in address order, so
/// that the blocks of nodes made one after another (a burst of coins) lie side by side:
/// drawing a busy layer then reads two steady streams the processor fetches ahead by
/// itself, and the animation engine writes the first lines only, 64 bytes apart. From the
/// general allocator they lay 640 bytes apart, between the node objects, and the frame
/// waited on each.
///
/// A slab's first line holds its bookkeeping: how many of its blocks are out, the blocks
/// given back (a list threaded through their first lines), how far its never-used blocks
/// begin, and its place in the list of slabs with room. A block finds its slab by rounding
/// its address down to 64 KB. Blocks are taken from the slab with room that was made or
/// freed into last; a slab all of whose blocks are back is given back to the system unless
/// no other slab has room (then it waits for the next burst). Nodes are made and freed on
/// any thread (tests run in parallel), so one lock guards the pool; a node costs one lock
/// on its way in and one on its way out.
final class NodeBlockPool: @unchecked Sendable {
    /// The pool every node uses.
    static let shared = NodeBlockPool()

    /// A slab's size and alignment.
    static let slabBytes = 1 << 16
    /// The size and alignment of each line of a block: one cache line.
    static let lineBytes = 64
    /// How far a block's second line lies after its first.
    static let planeOffset = slabBytes / 2
    /// Blocks a slab hands out (its first line holds its bookkeeping).
    static let blocksPerSlab = planeOffset / lineBytes - 1

    /// A slab's bookkeeping, in its first block.
    private struct Slab {
        /// Blocks handed out and not given back.
        var used: Int
        /// Index of the first block never handed out; blocks from here on are free.
        var fresh: Int
        /// The last block given back, whose first word holds the one given back before it.
        var freed: UnsafeMutableRawPointer?
        /// Neighbours in the list of slabs with room.
        var previous: UnsafeMutablePointer<Slab>?
        var next: UnsafeMutablePointer<Slab>?
        /// True while the slab is in that list.
        var listed: Bool
    }

    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    /// The slabs with a free block, most recently made or freed into first.
    private var open: UnsafeMutablePointer<Slab>?
    /// How many slabs the pool holds (for tests).
    private(set) var slabCount = 0
    /// Blocks handed out and not given back (for tests).
    private(set) var blocksInUse = 0

    init() {
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        // Only pools made by tests end; their blocks must all be back.
        while let slab = open {
            unlist(slab)
            UnsafeMutableRawPointer(slab).deallocate()
        }
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// A block's first line (its second is ``planeOffset`` bytes on), uninitialized.
    func allocate() -> UnsafeMutableRawPointer {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        let slab = open ?? makeSlab()
        let block: UnsafeMutableRawPointer
        if let freed = slab.pointee.freed {
            block = freed
            slab.pointee.freed = freed.load(as: UnsafeMutableRawPointer?.self)
        } else {
            block = UnsafeMutableRawPointer(slab) + slab.pointee.fresh * NodeBlockPool.lineBytes
            slab.pointee.fresh += 1
        }
        slab.pointee.used += 1
        blocksInUse += 1
        if slab.pointee.freed == nil, slab.pointee.fresh > NodeBlockPool.blocksPerSlab { unlist(slab) }
        return block
    }

    /// Gives back a block ``allocate()`` handed out (already deinitialized).
    func deallocate(_ block: UnsafeMutableRawPointer) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        let address = UInt(bitPattern: block) & ~UInt(NodeBlockPool.slabBytes - 1)
        let slab = UnsafeMutablePointer<Slab>(bitPattern: address)!
        block.storeBytes(of: slab.pointee.freed, as: UnsafeMutableRawPointer?.self)
        slab.pointee.freed = block
        slab.pointee.used -= 1
        blocksInUse -= 1
        if slab.pointee.listed { unlist(slab) }
        if slab.pointee.used == 0, open != nil {
            // Empty, and another slab has room: back to the system.
            UnsafeMutableRawPointer(slab).deallocate()
            slabCount -= 1
            return
        }
        list(slab)
    }

    /// A new slab, listed first.
    private func makeSlab() -> UnsafeMutablePointer<Slab> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: NodeBlockPool.slabBytes, alignment: NodeBlockPool.slabBytes)
        let slab = raw.bindMemory(to: Slab.self, capacity: 1)
        slab.initialize(to: Slab(used: 0, fresh: 1, freed: nil, previous: nil, next: nil, listed: false))
        slabCount += 1
        list(slab)
        return slab
    }

    /// Puts `slab` first in the list of slabs with room.
    private func list(_ slab: UnsafeMutablePointer<Slab>) {
        slab.pointee.previous = nil
        slab.pointee.next = open
        open?.pointee.previous = slab
        open = slab
        slab.pointee.listed = true
    }

    /// Takes `slab` out of the list of slabs with room.
    private func unlist(_ slab: UnsafeMutablePointer<Slab>) {
        if let previous = slab.pointee.previous {
            previous.pointee.next = slab.pointee.next
        } else {
            open = slab.pointee.next
        }
        slab.pointee.next?.pointee.previous = slab.pointee.previous
        slab.pointee.previous = nil
        slab.pointee.next = nil
        slab.pointee.listed = false
    }
}
