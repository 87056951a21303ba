import ArcadeCore
import ArcadeLua
import ArcadeTerminal

/// Checks every game the way a player would break it: manifests, compilation, a few hundred
/// headless steps of random keys and clicks under fixed seeds, the same in a large window
/// that is shrunk and grown back, and the same random run twice side by side
/// (``DeterminismCheck``).
public struct GameChecker {
    /// One problem found, with the place it points at.
    public struct Finding: Equatable, Sendable, CustomStringConvertible {
        public var game: String
        /// `file:line: message` where the problem has a location.
        public var message: String
        public var traceback: String
        public var description: String { "\(game): \(message)" }
    }

    public var steps: Int
    public var seeds: [UInt64]
    /// The canvas the games are run on (a game's `min_size` when that is larger).
    public var size: TerminalSize
    /// A larger canvas each game is also run on (with the first seed), shrunk to ``size`` a
    /// third of the way through and grown back at two thirds; nil for none.
    public var largeSize: TerminalSize?
    /// Whether a game that passes the rest is also run twice side by side with the first
    /// seed, walking string keys backwards the second time (``DeterminismCheck``), to catch a
    /// game that is not a function of its seed and input.
    public var determinism: Bool
    /// The most CPU time (seconds, of the thread running the check) one game's check may use;
    /// a game whose check runs longer fails it ("the check ran past 20 s of CPU time"). Nil: no
    /// limit (`arcade check`); `install` and `pack` bound theirs (``defaultCPULimit``).
    public var cpuLimit: Double?

    /// The limit `install` and `pack` put on a game's check unless told otherwise: a game that
    /// passes it in a few seconds, as every bundled game does, is far from it, while a game
    /// slow in every step is refused before a player gives up waiting.
    public static let defaultCPULimit = 20.0

    public init(steps: Int = 300, seeds: [UInt64] = [1, 2, 3], size: TerminalSize = .fallback,
                largeSize: TerminalSize? = TerminalSize(cols: 160, rows: 50), determinism: Bool = true,
                cpuLimit: Double? = nil) {
        self.steps = steps
        self.seeds = seeds
        self.size = size
        self.largeSize = largeSize
        self.determinism = determinism
        self.cpuLimit = cpuLimit
    }

    /// "the check ran past 20 s of CPU time (...)", for a check that ran out of ``cpuLimit``.
    func timeFinding(_ entry: GameEntry, limit: Double) -> Finding {
        let seconds = limit == limit.rounded() ? "\(Int(limit))" : "\(limit)"
        let runs = seeds.count + (largeSize == nil ? 0 : 1) + (determinism ? 2 : 0)
        return Finding(game: entry.id, message: "the check ran past \(seconds) s of CPU time, the most it may use here "
                       + "(it runs the game for \(runs * steps) steps in all, and this game is too slow in them)", traceback: "")
    }

    /// Checks every entry of `catalog`; returns the findings (empty when all is well).
    public func check(_ catalog: GameCatalog, progress: (String) -> Void = { _ in }) -> [Finding] {
        var findings: [Finding] = []
        for entry in catalog.entries {
            progress(entry.id)
            findings += check(entry)
        }
        return findings
    }

    /// Checks one game.
    public func check(_ entry: GameEntry) -> [Finding] {
        guard entry.isPlayable else {
            return [Finding(game: entry.id, message: entry.problem ?? "not playable", traceback: "")]
        }
        let deadline = cpuLimit.map { ThreadCPUClock.now() &+ UInt64(max(0, min($0, 1e6)) * 1e9) }
        let pastDeadline = { deadline.map { ThreadCPUClock.now() >= $0 } ?? false }
        var findings: [Finding] = []
        // every script compiles
        if let vm = try? LuaVM(name: entry.id) {
            for file in luaFiles(in: entry.folder) {
                let chunk = "\(entry.id)/\(file)"
                do { _ = try vm.load(try FileIO.readScript(entry.folder + "/" + file, within: nil, chunkName: chunk),
                                     chunkName: chunk) } catch {
                    findings.append(Finding(game: entry.id, message: error.message, traceback: ""))
                }
            }
        }
        guard findings.isEmpty else { return findings }
        // it runs under random input, and in a large window that shrinks to the small one and
        // grows back (every game lays out for any canvas from 80 x 24 up). Never smaller than
        // the game asks for: the arcade shows a smaller window a card, not the game.
        let small = entry.canvas(atLeast: size)
        let first = seeds.first ?? 1
        var runs = seeds.map {
            (seed: $0, size: small, script: Self.randomInput(seed: $0, steps: steps, size: small), what: "seed \($0)")
        }
        if let largeSize, largeSize.cols > small.cols || largeSize.rows > small.rows {
            let large = TerminalSize(cols: max(largeSize.cols, small.cols), rows: max(largeSize.rows, small.rows))
            var script = Self.randomInput(seed: first, steps: steps, size: large)
            script.entries.append(.init(frame: steps / 3, event: .resize(cols: small.cols, rows: small.rows)))
            script.entries.append(.init(frame: 2 * steps / 3, event: .resize(cols: large.cols, rows: large.rows)))
            script.entries.sort { $0.frame < $1.frame }
            let what = "seed \(first), \(large.cols)x\(large.rows) resized to \(small.cols)x\(small.rows) and back"
            runs.append((first, large, script, what))
        }
        for run in runs {
            if let finding = self.run(entry, seed: run.seed, size: run.size, script: run.script, what: run.what,
                                      cpuDeadline: deadline) {
                findings.append(finding)
                break
            }
            if pastDeadline() { return [timeFinding(entry, limit: cpuLimit ?? 0)] }
        }
        guard findings.isEmpty, determinism else { return findings }
        var check = DeterminismCheck(steps: steps, seed: first, size: small)
        check.cpuDeadline = deadline
        let outcome = check.check(entry)
        if pastDeadline() { return [timeFinding(entry, limit: cpuLimit ?? 0)] }
        if case .diverged(let divergence) = outcome {
            findings.append(Finding(game: entry.id, message: divergence.description, traceback: ""))
        }
        return findings
    }

