import ArcadeCore

/// Writes a new, working game folder: a manifest, a `main.lua` with every callback, and a
/// headless smoke-test input script. What `swift package new-game <id>` runs.
public enum GameScaffold {
    /// Why a scaffold could not be written.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// Creates `<gamesDir>/<id>/` and returns its path.
    @discardableResult
    public static func create(id: String, title: String? = nil, in gamesDir: String) throws(Problem) -> String {
        do {
            _ = try GameManifest.validate(.table([
                "id": .string(id), "title": .string("t"), "description": .string("d"), "author": .string("a"),
                "version": .string("0.1.0"), "api": .int(Int64(GameManifest.currentAPI)),
            ]), displayPath: "\(id)/manifest.lua")
        } catch {
            throw Problem(description: error.message)
        }
        let folder = gamesDir + "/" + id
        guard !fileExists(folder) else { throw Problem(description: "\(folder) already exists") }
        guard mkdir(gamesDir, 0o755) == 0 || errno == EEXIST, mkdir(folder, 0o755) == 0, mkdir(folder + "/tests", 0o755) == 0 else {
            throw Problem(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        let name = title ?? id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        let files = [
            ("manifest.lua", manifest(id: id, title: name)),
            ("main.lua", mainLua(title: name)),
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

    static func manifest(id: String, title: String) -> String {
        """
        -- \(title): the arcade reads this file as data only.
        return {
          id = "\(id)",
          title = "\(title)",
          description = "Catch the falling star.",
          author = "you",
          version = "0.1.0",
          api = \(GameManifest.currentAPI),
          min_size = { 80, 24 },
        }

        """
    }

    static func mainLua(title: String) -> String {
        """
        -- \(title): a star falls; catch it with the basket (arrows or the mouse).
        -- Run it with `arcade dev <id>` and edit this file: changes load while it runs.

        local FALL_TIME = 2.0       -- seconds for the star to fall
        local BASKET_SPEED = 60     -- pixels per second

        -- What must survive a hot reload lives in game.state or on the game table (the
        -- host keeps both); file-level locals start over when the file is reloaded.
        local game = {}

        local function drop_star()
          local s = game.state
          local W, H = arcade.screen()
          game.star.x, game.star.y = math.random(4, W - 4), 2
          game.fall = arcade.animate(game.star, { property = "y", to = H - 4, duration = FALL_TIME, timing = "easeIn" },
            function(finished)
              if not finished then return end
              if math.abs(game.star.x - game.basket.x) <= 6 then
                s.score = s.score + 1
                arcade.score.submit(s.score)
              else
                s.missed = s.missed + 1
              end
              drop_star()
            end)
        end

        function game.load(ctx)
          local W, H = ctx.width, ctx.height
          local s = game.state
          s.score, s.missed, s.dir = 0, 0, 0
          arcade.scene.background("#101828")
          game.basket = arcade.scene.rect{ x = W / 2, y = H - 3, width = 12, height = 3, fill = "orange" }
          game.star = arcade.scene.circle{ x = W / 2, y = 2, radius = 2, fill = "gold" }
          game.label = arcade.scene.text{ x = 1, y = 0, anchor_x = 0, anchor_y = 0, text = "", color = "white" }
          drop_star()
        end

        function game.input(e)
          local s = game.state
          if e.type == "key" then
            if e.key == "left" then s.dir = -1 elseif e.key == "right" then s.dir = 1 end
          elseif e.type == "keyup" then
            s.dir = 0
          elseif e.type == "mouse" and (e.action == "press" or e.action == "drag" or e.action == "move") then
            game.basket.x = e.x
          elseif e.type == "resize" then
            game.basket.y = e.height - 3
          end
        end

        function game.update(dt)
          local s = game.state
          local W = arcade.screen()
          local x = game.basket.x + s.dir * BASKET_SPEED * dt
          game.basket.x = math.max(6, math.min(W - 6, x))
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

    static let smokeInput = """
        # A headless smoke test: arcade play <id> --headless --frames 240 --input tests/smoke.input --state
        10 key left
        40 keyup left
        60 mouse press 40 20
        90 key right
        120 keyup right

        """
}
