// The broad phase: which pairs of balls can touch during a step.
//
// Pairs are found with "fat" boxes, each ball's swept box grown by a skin, and kept for as
// long as every swept box stays inside its fat box: a resting pile then searches for no
// pairs at all. When a few balls leave their boxes, only their pairs are found again; when
// many do, everything is.
extension PhysicsWorld {
    /// Makes the candidate lists cover this step's swept boxes (`boxes`).
    func updateCandidates(count n: Int) {
        guard candidatesValid, fatBoxes.count == n, keepsCandidates else {
            findCandidates(count: n)
            return
        }
        let fat = fatBoxes.base, bx = boxes.base
        escaped.removeAll()
        for i in 0..<n where !fat[i].contains(bx[i]) {
            escaped.append(Int32(truncatingIfNeeded: i))
        }
        if escaped.count == 0 { return }
        if escaped.count + displaced.count > max(32, n / 16) || !refreshCandidates(count: n) {
            findCandidates(count: n)
        } else {
            candidateRefreshes += 1
        }
    }

    /// Finds again the pairs of the balls in `escaped`, with new fat boxes, and rewrites the
    /// lists; false (nothing changed but the escaped balls' fat boxes) when one of them has
    /// grown too big for the grid, and the caller must find everything.
    ///
    /// The grid still holds every ball where the last full search put it. Balls whose fat box
    /// changed since (the `displaced`) are skipped there and tested directly instead.
    func refreshCandidates(count n: Int) -> Bool {
        let st = states.base, bx = boxes.base, fat = fatBoxes.base
        let esc = escaped.base, escapedCount = escaped.count
        let escapeMark = escapeMarks.base, displacedMark = displacedMarks.base
        let skinRatio = candidateSkin
        for k in 0..<escapedCount {
            let e = Int(esc[k])
            fat[e] = fatBox(bx[e], st[e], skin: skinRatio)
            escapeMark[e] = 1
            if displacedMark[e] == 0 {
                displacedMark[e] = 1
                displaced.append(esc[k])
            }
        }
        defer {
            for k in 0..<escapedCount { escapeMark[Int(esc[k])] = 0 }
        }

        // The escaped balls' new pairs, as keys `low << 32 | high`.
        let grid = self.grid
        let starts = grid.starts.base, entries = grid.entries.base
        let oversized = grid.oversized.base, oversizedCount = grid.oversized.count
        let moved = displaced.base, movedCount = displaced.count
        var found = pairKeys
        found.removeAll()
        defer { pairKeys = found }
        @inline(__always) func key(_ i: Int32, _ j: Int32) -> UInt64 {
            let (low, high) = i < j ? (i, j) : (j, i)
            return UInt64(UInt32(bitPattern: low)) << 32 | UInt64(UInt32(bitPattern: high))
        }
        let fl = filters.base, filtering = self.filtering
        let topology = self.topology
        for k in 0..<escapedCount {
            let e32 = esc[k]
            let box = fat[Int(e32)]
            @inline(__always) func pairs(_ j: Int32) -> Bool {
                !filtering || fl[Int(e32)].pairs(with: fl[Int(j)])
            }
            var images = topology.images(of: box, extent: wrapExtent)
            while let image = images.next() {
                let x0 = grid.cell(image.minX), y0 = grid.cell(image.minY)
                let x1 = grid.cell(image.maxX), y1 = grid.cell(image.maxY)
                if (Int(x1) - Int(x0) + 1) * (Int(y1) - Int(y0) + 1) > SpatialHash.maxCellsPerBody { return false }
                for cy in y0...y1 {
                    for cx in x0...x1 {
                        let bucket = grid.bucket(cx, cy)
                        for q in Int(starts[bucket])..<Int(starts[bucket + 1]) {
                            let entry = entries[q]
                            let j = Int(entry.body)
                            if entry.cx == cx && entry.cy == cy && displacedMark[j] == 0 && j != Int(e32)
                                && fat[j].overlaps(image) && pairs(entry.body) {
                                found.append(key(e32, entry.body))
                            }
                        }
                    }
                }
            }
            for o in 0..<oversizedCount {
                let j = oversized[o]
                if displacedMark[Int(j)] == 0 && topology.overlap(fat[Int(j)], box) && pairs(j) { found.append(key(e32, j)) }
            }
            for m in 0..<movedCount {
                let j = moved[m]
                if j != e32 && topology.overlap(fat[Int(j)], box) && pairs(j) { found.append(key(e32, j)) }
            }
        }
        // Sorted, so they merge into the lists in order; a pair seen from both of its balls,
        // or in two cells, is kept once.
        let keys = found.base
        heapSort(keys, count: found.count)

        // Rewrite: an escaped ball's list is its new pairs; another's keeps its old pairs
        // with unescaped balls and gains its new pairs with escaped ones.
        let old = candidates.base, oldStarts = candidateStarts.base
        var out = spareCandidates
        out.removeAll()
        out.reserve(candidates.count + found.count)
        var outStarts = spareCandidateStarts
        outStarts.resizeUninitialized(to: n + 1)
        var q = 0
        let total = found.count
        var last: UInt64 = .max
        for a in 0..<n {
            outStarts.base[a] = Int32(truncatingIfNeeded: out.count)
            let a64 = UInt64(a)
            var p = Int(oldStarts[a])
            let end = escapeMark[a] != 0 ? p : Int(oldStarts[a + 1])
            while true {
                while p < end && escapeMark[Int(old[p])] != 0 { p += 1 }
                while q < total && keys[q] == last { q += 1 }
                let fromNew = q < total && keys[q] >> 32 == a64
                if p < end && (!fromNew || Int64(old[p]) < Int64(keys[q] & 0xFFFF_FFFF)) {
                    out.append(old[p])
                    p += 1
                } else if fromNew {
                    last = keys[q]
                    out.append(Int32(truncatingIfNeeded: keys[q] & 0xFFFF_FFFF))
                    q += 1
                } else {
                    break
                }
            }
        }
        outStarts.base[n] = Int32(truncatingIfNeeded: out.count)
        spareCandidates = candidates
        candidates = out
        spareCandidateStarts = candidateStarts
        candidateStarts = outStarts
        return true
    }

