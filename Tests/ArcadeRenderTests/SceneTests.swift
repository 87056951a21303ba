import ArcadeCore
import Testing
@testable import ArcadeRender

@Suite struct SceneTests {
    @Test func nodesGetStableIdsThatResolveUntilRemoved() throws {
        let s = Scene()
        #expect(s.root.id == 1)
        let hook = try s.add(GroupNode())
        let fish = try s.add(SpriteNode(sprite: letterF), to: hook)
        let label = try s.add(TextNode(text: "+2"))
        #expect(Set([hook.id, fish.id, label.id]).count == 3)
        #expect(s.node(withID: fish.id) === fish)
        #expect(s.nodeCount == 4)

        // Removing the hook removes the fish riding on it.
        let fishID = fish.id
        s.remove(hook)
        #expect(s.node(withID: hook.id) == nil)
        #expect(s.node(withID: fishID) == nil)
        #expect(fish.scene == nil)
        #expect(s.nodeCount == 2)
        #expect(s.root.children.map(\.id) == [label.id])

        // Added again, the subtree comes back under new ids; the old ones stay dead.
        try s.add(hook)
        #expect(fish.scene === s)
        #expect(fish.id != fishID)
        #expect(s.node(withID: fishID) == nil)
        #expect(s.node(withID: fish.id) === fish)
    }

    @Test func reparentingKeepsTheId() throws {
        let s = Scene()
        let hook = try s.add(GroupNode(x: 10, y: 0))
        let fish = try s.add(SpriteNode(sprite: letterF, x: 3, y: 4))
        let id = fish.id
        try s.add(fish, to: hook)
        #expect(fish.id == id)
        #expect(fish.parent === hook)
        #expect(s.root.children.map(\.id) == [hook.id])
        #expect(hook.children.map(\.id) == [id])
        #expect(fish.convertToCanvas(.zero) == Vec2(13, 4))
    }

    @Test func invalidAdditionsAreRefused() throws {
        let s = Scene()
        let other = Scene()
        let a = try s.add(GroupNode())
        let b = try s.add(GroupNode(), to: a)
        #expect(throws: SceneError.wouldContainItself) { try s.add(a, to: b) }
        #expect(throws: SceneError.wouldContainItself) { try s.add(a, to: a) }
        #expect(throws: SceneError.parentNotInScene) { try s.add(GroupNode(), to: GroupNode()) }
        #expect(throws: SceneError.inAnotherScene) { try other.add(a) }
        #expect(throws: SceneError.rootCannotMove) { try s.add(s.root, to: a) }
        // a list is refused as its nodes are: what comes before the refused one is added
        #expect(throws: SceneError.parentNotInScene) { try s.add([GroupNode()], to: GroupNode()) }
        #expect(throws: SceneError.wouldContainItself) { try s.add([GroupNode(), a], to: b) }
        #expect(b.children.count == 1)
        var deepest = b
        while true {
            guard let next = try? s.add(GroupNode(), to: deepest) else { break }
            deepest = next
        }
        #expect(throws: SceneError.tooDeep(limit: Scene.maximumDepth)) { try s.add([RectNode(width: 1, height: 1)], to: deepest) }
        #expect(deepest.children.isEmpty)
        s.remove(s.root)
        #expect(s.node(withID: 1) === s.root)
    }

    @Test func removingAndReAddingToTheSameParentBeforeADrawKeepsOneCopy() throws {
        let s = Scene()
        let coin = try s.add(RectNode(width: 1, height: 1))
        s.remove(coin)
        try s.add(coin)
        #expect(s.root.children.count == 1)
    }

