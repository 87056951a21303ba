import ArcadeCore
import ArcadeLua
import ArcadeRender
import ArcadeTerminal

/// What the screen shows and how it reaches the terminal.
extension ArcadeApp {
    /// Composes the frame and sends it; false when the window changed size meanwhile and
    /// nothing was sent.
    func draw() throws(TerminalError) -> Bool {
        if resizedMeanwhile() { return false }
        composeFrame()
        let bytes = output.encode(frame, profile: profile)
        if resizedMeanwhile() { return false }
        if !bytes.isEmpty { try terminal.write(bytes) }
        if options.exitAfterFirstFrame { quit = true }
        return true
    }

    /// True when the window changed size since the loop last read its input (while the steps
    /// ran, or while the frame was composed): the resize is handled as if read then, and no
    /// frame is sent this time. A frame made for the old size would scroll and wrap in a
    /// smaller window; the next one, after the game has laid itself out again, is painted
    /// in full at the new size.
    private func resizedMeanwhile() -> Bool {
        guard let resize = terminal.takeResize() else { return false }
        handle([resize])
        return true
    }

    /// Puts what the screen shows now into ``frame``: the menu or the game, the cards over
    /// them, the profiler and the pause mark.
    func composeFrame() {
        let canvas: Canvas
        if tooSmall {
            canvas = CardView.tooSmall(cols: max(size.cols, 1), rows: max(size.rows, 1),
                                       need: (playing?.manifest?.minCols ?? 80, playing?.manifest?.minRows ?? 24))
            canvas.render(into: &frame)
        } else {
            switch screen {
            case .menu:
                menu.render(cols: size.cols, rows: size.rows, into: &frame)
                if case .problem(let entry) = card {
                    CardView.problem(on: menu.canvas, entry: entry)
                    menu.canvas.render(into: &frame)
                }
                if case .settings(let settingsCard, _) = card {
                    settingsCard.draw(on: menu.canvas)
                    menu.canvas.render(into: &frame)
                }
            case .playing:
                if let session {
                    session.render(into: &frame)
                    if let failure = session.failure, card == nil { card = .error(failure, selected: 0) }
                    logNewErrors()
                    if let message = session.reloadError?.message ?? manifestError {
                        CardView.reloadError(message, manifest: session.reloadError == nil, on: session.canvas)
                        session.canvas.render(into: &frame)
                    }
                } else {
                    frame = Frame(columns: size.cols, rows: size.rows)
                }
                if let card {
                    let c = session?.canvas ?? Canvas(columns: size.cols, rows: size.rows)
                    switch card {
                    case .pause(let sel):
                        CardView.pause(on: c, title: playing?.title ?? "", controls: playing?.manifest?.controls ?? [],
                                       selected: sel, covered: playing?.manifest?.hideOnPause ?? false,
                                       sound: speaker == nil ? nil : !muted, note: settingsNote)
                    case .settings(let settingsCard, _):
                        if playing?.manifest?.hideOnPause ?? false {
                            Graphics(canvas: c).fillRect(x: 0, y: 0, width: Double(c.width), height: Double(c.height),
                                                         color: CardView.backdrop)
                        }
                        settingsCard.draw(on: c)
                    case .error(let e, let sel):
                        CardView.error(on: c, error: e, selected: sel, paused: options.dev && session != nil,
                                       hint: reloadHint(for: e))
                    case .problem(let entry):
                        CardView.problem(on: c, entry: entry)
                    }
                    c.render(into: &frame)
                }
                if showProfile, let session {
                    ProfileOverlay.draw(profileReport, stats: session.stats, on: &frame)
                }
                if console.shown { drawConsole() }
                if card == nil, session != nil {
                    PauseMark.draw(on: &frame, hovered: pauseMarkHovered)
                }
            }
        }
        pictureNotice.draw(on: &frame, now: monotonicSeconds())
        // what happened to the save file (moved aside, saves kept in memory), over everything
        saveNotices.update(from: options.store, now: monotonicSeconds())
        saveNotices.draw(on: &frame)
    }

    /// The dev console along the bottom, in the rows under the pause mark, the F3 panel and
    /// any card, and above the failed-reload strip.
    private func drawConsole() {
        var top = 1
        if showProfile, let session {
            top = ProfileOverlay.top + ProfileOverlay.lines(profileReport, stats: session.stats).count
        }
        if let card, let box = cardBox(card) { top = max(top, box.y + box.h) }
        let strip = session != nil && (session?.reloadError != nil || manifestError != nil)
        console.draw(on: &frame, top: top, bottom: frame.rows - (strip ? 3 : 0))
    }

    /// The rows and columns a card takes on the screen.
    private func cardBox(_ card: Card) -> (x: Int, y: Int, w: Int, h: Int)? {
        switch card {
        case .pause:
            let covered = playing?.manifest?.hideOnPause ?? false
            let b = CardView.box(cols: size.cols, rows: size.rows, w: 64,
                                 h: CardView.pauseHeight(controls: playing?.manifest?.controls.count ?? 0,
                                                         note: settingsNote != nil))
            return covered ? (0, 0, size.cols, size.rows) : b
        case .error: return CardView.box(cols: size.cols, rows: size.rows, w: 64, h: 16)
        case .problem: return CardView.box(cols: size.cols, rows: size.rows, w: 70, h: 16)
        case .settings(let settingsCard, _):
            let covered = playing?.manifest?.hideOnPause ?? false
            return covered ? (0, 0, size.cols, size.rows) : settingsCard.box(cols: size.cols, rows: size.rows)
        }
    }
}
