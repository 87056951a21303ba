#if canImport(Glibc)
import Glibc
#endif

/// A game chooses what its errors say: `error(string.rep("x", 5e6))`, or a table whose
/// `__tostring` returns megabytes. Every message is shown by the host (the error card, whose
/// text is wrapped every frame; stderr; the log), so an error's text is cut here, where a
/// failed call's value first becomes a ``LuaError``, to a length any of them shows at once.
/// (The `__tostring` itself runs in the message handler, inside the call, so under the
/// callback's time budget and memory cap like any of the game's code.)
extension LuaError {
    /// The longest message kept, in bytes of UTF-8: far more than the error card shows.
    public static let maxMessageBytes = 2048
    /// The longest traceback kept (Lua's own has at most 22 levels, well under this).
    public static let maxTracebackBytes = 8192

    /// The error value `bytes` (the message handler's: the message, then Lua's
    /// `stack traceback:` block) as its message and traceback (nil when there is none), each
    /// cut to its bound. The text is read in place, so a huge one costs one search, not a
    /// copy.
    static func messageAndTraceback(_ bytes: UnsafeRawBufferPointer) -> (message: String, traceback: String?) {
        guard let found = firstTraceback(in: bytes) else { return (clipped(bytes, to: maxMessageBytes), nil) }
        let head = UnsafeRawBufferPointer(rebasing: bytes[..<found])
        let tail = UnsafeRawBufferPointer(rebasing: bytes[(found + 1)...])
        return (clipped(head, to: maxMessageBytes), clipped(tail, to: maxTracebackBytes))
    }

    /// Where the first `\nstack traceback:\n` starts in `bytes`: `memchr` from newline to
    /// newline, then `memcmp` (C's speed, whatever the build).
    private static func firstTraceback(in bytes: UnsafeRawBufferPointer) -> Int? {
        let marker: StaticString = "\nstack traceback:\n"
        guard let base = bytes.baseAddress else { return nil }
        var at = 0
        while bytes.count - at >= marker.utf8CodeUnitCount {
            guard let hit = memchr(base + at, 0x0A, bytes.count - at) else { return nil }
            at = base.distance(to: UnsafeRawPointer(hit))
            guard bytes.count - at >= marker.utf8CodeUnitCount else { return nil }
            if memcmp(base + at, marker.utf8Start, marker.utf8CodeUnitCount) == 0 { return at }
            at += 1
        }
        return nil
    }

    /// `bytes` as text, cut to at most `limit` bytes at a character's start and then saying
    /// how long it was.
    static func clipped(_ bytes: UnsafeRawBufferPointer, to limit: Int) -> String {
        guard bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
        var end = limit
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
            + "... (cut: \(bytes.count) bytes in all)"
    }
}
