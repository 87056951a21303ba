extension Column {
    /// Bytes allocated, in use or not.
    var bytes: Int { capacity * MemoryLayout<Element>.stride }
}

extension PhysicsWorld {
    /// Bytes the world's storage takes now: bodies, walls, contacts and the broad phase at
    /// their allocated capacity. Contacts grow with how many balls touch, so a host that
    /// counts this against a memory cap (after each step) also counts a pile of overlapping
    /// balls, not only how many there are.
    public var storageBytes: Int {
        var total = states.bytes + angles.bytes + materials.bytes + bodyIDs.bytes + boxes.bytes + startPositions.bytes
            + pseudoVelocities.bytes + overlapRows.bytes + filters.bytes
        total += bindings.capacity * MemoryLayout<BodyBinding?>.stride
            + (slotIndex.capacity + slotGeneration.capacity + freeSlots.capacity) * 4
        total += walls.capacity * MemoryLayout<WallRecord>.stride + wallGeometry.bytes
        total += ballContacts.bytes + keyRank.bytes + lastBallContacts.bytes + sortedBallContacts.bytes
            + earlierBallContacts.bytes
            + wallContacts.bytes + previousWallContacts.bytes + pendingBallBounces.bytes + pendingWallBounces.bytes
            + bounceRows.bytes + struckMarks.bytes + pressers.bytes
            + sensorBallPairs.bytes + sensorWallPairs.bytes + sensorBallTouches.bytes + sensorWallTouches.bytes
            + spareSensorTouches.bytes
        total += grid.bytes + neighbours.bytes + colorMasks.bytes + contactColors.bytes + colorStarts.bytes
            + remap.bytes + doomed.bytes + wallEvents.bytes + ballEvents.bytes
        return total
    }
}

extension SpatialHash {
    /// Bytes allocated by the grid (its cursors take as much as its starts).
    var bytes: Int { 2 * starts.bytes + entries.bytes + ranges.bytes + oversized.bytes }
}
