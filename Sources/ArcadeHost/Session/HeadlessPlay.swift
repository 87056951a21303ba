import ArcadeCore
import ArcadeLua
import ArcadePicture
import ArcadeRender

/// `arcade play <id> --headless`: runs a game from an input script or a recording without a
/// terminal, then writes what the flags asked for: the `--profile` table and any failure on
/// stderr, the `--record` recording, the `--wav` sound, and on stdout the final frame (`--dump-frame`),
/// `game.state` (`--state`) and what the game holds (`--stats`).
public struct HeadlessPlay {
    /// How `--dump-frame` prints the final frame.
    public enum FrameDump: Sendable {
        /// Plain characters (`▀ ▄ █` where pixels differ from the background).
        case plain
        /// With the ANSI colours a terminal shows.
        case ansi
    }

    /// Where its text goes.
    public struct Streams {
        /// Standard output, for text (the sink escapes control bytes).
        public var out: (String) -> Void
        /// Standard output, for bytes meant for a terminal as they are (`--dump-frame ansi`).
        public var outRaw: (String) -> Void
        /// Standard error.
        public var err: (String) -> Void

        public init(out: @escaping (String) -> Void, outRaw: @escaping (String) -> Void, err: @escaping (String) -> Void) {
            self.out = out
            self.outRaw = outRaw
            self.err = err
        }
    }

    public var entry: GameEntry
    /// The seed (nil: the recording's, else 1).
    public var seed: UInt64?
    /// Steps to run (nil: where the input script or the recording ends, else 600).
    public var frames: Int?
    /// `--input`: events to play; with a replay too, they come first.
    public var input: InputScript?
    /// `--replay`: a recording made with `--record`.
    public var replay: InputScript?
    /// `--size` (nil: the recording's size, else 80x24).
    public var size: (cols: Int, rows: Int)?
    /// Saves and scores (nil: kept in memory, so no run depends on what earlier ones saved).
    public var store: SaveStore?
    public var recordPath: String?
    public var castPath: String?
    /// `--wav`: the game's sound, on its clock, as a WAV file.
    public var wavPath: String?
    public var profile = false
    public var colorMode: ColorMode = .trueColor
    /// The vision filter `--dump-frame ansi` shows the frame through.
    public var vision: VisionFilter = .none
    public var dumpFrame: FrameDump?
    public var printState = false
    public var printStats = false
    /// `--png FILE`: a picture of the final frame.
    public var pngPath: String?
    /// `--scale` of the `--png` picture.
    public var pngScale = 1
    /// `--gif FILE` and its options.
    public var gif: GIFRequest?

    public init(entry: GameEntry) {
        self.entry = entry
    }

    /// Runs the game and writes what was asked for. Returns the exit status: 0; 1 when the
    /// game failed (the error and its traceback are on stderr); 2 when a file could not be
    /// written.
    public func run(log: @escaping (String) -> Void, to streams: Streams) -> Int32 {
        var script = input ?? replay ?? InputScript()
        if input != nil, let r = replay { script.entries += r.entries }
        let (cols, rows) = size ?? replay?.header.map { ($0.cols, $0.rows) } ?? (80, 24)
        let options = GameSession.Options(seed: seed ?? script.header?.seed ?? 1, cols: cols, rows: rows)
        // a replay (or a script with an end line) stops where its recording did, unless
        // frames says otherwise
        var runner = HeadlessRunner(entry: entry, options: options, frames: frames ?? script.end ?? replay?.end ?? 600,
                                    script: script)
        runner.store = store
        runner.profile = profile ? ProfileCounters() : nil
        runner.colorMode = colorMode
        let gifRecorder = gif.map { GIFRecorder($0, stepRate: options.stepRate) }
        if let gifRecorder { runner.afterStep = gifRecorder.afterStep }
        if gif != nil || pngPath != nil, let warning = missingFontWarning { streams.err("arcade: \(warning)\n") }
        if let castPath {
            do {
                runner.cast = try AsciicastWriter(path: castPath, cols: cols, rows: rows, title: "arcade: \(entry.title)",
                                                  term: "xterm-256color")
            } catch {
                streams.err("arcade: \(error)\n")
                return 2
            }
        }
        let wav = wavPath.map { WAVRecorder(path: $0) }
        if let wav { runner.soundSinks = [wav] }
        let session: GameSession
        do { session = try runner.run(log: log) } catch {
            streams.err(error.description + "\n")
            return 1
        }
        do { try runner.cast?.finish() } catch {
            streams.err("arcade: \(error)\n")
            return 2
        }
        if let gifRecorder {
            switch gifRecorder.finish() {
            case .success(let made):
                streams.err("arcade: wrote \(gifRecorder.request.path): \(made.pictures) pictures, \(made.stored) stored, \(made.bytes) bytes\n")
            case .failure(let problem):
                streams.err("arcade: cannot write the GIF: \(problem)\n")
                return 2
            }
        }
        if let wav, let problem = wav.finish() {
            streams.err("arcade: cannot write the sound '\(wav.path)': \(problem)\n")
            return 2
        }
        if let counters = runner.profile {
            // on stderr, so that the frame, the state and the stats keep stdout to themselves
            let report = counters.report(wallSeconds: Double(counters.wallNanos) * 1e-9)
            streams.err(report.table(game: entry.id, stats: session.stats))
        }
        if let recordPath {
            // written after the run, to say where it stopped (arcade.quit(), an error, frames)
            var recording = script
            recording.header = .init(game: entry.id, seed: options.seed, cols: cols, rows: rows)
            recording.entries = recording.entries.filter { $0.frame < session.stepsRun }
            recording.end = session.stepsRun
            guard FileIO.writeText(recording.text(), to: recordPath) else {
                streams.err("arcade: cannot write the recording '\(recordPath)'\n")
                return 2
            }
        }
        if let failure = session.failure {
            streams.err(failure.description + "\n")
            return 1
        }
        if let dumpFrame {
            let frame = session.renderFrame()
            if let failure = session.failure {
                streams.err(failure.description + "\n")
                return 1
            }
            let text = dumpFrame == .ansi ? frame.ansiText(colorMode: colorMode, filter: vision) : frame.plainText(background: session.scene.background)
            // a line of its own, so that the state or the stats start on the next one
            streams.outRaw(text.hasSuffix("\n") ? text : text + "\n")
        }
        if let pngPath {
            let frame = session.renderFrame()
            if let failure = session.failure {
                streams.err(failure.description + "\n")
                return 1
            }
            do { try Picture(frame: frame, scale: pngScale).writePNG(to: pngPath) } catch {
                streams.err("arcade: \(error)\n")
                return 2
            }
        }
        if printState {
            do { streams.out(try session.state().json(pretty: true) + "\n") } catch {
                streams.err(error.description + "\n")
                return 1
            }
        }
        if printStats {
            session.vm.collectGarbage()  // count what the game keeps, not garbage
            streams.out(session.stats.json + "\n")
        }
        if let quitError = session.close() {
            streams.err(quitError.description + "\n")
            return 1
        }
        return 0
    }
}
