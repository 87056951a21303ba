import ArcadeCore
import ArcadeLua

/// The game's sound: its `.sfx` files, and each step's samples mixed and sent to the sinks.
extension GameSession {
    /// The folders of a game `.sfx` files are read from, relative to its folder: the game's
    /// own and `sfx/`.
    static let soundFolders = ["", "sfx/"]

    /// The sounds of the game's `.sfx` files, each named after its file (`coin.sfx`: "coin").
    ///
    /// - Throws: ``LuaError`` naming the file and the line of the first mistake.
    static func soundFiles(of entry: GameEntry) throws(LuaError) -> [(name: String, spec: SoundSpec)] {
        var sounds: [(name: String, spec: SoundSpec)] = []
        for rel in soundFilePaths(in: entry.folder) {
            let shown = "\(entry.id)/\(rel)"
            guard let text = FileIO.readText(entry.folder + "/" + rel, within: entry.folder, limit: SoundFile.maxBytes) else {
                throw LuaError(kind: .file, message: "\(shown): cannot read the file (at most \(SoundFile.maxBytes >> 10) KiB)")
            }
            let name = String(rel.split(separator: "/").last!.dropLast(4))
            guard name.utf8.count <= SoundModule.maxNameBytes else {
                throw LuaError(kind: .file, message: "\(shown): a sound's name is at most \(SoundModule.maxNameBytes) bytes")
            }
            do { sounds.append((name, try SoundFile.parse(text, name: shown))) } catch {
                throw LuaError(kind: .runtime, message: error.description)
            }
        }
        return sounds
    }

    /// Defines `sounds` in `module`; one past the memory cap stops there.
    static func define(_ sounds: [(name: String, spec: SoundSpec)], in module: SoundModule) throws(LuaError) {
        for (name, spec) in sounds {
            do { try module.define(name, spec) } catch {
                throw LuaError(kind: .memory, message: "\(name).sfx: \(error)")
            }
        }
    }

    /// Mixes this step's samples (a step's share of the mixer's rate, so the sound keeps the
    /// game's clock at any step rate) and hands them to every sink; with none, the synth
    /// only moves on.
    func mixSound() {
        let rate = sound.mixer.sampleRate
        let steps = max(options.stepRate, 1)
        let count = (mixedSteps + 1) * rate / steps - mixedSteps * rate / steps
        mixedSteps += 1
        guard !soundSinks.isEmpty else {
            sound.mixer.advance(count)
            return
        }
        if soundBuffer.count != count { soundBuffer = Array(repeating: 0, count: count) }
        soundBuffer.withUnsafeMutableBufferPointer { sound.mixer.render(into: $0) }
        soundBuffer.withUnsafeBufferPointer { samples in
            for sink in soundSinks { sink.write(samples) }
        }
    }
}

/// The `.sfx` files of a game's folder `folder` (paths relative to it), sorted.
func soundFilePaths(in folder: String) -> [String] {
    GameSession.soundFolders.flatMap { sub in
        directoryEntries(folder + "/" + sub).filter { $0.hasSuffix(".sfx") && $0.count > 4 && !$0.hasPrefix(".") }
            .map { sub + $0 }
            .filter { !isDirectory(folder + "/" + $0) }
    }
}
