import Foundation
import Testing
import ArcadeCore
import ArcadeRender
import ArcadeTerminal
import ArcadeTestSupport
@testable import ArcadeHost

/// Reads everything written to a pseudo-terminal's emulator side on a thread of its own, so a
/// frame written in the test's thread never waits for room in the terminal's buffer.
final class PseudoTerminalDrain: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var stopped = false

    init(_ fd: Int32) {
        self.fd = fd
        Thread.detachNewThread { [self] in run() }
    }

    private func run() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !lock.withLock({ stopped }) {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 20) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { lock.withLock { bytes += chunk[0..<n] } } else if n < 0 && errno != EINTR && errno != EAGAIN { return }
        }
    }

    /// What arrived since the last call, once nothing more has come for `quiet` seconds.
    func take(quiet: Double = 0.2) -> [UInt8] {
        var seen = -1
        while true {
            let count = lock.withLock { bytes.count }
            if count == seen { break }
            seen = count
            Thread.sleep(forTimeInterval: quiet)
        }
        return lock.withLock {
            defer { bytes.removeAll() }
            return bytes
        }
    }

    func stop() { lock.withLock { stopped = true } }
}

/// A window that shrinks while the steps run (a coin burst) or while a frame is composed
/// gets no frame made for the old size: the frame's rows would scroll the smaller screen and
/// its lines wrap. The next frame, at the new size, repaints all of it.
@Suite(.serialized) struct ResizeMidFrameTests {
    @Test func aWindowShrunkWhileTheStepsRanGetsNoFrameAtTheOldSize() throws {
        let (app, pty) = try InteractiveAppTests.app(games: fixtureGames, id: "tiny", cols: 120, rows: 40)
        let drain = PseudoTerminalDrain(pty.primary)
        defer { drain.stop() }
        app.step()
        _ = try app.draw()
        var screen = VTModel(columns: 120, rows: 40, fill: .init(scalar: " ", foreground: .white, background: .black))
        screen.feed(drain.take())
        #expect(screen.errors.isEmpty, "\(screen.errors.prefix(3))")
        #expect(screen.printedCount > 0)

        // the window shrinks after the loop read its input: the steps run, then it draws
        pty.resize(cols: 100, rows: 30)
        screen.resize(columns: 100, rows: 30)
        for _ in 0..<3 { app.step() }
        _ = try app.draw()
        let dropped = drain.take()
        #expect(dropped.isEmpty, "\(dropped.count) bytes of a frame made for 120 x 40 were sent to a 100 x 30 window")
        #expect(app.size == TerminalSize(cols: 100, rows: 30))

        // the next step lays the game out for the new size, and its frame repaints everything
        app.step()
        _ = try app.draw()
        screen.feed(drain.take())
        #expect(screen.errors.isEmpty, "\(screen.errors.prefix(3))")
        let rows = (0..<30).map { r in String(String.UnicodeScalarView((0..<100).map { screen[$0, r].scalar })) }
        #expect(rows.contains { $0.contains("tiny: no keys yet") })
        #expect(try app.session?.state()["size"] == .array([.int(100), .int(60)]))
    }

    /// The game heard of the resize once: the loop's next read does not report it again.
    @Test func theResizeTakenBeforeDrawingIsNotReportedAgain() throws {
        let (app, pty) = try InteractiveAppTests.app(games: fixtureGames, id: "tiny", cols: 120, rows: 40)
        let drain = PseudoTerminalDrain(pty.primary)
        defer { drain.stop() }
        pty.resize(cols: 100, rows: 30)
        app.step()
        _ = try app.draw()
        #expect(app.driver?.queued.count == 1)
        #expect(app.terminal.takeResize() == nil)
        _ = drain.take(quiet: 0.05)
    }
}