    /// Lists, for every ball, the balls of higher index whose fat boxes overlap its own: the
    /// only pairs that can make contacts until some ball's swept box leaves its fat box.
    ///
    /// A fat box is the swept box grown by a skin on every side. A ball at rest, or rolling
    /// slowly, stays inside it for many steps, so a settled pile reuses one list instead of
    /// rebuilding the grid and querying it every step. The lists come out sorted, as
    /// contacts must be, so the result is the same as querying every step.
    func findCandidates(count n: Int) {
        candidateSearches += 1
        fatBoxes.resizeUninitialized(to: n)
        candidateStarts.resizeUninitialized(to: n + 1)
        candidates.removeAll()
        candidatesValid = true
        displaced.removeAll()
        displacedMarks.fill(count: n, with: 0)
        escapeMarks.fill(count: n, with: 0)
        let st = states.base, bx = boxes.base, fat = fatBoxes.base
        let skinRatio = candidateSkin
        // The mean extent sets the cell size, each body counted at most four diameters so a
        // few fast balls do not coarsen the grid for everyone.
        var extentSum = 0.0
        var reach = 0.0
        for i in 0..<n {
            let box = fatBox(bx[i], st[i], skin: skinRatio)
            fat[i] = box
            let extent = max(box.maxX - box.minX, box.maxY - box.minY)
            extentSum += extent.isFinite ? min(extent, 8 * st[i].radius) : 8 * st[i].radius
            reach = max(reach, box.maxX - st[i].px, st[i].px - box.minX, box.maxY - st[i].py, st[i].py - box.minY)
        }
        wrapExtent = reach
        grid.rebuild(boxes: fat, count: n, cellSize: cellScale * extentSum / Double(n))

        // Four copies of the search, so the inner loop tests neither setting per entry.
        switch (filtering, topology.wraps) {
        case (false, false): gatherCandidates(count: n, filtering: false, wrapping: false)
        case (true, false): gatherCandidates(count: n, filtering: true, wrapping: false)
        case (false, true): gatherCandidates(count: n, filtering: false, wrapping: true)
        case (true, true): gatherCandidates(count: n, filtering: true, wrapping: true)
        }
        if stopped != nil { candidatesValid = false }  // cut short: search again next step
    }

    /// The search of ``findCandidates(count:)`` over the grid it built: for each ball, the
    /// higher balls whose fat boxes overlap its own (and, in a wrap-around world, its images
    /// across the seams) and whose filters let them pair.
    @inline(__always)
    private func gatherCandidates(count n: Int, filtering: Bool, wrapping: Bool) {
        let fat = fatBoxes.base, fl = filters.base
        let grid = self.grid
        let ranges = grid.ranges.base
        let oversized = grid.oversized.base, oversizedCount = grid.oversized.count
        let topology = self.topology, extent = wrapExtent
        var nbrs = neighbours
        var out = candidates
        defer {
            neighbours = nbrs
            candidates = out
        }
        let cs = candidateStarts.base
        let limit = pairLimit, ask = shouldStop
        var nextCheck = 4096
        for a in 0..<n {
            cs[a] = Int32(truncatingIfNeeded: out.count)
            // stacked balls make this search quadratic: it stops at the host's deadline or
            // memory, leaving no candidates to the balls after (the step is abandoned)
            if a & 63 == 0 || out.count >= nextCheck {
                let stop: StepStop? = out.count > limit ? .tooManyPairs(out.count) : (ask?() == true ? .asked : nil)
                if let stop {
                    stopped = stop
                    for rest in a...n { cs[rest] = Int32(truncatingIfNeeded: out.count) }
                    return
                }
                nextCheck = out.count &+ 4096
            }
            let boxA = fat[a]
            let filterA = fl[a]
            nbrs.removeAll()
            let a32 = Int32(a)
            let range = ranges[a]
            var bruteForce = range.isEmpty
            if !bruteForce {
                Self.scan(range, boxA, above: a32, grid: grid, fat: fat, into: &nbrs,
                          filtering: filtering, filter: filterA, filters: fl)
                if wrapping {
                    var images = topology.images(of: boxA, extent: extent)
                    _ = images.next()  // the box itself, done
                    while let image = images.next() {
                        let r = grid.range(of: image)
                        if r.isEmpty {
                            bruteForce = true
                        } else {
                            Self.scan(r, image, above: a32, grid: grid, fat: fat, into: &nbrs,
                                      filtering: filtering, filter: filterA, filters: fl)
                        }
                    }
                }
                for o in 0..<oversizedCount {
                    let b = oversized[o]
                    if b > a32 && topology.overlap(fat[Int(b)], boxA) && (!filtering || filterA.pairs(with: fl[Int(b)])) {
                        nbrs.append(b)
                    }
                }
            }
            if bruteForce {
                // Every higher ball whose fat box overlaps (wrapped or not).
                for b in (a + 1)..<max(n, a + 1)
                where topology.overlap(fat[b], boxA) && (!filtering || filterA.pairs(with: fl[b])) {
                    nbrs.append(Int32(b))
                }
            }
            let found = nbrs.count
            if found == 0 { continue }
            let nb = nbrs.base
            // A pair met in several cells appears several times: sort, then skip repeats.
            // Each cell yields its bodies in descending order, so sort descending (usually
            // already done) and walk the list backwards.
            if found > 1 {
                for i in 1..<found {
                    let v = nb[i]
                    var j = i - 1
                    while j >= 0 && nb[j] < v {
                        nb[j + 1] = nb[j]
                        j -= 1
                    }
                    nb[j + 1] = v
                }
            }
            var last: Int32 = -1
            for i in stride(from: found - 1, through: 0, by: -1) where nb[i] != last {
                last = nb[i]
                out.append(last)
            }
        }
        cs[n] = Int32(truncatingIfNeeded: out.count)
    }
}

