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
                guard let name = s.string(at: 2), let action = MouseAction(rawValue: name) else {
                    throw LuaArgumentError(2, "mouse action expected (press, release, drag, move, scroll_up, scroll_down)")
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
                let cols = try Self.wholeNumber(s, 2, "cols"), rows = try Self.wholeNumber(s, 3, "rows")
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
                let n = s.isNoneOrNil(2) ? 1 : try Self.wholeNumber(s, 2, "steps")
                try self.step(game, n, s)
                s.setTop(1)
                return 1
            }),
            ("wait", { [unowned self] s in
                let (_, game) = try self.game(s)
                guard let seconds = s.number(at: 2), seconds >= 0, seconds.isFinite else {
                    throw LuaArgumentError(2, "seconds expected (a number of at least 0)")
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
            ("cell", { [unowned self] s in
                let col = try Self.wholeNumber(s, 2, "column"), row = try Self.wholeNumber(s, 3, "row")
                let rows = try self.frameText(s)
                guard row < rows.count else { s.pushNil(); return 1 }
                let cells = Array(rows[row])
                if col < cells.count { s.push(String(cells[col])) } else { s.pushNil() }
                return 1
            }),
            ("blank", { [unowned self] s in
                let (_, game) = try self.game(s)
                var colors: [Color] = []
                if s.type(at: 2) == .table {
                    for i in 1...max(1, s.rawLength(at: 2)) {
                        s.getIndex(i, in: 2)
                        defer { s.pop() }
                        if s.isNoneOrNil(-1) { break }
                        guard let c = s.color(at: -1) else { throw LuaArgumentError(2, "item \(i) is not a colour") }
                        colors.append(c)
                    }
                } else if !s.isNoneOrNil(2) {
                    throw LuaArgumentError(2, "a list of colours expected, got \(s.typeName(at: 2))")
                }
                game.blank = colors
                s.setTop(1)
                return 1
            }),
            ("find", { [unowned self] s in
                guard let needle = s.string(at: 2), !needle.isEmpty else { throw LuaArgumentError(2, "text expected") }
                let rows = try self.frameText(s)
                let wanted = Array(needle)
                for (row, text) in rows.enumerated() {
                    let cells = Array(text)
                    guard cells.count >= wanted.count else { continue }
                    for column in 0...(cells.count - wanted.count) where Array(cells[column..<(column + wanted.count)]) == wanted {
                        s.push(column)
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
                guard let key = s.string(at: 2) else { throw LuaArgumentError(2, "save key expected") }
                let value: LuaValue?
                do { value = try game.store.value(game: self.entry.id, key: key) } catch { throw LuaScriptError("\(error)") }
                s.push(value ?? .nil)
                return 1
            }),
            ("best", { [unowned self] s in
                let (_, game) = try self.game(s)
                let best: Int64?
                do { best = try game.store.bestScore(game: self.entry.id) } catch { throw LuaScriptError("\(error)") }
                if let best { s.push(best) } else { s.pushNil() }
                return 1
            }),
            ("log", { [unowned self] s in
                let (_, game) = try self.game(s)
                s.push(LuaValue.array(game.log.lines.map { .string($0) }))
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
                if s.type(at: 2) == .table {
                    for key in ["seed", "cols", "rows"] {
                        s.getField(key, in: 2)
                        defer { s.pop() }
                        if s.isNoneOrNil(-1) { continue }
                        guard let v = s.integer(at: -1), v >= 0 else { throw LuaArgumentError(2, "\(key) must be a whole number") }
                        switch key {
                        case "seed": options.seed = UInt64(v)
                        case "cols": options.cols = Int(clamping: v)
                        default: options.rows = Int(clamping: v)
                        }
                    }
                } else if !s.isNoneOrNil(2) {
                    throw LuaArgumentError(2, "table of options expected (seed, cols, rows), got \(s.typeName(at: 2))")
                }
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
                guard let name = s.string(at: 2), GoldenFrame.isValidName(name) else {
                    throw LuaArgumentError(2, "golden frame name expected: letters, digits, '-', '_' and '.'")
                }
                let text = GoldenFrame.normalized(try self.frameText(s).joined(separator: "\n"))
                try self.compareGolden(name, text, game, s)
                s.setTop(1)
                return 1
            }),
        ]
    }

    // MARK: Input

    private func queueKey(_ s: LuaStack, up: Bool) throws -> Int32 {
        let (_, game) = try game(s)
        guard let name = s.string(at: 2) else { throw LuaArgumentError(2, "key name expected, got \(s.typeName(at: 2))") }
        guard var key = InputScript.parseKey(name) else {
            throw LuaArgumentError(2, "unknown key '\(name)' (a-z, 0-9, space, enter, esc, tab, backspace, up, down, left, "
                                   + "right, home, end, pageup, pagedown, insert, delete, f1-f12, a punctuation "
                                   + "character; modifiers as ctrl+c, alt+x, shift+tab)")
        }
        if !up, s.type(at: 3) == .table {
            s.getField("is_repeat", in: 3)
            key.isRepeat = s.truthy(at: -1)
            s.pop()
        } else if !s.isNoneOrNil(3) {
            throw LuaArgumentError(3, up ? "keyup takes only a key name" : "table expected ({ is_repeat = true })")
        }
        game.driver.queued.append(up ? .keyUp(key) : .key(key))
        s.setTop(1)
        return 1
    }

    private func queueMouse(_ s: LuaStack, _ actions: [MouseAction], firstArgument i: Int32) throws -> Int32 {
        let (_, game) = try game(s)
        let col = try Self.wholeNumber(s, i, "column"), row = try Self.wholeNumber(s, i + 1, "row")
        guard col <= InputScript.maxCols, row <= InputScript.maxRows else {
            throw LuaArgumentError(i, "the cell (\(col), \(row)) is outside any canvas")
        }
        var button = actions == [.move] ? MouseButton.none : MouseButton.left
        if let name = s.string(at: i + 2) {
            guard let b = MouseButton(rawValue: name) else {
                throw LuaArgumentError(i + 2, "mouse button expected (left, middle, right, none), got '\(name)'")
            }
            button = b
        } else if !s.isNoneOrNil(i + 2) {
            throw LuaArgumentError(i + 2, "mouse button expected (left, middle, right, none)")
        }
        for action in actions { game.driver.queued.append(.mouse(MouseEvent(action, col: col, row: row, button: button))) }
        s.setTop(1)
        return 1
    }

    /// Argument `i` as a whole number of at least 0.
    static func wholeNumber(_ s: LuaStack, _ i: Int32, _ what: String) throws -> Int {
        guard let v = s.integer(at: i) else {
            throw LuaArgumentError(i, "\(what): whole number expected, got \(s.isNoneOrNil(i) ? "nothing" : s.typeName(at: i))")
        }
        guard v >= 0, v <= Int64(Int32.max) else { throw LuaArgumentError(i, "\(what) must be at least 0") }
        return Int(v)
    }

    // MARK: Frames

    /// The game's frame now, one string a row, as `--dump-frame plain` shows it.
    func frameText(_ s: LuaStack) throws -> [String] {
        let (_, game) = try game(s)
        try stopIfFailed(game, s)
        let frame = vm.withBudgetPaused { game.session.renderFrame() }
        try stopIfFailed(game, s)  // draw() may have failed
        return Self.text(of: frame, blank: [game.session.scene.background] + game.blank)
    }

    /// Each row of `frame` as plain text, as `--dump-frame plain` shows it except that every
    /// colour in `blank` (not only the background) reads as empty: a pixel cell is a space,
    /// an upper or lower half block, or a full block; text shows its characters.
    static func text(of frame: Frame, blank: [Color]) -> [String] {
        frame.plainLines { blank.contains($0) }
    }

    /// Compares `text` with `tests/golden/<name>.txt`, or writes it there with `--update-golden`.
    private func compareGolden(_ name: String, _ text: String, _ game: TestGame, _ s: LuaStack) throws {
        let folder = testsFolder + "/golden"
        let path = folder + "/" + name + ".txt"
        let shown = "\(entry.id)/tests/golden/\(name).txt"
        let existing = FileIO.readText(path, within: testsFolder)
        if options.updateGolden {
            guard existing.map(GoldenFrame.normalized) != text else { return }
            guard mkdir(folder, 0o755) == 0 || errno == EEXIST, FileIO.writeText(text, to: path) else {
                throw failure(s, "cannot write the golden frame \(shown)")
            }
            notes.append("wrote \(shown)\(frameNote())")
            return
        }
        guard let existing else {
            throw failure(s, "no golden frame \(shown) yet: `arcade test \(entry.id) --update-golden` writes it "
                          + "(look at it before committing)\(frameNote())\nthe frame:\n" + text.dropLast())
        }
        if let (summary, diff) = GoldenFrame.difference(want: existing, got: text) {
            throw failure(s, "the frame differs from the golden frame \(shown): \(summary)\(frameNote()); "
                          + "`arcade test \(entry.id) --update-golden` rewrites it\n" + diff)
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
