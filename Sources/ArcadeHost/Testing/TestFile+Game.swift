#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import ArcadeLua
import ArcadeRender

/// The methods of `arcade.test.Game`, the handle a test drives a game with. Input is queued
/// and goes to the game with the next step, as a terminal's input would; the methods that
/// only queue or step return the handle, so calls chain (`g:key("enter"):step(60)`).
extension TestFile {
    func gameMethods() -> [(String, LuaFunction)] {
        [
            ("key", { [unowned self] s in try self.queueKey(s, up: false) }),
            ("keyup", { [unowned self] s in try self.queueKey(s, up: true) }),
            ("mouse", { [unowned self] s in
                let action = try s.argument(2) { i throws(LuaValueProblem) in
                    try s.readChoice(at: i, of: ["press", "release", "drag", "move", "scroll_up", "scroll_down"],
                                     MouseAction.init(rawValue:))
                }
                return try self.queueMouse(s, [action], firstArgument: 3)
            }),
            ("press", { [unowned self] s in try self.queueMouse(s, [.press], firstArgument: 2) }),
            ("drag", { [unowned self] s in try self.queueMouse(s, [.drag], firstArgument: 2) }),
            ("release", { [unowned self] s in try self.queueMouse(s, [.release], firstArgument: 2) }),
            ("move", { [unowned self] s in try self.queueMouse(s, [.move], firstArgument: 2) }),
            ("click", { [unowned self] s in try self.queueMouse(s, [.press, .release], firstArgument: 2) }),
            ("resize", { [unowned self] s in
                let (_, game) = try self.game(s)
                let cols = try Self.wholeNumber(s, 2), rows = try Self.wholeNumber(s, 3)
                guard InputScript.isPlayableSize(cols: cols, rows: rows) else {
                    throw LuaArgumentError(2, "a canvas must be between \(InputScript.minCols)x\(InputScript.minRows) and "
                                           + "\(InputScript.maxCols)x\(InputScript.maxRows) cells, got \(cols)x\(rows)")
                }
                game.driver.queued.append(.resize(cols: cols, rows: rows))
                s.setTop(1)
                return 1
            }),
            ("step", { [unowned self] s in
                let (_, game) = try self.game(s)
                let n = s.isNoneOrNil(2) ? 1 : try Self.wholeNumber(s, 2)
                try self.step(game, n, s)
                s.setTop(1)
                return 1
            }),
            ("wait", { [unowned self] s in
                let (_, game) = try self.game(s)
                let seconds = try s.argument(2) { i throws(LuaValueProblem) in
                    try s.readNumber(at: i, "non-negative number of seconds", where: { $0 >= 0 })
                }
                let n = Int(min((seconds / game.session.dt).rounded(), Double(Int32.max)))
                try self.step(game, n, s)
                s.setTop(1)
                return 1
            }),
            ("state", { [unowned self] s in
                let (_, game) = try self.game(s)
                try self.stopIfFailed(game, s)
                try game.session.pushState(onto: s)
                return 1
            }),
            ("text", { [unowned self] s in
                s.push(try self.frameText(s).joined(separator: "\n"))
                return 1
            }),
            ("lines", { [unowned self] s in
                let rows = try self.frameText(s)
                s.pushTable(array: Int32(rows.count))
                for (i, row) in rows.enumerated() {
                    s.push(row)
                    s.setIndex(i + 1, in: -2)
                }
                return 1
            }),
            ("cells", { [unowned self] s in
                // every row as its cells: a wide character in its first cell, "" in its second
                let rows = try self.frameText(s)
                s.pushTable(array: Int32(rows.count))
                for (i, row) in rows.enumerated() {
                    let cells = Self.cells(of: row)
                    s.pushTable(array: Int32(cells.count))
                    for (k, cell) in cells.enumerated() {
                        s.push(cell)
                        s.setIndex(k + 1, in: -2)
                    }
                    s.setIndex(i + 1, in: -2)
                }
                return 1
            }),
            ("cell", { [unowned self] s in
                // the cell's character, then its colours: { fg, bg } for a glyph,
                // { top, bottom } for pixels, with bg too when both pixels are one colour
                let col = try Self.wholeNumber(s, 2), row = try Self.wholeNumber(s, 3)
                let (frame, rows) = try self.frameAndText(s)
                guard row < rows.count else { s.pushNil(); return 1 }
                let cells = Self.cells(of: rows[row])
                guard col < cells.count, col < frame.columns else { s.pushNil(); return 1 }
                s.push(cells[col])
                var cell = frame[col, row]
                if cell.isContinuation, col > 0 { cell = frame[col - 1, row] }
                s.pushTable(fields: 3)
                switch cell.appearance {
                case .glyph(_, let fg, let bg):
                    s.push(fg.description)
                    s.setField("fg", in: -2)
                    s.push(bg.description)
                    s.setField("bg", in: -2)
                case .pixels(let top, let bottom):
                    s.push(top.description)
                    s.setField("top", in: -2)
                    s.push(bottom.description)
                    s.setField("bottom", in: -2)
                    if top == bottom {
                        s.push(top.description)
                        s.setField("bg", in: -2)
                    }
                }
                return 2
            }),
            ("blank", { [unowned self] s in
                let (_, game) = try self.game(s)
                game.blank = try s.optArgument(2, []) { i throws(LuaValueProblem) in try Self.colors(s, i) }
                s.setTop(1)
                return 1
            }),
            ("find", { [unowned self] s in
                let needle = try s.argument(2) { i throws(LuaValueProblem) in
                    guard let text = s.string(at: i), !text.isEmpty else { throw LuaValueProblem(expected: "non-empty string", got: s.describeQuoted(at: i)) }
                    return text
                }
                let rows = try self.frameText(s)
                let wanted = Array(needle)
                for (row, text) in rows.enumerated() {
                    let cells = Array(text)
                    guard cells.count >= wanted.count else { continue }
                    for column in 0...(cells.count - wanted.count) where Array(cells[column..<(column + wanted.count)]) == wanted {
                        s.push(TextWidth.width(String(cells[0..<column])))  // the cell it starts in, not the character
                        s.push(row)
                        return 2
                    }
                }
                s.pushNil()
                return 1
            }),
            ("frame", { [unowned self] s in
                s.push(try self.game(s).1.session.frame)
                return 1
            }),
            ("time", { [unowned self] s in
                s.push(try self.game(s).1.session.context.time)
                return 1
            }),
            ("size", { [unowned self] s in
                let context = try self.game(s).1.session.context
                s.push(context.cols)
                s.push(context.rows)
                s.push(context.width)
                s.push(context.height)
                return 4
            }),
            ("save", { [unowned self] s in
                let (_, game) = try self.game(s)
                let key = try s.checkString(2)
                let value: LuaValue?
                do { value = try game.store.slot(for: self.entry).value(forKey: key) } catch { throw LuaScriptError("\(error)") }
                s.push(value ?? .nil)
                return 1
            }),
            ("best", { [unowned self] s in
                let (_, game) = try self.game(s)
                let best: Int64?
                do { best = try game.store.slot(for: self.entry).bestScore() } catch { throw LuaScriptError("\(error)") }
                if let best { s.push(best) } else { s.pushNil() }
                return 1
            }),
            ("log", { [unowned self] s in
                let (_, game) = try self.game(s)
                s.push(LuaValue.array(game.log.lines.map { .string($0) }))
                return 1
            }),
            ("sounds", { [unowned self] s in
                // the sounds the game started (only those named `name`, when given), oldest
                // first: { name, step, channel }
                let (_, game) = try self.game(s)
                let name = s.isNoneOrNil(2) ? nil : try s.checkString(2)
                s.push(LuaValue.array(game.session.sound.started.filter { name == nil || $0.name == name }.map {
                    .table(["name": .string($0.name), "step": .int(Int64($0.step)), "channel": .int(Int64($0.channel))])
                }))
                return 1
            }),
            ("stats", { [unowned self] s in
                let (_, game) = try self.game(s)
                game.session.vm.collectGarbage()
                let st = game.session.stats
                s.push(LuaValue.table([
                    "nodes": .int(Int64(st.nodes)), "animations": .int(Int64(st.animations)),
                    "timers": .int(Int64(st.timers)), "worlds": .int(Int64(st.worlds)),
                    "bodies": .int(Int64(st.bodies)), "walls": .int(Int64(st.walls)),
                    "lua_kib": .int(Int64(st.luaKiB)), "native_kib": .int(Int64(st.nativeKiB)),
                    "frame": .int(Int64(st.frame)),
                ]))
                return 1
            }),
            ("quit_requested", { [unowned self] s in
                s.push(try self.game(s).1.session.context.quitRequested)
                return 1
            }),
            ("close", { [unowned self] s in
                let (id, game) = try self.game(s)
                try self.close(id, game, s)
                return 0
            }),
            ("restart", { [unowned self] s in
                let (id, game) = try self.game(s)
                var options = game.session.options
                options.cols = game.session.context.cols
                options.rows = game.session.context.rows
                let o = try s.optOptions(2, known: ["seed", "cols", "rows"])
                let count = { (i: Int32) throws(LuaValueProblem) in try s.readInteger(at: i, "non-negative integer", where: { $0 >= 0 }) }
                if let seed = try o.field("seed", count) { options.seed = UInt64(seed) }
                if let cols = try o.field("cols", count) { options.cols = Int(clamping: cols) }
                if let rows = try o.field("rows", count) { options.rows = Int(clamping: rows) }
                guard InputScript.isPlayableSize(cols: options.cols, rows: options.rows) else {
                    throw LuaArgumentError(2, "a canvas must be between \(InputScript.minCols)x\(InputScript.minRows) and "
                                           + "\(InputScript.maxCols)x\(InputScript.maxRows) cells")
                }
                try self.close(id, game, s)
                let next = try self.launch(options, store: game.store, s)
                self.vm.pushHandle(s, next, of: Self.gameClass)
                return 1
            }),
            ("expect_golden", { [unowned self] s in
                let (_, game) = try self.game(s)
                let name = try s.checkString(2)
                guard GoldenFrame.isValidName(name) else {
                    throw LuaArgumentError(2, "golden frame name expected: letters, digits, '-', '_' and '.'")
                }
                let (frame, rows) = try self.frameAndText(s)
                let text = GoldenFrame.normalized(rows.joined(separator: "\n"))
                try self.compareGolden(name, text, frame, game, s)
                s.setTop(1)
                return 1
            }),
        ]
    }

