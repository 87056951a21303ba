import Foundation
import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// How wide each row of `frame` is on a terminal, counted from its cells: a wide glyph two,
/// its right half nothing more; and where a row breaks the wide-glyph rules.
private func rowProblems(_ frame: Frame) -> [String] {
    var out: [String] = []
    for r in 0..<frame.rows {
        var width = 0
        for c in 0..<frame.columns {
            let cell = frame[c, r]
            if cell.isContinuation {
                if c == 0 || !frame[c - 1, r].isWide { out.append("row \(r): a right half with no wide glyph at \(c)") }
                continue
            }
            if cell.isWide && (c + 1 == frame.columns || !frame[c + 1, r].isContinuation) {
                out.append("row \(r): a wide glyph without its right half at \(c)")
            }
            width += cell.isWide ? 2 : 1
        }
        if width != frame.columns { out.append("row \(r) is \(width) cells") }
    }
    return out
}

/// Gift combo's crowd sends under names in Chinese, Japanese and Korean and with emoji
/// (GAMES.md, Gift combo): they show in the channels and the queue, and nothing shifts.
@Suite struct GiftComboNamesTests {
    static let scriptNames: Set<String> = ["Chinese", "Japanese", "Korean", "emoji"]

    /// The scripts `text` has characters of, of those in ``scriptNames``.
    static func scripts(in text: String) -> Set<String> {
        var found: Set<String> = []
        for s in text.unicodeScalars {
            switch s.value {
            case 0x4E00...0x9FFF: found.insert("Chinese")
            case 0x3040...0x30FF: found.insert("Japanese")
            case 0xAC00...0xD7A3: found.insert("Korean")
            default: if s.properties.isEmojiPresentation && s.value > 0xFF { found.insert("emoji") }
            }
        }
        return found
    }

    /// The senders the channels show now (nil for an idle one), and each one's count.
    static func channels(_ game: GameDriver) throws -> [(sender: String?, count: Int64)] {
        guard case .array(let items)? = try game.state()["channels"] else { return [] }
        return items.map {
            if case .string(let s)? = $0["sender"] { return (s, $0["count"]?.intValue ?? 0) }
            return (nil, 0)
        }
    }

    @Test func twoMinutesOfCrowdAt80x24KeepEveryFrameLineEightyCells() throws {
        let game = try GameDriver("giftcombo", seed: 3)
        game.step(events: [GameDriver.key("c")])
        var problems: [String] = []
        var inChannels: Set<String> = [], inQueue: Set<String> = []
        let background = game.session.scene.background
        for step in 0..<(120 * 60) {
            game.step()
            let frame = game.session.renderFrame()
            let lines = frame.plainLines { $0 == background }
            for (r, line) in lines.enumerated() where TextWidth.width(line) != 80 {
                problems.append("step \(step) row \(r): \(TextWidth.width(line)) cells: \(line)")
            }
            problems += rowProblems(frame).map { "step \(step): \($0)" }
            if problems.count > 5 { break }
            // which scripts the names on screen are in: the cards' name rows and the queue row
            let text = lines.joined(separator: "\n")
            for channel in try Self.channels(game) {
                guard let sender = channel.sender, text.contains(sender) else { continue }
                inChannels.formUnion(Self.scripts(in: sender))
            }
            if let queueRow = lines.first(where: { $0.hasPrefix(" queue ") }) {
                inQueue.formUnion(Self.scripts(in: queueRow))
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(inChannels == Self.scriptNames, "names shown on the cards")
        #expect(inQueue.count >= 2, "names shown in the queue line: \(inQueue)")
        #expect(game.session.failure == nil)
    }

    @Test func aWideNameSitsWhereItsCardSaysAndItsInitialIsItsFirstCharacter() throws {
        let game = try GameDriver("giftcombo", seed: 7)
        game.step(events: [GameDriver.key("c")])
        #expect(try game.step(until: {
            try Self.channels(game).contains { $0.sender == "김지민" && $0.count >= 1 }
        }, limit: 60 * 120))
        let channel = try #require(try Self.channels(game).firstIndex { $0.sender == "김지민" })
        game.step(30)  // the card has slid in
        guard case .array(let cards)? = try game.state()["boxes"]?["channels"],
              case .array(let parts)? = cards[channel]["parts"] else { Issue.record("no boxes"); return }
        func part(_ what: String) -> LuaValue? { parts.first { $0["what"] == LuaValue.string(what) } }
        let name = try #require(part("name")), initial = try #require(part("initial"))
        #expect(name["text"] == .string("김지민"))
        #expect(initial["text"] == .string("김"))
        #expect(name["box"]?["w"]?.doubleValue == 6)  // three wide characters
        let frame = game.session.renderFrame()
        let col = Int(try #require(name["box"]?["x"]?.doubleValue)), row = Int(try #require(name["box"]?["y"]?.doubleValue)) / 2
        #expect(frame[col, row].text == "김" && frame[col + 1, row].isContinuation)
        #expect(frame[col + 2, row].text == "지" && frame[col + 4, row].text == "민")
        #expect(rowProblems(frame).isEmpty)
    }

    @Test func goldenCrowdWithNamesInManyScripts() throws {
        // 35 s of crowd with seed 7: names in several scripts on the cards and in the queue
        let game = try GameDriver("giftcombo", seed: 7)
        game.step(events: [GameDriver.key("c")])
        game.step(2099)
        expectGolden(game.text(), game: "giftcombo", name: "crowdNames")
    }
}
