import ArcadeCore
import ArcadeLua
import ArcadeRender
import ArcadeTerminal

/// Runs a game twice, side by side, with the same seed and the same random input, each in
/// a fresh VM, and compares `game.state` and the frame after every step.
///
/// Two fresh Lua states already hash strings with different seeds, but two seeds can still
/// give a small table the same order, so the check does not leave it to chance: in both
/// runs a walk over string keys (`pairs`, or `next` from the start) visits them in one fixed
/// order, and in the second run backwards (``IterationReversal``). A game whose outcome
/// depends on that order then differs, and the check finds the line: it reruns the game
/// with one walk site backwards at a time, and names the sites whose order alone changes
/// the run.
///
/// The random input includes a resize, to a larger window and back (``input(steps:size:)``),
/// so a game's resize handler runs in both runs and is held to the same rule.
public struct DeterminismCheck: Sendable {
    /// Steps each run lasts.
    public var steps: Int
    public var seed: UInt64
    /// The canvas both runs draw on (a game's `min_size` when that is larger).
    public var size: TerminalSize
    /// At most this many walk sites are tried one at a time when looking for the line.
    public var sitesToTry: Int
    /// The runs stop, agreeing so far, once the running thread's CPU clock
    /// (``ThreadCPUClock``, nanoseconds) reaches this: a check's overall limit. Nil: none.
    public var cpuDeadline: UInt64?

    public init(steps: Int = 300, seed: UInt64 = 1, size: TerminalSize = .fallback, sitesToTry: Int = 12) {
        self.steps = steps
        self.seed = seed
        self.size = size
        self.sitesToTry = sitesToTry
    }

    /// Checks one game.
    public func check(_ entry: GameEntry) -> Outcome {
        let size = entry.canvas(atLeast: size)
        let script = input(size: size)
        switch compare(entry, size: size, script: script, second: .everywhere) {
        case .agreed(let n):
            return .deterministic(steps: n)
        case .failed(let error):
            return .failed(error)
        case .differed(let step, let difference, let walked):
            var lines: [(step: Int, site: String)] = []
            for site in walked.prefix(sitesToTry) where !pastDeadline {
                if case .differed(let at, _, _) = compare(entry, size: size, script: script, second: .only([site.site])) {
                    lines.append((at, site.site))
                }
            }
            lines.sort { ($0.step, $0.site) < ($1.step, $1.site) }
            return .diverged(Divergence(step: step, difference: difference, lines: lines.map(\.site),
                                        suspects: lines.isEmpty ? walked.prefix(8).map(\.site) : []))
        }
    }

    /// The input both runs get: random keys and clicks (``GameChecker/randomInput(seed:steps:size:)``),
    /// with the window grown by 20 columns and 6 rows a quarter of the way through and back to
    /// `size` half way (grown, so never below the game's `min_size`; nothing when `size` is the
    /// largest there is).
    func input(size: TerminalSize) -> InputScript {
        var script = GameChecker.randomInput(seed: seed, steps: steps, size: size)
        let grown = TerminalSize(cols: min(size.cols + 20, InputScript.maxCols), rows: min(size.rows + 6, InputScript.maxRows))
        guard grown != size, steps >= 4 else { return script }
        script.entries.append(.init(frame: steps / 4, event: .resize(cols: grown.cols, rows: grown.rows)))
        script.entries.append(.init(frame: steps / 2, event: .resize(cols: size.cols, rows: size.rows)))
        // stable: at the same frame, the random events keep their order before the resize
        script.entries = script.entries.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
            .map(\.element)
        return script
    }

    private var pastDeadline: Bool {
        cpuDeadline.map { ThreadCPUClock.now() >= $0 } ?? false
    }

    private enum Comparison {
        case agreed(Int)
        case failed(LuaError)
        /// The step, what differs, and the second run's walks up to that step.
        case differed(Int, String, [IterationWalks.Site])
    }

