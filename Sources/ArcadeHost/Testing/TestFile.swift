import ArcadeCore
import ArcadeLua
import ArcadeRender

/// One test file of a game (`games/<id>/tests/<name>.lua`) and the sandboxed VM it runs in.
///
/// The test's code and the game's code never share a VM: a test starts each game in a
/// session of its own (the same ``GameSession`` headless runs use) and talks to it only
/// through the `arcade.test.Game` handle, whose methods queue input, step the game and
/// bring copies of its state and frame over. The test VM has the games' sandbox, their
/// memory cap and their time budget; the time the game itself runs counts in neither.
final class TestFile {
    let entry: GameEntry
    /// The file's name inside `tests/`.
    let file: String
    /// The name in messages: `<id>/tests/<file>`.
    let chunkName: String
    let options: GameTestRunner.Options
    let vm: LuaVM

    static let gameClass = LuaClass("arcade.test.Game")

    /// The prelude's handle (count, name, run).
    private var control: LuaRef?
    private var startFunction: LuaNativeFunction?

    // What the running test holds.
    var games: [UInt64: TestGame] = [:]
    private var nextGameID: UInt64 = 1
    /// The game the test touched last: failures name its frame.
    var lastGame: UInt64?
    private var stepsTaken = 0
    /// The message of the expectation that failed, to tell it from any other error.
    private var failedExpectation: String?
    /// Golden frames written (with `--update-golden`) and what the test printed.
    var notes: [String] = []
    private(set) var printed: [String] = []

    var testsFolder: String { entry.folder + "/tests" }

    init(entry: GameEntry, file: String, options: GameTestRunner.Options) throws(LuaError) {
        self.entry = entry
        self.file = file
        self.options = options
        chunkName = "\(entry.id)/tests/\(file)"
        vm = try LuaVM(name: chunkName, limits: options.limits)
        vm.moduleRoots = [LuaModuleRoot(path: entry.folder + "/tests", chunkPrefix: "\(entry.id)/tests")]
        vm.log = { [unowned self] line in self.printed.append(line) }
        try vm.installSandbox()
        try installAPI()
    }

    deinit {
        closeGames()
    }

    // MARK: Running

    /// Runs the file's top level, which declares its tests, and returns their names.
    func load() throws(LuaError) -> [String] {
        let source = try FileIO.readScript(testsFolder + "/" + file, within: testsFolder, chunkName: chunkName)
        let chunk = try vm.load(source, chunkName: chunkName)
        try vm.protectedCall(label: "loading \(chunkName)") { _ in
            self.vm.push(chunk)
            return 0
        }
        let count = try callControl("count", label: "counting tests") { _ in 0 }.intValue ?? 0
        var names: [String] = []
        for i in 0..<Int(count) {
            names.append(try callControl("name", label: "naming tests") { s in
                s.push(i + 1)
                return 1
            }.stringValue ?? "test \(i + 1)")
        }
        return names
    }

    /// What one test came to.
    struct Outcome {
        var passed: Bool
        /// The failure: its first line, then the rest (a diff, the game's traceback...).
        var message = ""
        var details: [String] = []
    }

    /// Runs test `index` (0-based) and closes every game it started.
    func run(test index: Int, name: String) -> Outcome {
        failedExpectation = nil
        stepsTaken = 0
        lastGame = nil
        notes = []
        printed = []
        var outcome = Outcome(passed: true)
        do throws(LuaError) {
            _ = try callControl("run", label: "test '\(name)'") { s in
                s.push(index + 1)
                s.pushTable(fields: 2)
                s.push(name)
                s.setField("name", in: -2)
                self.vm.push(self.startFunction!)
                s.setField("start", in: -2)
                return 2
            }
        } catch {
            outcome = Self.outcome(of: error, expectation: failedExpectation)
        }
        // the games close as a player would leave them: quit() runs, and its errors count
        for (id, game) in games.sorted(by: { $0.key < $1.key }) {
            games[id] = nil
            if let quitError = game.session.close(), outcome.passed {
                outcome = Outcome(passed: false, message: "when the test ended, the game's quit() failed: \(quitError.message)",
                                  details: Self.lines(String(Self.gameTraceback(quitError).dropFirst())))
            }
        }
        return outcome
    }

