import ArcadeCore
import Testing
@testable import ArcadeRender

/// Sprites gathered into runs for the canvas's kernel (``KernelRun``) against the same scenes
/// drawn one node at a time: every pixel, every cell and what each node records as drawn
/// with must come out the same, whatever lies between the sprites of a run.
@Suite struct KernelRunTests {
    /// A random scene: coins of two arts (runs that change art), among text, a turned sprite,
    /// a tinted one, a translucent one, one with a child, a hidden one, groups (moved and
    /// not), and sprites the kernel leaves to the general path (a zero or huge scale).
    private func randomScene(_ rng: inout SeededRandom) -> Scene {
        let gold = try! Sprite(palette: ["g": Color(rgb: 0xFFD700), "y": Color(rgb: 0xFFF3A0)],
                               rows: [".gg.", "gygg", "gggg", ".gg."])
        let red = try! Sprite(palette: ["r": Color(rgb: 0xC03030)], rows: ["rr", "r."])
        let scene = Scene(background: Color(rgb: 0x1B1B2F))
        func int(_ lo: Int, _ hi: Int) -> Int { Int(rng.nextInt(in: Int64(lo), Int64(hi))) }
        var parents: [Node] = [scene.root]
        for _ in 0..<300 {
            let parent = parents[int(0, parents.count - 1)]
            let node: Node
            let x = rng.nextDouble(in: -4, 44), y = rng.nextDouble(in: -4, 28)
            switch int(0, 19) {
            case 0: node = TextNode(text: "ab", x: x, y: y)
            case 1:
                node = SpriteNode(sprite: gold, x: x, y: y)
                node.rotation = 0.5
            case 2:
                let tinted = SpriteNode(sprite: gold, x: x, y: y)
                tinted.tint = Color(rgb: 0x80FF80)
                node = tinted
            case 3:
                node = SpriteNode(sprite: red, x: x, y: y)
                node.alpha = 0.5
            case 4:
                node = SpriteNode(sprite: gold, x: x, y: y)
                node.scaleX = [0, 1e7, -1e-9][int(0, 2)]
            case 5:
                node = SpriteNode(sprite: red, x: x, y: y)
                node.isVisible = false
            case 6:
                let group = GroupNode(x: x, y: y)
                if int(0, 1) == 0 { group.scale = 0.5 }
                parents.append(group)
                node = group
            case 7:
                // A sprite with a child of its own: drawn in turn, children after it.
                node = SpriteNode(sprite: gold, x: x, y: y)
                parents.append(node)
            default:
                node = SpriteNode(sprite: int(0, 3) == 0 ? red : gold, x: x, y: y)
                node.scaleX = rng.nextDouble(in: -1.5, 2)
                node.scaleY = rng.nextDouble(in: 0.3, 1.5)
                node.anchor = Vec2(rng.nextDouble(in: 0, 1), rng.nextDouble(in: 0, 1))
            }
            node.z = Double(int(0, 2))
            try! scene.add(node, to: parent)
            if parents.last === node, node is SpriteNode {
                try! scene.add(SpriteNode(sprite: red, x: 2, y: 2), to: node)
            }
        }
        return scene
    }

    /// Drawn in runs and one node at a time, frame after frame, with changes between frames:
    /// removed nodes (dropped as their layer is drawn), children removed from a sprite
    /// (which may then join a run), opacity that comes and goes (what a node records as
    /// drawn with follows), nodes hidden and shown, nodes moved.
    @Test(arguments: 1...12)
    func runsDrawWhatEachNodeInTurnDraws(seed: Int) {
        var a = SeededRandom(seed: UInt64(seed)), b = SeededRandom(seed: UInt64(seed))
        let gathered = randomScene(&a), single = randomScene(&b)
        single.gathersKernelRuns = false
        let one = Canvas(columns: 40, rows: 12), other = Canvas(columns: 40, rows: 12)
        var rng = SeededRandom(seed: UInt64(seed) &+ 100)
        for frame in 0..<6 {
            if frame > 0 {
                for id in 2...700 {
                    guard let n = gathered.node(withID: id), let m = single.node(withID: id) else { continue }
                    switch rng.nextInt(in: 0, 9) {
                    case 0:
                        gathered.remove(n)
                        single.remove(m)
                    case 1:
                        let alpha = [0.5, 1, 0][Int(rng.nextInt(in: 0, 2))]
                        n.alpha = alpha
                        m.alpha = alpha
                    case 2:
                        n.isVisible.toggle()
                        m.isVisible.toggle()
                    case 3:
                        n.x += 1.5
                        m.x += 1.5
                    default: break
                    }
                }
            }
            gathered.draw(into: one, time: Double(frame))
            single.draw(into: other, time: Double(frame))
            let sameCells = one.makeFrame() == other.makeFrame()
            #expect(sameCells, "seed \(seed), frame \(frame)")
            for id in 1...700 {
                guard let n = gathered.node(withID: id), let m = single.node(withID: id) else { continue }
                let same = n.composedTransform == m.composedTransform && n.composedAlpha == m.composedAlpha
                #expect(same, "seed \(seed), frame \(frame), node \(id)")
            }
        }
        #expect(gathered.kernelRunsDrawn > 0)
    }

    /// The kernel's runs are what the scene draws: a layer of coins goes through them (and
    /// so the comparison above compares something).
    @Test func coinsGoThroughRuns() {
        let coin = try! Sprite(palette: ["g": Color(rgb: 0xFFD700)], rows: ["gg", "gg"])
        let scene = Scene()
        for i in 0..<100 { try! scene.add(SpriteNode(sprite: coin, x: Double(i % 40), y: Double(i / 40) * 4)) }
        let canvas = Canvas(columns: 40, rows: 12)
        scene.draw(into: canvas, time: 0)
        #expect(scene.kernelRunsDrawn > 0)
    }
}
