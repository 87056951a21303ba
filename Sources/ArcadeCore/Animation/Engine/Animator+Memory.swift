extension Animator {
    /// Bytes the engine's storage takes now: every buffer at its allocated capacity, in use
    /// or kept for reuse. Like ``storageFootprint`` it grows to the high-water mark of
    /// concurrent animations and stays there, so a host that counts it against a memory cap
    /// sees a game that starts and ends animations forever hold steady.
    public var storageBytes: Int {
        func bytes<T>(_ count: Int, _: T.Type) -> Int { count * MemoryLayout<T>.stride }
        var total = bytes(heads.capacity, RunHead.self) + bytes(runs.capacity, Run.self)
            + bytes(owners.capacity, TargetOwner.self)
        total += bytes(nodes.storage.capacity, AnimationNode.self) + bytes(numbers.storage.capacity, Double.self)
            + bytes(indices.storage.capacity, Int32.self)
        total += bytes(curves.curves.capacity, TimingCurve.self) + bytes(curves.tableStarts.capacity, Int32.self)
            + bytes(curves.bezierTables.storage.capacity, Double.self)
        total += flights.bytes
        // dictionary entries, free lists, completions and the compile scratch
        total += byObject.capacity * 32 + (freeRuns.capacity + freeOwners.capacity) * 4
            + bytes(completions.capacity, AnimationCompletion.self) + ended.capacity * 32
        total += bytes(scratch.entries.capacity, CompileScratch.Entry.self)
            + (scratch.values.capacity + scratch.models.capacity) * 8
            + bytes(scratch.curves.capacity + scratch.properties.capacity, TimingCurve.self)
        return total
    }
}
