import Foundation
import Testing
import ArcadeCore
import ArcadeTerminal
@testable import ArcadeHost

/// The pacer on its own: when a frame may go, on times the test gives it.
@Suite struct FramePacerTests {
    /// Answers back within a step: every step's frame goes, as without pacing.
    @Test func promptAnswersLetEveryStepDraw() {
        var pacer = FramePacer()
        pacer.terminalAnswers()
        var drawn = 0
        for step in 0..<120 {
            let t = Double(step) / 60
            _ = pacer.answered(pacer.unanswered.count, at: t)  // the answer to the last frame is back
            guard pacer.mayDraw(at: t) else { continue }
            drawn += 1
            let asks = pacer.frameWritten(at: t)
            #expect(asks)
        }
        #expect(drawn == 120)
        #expect(pacer.mode == .answering)
    }

    /// A frame waits for the answer to the one before it, and its round trip is measured.
    @Test func aFrameWaitsForTheAnswer() {
        var pacer = FramePacer()
        pacer.terminalAnswers()
        #expect(pacer.mayDraw(at: 0))
        let asks = pacer.frameWritten(at: 0)
        #expect(asks)
        #expect(!pacer.mayDraw(at: 0.1))
        #expect(!pacer.mayDraw(at: 0.9))
        let trips = pacer.answered(1, at: 0.3)
        #expect(trips == [0.3])
        #expect(pacer.lastRoundTrip == 0.3)
        #expect(pacer.mayDraw(at: 0.3))
        // answers to queries nobody awaits change nothing
        let stray = pacer.answered(2, at: 0.4)
        #expect(stray.isEmpty)
        #expect(pacer.mayDraw(at: 0.4))
    }

    /// Before the terminal has answered anything, a frame waits a quarter second at most;
    /// after eight timeouts in a row the pacer stops asking and every step draws; a late
    /// answer brings the pacing back.
    @Test func aTerminalThatNeverAnswersStillGetsFrames() {
        var pacer = FramePacer()
        var drawnSteps: [Int] = []
        for step in 0..<(60 * 4) {
            let t = Double(step) / 60
            guard pacer.mayDraw(at: t) else { continue }
            drawnSteps.append(step)
            _ = pacer.frameWritten(at: t)
        }
        // step 0, then one frame each time a quarter second has passed (15 steps)
        let probing = Array(drawnSteps.prefix(FramePacer.givesUpAfter + 1))
        #expect(probing == Array(stride(from: 0, through: 15 * FramePacer.givesUpAfter, by: 15)), "\(probing)")
        #expect(pacer.mode == .silent)
        let last = probing.last ?? 0
        #expect(drawnSteps.dropFirst(probing.count) == ArraySlice((last + 1)..<240), "every step draws once silent")
        let asksWhenSilent = pacer.frameWritten(at: 4)
        #expect(!asksWhenSilent, "silent: no more queries")
        _ = pacer.answered(1, at: 4.1)
        #expect(pacer.mode == .answering)
        let asksAgain = pacer.frameWritten(at: 4.1)
        #expect(asksAgain)
        #expect(!pacer.mayDraw(at: 4.2))
    }

    /// Once the terminal has answered, a frame waits up to a second (or twice the last round
    /// trip): a slow link's big frame is late, not lost, and sending behind it would queue.
    @Test func anAnsweringTerminalGetsALongerWait() {
        var pacer = FramePacer()
        pacer.terminalAnswers()
        _ = pacer.frameWritten(at: 0)
        #expect(!pacer.mayDraw(at: 0.9))
        #expect(pacer.mayDraw(at: FramePacer.answerTimeout))
        _ = pacer.answered(1, at: 3)  // a full repaint took three seconds
        _ = pacer.frameWritten(at: 3)
        #expect(pacer.timeout == 6)
        #expect(!pacer.mayDraw(at: 8.9))
        #expect(pacer.mayDraw(at: 9))
        // answers arrive in order: a late one pops the oldest query, and the frame waits for
        // the answer to the latest
        _ = pacer.frameWritten(at: 9)
        let late = pacer.answered(1, at: 9.5)
        #expect(late == [6.5])
        #expect(!pacer.mayDraw(at: 9.6))
        let latest = pacer.answered(1, at: 9.7).map { ($0 * 10).rounded() / 10 }
        #expect(latest == [0.7])
        #expect(pacer.mayDraw(at: 9.7))
    }

    /// A terminal that answered and then stops is probed again, then left alone.
    @Test func aTerminalThatStopsAnsweringIsProbedAgain() {
        var pacer = FramePacer()
        _ = pacer.frameWritten(at: 0)
        _ = pacer.answered(1, at: 0.01)
        var t = 0.02
        var frames = 0
        while pacer.mode != .silent && t < 60 {
            if pacer.mayDraw(at: t) {
                _ = pacer.frameWritten(at: t)
                frames += 1
            }
            t += 1.0 / 60
        }
        #expect(pacer.mode == .silent)
        // eight timeouts of a second (answering), then eight of a quarter (probing)
        #expect(t > 8 + 2 && t < 8 + 2 + 0.5, "\(t)")
        #expect(frames == 2 * FramePacer.givesUpAfter + 1)
        // the start-up answer was long ago: it does not make the pacer wait a second again
        pacer.terminalAnswers()
        #expect(pacer.mode == .silent)
    }
}
