#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// Where a game's mixed samples go after each step: a speaker, a WAV file. Called on the
/// game's thread with each step's samples (16-bit mono at the mixer's rate); it must not
/// block.
public protocol SoundSink: AnyObject {
    func write(_ samples: UnsafeBufferPointer<Int16>)
}

/// `--wav FILE`: keeps every sample the game played, on the game's clock, and writes them
/// as a WAV file at the end. The same game, seed and input give the same bytes.
public final class WAVRecorder: SoundSink {
    public let path: String
    public let sampleRate: Int
    public private(set) var samples: [Int16] = []

    public init(path: String, sampleRate: Int = Mixer.defaultSampleRate) {
        self.path = path
        self.sampleRate = sampleRate
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) {
        self.samples.append(contentsOf: samples)
    }

    /// The file's bytes.
    public var bytes: [UInt8] { WAVFile.encode(samples, sampleRate: sampleRate) }

    /// Writes the file; nil when it was written, else why not.
    public func finish() -> FileIO.WriteProblem? {
        let fd: Int32
        switch FileIO.openForWriting(path) {
        case .success(let opened): fd = opened
        case .failure(let problem): return problem
        }
        defer { _ = close(fd) }
        let ok = bytes.withUnsafeBytes { FileIO.writeAll(fd, $0) }
        return ok ? nil : FileIO.WriteProblem(description: "not all of it could be written")
    }

    /// Refuses, before anything runs, a path that could not be written.
    public static func problem(writingTo path: String) -> String? {
        FileIO.writeProblem(path).map { "cannot write the sound to '\(path)': \($0)" }
    }
}