    /// A failed test's report: an expectation's message says all (it is located in the test
    /// file); any other error keeps its traceback.
    static func outcome(of error: LuaError, expectation: String?) -> Outcome {
        let head = String(error.message.prefix { $0 != "\n" })
        let rest = String(error.message.dropFirst(head.count + 1))
        var details = lines(rest)
        if error.message != expectation {
            // the test API's own frames say nothing to the test's author
            details += lines(error.traceback).filter {
                !$0.contains("arcade test:") && $0 != "\t[C]: in ?" && $0 != "\t(...tail calls...)"
            }
        }
        return Outcome(passed: false, message: head, details: details)
    }

    /// A game's traceback under a heading of its own that names the callback that failed
    /// (`in the game's update:`), after a newline ("" when there is neither): it must not
    /// read as the test's own `stack traceback:`.
    static func gameTraceback(_ error: LuaError) -> String {
        let heading = "\nin the game" + (error.callback.map { "'s " + $0 } ?? "")
        guard !error.traceback.isEmpty else { return error.callback == nil ? "" : heading }
        var body = error.traceback
        if body.hasPrefix("stack traceback:") { body.removeFirst("stack traceback:".count) }
        return heading + ":" + body
    }

    static func lines(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    private func callControl(_ name: String, label: String, args: @escaping (LuaStack) -> Int32) throws(LuaError) -> LuaValue {
        guard let control else { throw LuaError(kind: .runtime, message: "\(chunkName): the test API is not installed") }
        return try vm.protectedCall(label: label, nresults: 1, push: { s in
            self.vm.push(control)
            s.getField(name, in: -1)
            s.remove(at: -2)
            return args(s)
        }, results: { s in (try? s.value(at: -1)) ?? .nil })
    }

    private func closeGames() {
        for (_, game) in games { game.session.close() }
        games = [:]
    }

    // MARK: The API

    private func installAPI() throws(LuaError) {
        vm.defineClass(Self.gameClass, methods: gameMethods() + sceneMethods(), describe: { [unowned self] id in
            self.games[id] == nil ? "closed game" : "game \(self.entry.id) #\(id)"
        })
        startFunction = vm.function("start") { [unowned self] s in try self.start(s) }
        let natives: [(String, LuaFunction)] = [
            ("where", { s in
                s.push(s.fileLocation())
                return 1
            }),
            ("fail", { [unowned self] s in
                let message = s.string(at: 1) ?? "expectation failed"
                self.failedExpectation = message
                throw LuaError(kind: .runtime, message: message)
            }),
            ("frame_note", { [unowned self] s in
                s.push(self.frameNote())
                return 1
            }),
        ]
        let prelude = try vm.load(Self.prelude, chunkName: "=arcade test")
        control = try vm.protectedCall(label: "installing the test API", nresults: 1, push: { s in
            self.vm.push(prelude)
            self.vm.pushModule("", natives)
            s.pushRegistry()
            s.getField(Self.gameClass.name + ".methods", in: -1)
            s.remove(at: -2)
            return 2
        }, results: { _ in self.vm.ref() })
    }

    /// " (frame N)" for the game the test touched last, or "" before it starts one.
    func frameNote() -> String {
        guard let id = lastGame, let game = games[id] else { return "" }
        return " (frame \(game.session.frame))"
    }

    /// Fails the test with `message`, located at the test file's line, as an expectation does.
    func failure(_ s: LuaStack, _ message: String) -> LuaError {
        let text = s.fileLocation() + message
        failedExpectation = text
        return LuaError(kind: .runtime, message: text)
    }

    /// `t:start{ seed, cols, rows, saves }`.
    private func start(_ s: LuaStack) throws -> Int32 {
        let o = try s.optOptions(2, known: ["seed", "cols", "rows", "saves"])
        let seed = UInt64(try o.field("seed") { i throws(LuaValueProblem) in
            try s.readInteger(at: i, "non-negative integer", where: { $0 >= 0 })
        } ?? 1)
        let cols = Int(clamping: try o.field("cols", s.readInteger(at:)) ?? 80)
        let rows = Int(clamping: try o.field("rows", s.readInteger(at:)) ?? 24)
        let saves = try o.field("saves") { i throws(LuaValueProblem) in try Self.saves(s, i) } ?? []
        guard InputScript.isPlayableSize(cols: cols, rows: rows) else {
            throw LuaArgumentError(2, "a canvas must be between \(InputScript.minCols)x\(InputScript.minRows) and "
                                   + "\(InputScript.maxCols)x\(InputScript.maxRows) cells, got \(cols)x\(rows)")
        }
        let store = SaveStore(location: .memory)
        let slot = store.slot(for: entry)
        for (key, value) in saves {
            do { try slot.setValue(value, forKey: key) } catch {
                throw LuaArgumentError(2, "saves.\(key): \(error)")
            }
        }
        let game = try launch(GameSession.Options(seed: seed, cols: cols, rows: rows), store: store, s)
        vm.pushHandle(s, game, of: Self.gameClass)
        return 1
    }

    /// The `saves` option: a table of key = value, each value as a save holds it.
    private static func saves(_ s: LuaStack, _ i: Int32) throws(LuaValueProblem) -> [(String, LuaValue)] {
        guard s.type(at: i) == .table else { throw s.problem(expected: "table of key = value", at: i) }
        var saves: [(String, LuaValue)] = []
        s.pushNil()
        while s.next(in: i) {
            defer { s.pop() }
            guard let k = s.string(at: -2) else { throw LuaValueProblem(expected: "string keys", got: s.describeValue(at: -2)) }
            do { saves.append((k, try s.value(at: -1))) } catch { throw LuaValueProblem("\(k): \(error)") }
        }
        return saves
    }

    /// Starts a session of the game under test and returns its handle's id.
    func launch(_ options: GameSession.Options, store: SaveStore, _ s: LuaStack) throws -> UInt64 {
        let log = TestGame.Log()
        let session: GameSession
        do {
            session = try vm.withBudgetPaused { () throws(LuaError) in
                try GameSession(entry: entry, options: options, store: store, log: { log.lines.append($0) })
            }
        } catch {
            throw failure(s, "the game did not start: \(error.message)" + Self.gameTraceback(error))
        }
        let id = nextGameID
        nextGameID += 1
        games[id] = TestGame(session: session, store: store, log: log)
        lastGame = id
        return id
    }

    /// The game a method was called on, or an error when its handle is stale.
    func game(_ s: LuaStack) throws -> (UInt64, TestGame) {
        let id = try s.checkHandle(1, of: Self.gameClass)
        guard let game = games[id] else {
            throw LuaScriptError("this game was closed (a game lives until close(), restart() or the end of its test)")
        }
        lastGame = id
        return (id, game)
    }

    /// Steps `game` `n` times (the queued input goes with the first step), stopping early
    /// when it asks to quit; an error in the game fails the test.
    func step(_ game: TestGame, _ n: Int, _ s: LuaStack) throws {
        try stopIfFailed(game, s)
        guard n > 0, !game.session.context.quitRequested else { return }
        guard stepsTaken + n <= options.stepLimit else {
            throw failure(s, "this test has asked for more than \(options.stepLimit) steps in all, the most a test may run "
                          + "(a loop that never ends? step_until takes a limit)")
        }
        stepsTaken += n
        vm.withBudgetPaused { game.driver.run(steps: n) }
        try stopIfFailed(game, s)
    }

    /// Fails the test when the game has stopped with an error.
    func stopIfFailed(_ game: TestGame, _ s: LuaStack) throws {
        guard let error = game.session.failure else { return }
        throw failure(s, "the game stopped with an error: \(error.message)\(frameNote())" + Self.gameTraceback(error))
    }
}
