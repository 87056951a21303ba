import Foundation
import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// A copy of the repository's games (and their shared `lib`) in a temporary folder, so a
/// test can edit a game's `main.lua` while it runs.
final class GamesCopy {
    let root: String

    init(_ ids: [String]) throws {
        root = NSTemporaryDirectory() + "arcade-games-copy-\(UUID().uuidString)"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        for folder in ids + ["lib"] {
            try fm.copyItem(atPath: repoGames + "/" + folder, toPath: root + "/" + folder)
        }
    }

    /// Adds a line at the end of a game's `main.lua`: an edit that changes no behaviour.
    func touch(_ id: String) throws {
        let path = root + "/" + id + "/main.lua"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try (text + "\n-- edited while the game ran\n").write(toFile: path, atomically: false, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

/// Every bundled game reloads mid-play: its `main.lua`, unchanged and then trivially edited,
/// is loaded into the running game (as `arcade dev` does on a save) in the middle of what it
/// is doing, and the game goes on exactly as a copy that was never reloaded: the same state
/// after every step and the same frame at the end.
@Suite struct BundledGamesReloadTests {
    /// What happens at a step of the run: input for both games, or a reload of one of them.
    enum Action {
        case input([InputEvent])
        case reload
        case reloadEdited
    }

    /// Runs `steps` steps of `id` twice side by side, the second reloaded as `script` says.
    func playAndReload(_ id: String, seed: UInt64 = 1, steps: Int, script: [Int: [Action]],
                       during phase: (GameDriver) throws -> Bool = { _ in true },
                       then check: (GameDriver) throws -> Void = { _ in }) throws {
        let copy = try GamesCopy([id])
        let plain = try GameDriver(id, seed: seed, games: copy.root)
        let reloaded = try GameDriver(id, seed: seed, games: copy.root)
        var reloads = 0
        for step in 0..<steps {
            var events: [InputEvent] = []
            for action in script[step] ?? [] {
                switch action {
                case .input(let e): events += e
                case .reload, .reloadEdited:
                    #expect(try phase(reloaded), "\(id): step \(step) is not in the phase the reload is meant for")
                    if case .reloadEdited = action { try copy.touch(id) }
                    let error = reloaded.session.reload()
                    #expect(error == nil, "\(id): reload at step \(step): \(error?.description ?? "")")
                    reloads += 1
                }
            }
            plain.step(events: events)
            reloaded.step(events: events)
            if let failure = reloaded.session.failure {
                Issue.record("\(id): the reloaded game failed at step \(step): \(failure.description)")
                return
            }
            guard try reloaded.state() == plain.state() else {
                Issue.record("\(id): the reloaded game's state parted from the plain one's at step \(step)")
                return
            }
        }
        #expect(reloaded.session.reloads == reloads)
        #expect(reloaded.text() == plain.text(), "\(id): the frames differ at the end")
        try check(reloaded)
    }

    @Test func coinBankMidBurst() throws {
        let enter = Action.input([GameDriver.key("enter")])
        try playAndReload("coinbank", steps: 1400, script: [
            0: [enter],                                      // the run starts
            2: [enter],                                      // a burst
            40: [.reload],                                   // coins flying, the launcher running
            100: [.input([.resize(cols: 100, rows: 30)])],   // a new layer after the reload
            150: [.reloadEdited],
            400: [enter],                                    // a second burst with the new code
            500: [enter],                                    // refused: that burst is flying
            700: [enter],
            1000: [enter],
            1300: [enter],                                   // the fifth and last burst
        ], during: { try $0.bool("bursting") == true }, then: { (game: GameDriver) throws in
            #expect(try game.int("bursts_left") == 0)
            #expect(try game.int("banked") == game.int("score"))
        })
    }

    @Test func fishingMidCast() throws {
        let cast = Action.input([GameDriver.key("space")])
        try playAndReload("fishing", steps: 900, script: [
            0: [cast],
            20: [.reload],
            200: [.reloadEdited],
            500: [cast],
        ], during: { try $0.string("hook") != "swinging" }, then: { (game: GameDriver) throws in
            #expect(try game.int("casts") == 2)
        })
    }

    @Test func ballCatchWithBallsInPlay() throws {
        try playAndReload("ballcatch", steps: 700, script: [
            0: [.input([GameDriver.key("space")])],      // the run starts
            300: [.reload],
            310: [.input([GameDriver.key("left")])],
            330: [.input([.key(KeyEvent("left", isRepeat: true))])],
            360: [.input([GameDriver.keyUp("left")])],
            400: [.reloadEdited],
            420: [.input([GameDriver.key("right")])],
            450: [.input([GameDriver.keyUp("right")])],
        ], during: { $0.session.stats.bodies > 0 })
    }

    @Test func lastCircleMidRound() throws {
        let enter = Action.input([GameDriver.key("enter")])
        try playAndReload("lastcircle", seed: 3, steps: 900, script: [
            0: [enter],
            60: [.reload],                                   // memorising
            150: [.reloadEdited],                            // in round 1
            200: [.input([GameDriver.key("1")])],
            600: [enter],
        ], during: { ["memorise", "round"].contains(try $0.string("stage")) })
    }

    @Test func giftComboWithCards() throws {
        func gift(_ k: Int) -> Action { .input([GameDriver.key(String(k))]) }
        try playAndReload("giftcombo", steps: 600, script: [
            0: [gift(1)], 1: [gift(1)], 2: [gift(2)], 3: [gift(3)],
            20: [.reload],
            50: [gift(2)],
            120: [.reloadEdited],
            130: [gift(4)],
        ], during: { try ($0.int("shown") ?? 0) > 0 })
    }
}
