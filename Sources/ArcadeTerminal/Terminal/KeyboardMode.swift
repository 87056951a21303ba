/// How the terminal reports keys, which decides whether key releases are real or inferred.
public enum KeyboardMode: Hashable, Sendable {
    /// The kitty-protocol query is out and unanswered; keys are read the legacy way meanwhile.
    case probing
    /// No kitty protocol: presses and repeats only, releases are inferred by `KeyHoldTracker`.
    case legacy
    /// The kitty keyboard protocol is on: every key reports press, repeat and release.
    case kitty
}
