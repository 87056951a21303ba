/// The parts of a step, in the order a step runs them: each kind of Lua callback and each
/// piece of native work. The step timer times them, the step's budget message names them
/// and the profiler adds them up under its own rows.
enum StepPhase: Int, CaseIterable {
    /// `input(event)`, once per event.
    case input
    /// The due timers' callbacks.
    case timerCallbacks
    /// `update(dt)`.
    case update
    /// Animations advanced natively.
    case animation
    /// Animation completion callbacks.
    case animationCallbacks
    /// Physics worlds stepped natively.
    case physics
    /// Contact and removal callbacks.
    case physicsCallbacks

    /// Its name in a budget message.
    var name: String {
        switch self {
        case .input: "input()"
        case .timerCallbacks: "timer callbacks"
        case .update: "update()"
        case .animation: "animation"
        case .animationCallbacks: "animation callbacks"
        case .physics: "physics"
        case .physicsCallbacks: "physics callbacks"
        }
    }

    /// Whether a budget message counts its calls ("timer callbacks 0.98 s in 200 calls"):
    /// true for the callbacks that may run many times a step.
    var countsCalls: Bool {
        switch self {
        case .input, .timerCallbacks, .animationCallbacks, .physicsCallbacks: true
        case .update, .animation, .physics: false
        }
    }

    /// The profiler's row its time goes to.
    var profilePhase: ProfilePhase {
        switch self {
        case .animation: .animation
        case .physics: .physics
        case .input, .timerCallbacks, .update, .animationCallbacks, .physicsCallbacks: .lua
        }
    }
}
