/// The parts a displayed frame's work is split into, as the profiler (F3, `--profile`)
/// reports them.
public enum ProfilePhase: Int, CaseIterable, Sendable {
    /// Every Lua callback: `input`, timers, `update`, animation completions, physics
    /// events and `draw`, with the native calls they make.
    case lua
    /// Animations advanced natively.
    case animation
    /// Physics worlds stepped natively.
    case physics
    /// The scene drawn into the canvas and the canvas turned into a frame of cells.
    case compose
    /// The frame turned into terminal bytes.
    case encode

    /// The name shown in the overlay and the `--profile` table.
    public var name: String {
        switch self {
        case .lua: "lua"
        case .animation: "animation"
        case .physics: "physics"
        case .compose: "compose"
        case .encode: "encode"
        }
    }
}