    /// Runs `entry` headless for ``steps`` steps of `script`; the error it stopped with, if any.
    private func run(_ entry: GameEntry, seed: UInt64, size: TerminalSize, script: InputScript, what: String,
                     cpuDeadline: UInt64?) -> Finding? {
        let options = GameSession.Options(seed: seed, cols: size.cols, rows: size.rows)
        do {
            var runner = HeadlessRunner(entry: entry, options: options, frames: steps, script: script)
            runner.cpuDeadline = cpuDeadline
            let session = try runner.run()
            defer { session.close() }
            if let f = session.failure {
                return Finding(game: entry.id, message: f.message + " (\(what))", traceback: f.traceback)
            }
            do { _ = try session.state() } catch {
                return Finding(game: entry.id, message: error.message, traceback: "")
            }
        } catch {
            return Finding(game: entry.id, message: error.message + " (\(what))", traceback: error.traceback)
        }
        return nil
    }

    /// What is worth fixing in a playable game without failing it: an id another game holds
    /// in the arcade, a manifest with no `controls` (the pause card would have none to show).
    public static func warnings(for entry: GameEntry) -> [String] {
        guard entry.isPlayable, let manifest = entry.manifest else { return [] }
        var out: [String] = []
        if let clash = entry.idWarning { out.append(clash) }
        if manifest.controls.isEmpty {
            out.append("manifest.lua lists no controls (the pause card shows them: "
                       + "controls = { { \"space\", \"jump\" }, ... }, see docs/writing-games.md)")
        }
        return out
    }

    /// Random presses, releases and clicks: what a bored player would do.
    public static func randomInput(seed: UInt64, steps: Int, size: TerminalSize) -> InputScript {
        var rng = SeededRandom(seed: seed ^ 0xC0FFEE)
        let keys = ["space", "enter", "esc", "up", "down", "left", "right", "tab", "backspace",
                    "a", "d", "r", "s", "w", "x", "1", "2", "3", "4", "c", "p"]
        let (cols, rows) = (size.cols, size.rows)
        var script = InputScript()
        var frame = 0
        while frame < steps {
            frame += Int(rng.nextInt(in: 1, 12))
            switch rng.nextInt(in: 0, 9) {
            case 0...4:
                let k = KeyEvent(keys[Int(rng.nextInt(in: 0, Int64(keys.count - 1)))])
                script.entries.append(.init(frame: frame, event: .key(k)))
                script.entries.append(.init(frame: frame + 2, event: .keyUp(k)))
            case 5...7:
                let c = Int(rng.nextInt(in: 0, Int64(cols - 1))), r = Int(rng.nextInt(in: 0, Int64(rows - 1)))
                script.entries.append(.init(frame: frame, event: .mouse(MouseEvent(.press, col: c, row: r))))
                let c2 = min(cols - 1, c + Int(rng.nextInt(in: 0, 3)))
                script.entries.append(.init(frame: frame + 1, event: .mouse(MouseEvent(.drag, col: c2, row: r))))
                script.entries.append(.init(frame: frame + 2, event: .mouse(MouseEvent(.release, col: c2, row: r))))
            default:
                let c = Int(rng.nextInt(in: 0, Int64(cols - 1))), r = Int(rng.nextInt(in: 0, Int64(rows - 1)))
                script.entries.append(.init(frame: frame, event: .mouse(MouseEvent(.move, col: c, row: r, button: .none))))
            }
        }
        script.entries.sort { $0.frame < $1.frame }
        return script
    }
}

extension GameEntry {
    /// `size`, grown to the game's `min_size` where that is larger: the smallest canvas the
    /// arcade runs the game on (a smaller window gets a card instead).
    func canvas(atLeast size: TerminalSize) -> TerminalSize {
        TerminalSize(cols: max(size.cols, manifest?.minCols ?? 0), rows: max(size.rows, manifest?.minRows ?? 0))
    }
}