extension PhysicsWorld {
    /// A ball's fat box: its swept box `box` grown by the skin (a fraction of its radius) and
    /// stretched ahead by ``candidateLead`` more steps of its motion, so a falling or flying
    /// ball keeps its pairs for a few steps instead of being searched again every step.
    @inline(__always)
    func fatBox(_ box: AABB, _ s: BodyState, skin: Double) -> AABB {
        var fat = box.grown(by: skin * s.radius)
        let t = leadTime, g = acceleration
        let dx = (s.vx * t + g.x * t * t) * candidateLead, dy = (s.vy * t + g.y * t * t) * candidateLead
        if dx.isFinite && dy.isFinite {
            if dx > 0 { fat.maxX += dx } else { fat.minX += dx }
            if dy > 0 { fat.maxY += dy } else { fat.minY += dy }
        }
        return fat
    }

    /// Appends to `nbrs` the balls above `a32` in the cells of `range` whose fat boxes overlap
    /// `box` (and, when `filtering`, whose filters pair with `filter`).
    @inline(__always)
    static func scan(_ range: SpatialHash.CellRange, _ box: AABB, above a32: Int32, grid: SpatialHash,
                     fat: UnsafeMutablePointer<AABB>, into nbrs: inout Column<Int32>,
                     filtering: Bool, filter: BodyFilter, filters: UnsafeMutablePointer<BodyFilter>) {
        let starts = grid.starts.base, entries = grid.entries.base
        for cy in range.y0...range.y1 {
            for cx in range.x0...range.x1 {
                let bucket = grid.bucket(cx, cy)
                let begin = Int(starts[bucket])
                var e = Int(starts[bucket + 1]) - 1
                // Buckets are in body order: stop at the first body already paired.
                nbrs.reserve(nbrs.count + e - begin + 1)
                while e >= begin {
                    let entry = entries[e]
                    if entry.body <= a32 { break }
                    // Every test is made and the outcomes combined as bits: `&&` would branch
                    // on each, and whether a box overlaps is a coin toss to the predictor.
                    let sameCell = (entry.cx == cx ? 1 : 0) & (entry.cy == cy ? 1 : 0)
                    let overlap = fat[Int(entry.body)].overlapsBranchless(box) ? 1 : 0
                    var hit = sameCell & overlap != 0
                    if filtering { hit = hit && filter.pairs(with: filters[Int(entry.body)]) }
                    nbrs.append(entry.body, keeping: hit)
                    e -= 1
                }
            }
        }
    }
}

/// Sorts `count` keys ascending in place, without allocating.
func heapSort(_ keys: UnsafeMutablePointer<UInt64>, count n: Int) {
    if n < 2 { return }
    @inline(__always) func siftDown(_ start: Int, _ end: Int) {
        var root = start
        while true {
            var child = 2 * root + 1
            if child >= end { return }
            if child + 1 < end && keys[child] < keys[child + 1] { child += 1 }
            if keys[root] >= keys[child] { return }
            let t = keys[root]
            keys[root] = keys[child]
            keys[child] = t
            root = child
        }
    }
    for start in stride(from: n / 2 - 1, through: 0, by: -1) { siftDown(start, n) }
    for end in stride(from: n - 1, to: 0, by: -1) {
        let t = keys[0]
        keys[0] = keys[end]
        keys[end] = t
        siftDown(0, end)
    }
}
