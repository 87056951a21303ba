import ArcadeCore
import ArcadeRender

/// F12 in play and dev: a PNG of the game's frame as it is now (without the cards, the F3
/// panel, the console and the pause mark over it) into ``Screenshots/folder``, and a notice
/// of where it went along the bottom row for a few seconds.
final class PictureNotice {
    /// How long the notice stays on screen.
    static let seconds = 4.0
    static let background = Color(rgb: 0x1E4D2B)
    static let failed = Color(rgb: 0x6B1E1E)
    static let text = Color(rgb: 0xE8F5E9)

    private(set) var message: String?
    private var isProblem = false
    private var until = 0.0

    func show(_ message: String, problem: Bool, now: Double) {
        self.message = message
        isProblem = problem
        until = now + Self.seconds
    }

    /// Draws the notice, while its time lasts, over the bottom row of `frame`.
    func draw(on frame: inout Frame, now: Double) {
        if message != nil, now >= until { message = nil }
        guard let message, frame.columns > 0, frame.rows > 0 else { return }
        let row = frame.rows - 1, bg = isProblem ? Self.failed : Self.background
        let line = String(TextWidth.prefix(" " + message, cells: frame.columns).text)
        let end = frame.write(line, column: 0, row: row, foreground: Self.text, background: bg)
        for column in end..<frame.columns { frame[column, row] = Cell(character: " ", foreground: Self.text, background: bg) }
    }
}

extension ArcadeApp {
    /// True for F12 and its release; a press (not a repeat) takes the picture.
    func isPictureKey(_ event: InputEvent) -> Bool {
        switch event {
        case .key(let k) where k.key == "f12" && k.modifiers.isEmpty:
            if !k.isRepeat { takePicture() }
            return true
        case .keyUp(let k) where k.key == "f12":
            return true
        default:
            return false
        }
    }

    /// Writes the picture of the game's frame and says where.
    func takePicture() {
        guard let session, let playing else { return }
        var shot = Frame(columns: 0, rows: 0)
        session.render(into: &shot)
        switch Screenshots.save(shot, game: playing.id) {
        case .success(let path):
            // the name first: a long folder is what the screen's width cuts
            let slash = path.lastIndex(of: "/") ?? path.startIndex
            var folder = String(path[..<slash])
            if let home = environment("HOME"), home != "/", folder.hasPrefix(home + "/") { folder = "~" + folder.dropFirst(home.count) }
            pictureNotice.show("picture saved: \(path[path.index(after: slash)...]) in \(folder)", problem: false, now: monotonicSeconds())
        case .failure(let problem):
            pictureNotice.show("no picture: \(problem)", problem: true, now: monotonicSeconds())
        }
    }
}
