#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// Writes a new, working game folder: a manifest, a `main.lua` with every callback, a Lua
/// test file that passes (`arcade test <id>`) and a headless smoke-test input script. What
/// `swift package new-game <id>` runs.
public enum GameScaffold {
    /// Why a scaffold could not be written.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// Creates `<gamesDir>/<id>/` and returns its path. `title` defaults to the id in title
    /// case; `description` to a placeholder that asks for the game's own (it is the manifest
    /// line `arcade list` and the menu show, so it must not pass for another game's).
    @discardableResult
    public static func create(id: String, title: String? = nil, description: String? = nil,
                              in gamesDir: String) throws(Problem) -> String {
        let name = title ?? id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        let about = description ?? "A new game, still catching falling stars: describe yours here."
        do {
            _ = try GameManifest.validate(.table([
                "id": .string(id), "title": .string(name), "description": .string(about), "author": .string("a"),
                "version": .string("0.1.0"), "api": .int(Int64(GameManifest.currentAPI)),
            ]), displayPath: "\(id)/manifest.lua")
        } catch {
            throw Problem(description: error.message)
        }
        guard !name.contains(where: \.isNewline) else { throw Problem(description: "the title must be one line") }
        guard !about.contains(where: \.isNewline) else { throw Problem(description: "the description must be one line") }
        let folder = gamesDir + "/" + id
        guard !fileExists(folder) else { throw Problem(description: "\(folder) already exists") }
        guard mkdir(gamesDir, 0o755) == 0 || errno == EEXIST, mkdir(folder, 0o755) == 0, mkdir(folder + "/tests", 0o755) == 0 else {
            throw Problem(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        let files = [
            ("manifest.lua", manifest(id: id, title: name, description: about)),
            ("main.lua", mainLua(title: name)),
            ("tests/play.lua", testLua(id: id, title: name)),
            ("tests/smoke.input", smokeInput),
        ]
        for (file, text) in files {
            let fd = open(folder + "/" + file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw Problem(description: "cannot write \(folder)/\(file)") }
            var t = text
            let ok = t.withUTF8 { write(fd, $0.baseAddress, $0.count) == $0.count }
            close(fd)
            guard ok else { throw Problem(description: "cannot write \(folder)/\(file)") }
        }
        return folder
    }

    /// `text` as a Lua string literal.
    static func literal(_ text: String) -> String {
        var out = "\""
        for c in text.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    static func manifest(id: String, title: String, description: String) -> String {
        """
        -- \(title): the arcade reads this file as data only.
        return {
          id = "\(id)",
          title = \(literal(title)),
          description = \(literal(description)),
          author = "you",
          version = "0.1.0",
          api = \(GameManifest.currentAPI),
          min_size = { 80, 24 },
          -- what the pause card lists: keep it in step with game.input in main.lua
          controls = {
            { "left / right", "nudge the basket; hold to glide" },
            { "move the mouse", "move the basket" },
          },
        }

        """
    }

    static func mainLua(title: String) -> String {
        """
        -- \(title): a star falls; catch it with the basket (arrows or the mouse).
        -- Run it with `arcade dev <id>` and edit this file: changes load while it runs.

        local FALL_TIME = 2.0       -- seconds for the star to fall
        local PAUSE = 0.4           -- seconds between a landing and the next star
        local BASKET_SPEED = 60     -- pixels per second while an arrow is held down
        local NUDGE = 3             -- pixels one press of an arrow moves the basket
        local CATCH_DISTANCE = 6    -- pixels between star and basket that still catch
        local STAR_TOP = 6          -- where a star appears: under the score line (pixel rows 0-1)
        local ARROWS = { left = -1, right = 1 }

        -- A hot reload runs this file again with a new `game` table. The host carries over
        -- game.state (plain data) and the table's other non-function fields (the node
        -- handles below). A file-level local the new code leaves nil (`local star`, set in
        -- load) keeps its old value; one it sets (the constants above) takes the new one.
        -- Timers and animations call game functions (game.drop_star, game.landed): the host
        -- looks those up by name each time, so after a reload they run the new code.
        ---@type arcade.Game
        local game = {}

        function game.load(ctx)
          local s = game.state
          s.score, s.missed = 0, 0
          arcade.scene.background("#101828")
          -- named, so that the tests can find them (g:node("basket"))
          game.basket = arcade.scene.rect{ name = "basket", x = ctx.width / 2, y = ctx.height - 3, width = 12, height = 3,
                                           fill = "orange" }
          game.star = arcade.scene.circle{ name = "star", x = ctx.width / 2, y = STAR_TOP, radius = 2, fill = "gold" }
          game.label = arcade.scene.text{ x = 1, y = 0, anchor = { 0, 0 }, text = "", color = "white" }
          game.drop_star()
        end

        -- A star appears at the top and falls natively; game.landed runs when it is down.
        function game.drop_star()
          local W, H = arcade.screen()
          game.star:set{ x = math.random(4, W - 4), y = STAR_TOP, visible = true }
          arcade.animate(game.star, { property = "y", to = H - 4, duration = FALL_TIME, timing = "easeIn" },
            game.landed)
        end

        function game.landed(finished)
          if not finished then return end   -- cancelled: nothing landed
          local s = game.state
          if math.abs(game.star.x - game.basket.x) <= CATCH_DISTANCE then
            s.score = s.score + 1
            arcade.score.submit(s.score)
          else
            s.missed = s.missed + 1
          end
          game.star.visible = false
          game.next_star = arcade.after(PAUSE, game.drop_star)
        end

        -- Moves the basket by dx, keeping it on the screen.
        local function move(dx)
          local W = arcade.screen()
          game.basket.x = math.max(6, math.min(W - 6, game.basket.x + dx))
        end

        function game.input(e)
          local s = game.state
          if e.type == "key" and ARROWS[e.key] then
            -- A press nudges the basket; a key held down glides it. Most terminals send no key
            -- releases (the host infers them, half a second after a tap), so a key counts as
            -- held once the terminal repeats it, and it glides while arcade.is_down says so.
            if e.is_repeat then s.glide = e.key else move(ARROWS[e.key] * NUDGE) end
          elseif e.type == "mouse" and (e.action == "press" or e.action == "drag" or e.action == "move") then
            game.basket.x = e.x
          elseif e.type == "resize" then
            game.basket.y = e.height - 3
          end
        end

        function game.update(dt)
          local s = game.state
          if s.glide and not arcade.is_down(s.glide) then s.glide = nil end   -- let go: stop
          if s.glide then move(ARROWS[s.glide] * BASKET_SPEED * dt) end
          game.label.text = "caught " .. s.score .. "   missed " .. s.missed
        end

        -- optional: immediate-mode drawing over the scene
        function game.draw(gfx)
          gfx.text("best " .. (arcade.score.best() or 0), arcade.screen() - 12, 0, "gray")
        end

        -- optional: called after a hot reload, with the kept state
        function game.reload(state)
          print("reloaded; score so far " .. state.score)
        end

        -- optional: called when the player leaves
        function game.quit() end

        return game

        """
    }

    static func testLua(id: String, title: String) -> String {
        """
        -- \(title): tests of its rules, run headless against the real game by `arcade test \(id)`.
        -- Each test starts the game (t:start), sends it input, steps it, and checks game.state
        -- or the frame with expect(...). See "Testing a game" in docs/writing-games.md.

        test("a star lands every 2.4 seconds, caught or missed", function(t)
          local g = t:start{ seed = 1 }
          g:wait(2.5)                      -- a 2 s fall, a 0.4 s pause, and the next is in the air
          local s = g:state()
          expect(s.score + s.missed, "landings"):to_equal(1)
          expect(g:text()):to_contain("missed " .. s.missed)
          g:wait(2.4)
          s = g:state()
          expect(s.score + s.missed, "landings"):to_equal(2)
        end)

        test("a press nudges the basket; held down, it glides until released", function(t)
          local g = t:start{ seed = 2 }
          local x = g:node("basket").x      -- the node the game named "basket"
          g:key("left"):step()
          expect(g:node("basket").x, "one nudge"):to_equal(x - 3)
          g:key("left", { is_repeat = true }):step(30)   -- held: the terminal repeats the key
          expect(g:node("basket").x, "half a second of gliding"):to_be_near(x - 3 - 30, 1e-6)
          g:keyup("left"):step(10)
          expect(g:node("basket").x, "stopped"):to_be_near(x - 33, 1e-6)
        end)

        -- A golden frame: the first run with --update-golden writes tests/golden/<name>.txt
        -- (look at it); later runs compare the frame with it cell by cell.
        --   g:step(30):expect_golden("falling")

        """
    }

    static let smokeInput = """
        # A headless smoke test: arcade play <id> --headless --frames 240 --input tests/smoke.input --state
        10 key left
        40 keyup left
        60 mouse press 40 20
        90 key right
        120 keyup right

        """
}
