import Foundation
import Testing
import ArcadeRender
@testable import ArcadeHost

extension TmuxTests {
    /// Wide characters, a shape over half of one, one cut at the right edge, and keys beyond
    /// ASCII, in a real terminal: every row tmux shows is exactly the window's width, and
    /// what follows wide text stays in its column.
    @Test func wideTextAndKeysInARealTerminal() throws {
        try #require(!(try sh("command -v tmux")).isEmpty, "tmux is needed")
        let arcade = try arcadeExecutable()
        let session = "arcade-test-w-\(getpid())"
        let game = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load() game.state.last = "none" end
            function game.input(e) if e.type == "key" then game.state.last = e.key end end
            function game.draw(gfx)
              local w = arcade.screen()
              gfx.text("主播小明送出火箭 x3 · 김지민 · さくら🌸 · last " .. game.state.last, 0, 2, "white")
              gfx.text("|", w - 1, 2, "white")
              gfx.text("中文字", w - 5, 4, "yellow")
              gfx.text("火箭", 0, 6, "white")
              gfx.fill_rect(1, 6, 1, 2, "red")
              gfx.text("@", w - 1, 6, "white")
            end
            return game
            """])
        defer { _ = try? sh("\(tmux) kill-session -t \(session) 2>/dev/null") }
        try startTmux(session, cols: 90, rows: 26)
        _ = try sh("\(tmux) send-keys -t \(session) 'LANG=C.UTF-8 \(arcade) play scratch --games \(game.root)' Enter")
        #expect(try waitForScreen(session, containing: "last none").contains("主播小明送出火箭 x3"))
        _ = try sh("\(tmux) send-keys -t \(session) -l é")
        #expect(try waitForScreen(session, containing: "last é").contains("last é"))
        _ = try sh("\(tmux) send-keys -t \(session) -l 中")
        _ = try waitForScreen(session, containing: "last 中")
        let lines = try sh("\(tmux) capture-pane -t \(session) -p -N").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 26)
        for (row, line) in lines.prefix(26).enumerated() {
            #expect(TextWidth.width(line) == 90, "row \(row) is \(TextWidth.width(line)) cells: \(line)")
        }
        #expect(lines[1].hasSuffix("|") && lines[1].contains("last 中"))
        #expect(lines[2].hasSuffix("中文 "))  // 字 would cross the right edge: a space
        #expect(lines[3].hasPrefix("  箭") && lines[3].hasSuffix("@"))  // the bar took 火 whole
        _ = try sh("\(tmux) send-keys -t \(session) C-c")
    }
}
