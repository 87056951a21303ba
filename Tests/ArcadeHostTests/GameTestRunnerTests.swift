import Foundation
import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// `arcade test`: Lua test files run headless against the real game, each in its own VM.
@Suite struct GameTestRunnerTests {
    /// A game that counts space presses (shown on the top row), records clicks and sizes,
    /// fails on `x`, spins on `s`, prints each event, and cannot save 13 presses.
    static let main = """
        local game = {}
        function game.load(ctx)
          local s = game.state
          s.presses, s.clicks, s.size, s.ratio = 0, {}, { ctx.cols, ctx.rows }, 0.5
          s.sparse = { [3] = "three", [10] = "ten" }
          arcade.scene.background("#000000")
          game.label = arcade.scene.text{ x = 0, y = 0, anchor = { 0, 0 }, text = "presses 0", color = "white" }
        end
        function game.input(e)
          local s = game.state
          print("input " .. e.type)
          if e.type == "key" and e.key == "space" then
            s.presses = s.presses + 1
            game.label.text = "presses " .. s.presses
          elseif e.type == "key" and e.key == "x" then
            local t = nil
            t.boom = 1
          elseif e.type == "key" and e.key == "s" then
            s.spin = true
          elseif e.type == "mouse" then
            s.clicks[#s.clicks + 1] = e.action .. " " .. e.col .. " " .. e.row
          elseif e.type == "resize" then
            s.size = { e.cols, e.rows }
          end
        end
        function game.update(dt)
          if game.state.spin then for i = 1, 1000000 do end end
        end
        function game.quit()
          if game.state.presses == 13 then error("cannot save the presses") end
          arcade.save.set("presses", game.state.presses)
        end
        return game
        """

    static func game(tests: [String: String]) throws -> ScratchGame {
        var files = ["main.lua": main]
        for (name, text) in tests { files[name.contains("/") ? name : "tests/" + name] = text }
        return try ScratchGame(files: files)
    }