    // MARK: Input

    private func queueKey(_ s: LuaStack, up: Bool) throws -> Int32 {
        let (_, game) = try game(s)
        let name = try s.checkString(2)
        guard var key = InputScript.parseKey(name) else {
            throw LuaArgumentError(2, "unknown key '\(name)' (a-z, 0-9, space, enter, esc, tab, backspace, up, down, left, "
                                   + "right, home, end, pageup, pagedown, insert, delete, f1-f12, a punctuation "
                                   + "character; modifiers as ctrl+c, alt+x, shift+tab)")
        }
        if up {
            guard s.isNoneOrNil(3) else { throw LuaArgumentError(3, "keyup takes only a key name") }
        } else {
            let o = try s.optOptions(3, known: ["is_repeat"])
            key.isRepeat = try o.field("is_repeat") { i throws(LuaValueProblem) in s.truthy(at: i) } ?? false
        }
        game.driver.queued.append(up ? .keyUp(key) : .key(key))
        s.setTop(1)
        return 1
    }

    private func queueMouse(_ s: LuaStack, _ actions: [MouseAction], firstArgument i: Int32) throws -> Int32 {
        let (_, game) = try game(s)
        let col = try Self.wholeNumber(s, i), row = try Self.wholeNumber(s, i + 1)
        guard col <= InputScript.maxCols, row <= InputScript.maxRows else {
            throw LuaArgumentError(i, "the cell (\(col), \(row)) is outside any canvas")
        }
        let button = try s.optArgument(i + 2, actions == [.move] ? MouseButton.none : MouseButton.left) { i throws(LuaValueProblem) in
            try s.readChoice(at: i, of: ["left", "middle", "right", "none"], MouseButton.init(rawValue:))
        }
        for action in actions { game.driver.queued.append(.mouse(MouseEvent(action, col: col, row: row, button: button))) }
        s.setTop(1)
        return 1
    }

