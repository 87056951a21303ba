import Testing
@testable import ArcadeCore

@Suite struct TimerQueueTests {
    func drain(_ q: inout TimerQueue<String>, now: Double) -> [String] {
        var out: [String] = []
        q.beginPass()
        while let d = q.popDue(now: now) { out.append(d.payload) }
        q.endPass()
        return out
    }

    @Test func firesByDueTimeThenCreationOrder() {
        var q = TimerQueue<String>()
        q.after(0.2, now: 0, "b")
        q.after(0.1, now: 0, "a")
        q.after(0.2, now: 0, "c")
        #expect(drain(&q, now: 0.05) == [])
        #expect(drain(&q, now: 0.2) == ["a", "b", "c"])
        #expect(q.count == 0)
    }

    @Test func repeatingTimerCatchesUpWithoutDrift() {
        var q = TimerQueue<String>()
        q.every(0.01, now: 0, "tick")
        var fired = 0
        for step in 1...60 { fired += drain(&q, now: Double(step) / 60).count }
        #expect(fired == 100)  // exactly 100 in one second, 1 or 2 a step
    }

    @Test func cancelAndStaleKeys() {
        var q = TimerQueue<String>()
        let a = q.after(1, now: 0, "a")
        let r = q.every(0.5, now: 0, "r")
        #expect(q.cancel(a) == "a")
        #expect(q.cancel(a) == nil)
        #expect(drain(&q, now: 0.5) == ["r"])
        #expect(q.isPending(r))
        q.cancel(r)
        #expect(drain(&q, now: 5) == [])
        #expect(q.count == 0)
    }

    @Test func timersCreatedDuringAPassWaitForTheNext() {
        var q = TimerQueue<String>()
        q.after(0, now: 0, "first")
        q.beginPass()
        let d = q.popDue(now: 0)
        q.after(0, now: 0, "second")
        #expect(q.popDue(now: 0) == nil)
        q.endPass()
        #expect(d?.payload == "first")
        #expect(drain(&q, now: 0) == ["second"])
    }

    @Test func manyTimersStayCheap() {
        var q = TimerQueue<Int>()
        for i in 0..<20_000 { q.after(Double(i % 100) / 100, now: 0, i) }
        var seen = 0
        var last = -1.0
        q.beginPass()
        while let d = q.popDue(now: 1) {
            let due = Double(d.payload % 100) / 100
            #expect(due >= last)
            last = due
            seen += 1
        }
        q.endPass()
        #expect(seen == 20_000)
    }
}
