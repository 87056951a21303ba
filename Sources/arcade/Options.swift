import ArcadeCore
import ArcadeHost
import ArcadeRender
import ArgumentParser

/// Options shared by the commands that find games.
struct GameDirs: ParsableArguments {
    @Option(name: .customLong("games"), help: ArgumentHelp("Also look for games in DIR (repeatable).", valueName: "DIR"))
    var extra: [String] = []

    @Option(help: ArgumentHelp("Keep saves and scores in DIR/arcade.sqlite (default: $XDG_DATA_HOME/arcade).",
                               valueName: "DIR"))
    var data: String?

    func catalog() -> GameCatalog {
        GameCatalog(searchDirs: GameCatalog.defaultSearchDirs(extra: extra))
    }

    /// The games, for a command that asks for the game `id`: when no folder searched has a
    /// game by that id but the current folder is that game or holds it, that game's folder is
    /// added, and stderr says which folder it is (its saves go by its id).
    func catalog(finding id: String) -> GameCatalog {
        GameCatalog.finding(id, extra: extra) { Output.err("arcade: \($0)\n") }
    }

    /// The save store; its warnings (a corrupt file moved aside...) go to stderr.
    func store() -> SaveStore {
        let store = SaveStore(dataDirectory: data)
        GameDirs.report(store)
        return store
    }

    /// Writes `store`'s notices from the `from`-th on to stderr: those of the opening, then,
    /// once the arcade quits, those of the session (the file stopped working during play).
    static func report(_ store: SaveStore?, from first: Int = 0) {
        for notice in store?.notices.dropFirst(first) ?? [] { Output.err("arcade: \(notice.message)\n") }
    }
}

/// How the interactive arcade draws.
struct DisplayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Colour output: truecolor, 256, 16 or 8 (16 colours on 8 backgrounds, as the Linux console shows) (default: truecolor when $COLORTERM says so, else what the terminal's terminfo says; 16 under $NO_COLOR).",
                               valueName: "truecolor|256|16|8"),
            transform: colorMode)
    var color: ColorMode?

    @Option(help: ArgumentHelp("A filter on every colour: none, deuteranopia, protanopia, tritanopia (colour-blind help) or contrast (default: the settings card's).",
                               valueName: "none|deuteranopia|protanopia|tritanopia|contrast"),
            transform: visionFilter)
    var vision: VisionFilter?

    @Option(help: ArgumentHelp("Game speed in percent: 100, 75 or 50 (the game runs slower in wall time; best scores at a slower speed are kept apart) (default: the settings card's).",
                               valueName: "100|75|50"),
            transform: gameSpeed)
    var speed: GameSpeed?

    func apply(to o: inout ArcadeApp.Options) {
        if let color { o.colorMode = color }
        if let vision { o.vision = vision }
        if let speed { o.speed = speed }
    }

    /// For a headless run: the colours `--dump-frame ansi` and `--cast` use.
    func apply(to play: inout HeadlessPlay) {
        if let color { play.colorMode = color }
        if let vision { play.vision = vision }
    }
}

/// `--vision none|deuteranopia|protanopia|tritanopia|contrast`.
@Sendable func visionFilter(_ text: String) throws -> VisionFilter {
    guard let filter = VisionFilter(rawValue: text.lowercased()) else {
        throw ValidationError("--vision takes none, deuteranopia, protanopia, tritanopia or contrast")
    }
    return filter
}

/// `--speed 100|75|50`.
@Sendable func gameSpeed(_ text: String) throws -> GameSpeed {
    guard let n = Int(text.hasSuffix("%") ? String(text.dropLast()) : text), let speed = GameSpeed(percent: n) else {
        throw ValidationError("--speed takes 100, 75 or 50")
    }
    return speed
}

/// `--color truecolor|256|16|8`.
@Sendable func colorMode(_ text: String) throws -> ColorMode {
    guard let mode = ColorMode(name: text) else { throw ValidationError("--color takes truecolor, 256, 16 or 8") }
    return mode
}

/// `--dump-frame plain|ansi`.
@Sendable func frameDump(_ text: String) throws -> HeadlessPlay.FrameDump {
    switch text {
    case "plain": return .plain
    case "ansi": return .ansi
    default: throw ValidationError("--dump-frame takes plain or ansi")
    }
}

/// A count of steps (`--frames`, `--steps`): a whole number, 0 or more. (The parser's
/// message names the option and the value; these say what is wrong with it.)
@Sendable func stepCount(_ text: String) throws -> Int {
    guard let n = Int(text) else { throw ValidationError("a number of steps is a whole number") }
    guard n >= 0 else { throw ValidationError("a number of steps must be 0 or more") }
    return n
}

/// `--seed N`: a whole number from 0 to 2^64 - 1.
@Sendable func seedValue(_ text: String) throws -> UInt64 {
    guard let seed = UInt64(text) else { throw ValidationError("a seed is a whole number from 0 to \(UInt64.max)") }
    return seed
}

/// `--size COLSxROWS`.
@Sendable func canvasSize(_ text: String) throws -> CanvasSize {
    guard let (cols, rows) = InputScript.parseSize(text) else { throw ValidationError("--size takes COLSxROWS, like 80x24") }
    guard InputScript.isPlayableSize(cols: cols, rows: rows) else {
        throw ValidationError("--size must be between 20x10 and 1000x500")
    }
    return CanvasSize(cols: cols, rows: rows)
}

/// A canvas size in terminal cells.
struct CanvasSize {
    var cols: Int
    var rows: Int
}