    /// Argument `i` as a whole number from 0 to 2^31 - 1 (a count of steps, a column, a row).
    static func wholeNumber(_ s: LuaStack, _ i: Int32) throws -> Int {
        Int(try s.argument(i) { i throws(LuaValueProblem) in
            try s.readInteger(at: i, "integer from 0 to 2147483647", where: { $0 >= 0 && $0 <= Int64(Int32.max) })
        })
    }

    /// A list of colours (up to its first nil).
    static func colors(_ s: LuaStack, _ i: Int32) throws(LuaValueProblem) -> [Color] {
        guard s.type(at: i) == .table else { throw s.problem(expected: "list of colours", at: i) }
        var colors: [Color] = []
        for k in 1...max(1, s.rawLength(at: i)) {
            s.getIndex(k, in: i)
            defer { s.pop() }
            if s.isNoneOrNil(-1) { break }
            guard let c = s.color(at: -1) else {
                throw LuaValueProblem("colour expected at item \(k), got \(s.describeValue(at: -1))")
            }
            colors.append(c)
        }
        return colors
    }

    // MARK: Frames

    /// The game's frame now, one string a row, as `--dump-frame plain` shows it.
    func frameText(_ s: LuaStack) throws -> [String] {
        try frameAndText(s).text
    }

    /// The frame now, and its rows as ``frameText(_:)`` gives them.
    func frameAndText(_ s: LuaStack) throws -> (frame: Frame, text: [String]) {
        let (_, game) = try game(s)
        try stopIfFailed(game, s)
        let frame = vm.withBudgetPaused { game.session.renderFrame() }
        try stopIfFailed(game, s)  // draw() may have failed
        return (frame, Self.text(of: frame, blank: [game.session.scene.background] + game.blank))
    }

