import ArcadeCore
import ArcadeLua

/// Runs the Lua tests a game ships in `tests/*.lua` (what `arcade test` runs), and the
/// determinism check.
///
/// Each file runs in a fresh sandboxed VM; its top level declares tests with
/// `test(name, fn)`, and each test starts the real game headless, in sessions of its own,
/// drives it and checks it with `expect`. Files in folders below `tests/` are not tests:
/// they are helpers a test file may `require`.
public struct GameTestRunner {
    public struct Options: Sendable {
        /// Write golden frames instead of comparing them.
        public var updateGolden: Bool
        /// The most steps one test may run its games for, all together: the guard against a
        /// test that steps forever (a loop of pure Lua is stopped by the time budget).
        public var stepLimit: Int
        /// Memory cap and time budget of the test's own VM (those of the games are the usual).
        public var limits: LuaVM.Limits
        /// The determinism check run once per game (nil: none).
        public var determinism: DeterminismCheck?

        public init(updateGolden: Bool = false, stepLimit: Int = 216_000, limits: LuaVM.Limits = .init(),
                    determinism: DeterminismCheck? = DeterminismCheck()) {
            self.updateGolden = updateGolden
            self.stepLimit = stepLimit
            self.limits = limits
            self.determinism = determinism
        }
    }

    /// One line of the report: a test, a test file that could not run, or the determinism check.
    public struct Result: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            /// A test declared with `test(name, fn)`.
            case test(String)
            /// The file itself: it did not load, or declared no test.
            case file
            /// The game's determinism check.
            case determinism
        }

        public var game: String
        /// `<id>/tests/<file>` (for the determinism check: the game's id).
        public var file: String
        public var kind: Kind
        public var passed: Bool
        /// What the line says after the name: why it failed, on one line (`file:line: what
        /// was expected, what was got (frame N)`), or what a passing determinism check ran.
        public var message: String
        /// More lines: a golden frame's diff, a traceback, the frames written, what the test printed.
        public var details: [String]

        public init(game: String, file: String, kind: Kind, passed: Bool, message: String = "", details: [String] = []) {
            self.game = game
            self.file = file
            self.kind = kind
            self.passed = passed
            self.message = message
            self.details = details
        }

        /// The line `arcade test` prints (details follow it, indented).
        public var line: String {
            let what: String
            switch kind {
            case .test(let name): what = "\(file)  \(name)"
            case .file: what = file
            case .determinism: what = "\(game)  determinism"
            }
            return (passed ? "ok    " : "FAIL  ") + what + (message.isEmpty ? "" : ": " + message)
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The test files of a game: the `.lua` files directly in its `tests/` folder, sorted.
    public static func testFiles(of entry: GameEntry) -> [String] {
        let folder = entry.folder + "/tests"
        return directoryEntries(folder).filter { name in
            name.hasSuffix(".lua") && !name.hasPrefix(".") && !isDirectory(folder + "/" + name)
        }
    }

    /// Runs every test of `entry` (or those of the test files named in `files`), then its
    /// determinism check, handing each result to `report` as soon as it is known.
    @discardableResult
    public func run(_ entry: GameEntry, files: [String]? = nil, report: (Result) -> Void = { _ in }) -> [Result] {
        var results: [Result] = []
        func add(_ r: Result) {
            results.append(r)
            report(r)
        }
        guard entry.isPlayable else {
            add(Result(game: entry.id, file: entry.id, kind: .file, passed: false,
                       message: entry.problem ?? "the game cannot be played"))
            return results
        }
        for file in Self.testFiles(of: entry) where files?.contains(file) ?? true {
            runFile(file, of: entry, add)
        }
        if let check = options.determinism {
            switch check.check(entry) {
            case .deterministic(let steps):
                add(Result(game: entry.id, file: entry.id, kind: .determinism, passed: true,
                           message: "two runs of \(steps) steps with the same seed and random input agree"))
            case .diverged(let divergence):
                add(Result(game: entry.id, file: entry.id, kind: .determinism, passed: false, message: divergence.description))
            case .failed(let error):
                add(Result(game: entry.id, file: entry.id, kind: .determinism, passed: false,
                           message: "the game failed under random input: \(error.message)",
                           details: TestFile.lines(error.traceback)))
            }
        }
        return results
    }

    private func runFile(_ file: String, of entry: GameEntry, _ add: (Result) -> Void) {
        let chunk = "\(entry.id)/tests/\(file)"
        let testFile: TestFile
        let names: [String]
        do {
            testFile = try TestFile(entry: entry, file: file, options: options)
            names = try testFile.load()
        } catch {
            add(Result(game: entry.id, file: chunk, kind: .file, passed: false, message: error.message,
                       details: TestFile.lines(error.traceback)))
            return
        }
        guard !names.isEmpty else {
            add(Result(game: entry.id, file: chunk, kind: .file, passed: false,
                       message: "\(chunk): declares no tests (call test(name, fn) at its top level)"))
            return
        }
        for (i, name) in names.enumerated() {
            let outcome = testFile.run(test: i, name: name)
            let printed = testFile.printed.map { "| " + $0 }
            add(Result(game: entry.id, file: chunk, kind: .test(name), passed: outcome.passed, message: outcome.message,
                       details: outcome.details + testFile.notes + printed))
        }
    }
}
