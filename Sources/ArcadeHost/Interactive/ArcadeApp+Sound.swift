import ArcadeLua

/// The arcade's sound: the mute key on the pause card, remembered in the saves, and the
/// end of the speaker and of the `--wav` recording.
extension ArcadeApp {
    /// The key that mutes and unmutes on the pause card.
    static let muteKey = "m"
    /// Where the arcade keeps its own settings in the saves: no game id has a colon.
    static let settingsSlot = "arcade:settings"

    /// Mutes or unmutes the speaker, and remembers it.
    func toggleMute() {
        muted.toggle()
        speaker?.muted = muted
        do { try options.store?.slot(for: Self.settingsSlot).setValue(muted ? .bool(true) : nil, forKey: "muted") } catch {
            options.log("sound: cannot remember the mute: \(error)")
        }
    }

    /// Whether the player muted the sound in an earlier run.
    func loadMuted() -> Bool {
        (try? options.store?.slot(for: Self.settingsSlot).value(forKey: "muted")) == .bool(true)
    }

    /// Closes the speaker and writes the `--wav` file (a failure goes to the log: the path was
    /// checked before the arcade started).
    func finishSound() {
        speaker?.close()
        if let wav, let problem = wav.finish() { options.log("cannot write the sound '\(wav.path)': \(problem)") }
    }
}
