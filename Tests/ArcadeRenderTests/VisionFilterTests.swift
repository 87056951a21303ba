import ArcadeCore
import Testing
@testable import ArcadeRender

/// The colours each bundled game uses to tell things apart, in groups: every two colours of
/// a group mean different things (two fish kinds, a scoring box and a ball, a circle and the
/// board it lies on), so a player must be able to tell them apart. Taken from the games'
/// scripts and sprites.
enum GamePalettes {
    struct Group {
        var name: String
        var colors: [UInt32]
        /// Only pairs of one colour from `colors` and one from `against` (nil: every pair
        /// within `colors`).
        var against: [UInt32]? = nil
    }

    static let games: [(game: String, groups: [Group])] = [
        ("fishing", [
            // the six kinds' bodies (croaker, grouper, snapper, striped, coral, shark)
            Group(name: "fish kinds", colors: [0xF5C842, 0x7A8A4A, 0xE0483C, 0x4FA3E0, 0xFF7FAE, 0x8A97A6]),
            // each kind against the water and the deep water it swims in
            Group(name: "fish on the lake", colors: [0xF5C842, 0x7A8A4A, 0xE0483C, 0x4FA3E0, 0xFF7FAE, 0x8A97A6],
                  against: [0x1D4E7A, 0x163C60]),
            // the kinds' colours in the day's tally, on the card
            Group(name: "tally", colors: [0xF5C842, 0xA0C060, 0xFF7070, 0x8FD0FF, 0xFF80C0, 0xD0D8E0]),
            // the cast marker on the water and on the bank
            Group(name: "marker", colors: [0xFFFFFF, 0xFF8A80]),
        ]),
        ("ballcatch", [
            // the +5 and +1 boxes, a live (batted) ball, the paddle, the box's walls, the board
            Group(name: "boxes, live ball, paddle", colors: [0xF2C14E, 0x4ECDC4, 0xFFFFFF, 0xE0413A, 0xA0703C, 0x1B2030]),
            // the red line, calm and when the pile is near it
            Group(name: "line", colors: [0x7A3040, 0xFF5050]),
        ]),
        ("coinbank", [
            // the pig, a gold coin, a silver coin, the night behind them, the landing ring
            Group(name: "pig and coins", colors: [0xF4A6C0, 0xFFD23F, 0xE6E9EF, 0x14182A]),
            Group(name: "coins' edges", colors: [0xC8921E, 0x8F97A3], against: [0x14182A]),
        ]),
        ("giftcombo", [
            // the gifts' sprites by their main colour (rose, heart, rocket, cake, star), on the
            // panel and the palette's buttons
            Group(name: "gifts", colors: [0xE0243C, 0xFF5FA2, 0xDFE6EE, 0xFF8FC0, 0xFFD23F]),
            Group(name: "gifts on the panel", colors: [0xE0243C, 0xFF5FA2, 0xDFE6EE, 0xFF8FC0, 0xFFD23F],
                  against: [0x1B1530, 0x2E2650]),
            // the patience bar: full, half, a quarter, none
            Group(name: "patience", colors: [0x3DDC5C, 0xC6E03A, 0xFFB020, 0xFF3B3B]),
        ]),
        ("lastcircle", [
            // the countdown bar: green, yellow, red
            Group(name: "countdown", colors: [0x00FF00, 0xFFFF00, 0xFF0000]),
            // every circle's colour, and the wrong pick's mark, against the board
            Group(name: "circles on the board", colors: lastCirclePalette + [0xC0182A], against: [0x101522]),
        ]),
    ]

    static let lastCirclePalette: [UInt32] = [
        0x0087D7, 0x0087FF, 0x00AFD7, 0x00AFFF, 0x00D700, 0x00D75F, 0x00D787, 0x00D7AF, 0x00D7D7, 0x00D7FF, 0x00FF00,
        0x00FF5F, 0x00FF87, 0x00FFAF, 0x00FFD7, 0x00FFFF, 0x5F87D7, 0x5F87FF, 0x5FAFD7, 0x5FAFFF, 0x5FD700, 0x5FD75F,
        0x5FD787, 0x5FD7AF, 0x5FD7D7, 0x5FD7FF, 0x5FFF00, 0x5FFF5F, 0x5FFF87, 0x5FFFAF, 0x5FFFD7, 0x5FFFFF, 0x875FFF,
        0x8787FF, 0x87AFFF, 0x87D700, 0x87D75F, 0x87D7FF, 0x87FF00, 0x87FF5F, 0x87FF87, 0x87FFAF, 0x87FFD7, 0x87FFFF,
        0xAF5FD7, 0xAF5FFF, 0xAF87FF, 0xAFD700, 0xAFD75F, 0xAFFF00, 0xAFFF5F, 0xAFFF87, 0xD700FF, 0xD75F00, 0xD75F5F,
        0xD75F87, 0xD75FAF, 0xD75FD7, 0xD75FFF, 0xD78700, 0xD7875F, 0xD787FF, 0xD7AF00, 0xD7AF5F, 0xD7D700, 0xD7D75F,
        0xD7FF00, 0xD7FF5F, 0xD7FF87, 0xFF0000, 0xFF005F, 0xFF0087, 0xFF00AF, 0xFF00D7, 0xFF00FF, 0xFF5F00, 0xFF5F5F,
        0xFF5F87, 0xFF5FAF, 0xFF5FD7, 0xFF5FFF, 0xFF8700, 0xFF875F, 0xFF8787, 0xFF87AF, 0xFF87D7, 0xFF87FF, 0xFFAF00,
        0xFFAF5F, 0xFFAF87, 0xFFD700, 0xFFD75F, 0xFFD787, 0xFFFF00, 0xFFFF5F, 0xFFFF87,
    ]

