/// An answer the terminal sent to one of our queries, found in the input stream.
///
/// Replies arrive mixed in with keys, so the decoder takes them out of the stream (they never
/// become key events) and keeps them for whoever asked.
public enum TerminalReply: Hashable, Sendable {
    /// `CSI ? flags u`: the terminal speaks the kitty keyboard protocol and these
    /// progressive-enhancement flags are active.
    case keyboardFlags(Int)
    /// `CSI ? ... c`: the primary device attributes. Every terminal answers this, so when it
    /// arrives without a `keyboardFlags` reply before it, the kitty protocol is unsupported.
    case primaryDeviceAttributes
    /// `CSI 0 n` (or `CSI 3 n`): the answer to a device status query (`CSI 5 n`), which the
    /// arcade sends behind each frame to learn when the terminal has it (frame pacing).
    case deviceStatus
}