    /// Runs the game with Lua's order and with `second`'s, side by side, for ``steps`` steps of
    /// `script` on a canvas of `size`.
    private func compare(_ entry: GameEntry, size: TerminalSize, script: InputScript, second: IterationReversal) -> Comparison {
        func start(_ reversal: IterationReversal) -> Result<GameSession, LuaError> {
            let options = GameSession.Options(seed: seed, cols: size.cols, rows: size.rows, iterationProbe: reversal)
            do throws(LuaError) { return .success(try GameSession(entry: entry, options: options)) } catch {
                return .failure(error)
            }
        }
        let a: GameSession, b: GameSession
        switch (start(.nowhere), start(second)) {
        case (.success(let x), .success(let y)):
            (a, b) = (x, y)
        case (.failure(let x), .failure(let y)) where x.message == y.message:
            return .failed(x)
        case (.failure(let x), .success(let y)):
            y.close()
            return .differed(0, "run 1 did not start (\(x.message)), run 2 did", [])
        case (.success(let x), .failure(let y)):
            x.close()
            return .differed(0, "run 2 did not start (\(y.message)), run 1 did", [])
        case (.failure(let x), .failure(let y)):
            return .differed(0, "the runs did not start with the same error (\(x.message); \(y.message))", [])
        }
        defer {
            a.close()
            b.close()
        }
        let runA = SessionDriver(session: a, script: script), runB = SessionDriver(session: b, script: script)
        var frameA = a.canvas.makeFrame(), frameB = b.canvas.makeFrame()
        for step in 0...max(steps, 0) {
            if pastDeadline { return .agreed(step) }
            if step > 0 {
                runA.step()
                runB.step()
            }
            if a.failure == nil { a.render(into: &frameA) }
            if b.failure == nil { b.render(into: &frameB) }
            let walked = { b.walks?.sites(upTo: step) ?? [] }
            switch (a.failure, b.failure) {
            case (nil, nil):
                break
            case (let x?, let y?) where x.message == y.message:
                return .failed(x)
            case (let x?, nil):
                return .differed(step, "run 1 stopped with an error (\(x.message)), run 2 did not", walked())
            case (nil, let y?):
                return .differed(step, "run 2 stopped with an error (\(y.message)), run 1 did not", walked())
            case (let x?, let y?):
                return .differed(step, "the runs stopped with different errors (\(x.message); \(y.message))", walked())
            }
            let stateA: LuaValue, stateB: LuaValue
            do {
                stateA = try a.state()
                stateB = try b.state()
            } catch {
                return .failed(error)
            }
            if let d = Self.difference(stateA, stateB, path: "game.state") { return .differed(step, d, walked()) }
            if let d = Self.difference(frameA, frameB) { return .differed(step, d, walked()) }
            if a.context.quitRequested != b.context.quitRequested {
                return .differed(step, "run \(a.context.quitRequested ? 1 : 2) asked to quit, the other did not", walked())
            }
            if a.context.quitRequested { return .agreed(step) }
        }
        return .agreed(max(steps, 0))
    }

    // MARK: Describing differences

    /// The first place (in key order) where two values differ, or nil when they are equal.
    static func difference(_ a: LuaValue, _ b: LuaValue, path: String) -> String? {
        if a == b { return nil }
        switch (a, b) {
        case (.table(let x), .table(let y)):
            for key in Set(x.keys).union(y.keys).sorted() {
                if let d = difference(x[key] ?? .nil, y[key] ?? .nil, path: path + fieldPath(key)) { return d }
            }
        case (.array(let x), .array(let y)) where x.count == y.count:
            for i in x.indices {
                if let d = difference(x[i], y[i], path: path + "[\(i + 1)]") { return d }
            }
        default:
            break
        }
        return "\(path) is \(brief(a)) in run 1, \(brief(b)) in run 2"
    }

    /// The first cell where two frames differ, or nil when they are equal.
    static func difference(_ a: Frame, _ b: Frame) -> String? {
        if a == b { return nil }
        guard a.columns == b.columns, a.rows == b.rows else {
            return "the frame is \(a.columns)x\(a.rows) in run 1, \(b.columns)x\(b.rows) in run 2"
        }
        for row in 0..<a.rows {
            for column in 0..<a.columns where a[column, row] != b[column, row] {
                return "the frame differs first at column \(column), row \(row)"
            }
        }
        return "the frames differ"
    }

    /// `.name` for an identifier, `["key"]` otherwise.
    static func fieldPath(_ key: String) -> String {
        let identifier = key.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
            && key.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return identifier ? "." + key : "[" + LuaValue.string(key).json() + "]"
    }

    /// A value as JSON, cut short.
    static func brief(_ value: LuaValue) -> String {
        if value == .nil { return "nil" }
        let text = value.json()
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}

// MARK: - What a check finds

extension DeterminismCheck {
    /// The first point where the two runs part.
    public struct Divergence: Equatable, Sendable, CustomStringConvertible {
        /// The step after which they differ (0: right after `load`).
        public var step: Int
        /// What differs, e.g. `game.state.total: 3 in run 1, 5 in run 2`.
        public var difference: String
        /// The walks (`chunk:line`) whose reversed order alone changes the run, earliest first.
        public var lines: [String]
        /// When no single walk was found to do it: the walks whose order changed up to the
        /// divergence (the line is among them, or the runs differ for another reason).
        public var suspects: [String]

        public var description: String {
            let what = "two runs with the same seed and input differ after step \(step): \(difference)"
            if let first = lines.first {
                let others = lines.dropFirst()
                return "\(first): the order this pairs/next walk visits keys in changes the game (Lua's order differs "
                    + "between runs: walk an array, or sort the keys); \(what)"
                    + (others.isEmpty ? "" : "; other walks that do: \(others.joined(separator: ", "))")
            }
            if !suspects.isEmpty {
                return "\(what); walks of tables in changed order before it: \(suspects.joined(separator: ", "))"
            }
            return "\(what); no pairs/next walk of two or more keys ran before it, so something else differs between "
                + "runs (tostring of a table or function gives its address, for one)"
        }
    }

    /// What the check found.
    public enum Outcome: Equatable, Sendable {
        /// The runs agreed at every step.
        case deterministic(steps: Int)
        case diverged(Divergence)
        /// The game did not start, or stopped with the same error in both runs: not a question
        /// of determinism (the other checks report the error).
        case failed(LuaError)
    }
}
