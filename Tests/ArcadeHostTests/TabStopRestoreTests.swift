import ArcadeCore
import ArcadeRender
import ArcadeTerminal
import ArcadeTestSupport
import Testing

/// The terminal layer's restore leaves the tab stops terminals start with (every 8th column)
/// and autowrap on, whatever stops a frame encoder set and whether it turned autowrap off.
@Suite struct TabStopRestoreTests {
    @Test(arguments: [20, 80, 203])
    func theRestoreSetsAStopAtEvery8thColumn(columns: Int) {
        var screen = VTModel(columns: columns, rows: 4, fill: .init(scalar: " ", foreground: .white, background: .black))
        let encoder = FrameEncoder()
        encoder.usesTabs = true
        screen.feed(encoder.encode(Frame(columns: columns, rows: 4)))
        #expect(screen.tabStops == Set(stride(from: 4, to: columns, by: 4)))
        #expect(!screen.autowrap)
        screen.feed(Terminal.restoreSequenceWithoutKittyPop)
        #expect(screen.errors.isEmpty)
        #expect(screen.autowrap)
        // a stop may also be left at the last column, where a tab goes anyway
        #expect(screen.tabStops.subtracting([columns - 1]) == Set(stride(from: 8, to: columns - 1, by: 8)))
    }
}
