#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// Writes a recording as the game is played: the header, then each input event with the
/// step it was delivered at, one line each, flushed as it goes so a crash keeps what came
/// before it, and last the step the run stopped at (`<n> end`), so a replay stops there.
/// The format is the input-script format (`InputScript`).
public final class InputRecorder {
    private var fd: Int32
    public let path: String
    /// Why the file could not be written, if it could not.
    public private(set) var problem: String?

    public init(path: String, game: String, seed: UInt64, cols: Int, rows: Int, speed: Int = 100) {
        self.path = path
        switch FileIO.openForWriting(path) {
        case .success(let opened):
            fd = opened
        case .failure(let why):
            fd = -1
            problem = Self.problem(path, why)
            return
        }
        write(InputScript(header: .init(game: game, seed: seed, cols: cols, rows: rows, speed: speed)).text())
    }

    /// Why a recording could not be written at `path` (a FIFO, a folder, a missing folder...),
    /// or nil when it can: checked before the arcade takes the terminal, so the player hears
    /// of it at once. The file is created (empty) if missing, and left as it is if not.
    public static func problem(writingTo path: String) -> String? {
        FileIO.writeProblem(path).map { problem(path, $0) }
    }

    private static func problem(_ path: String, _ why: FileIO.WriteProblem) -> String {
        "cannot write the recording '\(path)': \(why)"
    }

    deinit { finish(at: nil) }

    /// Appends one event delivered at the start of step `frame`.
    public func record(_ event: InputEvent, frame: Int) {
        write("\(frame) \(InputScript.describe(event))\n")
    }

    /// Writes the `end` line (when `frame`, the steps the game ran, is known) and closes the file.
    public func finish(at frame: Int?) {
        if let frame { write("\(frame) end\n") }
        if fd >= 0 { close(fd) }
        fd = -1
    }

    private func write(_ text: String) {
        guard fd >= 0, !FileIO.writeAll(fd, text) else { return }
        problem = "writing the recording failed: \(String(cString: strerror(errno)))"
    }
}
