import ArcadeCore
import ArcadeRender

/// The F3 profiler: a small panel at the right edge, just under the pause mark, with the last half second's
/// averages (``ProfileReport``) and what the game holds now (``GameStats``).
///
/// Written straight into the frame's cells after everything else, so it covers the game
/// without touching its canvas; with the overlay off nothing here runs and the frame is
/// the game's own.
enum ProfileOverlay {
    /// Panel width in cells: it fits beside an 80-column game's middle.
    static let width = 26
    /// The panel's first row: the one under the pause mark, which keeps the top-right corner
    /// (so each covers nothing of the other, and the header reads whole).
    static let top = 1
    /// How long each window of averages lasts (seconds): long enough to read the numbers.
    static let window = 0.5

    static let panel = Color(rgb: 0x101420)
    static let label = Color(rgb: 0x9AA0B4)
    static let value = Color.white
    static let title = Color(rgb: 0xFFB300)

    /// The panel's lines: each a label and a value, right-aligned in the panel.
    static func lines(_ report: ProfileReport?, stats: GameStats) -> [(String, String)] {
        var lines: [(String, String)] = [("profile (F3)", "ms/step")]
        guard let report else {
            lines.append(("measuring...", ""))
            return lines
        }
        lines.append(("steps/s \(fixed(report.stepsPerSecond, places: 0))", "fps \(fixed(report.framesPerSecond, places: 0))"))
        for phase in ProfilePhase.allCases { lines.append((phase.name, milliseconds(report[phase]))) }
        lines.append(("other", milliseconds(report.otherMilliseconds)))
        lines.append(("total", milliseconds(report.totalMilliseconds)))
        lines.append(("bytes/frame", fixed(report.bytesPerFrame, places: 0)))
        // the frames a second above are those the link allowed: each waits for the terminal's
        // answer to the one before (FramePacer)
        lines.append(("round trip ms", report.roundTripMilliseconds.map { milliseconds($0) } ?? "-"))
        lines.append(("nodes \(stats.nodes)", "anims \(stats.animations)"))
        lines.append(("bodies \(stats.bodies)", "lua " + memory(stats.luaBytes)))
        return lines
    }

    /// Milliseconds with three decimals, or one from 100 up (so the column stays narrow).
    static func milliseconds(_ ms: Double) -> String {
        fixed(ms, places: ms < 100 ? 3 : 1)
    }

    static func memory(_ bytes: Int) -> String {
        bytes < 10 << 20 ? "\((bytes + 1023) / 1024) KiB" : fixed(Double(bytes) / Double(1 << 20), places: 1) + " MiB"
    }

    /// Draws the panel over the right edge of `frame`, from row ``top`` down.
    static func draw(_ report: ProfileReport?, stats: GameStats, on frame: inout Frame) {
        let w = min(width, frame.columns)
        let x0 = frame.columns - w
        for (line, (name, number)) in lines(report, stats: stats).enumerated() where top + line < frame.rows {
            let row = top + line
            // measured in cells, so a wide character anywhere keeps the panel square
            let gap = max(1, w - 2 - TextWidth.width(name) - TextWidth.width(number))
            let end = x0 + w
            var column = frame.write(" " + name, column: x0, row: row, limit: end, foreground: line == 0 ? title : label,
                                     background: panel)
            column = frame.write(String(repeating: " ", count: gap) + number + " ", column: column, row: row, limit: end,
                                 foreground: line == 0 ? title : value, background: panel)
            frame.write(String(repeating: " ", count: max(0, end - column)), column: column, row: row, limit: end,
                        foreground: value, background: panel)
        }
    }
}
