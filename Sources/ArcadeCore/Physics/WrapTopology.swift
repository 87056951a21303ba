/// The shape of a world's space for its balls: plain, or folded into its bounds on one or
/// both axes (a wrap-around world), where a ball sees every other at its nearest image.
struct WrapTopology: Equatable {
    var wrapsX: Bool
    var wrapsY: Bool
    var minX: Double
    var minY: Double
    var width: Double
    var height: Double

    var wraps: Bool { wrapsX || wrapsY }
    var maxX: Double { minX + width }
    var maxY: Double { minY + height }

    /// True when `a` overlaps `b` or one of its images across the seams.
    @inline(__always) func overlap(_ a: AABB, _ b: AABB) -> Bool {
        if !wraps { return a.overlaps(b) }
        let xs = wrapsX ? 3 : 1, ys = wrapsY ? 3 : 1
        for i in 0..<xs {
            let ox = wrapsX ? Double(i - 1) * width : 0
            if !(a.minX <= b.maxX + ox && b.minX + ox <= a.maxX) { continue }
            for j in 0..<ys {
                let oy = wrapsY ? Double(j - 1) * height : 0
                if a.minY <= b.maxY + oy && b.minY + oy <= a.maxY { return true }
            }
        }
        return false
    }

    /// What to add to `b - a` (a displacement between two balls inside the region) to reach
    /// b's nearest image.
    @inline(__always) func imageOffset(dx: Double, dy: Double) -> (x: Double, y: Double) {
        var ox = 0.0, oy = 0.0
        if wrapsX && width > 0 { ox = -width * (dx / width).rounded() }
        if wrapsY && height > 0 { oy = -height * (dy / height).rounded() }
        return (ox.isFinite ? ox : 0, oy.isFinite ? oy : 0)
    }

    /// `x` folded into the region on the x axis (unchanged when it does not wrap).
    @inline(__always) func foldX(_ x: Double) -> Double {
        guard wrapsX, width > 0, x.isFinite, x < minX || x >= maxX else { return x }
        let f = x - width * ((x - minX) / width).rounded(.down)
        return f < maxX ? f : minX
    }

    /// `y` folded into the region on the y axis.
    @inline(__always) func foldY(_ y: Double) -> Double {
        guard wrapsY, height > 0, y.isFinite, y < minY || y >= maxY else { return y }
        let f = y - height * ((y - minY) / height).rounded(.down)
        return f < maxY ? f : minY
    }

    /// `box` and its images across the seams that may overlap a box within `extent` of a
    /// point inside the region: the box itself first.
    func images(of box: AABB, extent: Double) -> Images {
        var images = Images()
        images.xs.0 = 0
        images.ys.0 = 0
        if wrapsX {
            if box.minX <= minX + extent { images.add(x: width) }
            if box.maxX >= maxX - extent { images.add(x: -width) }
        }
        if wrapsY {
            if box.minY <= minY + extent { images.add(y: height) }
            if box.maxY >= maxY - extent { images.add(y: -height) }
        }
        images.box = box
        return images
    }

    /// The boxes ``images(of:extent:)`` gives, one at a time.
    struct Images {
        var box = AABB(minX: 0, minY: 0, maxX: 0, maxY: 0)
        var xs: (Double, Double, Double) = (0, 0, 0)
        var ys: (Double, Double, Double) = (0, 0, 0)
        var xCount = 1
        var yCount = 1
        var index = 0

        mutating func add(x: Double) {
            if xCount == 1 { xs.1 = x } else { xs.2 = x }
            xCount += 1
        }

        mutating func add(y: Double) {
            if yCount == 1 { ys.1 = y } else { ys.2 = y }
            yCount += 1
        }

        mutating func next() -> AABB? {
            guard index < xCount * yCount else { return nil }
            let i = index % xCount, j = index / xCount
            index += 1
            let ox = i == 0 ? xs.0 : i == 1 ? xs.1 : xs.2
            let oy = j == 0 ? ys.0 : j == 1 ? ys.1 : ys.2
            return AABB(minX: box.minX + ox, minY: box.minY + oy, maxX: box.maxX + ox, maxY: box.maxY + oy)
        }
    }
}

extension PhysicsWorld {
    /// This world's space now.
    var topology: WrapTopology {
        let b = bounds
        let usable = b.x.isFinite && b.y.isFinite && b.width.isFinite && b.height.isFinite && b.width > 0 && b.height > 0
        return WrapTopology(wrapsX: wrapsX && usable, wrapsY: wrapsY && usable,
                            minX: b.minX, minY: b.minY, width: b.width, height: b.height)
    }

    /// Folds every ball's centre into the bounds on the axes that wrap.
    func foldPositions(_ topology: WrapTopology) {
        let st = states.base
        for i in 0..<states.count {
            st[i].px = topology.foldX(st[i].px)
            st[i].py = topology.foldY(st[i].py)
        }
    }
}
