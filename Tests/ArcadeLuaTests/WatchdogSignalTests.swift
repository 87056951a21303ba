import Foundation
import Testing
import CLua
#if canImport(Glibc)
import Glibc
#endif
@testable import ArcadeLua

/// The environment variable that turns the test process into the child that forges signals.
private let forgeChildVariable = "ARCADE_WATCHDOG_FORGE_CHILD"

/// The watchdog's signal handler acts only on the signals the watchdog sent: a SIGURG from
/// `kill`, or from `sigqueue` with a value of the sender's choosing, is ignored (it used to be
/// taken for a VM's address and read). The forging runs in a child process (this test binary
/// again), so that a handler that reads a forged address kills the child, not the tests.
@Suite struct WatchdogSignalTests {
    @Test(.timeLimit(.minutes(1))) func forgedSignalsAreIgnoredAndTheBudgetStillStopsALoop() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "WatchdogSignalTests/forgingChild\\("]
        var environment = ProcessInfo.processInfo.environment
        environment[forgeChildVariable] = "1"
        environment["SWIFT_BACKTRACE"] = "enable=no"  // die at once, without a backtrace
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationReason == .exit, "the child died of signal \(child.terminationStatus)")
        #expect(child.terminationStatus == 0)
        // and here, the watchdog's own signal still stops a loop
        let t = try TestVM(limits: .init(secondsPerCall: 0.05))
        #expect(t.error("while true do end", label: "update()")?.kind == .budget)
    }

    /// The child's part: a Lua call that sends its own process and thread SIGURGs the
    /// watchdog never sent, then finishes; then a loop the budget must still stop. Skipped
    /// unless run as a child.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[forgeChildVariable] != nil))
    func forgingChild() throws {
        let t = try TestVM(limits: .init(secondsPerCall: 5))
        var forged = 0
        t.vm.setGlobal("forge") { _ in
            func value(_ bits: UInt) -> sigval { sigval(sival_ptr: UnsafeMutableRawPointer(bitPattern: bits)) }
            switch forged % 6 {
            case 0: _ = sigqueue(getpid(), SIGURG, value(0x10))                     // process-directed, garbage
            case 1: _ = kill(getpid(), SIGURG)                                     // no value at all
            case 2: _ = pthread_sigqueue(pthread_self(), SIGURG, value(0xdead_beef_0))  // at the Lua thread
            case 3: _ = pthread_sigqueue(pthread_self(), SIGURG, value(0xA4CD << 48 | 0xFFFF))  // a token's shape, no slot
            case 4: _ = pthread_sigqueue(pthread_self(), SIGURG, value(0xA4CD << 48 | 3))       // a slot, a wrong generation
            default: _ = sigqueue(getpid(), SIGURG, value(0))                      // a null value
            }
            forged += 1
            return 0
        }
        let result = try t.run("""
            local n = 0
            for i = 1, 60 do
              forge()
              for j = 1, 20000 do n = n + 1 end
            end
            return n
            """, label: "update()")
        #expect(result == .int(60 * 20000))
        #expect(forged == 60)
        usleep(100_000)  // a process-directed signal may be handled on another thread meanwhile
        let looping = try TestVM(limits: .init(secondsPerCall: 0.05))
        #expect(looping.error("while true do end", label: "update()")?.kind == .budget)
    }
}
