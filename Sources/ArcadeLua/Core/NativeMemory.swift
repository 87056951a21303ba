import CLua

/// Thrown by a binding when a native object the script asked for would take the game past
/// its memory cap: the script gets a memory error (file, line, what was refused) instead of
/// the process running out of memory.
public struct LuaMemoryLimitError: Error, CustomStringConvertible {
    /// What was refused, for the message: "an image of 20000 x 20000 pixels".
    public var what: String
    /// The bytes it would have taken.
    public var bytes: Int

    public var description: String { "\(what) needs \(NativeCost.describe(bytes: bytes))" }
}

/// The memory accounting of a game's native objects.
///
/// The memory cap (``LuaVM/Limits/memoryBytes``) covers the Lua heap *and* what the game
/// holds natively: scene nodes, images, animations, timers, physics worlds, balls and walls.
/// Each native module keeps a ``NativeAccount`` up to date with what it holds (an estimate
/// per object, from ``NativeCost``) whenever it creates or releases objects; the VM keeps
/// the sum, checks it before every native allocation a script asks for, and the Lua
/// allocator refuses memory once the two together would pass the cap. So a game that
/// creates objects without end gets a memory error naming the line, and a game that
/// releases what it creates never does.
extension LuaVM {
    /// Bytes charged for the game's native objects.
    public var nativeBytes: Int { state.pointee.native_bytes }

    /// Charges (positive) or credits (negative) native bytes; see ``NativeAccount``.
    public func adjustNativeBytes(by delta: Int) {
        state.pointee.native_bytes = max(0, state.pointee.native_bytes.addingSaturating(delta))
    }

    /// Bytes still free under the cap (Lua heap and native objects together).
    public var availableMemory: Int {
        let used = state.pointee.mem_used.addingSaturating(state.pointee.native_bytes)
        return max(0, limits.memoryBytes - used)
    }

    /// Checks that `bytes` more would fit under the cap, leaving ``nativeHeadroom`` free,
    /// before a native allocation the script sized; throws ``LuaMemoryLimitError`` (a memory
    /// error in the script, naming the line and what was refused) when not.
    ///
    /// Like Lua's own allocator, it collects the garbage once before giving up: the heap's
    /// count includes garbage not collected yet.
    public func reserveNative(_ bytes: Int, for what: @autoclosure () -> String) throws(LuaMemoryLimitError) {
        guard bytes > 0 else { return }
        let needed = bytes.addingSaturating(nativeHeadroom)
        guard needed > availableMemory else { return }
        arcade_full_gc(state.pointee.running ?? L)
        if needed > availableMemory { throw LuaMemoryLimitError(what: what(), bytes: bytes) }
    }

    /// What native allocations leave free for Lua: a sixteenth of the cap. A game that makes
    /// objects without end is so stopped by the check that names the object and the line,
    /// rather than by whichever small Lua allocation comes next.
    public var nativeHeadroom: Int { limits.memoryBytes / 16 }

    /// The message of a refused native allocation (after its `file:line: `).
    func memoryRefusalMessage(_ e: LuaMemoryLimitError) -> String {
        let label = state.pointee.budget_label.map { String(cString: $0) } ?? "the game"
        let lua = NativeCost.describe(bytes: memoryInUse)
        let native = NativeCost.describe(bytes: nativeBytes)
        return "\(label) exceeded its memory limit (\(limits.memoryBytes >> 20) MiB): \(e) (the game holds \(lua) in Lua and \(native) in native objects)"
    }
}

/// A module's share of the game's native memory: what it last reported to its VM.
public struct NativeAccount {
    private var reported = 0

    public init() {}

    /// Reports `bytes` as what the module holds now: the VM is charged or credited the
    /// difference from the last report. O(1); modules call it after creating or releasing.
    public mutating func report(_ bytes: Int, to vm: LuaVM) {
        guard bytes != reported else { return }
        vm.adjustNativeBytes(by: bytes - reported)
        reported = bytes
    }
}

/// What each native object is charged against the game's memory cap: estimates of what the
/// arcade really holds for it (the object, its bookkeeping, its content), rounded up.
public enum NativeCost {
    /// A scene node of any kind, before its content.
    public static let node = 384
    /// Per byte of a text or label node's text.
    public static let textByte = 1
    /// Per pixel of an image frame or a rendered label.
    public static let pixel = 4
    /// An image (a flipbook), before its pixels.
    public static let image = 128
    /// Per frame of an image, before its pixels.
    public static let frame = 64
    /// Per point of a line node.
    public static let point = 16
    /// A pending timer and its callback.
    public static let timer = 160
    /// An animation's completion callback (the animation itself is charged for the
    /// engine storage it takes: 32 bytes per node, 8 per number).
    public static let animationCallback = 96
    /// A physics world, before its bodies.
    public static let world = 4096
    /// A ball in a physics world.
    public static let ball = 512
    /// A wall in a physics world.
    public static let wall = 256

    /// `a * b` (and more factors), saturating instead of trapping on overflow.
    public static func product(_ factors: Int...) -> Int {
        var r = 1
        for f in factors {
            let (p, overflow) = r.multipliedReportingOverflow(by: max(0, f))
            r = overflow ? .max : p
        }
        return r
    }

    /// `1.5 MiB`, `12 KiB`, `300 bytes`.
    public static func describe(bytes: Int) -> String {
        func tenths(_ v: Double) -> String {
            let t = (v * 10).rounded()
            return t.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(t / 10))" : "\(t / 10)"
        }
        switch bytes {
        case ..<1024: return "\(bytes) bytes"
        case ..<(1 << 20): return "\(tenths(Double(bytes) / 1024)) KiB"
        case ..<(1 << 30): return "\(tenths(Double(bytes) / Double(1 << 20))) MiB"
        default: return "\(tenths(Double(bytes) / Double(1 << 30))) GiB"
        }
    }
}

extension Int {
    /// `self + other`, saturating at `Int.max`.
    func addingSaturating(_ other: Int) -> Int {
        let (s, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : s
    }
}
