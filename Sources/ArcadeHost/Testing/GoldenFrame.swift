#if canImport(Glibc)
import Glibc
#endif
import ArcadeLua

/// A golden frame: a frame's plain text kept in a file, to which a later run's frame is
/// compared cell by cell.
///
/// The file holds one line per terminal row with trailing blanks trimmed (an editor that
/// trims them cannot break it) and a final newline.
public enum GoldenFrame {
    /// The text a frame's plain text is stored as.
    public static func normalized(_ text: String) -> String {
        // a file's final newline ends its last row; a frame's text has none
        let body = text.hasSuffix("\n") ? text.dropLast() : Substring(text)
        let rows = body.split(separator: "\n", omittingEmptySubsequences: false).map { row -> Substring in
            var r = row
            while r.last == " " || r.last == "\r" { r = r.dropLast() }
            return r
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// How `got` differs from `want` (both as ``normalized(_:)`` makes them), or nil when
    /// they are the same: a summary line, then each differing row (up to `maxRows`) as the
    /// golden row, the frame's row and a line of `^` under the cells that differ.
    public static func difference(want: String, got: String, maxRows: Int = 10) -> (summary: String, diff: String)? {
        let a = normalized(want), b = normalized(got)
        guard a != b else { return nil }
        let wantRows = a.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        let gotRows = b.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        var lines: [String] = []
        var rowsDiffering = 0, cellsDiffering = 0
        for row in 0..<max(wantRows.count, gotRows.count) {
            let w = row < wantRows.count ? wantRows[row] : [], g = row < gotRows.count ? gotRows[row] : []
            guard w != g else { continue }
            rowsDiffering += 1
            var marks = ""
            for column in 0..<max(w.count, g.count) {
                let same = (column < w.count && column < g.count && w[column] == g[column])
                    || (column >= w.count && g[column] == " ") || (column >= g.count && w[column] == " ")
                marks += same ? " " : "^"
                if !same { cellsDiffering += 1 }
            }
            while marks.last == " " { marks.removeLast() }
            guard rowsDiffering <= maxRows else { continue }
            let what = row >= wantRows.count ? " (not in the golden frame)" : row >= gotRows.count ? " (not in the frame)" : ""
            lines.append("row \(row)\(what):")
            lines.append("  want |" + String(w) + "|")
            lines.append("  got  |" + String(g) + "|")
            lines.append("        " + marks)
        }
        if rowsDiffering > maxRows { lines.append("... and \(rowsDiffering - maxRows) more rows") }
        let rowsText = wantRows.count == gotRows.count ? "" : " (\(wantRows.count) rows in the golden frame, \(gotRows.count) in the frame)"
        let cells = cellsDiffering == 1 ? "1 cell differs" : "\(cellsDiffering) cells differ"
        let rows = rowsDiffering == 1 ? "1 row" : "\(rowsDiffering) rows"
        return ("\(cells) in \(rows)\(rowsText)", lines.joined(separator: "\n"))
    }

    /// Writes `text` as the golden frame `name` of the game in `gameFolder`, into
    /// `testsFolder/golden/<name>.txt` (the folder made if missing); nil when written, else
    /// why not. Golden frames stay inside the game's folder, as its scripts do: the golden
    /// folder, once its links are resolved, must lie inside `gameFolder`, and the file must
    /// be a regular file of its own (no symbolic link, no other name, no FIFO).
    public static func write(_ text: String, name: String, testsFolder: String, gameFolder: String) -> String? {
        func outside(_ shown: String) -> String { "\(shown) leads outside the game's folder (a symbolic link?)" }
        let folder = testsFolder + "/golden"
        // the tests folder first, so that not even an empty folder is made outside
        guard FileBytes.isInside(testsFolder, gameFolder) else { return outside("tests") }
        if mkdir(folder, 0o755) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
        guard FileBytes.isInside(folder, gameFolder) else { return outside("tests/golden") }
        return FileIO.write(text, to: folder + "/" + name + ".txt", confined: true)?.description
    }

    /// True when `name` can name a golden frame file: letters, digits, `-`, `_` and `.`, not
    /// starting with a dot, at most 100 characters.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && !name.hasPrefix(".")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
    }
}
