import ArcadeRender

/// Turns each displayed frame into the bytes a terminal is sent (what changed since the last
/// one), and counts them for the profiler: the interactive loop after each batch of steps,
/// and a headless run that profiles or records a cast after every step.
final class FrameOutput {
    let encoder: FrameEncoder
    /// The last frame's bytes.
    private(set) var bytes: [UInt8] = []

    init(colorMode: ColorMode) {
        encoder = FrameEncoder(colorMode: colorMode)
    }

    /// Encodes `frame` into ``bytes``, adding the time to the profiler's encode row and the
    /// frame and its bytes to its counts.
    @discardableResult
    func encode(_ frame: Frame, profile: ProfileCounters?) -> [UInt8] {
        bytes.removeAll(keepingCapacity: true)
        let start = profile != nil ? ProfileClock.now() : 0
        encoder.encode(frame, into: &bytes)
        if let profile {
            profile.add(.encode, since: start)
            profile.frames += 1
            profile.bytes += bytes.count
        }
        return bytes
    }
}