    static func run(_ g: ScratchGame, _ options: GameTestRunner.Options = .init(determinism: nil)) throws -> [GameTestRunner.Result] {
        GameTestRunner(options: options).run(try #require(g.entry))
    }

    @Test func aPassingTestPrintsOkAndTheSummary() throws {
        let g = try Self.game(tests: ["a.lua": """
            test("space counts presses", function(t)
              local g = t:start{ seed = 2 }
              g:key("space"):step():key("space"):step()
              expect(g:state().presses):to_equal(2)
              expect(g:text()):to_contain("presses 2")
            end)
            """])
        let r = try runArcade(["test", "--games", g.root, "--no-determinism"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out == "ok    scratch/tests/a.lua  space counts presses\n1 passed, 0 failed\n")
    }

    @Test func aFailedExpectationSaysWhatWasExpectedWhatCameWhereAndAtWhichFrame() throws {
        let g = try Self.game(tests: ["a.lua": """
            test("counts presses", function(t)
              local g = t:start()
              g:key("space"):step(3)
              expect(g:state().presses, "presses"):to_equal(2)
            end)
            """])
        let r = try runArcade(["test", "scratch", "--games", g.root, "--no-determinism"])
        #expect(r.status == 1)
        #expect(r.out == """
            FAIL  scratch/tests/a.lua  counts presses: scratch/tests/a.lua:4: presses: expected 2, got 1 (frame 3)
            0 passed, 1 failed

            """)
        let unknown = try runArcade(["test", "nope", "--games", g.root])
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("no game with id 'nope' (games: scratch)"))
    }

    @Test func matchersSayWhatTheyWanted() throws {
        let g = try Self.game(tests: ["m.lua": """
            test("table", function() expect({ a = 1, b = { 2, 3 } }):to_equal({ a = 1, b = { 2, 4 } }) end)
            test("never", function() expect(3).never:to_equal(3) end)
            test("near", function() expect(1.5):to_be_near(1, 0.1) end)
            test("contain", function() expect("abc"):to_contain("x") end)
            test("fail", function() expect(function() end):to_fail() end)
            test("between", function() expect(12):to_be_between(1, 10) end)
            test("length", function() expect({ 1, 2 }):to_have_length(3) end)
            test("type", function() expect("7"):to_be_a("integer") end)
            test("missing key", function() expect({ a = 1 }):to_equal({ a = 1, b = false }) end)
            test("passing", function(t)
              local g = t:start()
              local s = g:state()
              expect(s.sparse):to_equal({ [3] = "three", [10] = "ten" })
              expect(math.type(s.ratio)):to_equal("float")
              expect(math.type(s.presses)):to_equal("integer")
              expect(s.size):to_equal({ 80, 24 })
              expect(function() error("nope") end):to_fail("nope")
              expect(2):to_be_greater_than(1):to_be_less_than(3):to_be_at_least(2):to_be_at_most(2)
              expect("frame"):to_match("^fr")
              expect(nil):to_be_falsy()
              expect({ 1, { 2 } }):to_contain({ 2 })
            end)
            """])
        let results = try Self.run(g)
        let messages = results.map(\.message)
        #expect(messages == [
            "scratch/tests/m.lua:1: expected {a = 1, b = {2, 4}}, got {a = 1, b = {2, 3}} (at b[2]: expected 4, got 3)",
            "scratch/tests/m.lua:2: expected not 3, got 3",
            "scratch/tests/m.lua:3: expected a number within 0.1 of 1, got 1.5",
            "scratch/tests/m.lua:4: expected a string containing \"x\", got \"abc\"",
            "scratch/tests/m.lua:5: expected an error, got no error",
            "scratch/tests/m.lua:6: expected a number from 1 to 10, got 12",
            "scratch/tests/m.lua:7: expected length 3, got length 2: {1, 2}",
            "scratch/tests/m.lua:8: expected a value of type integer, got \"7\" (a string)",
            "scratch/tests/m.lua:9: expected {a = 1, b = false}, got {a = 1} (at b: expected false, got nil)",
            "",
        ])
        #expect(results.map(\.passed) == Array(repeating: false, count: 9) + [true])
        #expect(results.allSatisfy { $0.details.isEmpty }, "an expectation's message says it all")
    }

    @Test func theStateIsACopyAndInputReachesTheGame() throws {
        let g = try Self.game(tests: ["a.lua": """
            test("copy", function(t)
              local g = t:start{ cols = 100, rows = 30 }
              local s = g:state()
              s.presses = 99
              expect(g:state().presses, "the game's own count"):to_equal(0)
              expect(s.size):to_equal({ 100, 30 })
              g:press(3, 4):drag(5, 4):release(5, 4):click(7, 8, "right"):move(1, 1):resize(90, 28):step()
              expect(g:state().clicks):to_equal({ "press 3 4", "drag 5 4", "release 5 4", "press 7 8", "release 7 8", "move 1 1" })
              expect(g:state().size):to_equal({ 90, 28 })
              expect(g:log()):to_have_length(7)
              expect(g:log()[1]):to_equal("input mouse")
              local cols, rows, width, height = g:size()
              expect({ cols, rows, width, height }):to_equal({ 90, 28, 90, 56 })
              expect(g:lines()):to_have_length(28)
              expect(g:lines()[1]):to_match("^presses 0 *$")
              local col, row = g:find("sses")
              expect({ col, row }):to_equal({ 3, 0 })
              expect(g:cell(0, 0)):to_equal("p")
              expect(g:find("nowhere")):to_be(nil)
              g:wait(0.5)
              expect(g:frame()):to_equal(31)
              expect(g:time()):to_be_near(31 / 60)
            end)
            """])
        let results = try Self.run(g)
        #expect(results.count == 1)
        #expect(results.first?.passed == true, "\(results)")
    }

    /// A text node's background fills its whole block: a short line's spare cells and an
    /// empty line too, and no cell outside it; `g:cell` returns each cell's colours.
    @Test func aTextBackgroundFillsItsBlockAndCellShowsIt() throws {
        let g = try ScratchGame(files: [
            "main.lua": """
                local game = {}
                function game.load()
                  arcade.scene.background("#000000")
                  arcade.scene.text{ x = 2, y = 2, anchor_x = 0, anchor_y = 0, align = "left",
                                     text = "ab\\n\\nwxyz", color = "#ffffff", background = "#203040" }
                end
                return game
                """,
            "tests/a.lua": """
                test("the block's box", function(t)
                  local g = t:start{ cols = 20, rows = 10 }
                  local ch, c = g:cell(2, 1)
                  expect(ch):to_equal("a")
                  expect(c):to_equal({ fg = "#ffffff", bg = "#203040" })
                  for row = 1, 3 do
                    for col = 2, 5 do
                      local _, c = g:cell(col, row)
                      expect(c.bg, "cell " .. col .. ", " .. row):to_equal("#203040")
                    end
                  end
                  for _, at in ipairs{ { 1, 1 }, { 6, 1 }, { 2, 0 }, { 2, 4 }, { 6, 3 } } do
                    local ch, c = g:cell(at[1], at[2])
                    expect(ch):to_equal(" ")
                    expect(c, "outside: cell " .. at[1] .. ", " .. at[2]):to_equal({ top = "#000000", bottom = "#000000", bg = "#000000" })
                  end
                  expect(g:cell(20, 0)):to_be(nil)
                end)
                """,
        ])
        let results = try Self.run(g)
        #expect(results.count == 1)
        #expect(results.first?.passed == true, "\(results)")
    }

    @Test func aGoldenMismatchShowsTheCellsThatDiffer() throws {
        let g = try Self.game(tests: [
            "a.lua": """
                test("one press", function(t)
                  t:start():key("space"):step():expect_golden("pressed")
                end)
                """,
            "tests/golden/pressed.txt": "presses 9\n" + String(repeating: "\n", count: 23),
        ])
        let results = try Self.run(g)
        let r = try #require(results.first)
        #expect(!r.passed)
        #expect(r.message == "scratch/tests/a.lua:2: the frame differs from the golden frame scratch/tests/golden/pressed.txt: "
                + "1 cell differs in 1 row (frame 1); `arcade test scratch --update-golden` rewrites it")
        #expect(Array(r.details.prefix(4)) == ["row 0:", "  want |presses 9|", "  got  |presses 1|", "                ^"])
        #expect(r.details.last?.hasPrefix("pictures: ") == true)
    }

    @Test func updateGoldenWritesTheFrameAndTheNextRunComparesWithIt() throws {
        let g = try Self.game(tests: ["a.lua": """
            test("first frame", function(t)
              t:start():step():expect_golden("first")
            end)
            """])
        let missing = try #require(try Self.run(g).first)
        #expect(!missing.passed)
        #expect(missing.message.hasPrefix("scratch/tests/a.lua:2: no golden frame scratch/tests/golden/first.txt yet: "
                                          + "`arcade test scratch --update-golden` writes it"))
        #expect(missing.details.first == "the frame:")
        #expect(missing.details.dropFirst().first == "presses 0")

        let written = try #require(try Self.run(g, .init(updateGolden: true, determinism: nil)).first)
        #expect(written.passed)
        #expect(written.details == ["wrote scratch/tests/golden/first.txt (frame 1)"])
        let file = try String(contentsOfFile: g.folder + "/tests/golden/first.txt", encoding: .utf8)
        #expect(file == "presses 0\n" + String(repeating: "\n", count: 23))
        #expect(try Self.run(g).first?.passed == true)
        // unchanged frames are not written again
        #expect(try Self.run(g, .init(updateGolden: true, determinism: nil)).first?.details == [])
    }

    @Test func aBrokenTestFileFailsOnItsOwnAndTheOtherFilesRun() throws {
        let g = try Self.game(tests: [
            "a.lua": "test('fine', function(t) t:start():step() end)\n",
            "b.lua": "test('x', function(t)\n  local = 3\nend)\n",
            "c.lua": "local helper = nil\nhelper.go()\n",
            "d.lua": "local x = 1\n",
            "e.lua": "test('twice', function() end)\ntest('twice', function() end)\n",
            "support/helper.lua": "error('a helper is not a test file')\n",
        ])
        let r = try runArcade(["test", "--games", g.root, "--no-determinism"])
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "ok    scratch/tests/a.lua  fine")
        #expect(lines.contains("FAIL  scratch/tests/b.lua: scratch/tests/b.lua:2: <name> expected near '='"))
        #expect(lines.contains("FAIL  scratch/tests/c.lua: scratch/tests/c.lua:2: attempt to index a nil value (local 'helper')"))
        #expect(lines.contains("FAIL  scratch/tests/d.lua: scratch/tests/d.lua: declares no tests (call test(name, fn) at its top level)"))
        #expect(lines.contains("FAIL  scratch/tests/e.lua: scratch/tests/e.lua:2: test(name, fn): this file already has a test named 'twice'"))
        #expect(lines.last == "1 passed, 4 failed")
        #expect(!r.out.contains("helper.lua"))
    }

    @Test func aRunawayTestIsStoppedAndTheNextTestRuns() throws {
        let g = try Self.game(tests: ["a.lua": """
            test("spins", function(t) while true do end end)
            test("steps forever", function(t)
              local g = t:start()
              while true do g:step() end
            end)
            test("waits for ever", function(t)
              t:start():step_until(function(s) return s.presses > 0 end, 100)
            end)
            test("next", function(t) t:start():step() end)
            """])
        let options = GameTestRunner.Options(stepLimit: 500, limits: .init(secondsPerCall: 0.1), determinism: nil)
        let results = try Self.run(g, options)
        #expect(results.map(\.passed) == [false, false, false, true])
        #expect(results[0].message == "scratch/tests/a.lua:1: test 'spins' exceeded its time budget")
        #expect(results[1].message.hasPrefix("scratch/tests/a.lua:4: this test has asked for more than 500 steps in all"))
        #expect(results[2].message == "scratch/tests/a.lua:7: step_until: the condition was still false after 100 steps (frame 100)")
    }

    /// The budget limits the test's own Lua: the time its games take is theirs, under their
    /// own budgets. This game spends a few milliseconds a step, the test's budget is a quarter
    /// of a second, and a hundred steps pass.
    @Test func theGamesTimeDoesNotCountInTheTestsBudget() throws {
        let g = try Self.game(tests: ["a.lua": """
            test("slow game", function(t)
              local g = t:start()
              g:key("s")
              for i = 1, 100 do g:step() end
              expect(g:state().spin):to_be(true)
            end)
            """])
        let results = try Self.run(g, .init(limits: .init(secondsPerCall: 0.25), determinism: nil))
        #expect(results.first?.passed == true, "\(results)")
    }

    @Test func anErrorInTheGameFailsTheTestAtTheGamesLine() throws {
        let g = try Self.game(tests: ["a.lua": """
            test("x breaks it", function(t)
              local g = t:start()
              g:key("x"):step()
            end)
            test("quit cannot save", function(t)
              local g = t:start()
              for i = 1, 13 do g:key("space") end
              g:step()
            end)
            test("restart keeps the saves", function(t)
              local g = t:start{ saves = { presses = 4 } }
              expect(g:save("presses")):to_equal(4)
              g:key("space"):step()
              local again = g:restart{ seed = 3 }
              expect(again:save("presses")):to_equal(1)
              expect(function() g:step() end):to_fail("this game was closed")
            end)
            """])
        let results = try Self.run(g)
        #expect(results[0].message == "scratch/tests/a.lua:3: the game stopped with an error: "
                + "scratch/main.lua:17: attempt to index a nil value (local 't') (frame 0)")
        #expect(results[0].details.first == "in the game's input:")
        #expect(results[0].details.contains { $0.contains("scratch/main.lua:17: in function") })
        #expect(results[1].message == "when the test ended, the game's quit() failed: scratch/main.lua:30: cannot save the presses")
        #expect(results[2].passed, "\(results[2])")
    }

    @Test func whatATestPrintsIsShownUnderIt() throws {
        let g = try Self.game(tests: ["a.lua": "test('talks', function() print('hello', 3) end)\n"])
        let r = try runArcade(["test", "--games", g.root, "--no-determinism"])
        #expect(r.out == "ok    scratch/tests/a.lua  talks\n      | hello\t3\n1 passed, 0 failed\n")
    }

    /// The repository's games ship at least three Lua tests each. They run once per
    /// `scripts/test.sh`, after the Swift tests (`arcade test --games games`), not here too.
    @Test func theFiveGamesShipLuaTests() throws {
        let testCall = try Regex(#"(?m)^\s*test\(\s*["']"#)
        for id in ["coinbank", "fishing", "giftcombo", "ballcatch", "lastcircle"] {
            let folder = DefinitionsTests.repoRoot + "/games/" + id + "/tests"
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".lua") }
            let count = try files.reduce(0) { n, file in
                n + (try String(contentsOfFile: folder + "/" + file, encoding: .utf8)).matches(of: testCall).count
            }
            #expect(count >= 3, "\(id) has \(count) Lua tests")
        }
    }
}
