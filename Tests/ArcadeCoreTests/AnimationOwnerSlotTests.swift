import Testing
@testable import ArcadeCore

/// A target with fields records the engine's owner entry for it there: the entry must be
/// found while animations run, forgotten when the last one ends (or the target is freed, or
/// the engine goes), and two engines animating one target must each keep their own.
@Suite struct AnimationOwnerSlotTests {
    func fade(_ to: Double, duration: Double = 1) -> Animation {
        Animation(.basic(.alpha, from: nil, to: .s(to)), duration: duration)
    }

    func move(_ to: Double, duration: Double = 1) -> Animation {
        Animation(.basic(.x, from: nil, to: .s(to)), duration: duration)
    }

    /// The place costs no room: a node's fields stay seven words (a flight writes them every
    /// step), and an owner entry takes four (the fourth is what the flights' check last read
    /// of the target's held-elsewhere bit).
    @Test func thePlaceKeepsTheFieldsAndEntriesSmall() {
        #expect(MemoryLayout<AnimatableFields>.size == 56)
        #expect(MemoryLayout<TargetOwner>.stride == 32)
    }

    @Test func theSlotIsClaimedWhileAnimationsRunAndFreedAfterTheLast() throws {
        let animator = Animator()
        let sprite = FieldSprite()
        #expect(sprite.fields.pointee.ownerEngine == 0)
        try animator.start(fade(0), on: sprite)
        try animator.start(move(5, duration: 0.5), on: sprite)
        #expect(sprite.fields.pointee.ownerEngine == animator.engineTag)
        #expect(animator.byObject.isEmpty)
        animator.run(steps: 40)  // the move ends, the fade runs on
        #expect(sprite.fields.pointee.ownerEngine == animator.engineTag)
        animator.run(steps: 30)
        #expect(animator.runningCount == 0)
        #expect(sprite.fields.pointee.ownerEngine == 0)
        // a new start finds no stale entry: one run, cancelled alone
        try animator.start(fade(1), on: sprite)
        #expect(animator.cancelAll(on: sprite) == 1)
        #expect(sprite.fields.pointee.ownerEngine == 0)
    }

    @Test func replacingAndCancellingFindTheRunsThroughTheSlot() throws {
        let animator = Animator()
        let sprites = (0..<50).map { _ in FieldSprite() }
        for s in sprites {
            try animator.start(fade(0), on: s)
            try animator.start(move(3), on: s)
        }
        // reuses freed owner entries: the slots must name each sprite's own
        for s in sprites.prefix(25) { try animator.start(fade(0.5), on: s) }  // replaces the fade
        _ = animator.drain()
        #expect(animator.runningCount == 100)
        for (k, s) in sprites.enumerated() {
            #expect(animator.cancelAll(on: s) == 2, "sprite \(k)")
            #expect(s.fields.pointee.ownerEngine == 0)
        }
        #expect(animator.runningCount == 0)
    }

    @Test func aFreedTargetLeavesNoEntryForTheNextOne() throws {
        let animator = Animator()
        var first: FieldSprite? = FieldSprite()
        try animator.start(fade(0), on: first!)
        first = nil
        animator.run(steps: 1)  // ends (targetGone) and frees it
        #expect(animator.runningCount == 0)
        // new targets (one may take the freed one's memory) start with no entry
        for _ in 0..<20 {
            let s = FieldSprite()
            #expect(s.fields.pointee.ownerEngine == 0)
            try animator.start(fade(0), on: s)
            try animator.start(move(1), on: s)
            #expect(animator.cancelAll(on: s) == 2)
        }
    }

    @Test func twoEnginesOnOneTargetKeepTheirOwnEntries() throws {
        let a = Animator(), b = Animator()
        let sprite = FieldSprite()
        try a.start(fade(0), on: sprite)
        try b.start(move(4), on: sprite)
        #expect(sprite.fields.pointee.ownerEngine == a.engineTag)
        #expect(b.byObject.count == 1)
        // replacing in one engine leaves the other's run alone
        try b.start(move(8), on: sprite)
        #expect(a.runningCount == 1 && b.runningCount == 1)
        #expect(a.cancelAll(on: sprite) == 1)
        #expect(sprite.fields.pointee.ownerEngine == 0)
        // b still finds its run in its table, and a start now claims the slot for b
        try b.start(fade(1), on: sprite)
        #expect(b.cancelAll(on: sprite) == 2)
        #expect(b.byObject.isEmpty)
        #expect(sprite.fields.pointee.ownerEngine == 0)
    }

    /// Engines' tags are bits of their addresses, so two live engines may share one: each
    /// must still find only its own entries.
    @Test func twoEnginesWithOneTagKeepTheirOwnEntries() throws {
        let a = Animator(), b = Animator()
        b.engineTag = a.engineTag
        let sprites = (0..<6).map { _ in FieldSprite() }
        for s in sprites { try a.start(fade(0), on: s) }
        // b's entries go to its table, in another order than a's
        for s in sprites.reversed() { try b.start(move(4), on: s) }
        for s in sprites.prefix(3) { try b.start(fade(1), on: s) }
        #expect(b.byObject.count == 6)
        for s in sprites.prefix(3) { #expect(a.cancelAll(on: s) == 1) }
        for (k, s) in sprites.enumerated() {
            #expect(b.cancelAll(on: s) == (k < 3 ? 2 : 1), "sprite \(k)")
        }
        // b's new entries claim the freed places; a still finds its own through its tag
        for s in sprites.prefix(3) { try b.start(move(2), on: s) }
        for s in sprites.suffix(3) { #expect(a.cancelAll(on: s) == 1) }
        for s in sprites.prefix(3) { #expect(b.cancelAll(on: s) == 1) }
        #expect(a.runningCount == 0 && b.runningCount == 0)
        #expect(a.byObject.isEmpty && b.byObject.isEmpty)
    }

    @Test func anEngineThatGoesReleasesTheSlotsItHeld() throws {
        let sprite = FieldSprite()
        var gone: Animator? = Animator()
        try gone!.start(fade(0), on: sprite)
        #expect(sprite.fields.pointee.ownerEngine != 0)
        gone = nil
        #expect(sprite.fields.pointee.ownerEngine == 0)
        // a later engine (perhaps at the same address) starts afresh
        let animator = Animator()
        try animator.start(fade(0), on: sprite)
        try animator.start(move(2), on: sprite)
        #expect(animator.cancelAll(on: sprite) == 2)
    }
}
