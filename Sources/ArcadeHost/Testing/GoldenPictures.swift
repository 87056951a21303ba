#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import ArcadePicture
import ArcadeRender

/// Pictures of a failing golden comparison, to look at rather than read: `expected.png` (the
/// golden frame's text), `actual.png` (the frame, in its colours) and `diff.png` (the
/// frame's text, the cells that differ from the golden frame in white on red).
///
/// A golden frame keeps characters, not colours, so `expected.png` and `diff.png` draw
/// text in grey on black: pixel cells as the half blocks the text holds, text as its glyphs.
enum GoldenPictures {
    static let ink = Color(rgb: 0xC8C8C8)
    static let paper = Color(rgb: 0x101010)
    static let changedInk = Color(rgb: 0xFFFFFF)
    static let changedPaper = Color(rgb: 0xC0162C)

    /// The folder the pictures of golden frame `name` of game `game` go to:
    /// `$TMPDIR/arcade-golden/<game>/<name>` (`/tmp` without `TMPDIR`).
    static func folder(game: String, name: String) -> String {
        (environment("TMPDIR") ?? "/tmp") + "/arcade-golden/\(game)/\(name)"
    }

    /// Writes the three pictures; their paths, or why not.
    static func write(want: String, got: String, frame: Frame, game: String, name: String) -> Result<[String], PictureError> {
        let folder = folder(game: game, name: name)
        var current = ""
        for part in folder.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && !(errno == EEXIST && isDirectory(current)) {
                return .failure(PictureError("cannot make the folder \(current): \(String(cString: strerror(errno)))"))
            }
        }
        let wantRows = rows(want), gotRows = rows(got)
        let columns = max(frame.columns, wantRows.map(\.count).max() ?? 0, 1)
        let height = max(frame.rows, wantRows.count, 1)
        let expected = textFrame(wantRows, columns: columns, rows: height) { _, _ in false }
        let diff = textFrame(gotRows, columns: columns, rows: height) { c, r in
            let w = r < wantRows.count && c < wantRows[r].count ? wantRows[r][c] : " "
            let g = r < gotRows.count && c < gotRows[r].count ? gotRows[r][c] : " "
            return w != g
        }
        let paths = ["expected", "actual", "diff"].map { folder + "/" + $0 + ".png" }
        do {
            try Picture(frame: expected).writePNG(to: paths[0])
            try Picture(frame: frame).writePNG(to: paths[1])
            try Picture(frame: diff).writePNG(to: paths[2])
        } catch {
            return .failure(error)
        }
        return .success(paths)
    }

    /// Each row of `text` as its cells (as ``TestFile/cells(of:)`` splits them).
    static func rows(_ text: String) -> [[String]] {
        let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return body.split(separator: "\n", omittingEmptySubsequences: false).map { TestFile.cells(of: String($0)) }
    }

    /// A frame showing `rows` of cells in grey on black, a cell for which `changed` holds in
    /// white on red.
    static func textFrame(_ rows: [[String]], columns: Int, rows height: Int, changed: (Int, Int) -> Bool) -> Frame {
        var frame = Frame(columns: columns, rows: height, background: paper)
        for r in 0..<height {
            for c in 0..<columns {
                let text = r < rows.count && c < rows[r].count ? rows[r][c] : " "
                let hit = changed(c, r)
                let (fg, bg) = hit ? (changedInk, changedPaper) : (ink, paper)
                if text.isEmpty {
                    // the right half of a wide glyph: its left half drew it; a change shows on it too
                    if hit, c > 0, !frame[c - 1, r].isWide { frame[c, r] = Cell(character: " ", foreground: fg, background: bg) }
                    continue
                }
                let scalar = text.unicodeScalars.first ?? " "
                frame[c, r] = Cell(character: scalar, foreground: fg, background: bg)
            }
        }
        return frame
    }
}