    /// A row of plain text as its cells: each character in the cell it starts in, and "" in
    /// the second cell of a wide one.
    static func cells(of row: String) -> [String] {
        var out: [String] = []
        for glyph in TextWidth.glyphs(row) {
            out.append(String(glyph.text))
            if glyph.width == 2 { out.append("") }
        }
        return out
    }

    /// Each row of `frame` as plain text, as `--dump-frame plain` shows it except that every
    /// colour in `blank` (not only the background) reads as empty: a pixel cell is a space,
    /// an upper or lower half block, or a full block; text shows its characters.
    static func text(of frame: Frame, blank: [Color]) -> [String] {
        frame.plainLines { blank.contains($0) }
    }

    /// Compares `text` with `tests/golden/<name>.txt`, or writes it there with `--update-golden`.
    private func compareGolden(_ name: String, _ text: String, _ frame: Frame, _ game: TestGame, _ s: LuaStack) throws {
        let folder = testsFolder + "/golden"
        let path = folder + "/" + name + ".txt"
        let shown = "\(entry.id)/tests/golden/\(name).txt"
        let existing = FileIO.readText(path, within: testsFolder)
        if options.updateGolden {
            guard existing.map(GoldenFrame.normalized) != text else { return }
            if let problem = GoldenFrame.write(text, name: name, testsFolder: testsFolder, gameFolder: entry.folder) {
                throw failure(s, "cannot write the golden frame \(shown): \(problem)")
            }
            notes.append("wrote \(shown)\(frameNote())")
            return
        }
        guard let existing else {
            throw failure(s, "no golden frame \(shown) yet: `arcade test \(entry.id) --update-golden` writes it "
                          + "(look at it before committing)\(frameNote())\nthe frame:\n" + text.dropLast())
        }
        if let (summary, diff) = GoldenFrame.difference(want: existing, got: text) {
            let pictures: String
            switch GoldenPictures.write(want: GoldenFrame.normalized(existing), got: text, frame: frame, game: entry.id, name: name) {
            case .success(let paths): pictures = "\npictures: " + paths.joined(separator: " ")
            case .failure(let problem): pictures = "\nno pictures: \(problem)"
            }
            throw failure(s, "the frame differs from the golden frame \(shown): \(summary)\(frameNote()); "
                          + "`arcade test \(entry.id) --update-golden` rewrites it\n" + diff + pictures)
        }
    }

    // MARK: Ending

    /// Closes a game as the player leaving would (quit() runs); its handle goes stale.
    private func close(_ id: UInt64, _ game: TestGame, _ s: LuaStack) throws {
        games[id] = nil
        let quitError = vm.withBudgetPaused { game.session.close() }
        if let quitError {
            throw failure(s, "the game's quit() failed: \(quitError.message)" + Self.gameTraceback(quitError))
        }
    }
}
