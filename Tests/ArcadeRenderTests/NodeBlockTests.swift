import ArcadeCore
import Testing
@testable import ArcadeRender

/// A node's drawing block (``NodeBlock``) and the pool its blocks come from.
@Suite struct NodeBlockTests {
    /// The block is two cache lines: the animation engine's fields with the drawing flags and
    /// the kernel's art on the first, the anchor and the composed transform on the second.
    @Test func layoutIsTwoLines() {
        #expect(MemoryLayout<NodeBlock>.size == 64)
        #expect(MemoryLayout<NodeBlock>.offset(of: \.fields) == 0)
        #expect(MemoryLayout<AnimatableFields>.offset(of: \.ownerFlags) == 49)
        #expect(MemoryLayout<AnimatableFields>.size <= 56)
        #expect(MemoryLayout<NodeBlock>.offset(of: \.kernelArt) == 56)
        #expect(MemoryLayout<NodeDrawLine>.size == 64)
    }

    /// The fields the animation engine writes are the block's first bytes, and a node's
    /// properties read them.
    @Test func nodeReadsItsBlock() {
        let node = GroupNode(x: 3, y: 4)
        #expect(UnsafeMutableRawPointer(node.animatableFields!) == UnsafeMutableRawPointer(node.block))
        #expect(Int(bitPattern: node.block) % NodeBlockPool.lineBytes == 0)
        node.animatableFields!.pointee.x = 7
        #expect(node.x == 7)
        node.anchor = Vec2(0.25, 1)
        #expect(node.block.drawLine.pointee.anchor == Vec2(0.25, 1))
        #expect(node.isVisible && node.composedAlpha == 1)
        node.isVisible = false
        node.composedAlpha = 0.4
        #expect(!node.isVisible && node.composedAlpha == 0.4)
        node.composedAlpha = 1
        #expect(node.composedAlpha == 1 && node.flag(.composedAlphaIsOne))
    }

    /// A node's flag of children follows its child array: raised by adding, lowered when
    /// compaction drops the last child.
    @Test func childrenFlagFollowsTheArray() throws {
        let scene = Scene()
        let parent = try scene.add(GroupNode())
        #expect(!parent.flag(.hasChildren))
        let child = try scene.add(GroupNode(), to: parent)
        #expect(parent.flag(.hasChildren))
        scene.remove(child)
        #expect(parent.flag(.hasChildren), "still held until compaction")
        parent.prepareChildren()
        #expect(!parent.flag(.hasChildren))
    }

    /// Blocks made one after another lie side by side, aligned; given back, they are handed
    /// out again, and a slab all of whose blocks are back goes back to the system while
    /// another slab has room.
    @Test func poolHandsOutNeighbours() {
        let pool = NodeBlockPool()
        let count = NodeBlockPool.blocksPerSlab * 2 + 10
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<count { blocks.append(pool.allocate()) }
        #expect(pool.slabCount == 3 && pool.blocksInUse == count)
        #expect(blocks.allSatisfy { Int(bitPattern: $0) % NodeBlockPool.lineBytes == 0 })
        #expect(Set(blocks).count == count)
        var neighbours = 0
        for (a, b) in zip(blocks, blocks.dropFirst()) where b - a == NodeBlockPool.lineBytes { neighbours += 1 }
        #expect(neighbours == count - 3, "all but the first block of each new slab follow the one before")
        // Writing every byte of both lines of every block must not touch another block or a
        // slab's books.
        let line = NodeBlockPool.lineBytes, plane = NodeBlockPool.planeOffset
        for (i, block) in blocks.enumerated() {
            block.initializeMemory(as: UInt8.self, repeating: UInt8(i & 0xFF), count: line)
            (block + plane).initializeMemory(as: UInt8.self, repeating: UInt8(i & 0xFF) ^ 0x55, count: line)
        }
        for (i, block) in blocks.enumerated() {
            let first = UnsafeBufferPointer(start: block.assumingMemoryBound(to: UInt8.self), count: line)
            let second = UnsafeBufferPointer(start: (block + plane).assumingMemoryBound(to: UInt8.self), count: line)
            #expect(first.allSatisfy { $0 == UInt8(i & 0xFF) } && second.allSatisfy { $0 == UInt8(i & 0xFF) ^ 0x55 })
        }
        // The first slab's blocks back: it is empty while others have room, so it goes.
        for block in blocks[0..<NodeBlockPool.blocksPerSlab] { pool.deallocate(block) }
        #expect(pool.slabCount == 2 && pool.blocksInUse == count - NodeBlockPool.blocksPerSlab)
        // One block back, one out: the same block again.
        let last = blocks[count - 1]
        pool.deallocate(last)
        #expect(pool.allocate() == last)
        for block in blocks[NodeBlockPool.blocksPerSlab...] { pool.deallocate(block) }
        #expect(pool.blocksInUse == 0 && pool.slabCount == 1, "the last empty slab waits for the next burst")
    }

