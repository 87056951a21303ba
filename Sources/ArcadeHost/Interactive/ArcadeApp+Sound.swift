import ArcadeLua

/// The arcade's sound: the mute key on the pause card, remembered with the other settings
/// (``HostSettings/muted``, also on the settings card), and the end of the speaker and of the
/// `--wav` recording.
extension ArcadeApp {
    /// The key that mutes and unmutes on the pause card.
    static let muteKey = "m"

    /// Whether the sound is off.
    var muted: Bool { settings.muted }

    /// Mutes or unmutes the speaker, and remembers it.
    func toggleMute() {
        settings.muted.toggle()
        speaker?.muted = settings.muted
        guard let store = options.store else { return }
        do { try store.saveHostSettings(settings) } catch {
            options.log("sound: cannot remember the mute: \(error.message)")
        }
    }

    /// Closes the speaker and writes the `--wav` file (a failure goes to the log: the path was
    /// checked before the arcade started).
    func finishSound() {
        speaker?.close()
        if let wav, let problem = wav.finish() { options.log("cannot write the sound '\(wav.path)': \(problem)") }
    }
}