    @Test func aChildAddedBelowOneRemovedSinceTheLastSortIsStillSortedIn() throws {
        // The child that had the largest z leaves and drops its z while its old parent still
        // lists it; a child added after it with a z below the one left is sorted in.
        let s = Scene()
        let layer = try s.add(GroupNode())
        let high = try s.add(RectNode(width: 1, height: 1), to: layer)
        high.z = 5
        let top = try s.add(RectNode(width: 1, height: 1), to: layer)
        top.z = 9
        #expect(layer.children.map(\.id) == [high.id, top.id])
        s.remove(top)
        top.z = 0
        let low = RectNode(width: 1, height: 1)
        low.z = 1
        try s.add(low, to: layer)
        #expect(layer.children.map(\.id) == [low.id, high.id])
    }

    @Test func childListsFollowAnyMixOfAddsRemovesMovesAndZChanges() throws {
        // Random operations on three layers against a plain model: a layer's children are
        // the nodes whose parent it is, by z and then by when they were added. Frames are
        // drawn now and then, which compacts the layers as it goes.
        var seed: UInt64 = 0x5EED_0F_C01
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        let s = Scene()
        let layers = try (0..<3).map { _ in try s.add(GroupNode()) }
        let canvas = Canvas(columns: 4, rows: 2)
        var nodes: [RectNode] = []
        var parentOf: [ObjectIdentifier: Int] = [:]  // layer index, for nodes in the scene
        var addedAt: [ObjectIdentifier: Int] = [:]
        var clock = 0
        func add(_ node: RectNode, to layer: Int) throws {
            try s.add(node, to: layers[layer])
            parentOf[ObjectIdentifier(node)] = layer
            addedAt[ObjectIdentifier(node)] = clock
            clock += 1
        }
        for step in 0..<4000 {
            switch next(10) {
            case 0, 1, 2:
                let node = RectNode(width: 1, height: 1)
                node.z = Double(next(4))
                nodes.append(node)
                try add(node, to: next(3))
            case 3, 4:
                guard !nodes.isEmpty else { continue }
                let node = nodes[next(nodes.count)]
                s.remove(node)
                parentOf[ObjectIdentifier(node)] = nil
            case 5, 6:
                // moved to a layer, or back into the scene after a removal
                guard !nodes.isEmpty else { continue }
                try add(nodes[next(nodes.count)], to: next(3))
            case 7:
                guard !nodes.isEmpty else { continue }
                nodes[next(nodes.count)].z = Double(next(4))
            case 8:
                s.draw(into: canvas, time: 0)
            default:
                let layer = next(3)
                let want = nodes.filter { parentOf[ObjectIdentifier($0)] == layer }
                    .sorted { ($0.z, addedAt[ObjectIdentifier($0)]!) < ($1.z, addedAt[ObjectIdentifier($1)]!) }
                let got = layers[layer].children
                #expect(got.map(ObjectIdentifier.init) == want.map(ObjectIdentifier.init), "step \(step)")
                if got.count != want.count { return }
            }
        }
        for (i, layer) in layers.enumerated() {
            #expect(layer.children.count == nodes.filter { parentOf[ObjectIdentifier($0)] == i }.count)
        }
    }