    /// Nodes made and freed on many threads at once share the pool safely.
    @Test func poolIsSharedAcrossThreads() async {
        await withTaskGroup(of: Int.self) { group in
            for t in 0..<4 {
                group.addTask {
                    var sum = 0
                    for round in 0..<50 {
                        let nodes = (0..<100).map { GroupNode(x: Double($0 + t), y: Double(round)) }
                        sum += nodes.reduce(0) { $0 + Int($1.x) }
                    }
                    return sum
                }
            }
            var total = 0
            for await sum in group { total += sum }
            #expect(total == 4 * 50 * 4950 + 50 * 100 * (0 + 1 + 2 + 3))
        }
    }
}

/// Nodes as animation targets: a node says it is held elsewhere exactly while it has a
/// parent, and the engine still ends the animations of a node nothing else holds at the
/// next step, however it came to be dropped.
@Suite struct NodeTargetTests {
    private func flight(_ property: AnimatableProperty = .x) -> Animation {
        Animation(.group([Animation(.basic(property, from: .scalar(0), to: .scalar(10)))]), duration: 1, fill: .forwards)
    }

    @Test func heldWhileInAParentsArray() throws {
        let scene = Scene()
        let group = try scene.add(GroupNode())
        let node = GroupNode()
        #expect(!node.fields.pointee.isHeldElsewhere)
        try scene.add(node, to: group)
        #expect(node.fields.pointee.isHeldElsewhere)
        try scene.add(node)
        #expect(node.fields.pointee.isHeldElsewhere, "moved to the root")
        scene.remove(node)
        #expect(!node.fields.pointee.isHeldElsewhere)
        #expect(!scene.root.fields.pointee.isHeldElsewhere)
    }

    @Test func removedAndDroppedNodesEndAtTheNextStep() throws {
        let scene = Scene()
        let animator = Animator()
        let kept = try scene.add(GroupNode())
        let keptFlight = try animator.start(flight(), on: kept, token: 1)
        weak var gone: Node?
        weak var goneParent: Node?
        do {
            let node = try scene.add(GroupNode())
            gone = node
            try animator.start(flight(), on: node, token: 2)
            let parent = try scene.add(GroupNode())
            goneParent = parent
            let child = try scene.add(GroupNode(), to: parent)
            try animator.start(flight(.y), on: child, token: 3)
            animator.advance(by: 1.0 / 60)
            scene.remove(node)
            scene.remove(parent)
        }
        // Removed, but the root's array holds both until it drops them.
        animator.advance(by: 1.0 / 60)
        #expect(animator.nextCompletion() == nil)
        scene.root.prepareChildren()
        #expect(gone != nil && goneParent == nil, "the engine holds the node; nothing holds the parent")
        animator.advance(by: 1.0 / 60)
        var ends: [AnimationCompletion] = []
        while let c = animator.nextCompletion() { ends.append(c) }
        #expect(ends.map(\.token).sorted() == [2, 3])
        #expect(ends.allSatisfy { $0.end == .targetGone })
        #expect(gone == nil)
        #expect(animator.isRunning(keptFlight) && kept.fields.pointee.isHeldElsewhere && kept.x > 0)
    }
}