    /// Every pair of a group.
    static func pairs(_ g: Group) -> [(Color, Color)] {
        let colors = g.colors.map { Color(rgb: $0) }
        if let against = g.against {
            return colors.flatMap { c in against.map { (c, Color(rgb: $0)) } }
        }
        var out: [(Color, Color)] = []
        for i in 0..<colors.count { for j in (i + 1)..<colors.count { out.append((colors[i], colors[j])) } }
        return out
    }
}

@Suite struct VisionFilterTests {
    /// How far apart (Oklab distance, 0.02 about the least anyone notices side by side) two
    /// colours a game tells apart must stay.
    static let threshold: Float = 0.05

    /// How `c` looks to the player the filter is for: the filtered colour through the vision
    /// it is made for (high contrast: as it is).
    static func seen(_ c: Color, _ filter: VisionFilter) -> Color {
        let shown = filter.apply(c)
        return filter.deficiency.map { VisionFilter.simulate(shown, $0) } ?? shown
    }

    @Test(arguments: [VisionFilter.deuteranopia, .protanopia, .tritanopia, .highContrast])
    func everyPairAGameTellsApartStaysApart(filter: VisionFilter) {
        for (game, groups) in GamePalettes.games {
            for group in groups {
                for (x, y) in GamePalettes.pairs(group) {
                    let d = VisionFilter.difference(Self.seen(x, filter), Self.seen(y, filter))
                    #expect(d > Self.threshold,
                            "\(game), \(group.name): \(x) and \(y) are \(d) apart under \(filter.name)")
                }
            }
        }
    }

    /// Without the filter, the same simulated visions merge some of those pairs: the test
    /// above would fail with no daltonising.
    @Test func withoutTheFilterSomePairsMerge() {
        for deficiency in VisionFilter.Deficiency.allCases where deficiency != .tritanopia {
            var merged = 0
            for (_, groups) in GamePalettes.games {
                for group in groups {
                    for (x, y) in GamePalettes.pairs(group)
                    where VisionFilter.difference(VisionFilter.simulate(x, deficiency), VisionFilter.simulate(y, deficiency)) <= Self.threshold {
                        merged += 1
                    }
                }
            }
            #expect(merged > 0, "\(deficiency)")
        }
    }

    @Test func noFilterChangesNothing() {
        for rgb: UInt32 in [0x000000, 0xFFFFFF, 0x123456, 0xE0413A] {
            #expect(VisionFilter.none.apply(Color(rgb: rgb)) == Color(rgb: rgb))
        }
    }

    @Test func greysStayGreyUnderTheColourBlindFilters() {
        for filter in [VisionFilter.deuteranopia, .protanopia, .tritanopia] {
            for v: UInt8 in [0, 40, 128, 200, 255] {
                let c = filter.apply(Color(r: v, g: v, b: v))
                #expect(abs(Int(c.r) - Int(v)) <= 2 && abs(Int(c.g) - Int(v)) <= 2 && abs(Int(c.b) - Int(v)) <= 2,
                        "\(filter.name): grey \(v) became \(c)")
            }
        }
    }

    /// High contrast puts text light on dark (or dark on light) whatever the game chose.
    @Test func highContrastTextIsOnASolidBacking() {
        let pairs: [(UInt32, UInt32)] = [(0x8090A0, 0x101522), (0x9AA0B4, 0x1B1F2A), (0x101010, 0xFFB300), (0x777777, 0x666666)]
        for (fg, bg) in pairs {
            let (f, b) = VisionFilter.highContrast.text(foreground: Color(rgb: fg), background: Color(rgb: bg))
            let lf = VisionFilter.lightness(f), lb = VisionFilter.lightness(b)
            #expect(abs(lf - lb) >= VisionFilter.textLight - VisionFilter.textDark - 0.01, "\(f) on \(b)")
        }
        // and the encoder does it to text cells
        var frame = Frame(columns: 1, rows: 1)
        frame[0, 0] = Cell(character: "a", foreground: Color(rgb: 0x777777), background: Color(rgb: 0x666666))
        let encoder = FrameEncoder(colorMode: .trueColor)
        encoder.visionFilter = .highContrast
        let text = String(decoding: encoder.encode(frame), as: UTF8.self)
        #expect(!text.contains("38;2;119;119;119"), "\(text)")
    }

    @Test func theEncoderShowsTheFilteredColours() {
        var frame = Frame(columns: 2, rows: 1)
        frame[0, 0] = Cell(top: Color(rgb: 0xE0413A), bottom: Color(rgb: 0x3FAE4A))
        frame[1, 0] = Cell(top: Color(rgb: 0x3FAE4A), bottom: Color(rgb: 0xE0413A))
        let encoder = FrameEncoder(colorMode: .trueColor)
        encoder.visionFilter = .deuteranopia
        let bytes = String(decoding: encoder.encode(frame), as: UTF8.self)
        let red = VisionFilter.deuteranopia.apply(Color(rgb: 0xE0413A))
        #expect(bytes.contains("\(red.r);\(red.g);\(red.b)"))
        #expect(!bytes.contains("224;65;58"))
    }
}
