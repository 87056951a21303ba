import ArcadeCore
import Testing
@testable import ArcadeRender

/// The scene's table of nodes by id against a dictionary doing the same, through bursts of
/// adds and removes in every pattern a scene makes (and some it never would).
@Suite struct NodeRegistryTests {
    /// Applies `ops` (positive: add that id, negative: remove it) to both and compares them
    /// after each, looking up every id ever used and a few never used.
    func check(_ ops: [Int]) {
        var table = NodeRegistry()
        var model: [Int: Node] = [:]
        var used = Set<Int>()
        for (k, op) in ops.enumerated() {
            if op > 0 {
                let n = GroupNode()
                table.insert(n, id: op)
                model[op] = n
                used.insert(op)
            } else {
                table.remove(-op)
                model[-op] = nil
            }
            guard k % 37 == 0 || k == ops.count - 1 else { continue }
            #expect(table.count == model.count)
            for id in used where table.node(id) !== model[id] {
                Issue.record("after \(k + 1) operations, id \(id) resolves to the wrong node")
                return
            }
            #expect(table.node(0) == nil && table.node(-5) == nil && table.node(Int.max) == nil)
        }
        var seen = 0
        table.forEach { n in
            seen += 1
            #expect(model.values.contains { $0 === n })
        }
        #expect(seen == model.count)
    }

    @Test func aBurstOfParticlesComingAndGoing() {
        // ids in order, most removed a little later, a few kept
        var ops: [Int] = []
        var live: [Int] = []
        var next = 1
        var random = SeededRandom(seed: 7)
        for _ in 0..<4000 {
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                ops.append(next)
                live.append(next)
                next += 1
            }
            while live.count > 300 || (!live.isEmpty && Int.random(in: 0..<3, using: &random) == 0) {
                let i = Int.random(in: 0..<min(live.count, 8), using: &random)
                ops.append(-live.remove(at: i))
            }
        }
        check(ops)
    }

    @Test func idsThatShareTheirLowBitsAndRemovalsInEveryOrder() {
        var ops: [Int] = []
        for k in 1...700 { ops.append(k * 1024) }
        for k in stride(from: 700, through: 1, by: -3) { ops.append(-k * 1024) }
        for k in 1...300 { ops.append(k * 64 + 1) }
        for k in 1...700 where k % 3 != 1 { ops.append(-k * 1024) }
        for k in 1...300 where k % 2 == 0 { ops.append(-(k * 64 + 1)) }
        ops.append(-999_999)  // never added
        check(ops)
    }

    @Test func randomAddsAndRemovesOfAFewIds() {
        var random = SeededRandom(seed: 3)
        let ops = (0..<20_000).map { _ in
            let id = Int.random(in: 1...200, using: &random)
            return Bool.random(using: &random) ? id : -id
        }
        check(ops)
    }
}
