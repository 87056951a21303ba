import ArcadeCore
import Testing
@testable import ArcadeRender

@Suite struct PaletteTests {
    @Test func everyCubeAndGreyEntryMapsToItself() {
        for i in 16...255 {
            let index = UInt8(i)
            #expect(XtermPalette.index(nearestTo: XtermPalette.color(at: index)) == index, "entry \(i)")
        }
    }

    @Test func nearestEntriesForKnownColours() {
        // Pure primaries are cube corners.
        #expect(XtermPalette.index(nearestTo: Color(rgb: 0xFF0000)) == 196)
        #expect(XtermPalette.index(nearestTo: Color(rgb: 0x00FF00)) == 46)
        #expect(XtermPalette.index(nearestTo: Color(rgb: 0x000000)) == 16)
        // Grey 128 is exactly ramp step 12 (8 + 10 * 12), nearer than the cube's grey 135.
        #expect(XtermPalette.index(nearestTo: Color(r: 128, g: 128, b: 128)) == 244)
        // The fishing line brown #9e664a = (158, 102, 74): channels snap to cube levels
        // 3, 1, 1 (175, 95, 95), much nearer than the ramp grey 108.
        #expect(XtermPalette.index(nearestTo: Color(rgb: 0x9E664A)) == UInt8(16 + 36 * 3 + 6 * 1 + 1))
    }

    @Test func systemColoursAreXtermDefaults() {
        #expect(XtermPalette.color(at: 1) == Color(rgb: 0xCD0000))
        #expect(XtermPalette.color(at: 15) == Color(rgb: 0xFFFFFF))
    }
}
