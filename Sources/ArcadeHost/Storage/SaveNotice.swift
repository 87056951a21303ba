/// Something the player should know about the save file: it was damaged and moved aside, it
/// cannot be used, it stopped working during play. ``message`` is the whole sentence (for
/// stderr once the arcade quits); ``short`` fits a line or two of the screen, where the
/// interactive arcade shows it for a few seconds.
public struct SaveNotice: Sendable, Equatable, CustomStringConvertible {
    /// The whole sentence: what happened, to which file, and what the arcade did about it.
    public var message: String
    /// The gist, for the screen: "Saves are kept in memory until you quit: the disk is full."
    public var short: String

    public init(message: String, short: String) {
        self.message = message
        self.short = short
    }

    public var description: String { message }

    /// What is said whenever saves end up in memory: they do not outlive the arcade.
    static let lostOnQuit = "this session's saves will be lost when the arcade quits"
}
