#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import ArcadePicture
import ArcadeRender

/// `--gif FILE` and its options: an animated GIF of a headless run (a replay, as a rule),
/// on the game's clock.
public struct GIFRequest: Sendable {
    public var path: String
    /// Pictures a second of game time (1 to 50; a GIF counts time in hundredths).
    public var fps = 30
    /// Each picture pixel becomes `scale` x `scale` (1 to 8).
    public var scale = 1
    /// The first step shown: the frame after this many steps (at least the first step's).
    public var start = 0
    /// The last step shown (nil: where the run ends).
    public var end: Int?

    public init(path: String) {
        self.path = path
    }

    /// What is wrong with the options, or nil.
    public var problem: String? {
        if !(1...50).contains(fps) { return "--gif-fps takes 1 to 50 pictures a second" }
        if !(1...8).contains(scale) { return "--scale takes a whole number from 1 to 8" }
        if let end, end < start { return "--gif-end \(end) comes before --gif-start \(start)" }
        return nil
    }
}

/// Takes a picture every `stepRate / fps` steps of a run into a ``GIFAnimation``: picture k
/// is the frame after step `first + k * stepRate / fps`, shown from k / fps seconds to
/// (k + 1) / fps (in whole hundredths, so the times add up to the run's).
final class GIFRecorder {
    let request: GIFRequest
    let stepRate: Int
    private var animation: GIFAnimation?
    private var frame = Frame(columns: 0, rows: 0)
    /// Pictures taken, and the slots of 1 / fps seconds they fill.
    private var taken = 0, slots = 0
    /// The first problem writing the file.
    private(set) var problem: String?

    init(_ request: GIFRequest, stepRate: Int) {
        self.request = request
        self.stepRate = max(1, stepRate)
    }

    /// Called after each step of the run.
    func afterStep(_ session: GameSession) {
        guard problem == nil else { return }
        let n = session.stepsRun, first = max(request.start, 1)
        guard n >= first, n <= request.end ?? Int.max else { return }
        let slot = (n - first) * request.fps / stepRate
        guard slot >= slots else { return }
        session.render(into: &frame)
        do {
            if animation == nil {
                animation = try GIFAnimation(path: request.path, columns: frame.columns, rows: frame.rows, scale: request.scale)
            }
            // shown until the next slot; any slot no step fell in (a step longer than a
            // picture's time) goes to it too
            let cs = Self.hundredths(slot + 1, fps: request.fps) - Self.hundredths(slots, fps: request.fps)
            try animation?.add(frame, centiseconds: cs)
            slots = slot + 1
            taken += 1
        } catch {
            problem = error.description
        }
    }

    /// Writes the end of the file; the pictures taken and the file's size in bytes, or why not.
    func finish() -> Result<(pictures: Int, stored: Int, bytes: Int), PictureError> {
        if let problem { return .failure(PictureError(problem)) }
        guard let animation else { return .failure(PictureError("no step of the run falls between --gif-start and --gif-end")) }
        do { try animation.finish() } catch { return .failure(error) }
        var st = stat()
        let bytes = stat(request.path, &st) == 0 ? Int(st.st_size) : 0
        return .success((taken, animation.framesWritten, bytes))
    }

    /// Hundredths of a second from the start to picture `k`.
    static func hundredths(_ k: Int, fps: Int) -> Int {
        (k * 100 + fps / 2) / fps
    }
}

/// Where pictures of the terminal go: F12's screenshots.
public enum Screenshots {
    /// `$XDG_PICTURES_DIR/arcade`, else `~/Pictures/arcade`; nil when neither is known.
    public static var folder: String? {
        if let dir = environment("XDG_PICTURES_DIR"), dir.hasPrefix("/") { return dir + "/arcade" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/Pictures/arcade" }
        return nil
    }

    /// Writes a PNG of `frame` into ``folder`` (made if missing), named by the game and the
    /// local time (`<game>-YYYYMMDD-HHMMSS.png`, `-2`, `-3`... when taken); the path written,
    /// or why not.
    public static func save(_ frame: Frame, game: String, now: time_t = time(nil)) -> Result<String, PictureError> {
        guard let folder else { return .failure(PictureError("no folder for pictures: neither XDG_PICTURES_DIR nor HOME is set")) }
        guard makeFolders(folder) else {
            return .failure(PictureError("cannot make the folder \(folder): \(String(cString: strerror(errno)))"))
        }
        var t = now, parts = tm()
        localtime_r(&t, &parts)
        let stamp = String(Int(parts.tm_year) + 1900) + two(Int(parts.tm_mon) + 1) + two(Int(parts.tm_mday)) + "-"
            + two(Int(parts.tm_hour)) + two(Int(parts.tm_min)) + two(Int(parts.tm_sec))
        let safe = String(game.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        var path = "\(folder)/\(safe)-\(stamp).png"
        var n = 2
        while fileExists(path) {
            path = "\(folder)/\(safe)-\(stamp)-\(n).png"
            n += 1
        }
        do { try Picture(frame: frame).writePNG(to: path) } catch { return .failure(error) }
        return .success(path)
    }

    private static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// `mkdir -p`.
    private static func makeFolders(_ path: String) -> Bool {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && !(errno == EEXIST && isDirectory(current)) { return false }
        }
        return true
    }
}


/// A warning for when no Unifont file was found (text in pictures is then drawn as boxes),
/// or nil.
public var missingFontWarning: String? {
    GlyphFont.shared.sources.isEmpty
        ? "no Unifont glyphs found (/usr/share/unifont/unifont.hex, from Debian's unifont package; scripts/setup.sh installs it): text in pictures is drawn as boxes"
        : nil
}