    @Test func addingAListDoesWhatAddingEachInTurnDoes() throws {
        // Two scenes under the same random operations, one adding lists of nodes in one
        // call, the other adding them one at a time: new leaves, a new node with a child,
        // nodes removed earlier and nodes moved from another layer, onto layers with
        // children removed since the last frame. Every node gets the same id, and every
        // layer holds the same children in the same order.
        var seed: UInt64 = 0xB0_7751
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        let one = Scene(), many = Scene()
        let layersOne = try (0..<3).map { _ in try one.add(GroupNode()) }
        let layersMany = try (0..<3).map { _ in try many.add(GroupNode()) }
        let canvas = Canvas(columns: 4, rows: 2)
        var a: [RectNode] = [], b: [RectNode] = []
        for step in 0..<3000 {
            switch next(8) {
            case 0, 1, 2:
                let layer = next(3)
                var listA: [Node] = [], listB: [Node] = []
                for _ in 0..<next(5) {
                    if next(3) == 0, !a.isEmpty {
                        let k = next(a.count)
                        listA.append(a[k])
                        listB.append(b[k])
                    } else {
                        let z = Double(next(3))
                        let x = RectNode(width: 1, height: 1), y = RectNode(width: 1, height: 1)
                        x.z = z
                        y.z = z
                        if next(6) == 0 {
                            // out of the scene with a child of its own
                            try one.add(RectNode(width: 1, height: 1), to: try one.add(x))
                            try many.add(RectNode(width: 1, height: 1), to: try many.add(y))
                            one.remove(x)
                            many.remove(y)
                        }
                        a.append(x)
                        b.append(y)
                        listA.append(x)
                        listB.append(y)
                    }
                }
                for n in listA { try one.add(n, to: layersOne[layer]) }
                try many.add(listB, to: layersMany[layer])
            case 3, 4:
                guard !a.isEmpty else { continue }
                let k = next(a.count)
                one.remove(a[k])
                many.remove(b[k])
            case 5:
                guard !a.isEmpty else { continue }
                let k = next(a.count), z = Double(next(3))
                a[k].z = z
                b[k].z = z
            case 6:
                one.draw(into: canvas, time: 0)
                many.draw(into: canvas, time: 0)
            default:
                for k in a.indices { #expect(a[k].id == b[k].id, "step \(step)") }
                for l in 0..<3 {
                    #expect(layersOne[l].children.map(\.id) == layersMany[l].children.map(\.id), "step \(step)")
                }
                #expect(one.nodeCount == many.nodeCount)
            }
        }
        #expect(a.map(\.id) == b.map(\.id))
    }

    @Test func childrenRemovedBetweenFramesAreDroppedAsTheFrameIsDrawn() throws {
        // Every other square of a row goes; the next frame draws the rest, in order, and
        // the group holds only them afterwards (removed nodes nobody keeps are freed).
        let s = Scene(background: .black)
        let layer = try s.add(GroupNode())
        var squares: [RectNode] = []
        for i in 0..<10 {
            squares.append(try s.add(RectNode(width: 1, height: 1, x: Double(i) + 0.5, y: 0.5, fill: .white), to: layer))
        }
        let canvas = Canvas(columns: 10, rows: 1)
        s.draw(into: canvas, time: 0)
        weak let gone = squares[1]
        for i in stride(from: 1, to: 10, by: 2) { s.remove(squares[i]) }
        let kept = stride(from: 0, to: 10, by: 2).map { squares[$0] }
        squares.removeAll()
        #expect(gone != nil)  // the group still holds it until the next frame
        s.draw(into: canvas, time: 0)
        #expect((0..<10).map { canvas.pixel(x: $0, y: 0) == .white } == (0..<10).map { $0 % 2 == 0 })
        #expect(gone == nil)
        #expect(layer.children.map(\.id) == kept.map(\.id))
        #expect(kept.allSatisfy { $0.parent === layer })
    }

    @Test func aNodesParentAndSceneReadNilOnceTheyAreGone() throws {
        var child: Node?
        weak var scene: Scene?
        do {
            let s = Scene()
            scene = s
            let group = try s.add(GroupNode())
            child = try s.add(RectNode(width: 1, height: 1), to: group)
            #expect(child?.parent === group && child?.scene === s)
        }
        #expect(scene == nil)
        #expect(child?.parent == nil)
        #expect(child?.scene == nil)
        // a removed subtree keeps its shape; a child kept alone loses its freed parent
        let s = Scene()
        var group: GroupNode? = try s.add(GroupNode())
        let leaf = try s.add(RectNode(width: 1, height: 1), to: group)
        s.remove(group!)
        #expect(leaf.parent === group && leaf.scene == nil)
        #expect(s.root.children.isEmpty)  // the root lets go of the group
        group = nil
        #expect(leaf.parent == nil)
    }

    @Test func siblingsDrawByZThenInsertionOrder() throws {
        // Three overlapping squares; the colour left at the shared pixel says who drew last.
        let s = Scene()
        let red = try s.add(RectNode(width: 2, height: 2, x: 1, y: 1, fill: Palette.red))
        let blue = try s.add(RectNode(width: 2, height: 2, x: 1, y: 1, fill: Palette.blue))
        let gold = try s.add(RectNode(width: 2, height: 2, x: 1, y: 1, fill: Palette.gold))
        func top() -> Color? { drawn(s, columns: 2, rows: 1).pixel(x: 0, y: 0) }
        #expect(top() == Palette.gold)  // equal z: last added on top
        red.z = 5
        #expect(top() == Palette.red)
        #expect(s.root.children.map(\.id) == [blue.id, gold.id, red.id])
        blue.z = 5
        #expect(top() == Palette.blue)  // equal z again: blue was added after red
        gold.z = -1
        #expect(s.root.children.map(\.id) == [gold.id, red.id, blue.id])
    }

    @Test func hiddenNodesAndTheirChildrenAreNotDrawn() throws {
        let s = Scene()
        let group = try s.add(GroupNode())
        try s.add(RectNode(width: 2, height: 2, x: 1, y: 1, fill: Palette.red), to: group)
        group.isVisible = false
        #expect(drawn(s, columns: 2, rows: 1).pixel(x: 0, y: 0) == Palette.background)
        group.isVisible = true
        #expect(drawn(s, columns: 2, rows: 1).pixel(x: 0, y: 0) == Palette.red)
        group.alpha = 0
        #expect(drawn(s, columns: 2, rows: 1).pixel(x: 0, y: 0) == Palette.background)
    }

    @Test func animatablePropertiesReadAndWriteTheNode() throws {
        let line = LineNode(from: .zero, to: Vec2(10, 0), color: Palette.brown)
        line.setAnimatableValue(.vector(Vec2(3, 4)), for: .position)
        line.setAnimatableValue(.scalar(2), for: .scale)
        line.setAnimatableValue(.scalar(0.25), for: .rotation)
        line.setAnimatableValue(.scalar(0.5), for: .alpha)
        line.setAnimatableValue(.scalar(0.8), for: .strokeEnd)
        line.setAnimatableValue(.scalar(0.1), for: .strokeStart)
        line.setAnimatableValue(.color(Palette.gold), for: .color(0))
        line.setAnimatableValue(.color(Palette.red), for: .color(1))  // lines have no slot 1
        line.setAnimatableValue(.vector(.zero), for: .alpha)  // wrong kind: ignored
        #expect(line.x == 3 && line.y == 4)
        #expect(line.scaleX == 2 && line.scaleY == 2)
        #expect(line.rotation == 0.25)
        #expect(line.alpha == 0.5)
        #expect(line.strokeStart == 0.1 && line.strokeEnd == 0.8)
        #expect(line.color == Palette.gold)
        #expect(line.animatableValue(.strokeEnd) == .scalar(0.8))
        #expect(line.animatableValue(.color(1)) == nil)

        let label = LabelNode(text: "x 1", outline: Palette.orange)
        label.setAnimatableValue(.scalar(3), for: .scaleX)
        label.setAnimatableValue(.scalar(0.7), for: .scaleY)
        #expect(label.animatableValue(.scale) == .scalar(3))
        #expect(label.animatableValue(.scaleY) == .scalar(0.7))
        #expect(label.animatableValue(.color(1)) == .color(Palette.orange))
        #expect(label.animatableValue(.strokeEnd) == nil)

        let group = GroupNode()
        #expect(group.animatableValue(.color(0)) == nil)
        #expect(group.animatableValue(.x) == .scalar(0))
    }

    /// Every kind's colour table: slot 0 and slot 1 are the named colours, in that order, and
    /// a slot past the table reads nil and writes nothing.
    @Test func colourSlotsAreTheKindsNamedColours() {
        let (a, b, c) = (Palette.gold, Palette.red, Palette.orange)
        let rect = RectNode(width: 4, height: 2, fill: Palette.white, stroke: Palette.white)
        let circle = CircleNode(radius: 3, fill: Palette.white, stroke: Palette.white)
        let label = LabelNode(text: "1")
        let text = TextNode(text: "1")
        let sprite = SpriteNode(sprite: Sprite(width: 1, height: 1, fill: Palette.white))
        let line = LineNode(from: .zero, to: Vec2(1, 0))
        for node in [rect, circle, label, text, sprite, line] as [Node] {
            node.setAnimatableValue(.color(a), for: .color(0))
            node.setAnimatableValue(.color(b), for: .color(1))
            node.setAnimatableValue(.color(c), for: .color(2))
            #expect(node.animatableValue(.color(0)) == .color(a), "\(type(of: node))")
            #expect(node.animatableValue(.color(2)) == nil, "\(type(of: node))")
        }
        #expect(rect.fill == a && rect.stroke == b && circle.fill == a && circle.stroke == b)
        #expect(label.color == a && label.outline == b)
        #expect(text.color == a && text.background == b)
        #expect(sprite.tint == a && sprite.animatableValue(.color(1)) == nil)
        #expect(line.color == a && line.animatableValue(.color(1)) == nil)
    }

    @Test func changingALabelsColourRedrawsIt() {
        let label = LabelNode(text: "1", font: .small, color: Palette.white)
        label.anchor = .zero
        let s = scene(label)
        #expect(drawn(s, columns: 3, rows: 3).pixel(x: 1, y: 0) == Palette.white)
        label.setAnimatableValue(.color(Palette.gold), for: .color(0))
        #expect(drawn(s, columns: 3, rows: 3).pixel(x: 1, y: 0) == Palette.gold)
    }

    @Test func composedTransformsAreCachedOnTheNodes() throws {
        let s = Scene()
        let parent = try s.add(GroupNode(x: 10, y: 5))
        parent.rotation = .pi / 2
        let child = try s.add(RectNode(width: 2, height: 2, x: 4, y: 0), to: parent)
        s.draw(into: Canvas(columns: 20, rows: 10), time: 0)
        // Right of a parent turned a quarter clockwise is down.
        #expect(child.composedTransform.apply(.zero) == Vec2(10, 9))
        #expect(child.transformToCanvas() == child.composedTransform)
        #expect(child.convertFromCanvas(Vec2(10, 9)) == .zero)
    }

    @Test func hitTestingFindsTheTopmostContentFirst() throws {
        let s = Scene()
        let big = try s.add(CircleNode(radius: 10, x: 20, y: 20))
        let small = try s.add(CircleNode(radius: 3, x: 22, y: 20))
        let hidden = try s.add(RectNode(width: 40, height: 40, x: 20, y: 20))
        hidden.isVisible = false
        s.draw(into: Canvas(columns: 40, rows: 20), time: 0)
        #expect(s.nodes(at: Vec2(22, 21)).map(\.id) == [small.id, big.id])
        #expect(s.nodes(at: Vec2(13, 20)).map(\.id) == [big.id])
        #expect(s.nodes(at: Vec2(12, 12)).isEmpty)  // inside the box, outside the circle
    }

    @Test func tenThousandCoinsComposeIntoTheCanvas() throws {
        // The coin bank's stress scene at full count: every coin drawn, all from one sprite.
        let coin = try Sprite(palette: ["g": Palette.gold], rows: [".g.", "ggg", ".g."])
        let s = Scene()
        var rng = SeededRandom(seed: 9)
        for _ in 0..<10_000 {
            try s.add(SpriteNode(sprite: coin, x: rng.nextDouble(in: 0, 200), y: rng.nextDouble(in: 0, 120)))
        }
        let canvas = Canvas(columns: 200, rows: 60)
        s.draw(into: canvas, time: 0)
        var gold = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where canvas.pixel(x: x, y: y) == Palette.gold { gold += 1 }
        }
        #expect(s.nodeCount == 10_001)
        // 24,000 pixels with 50,000 coin pixels thrown at them: nearly all covered, not all.
        #expect(gold > 20_000 && gold < 24_000)
    }
}
