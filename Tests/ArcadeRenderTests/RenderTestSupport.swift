import ArcadeCore
@testable import ArcadeRender

/// Colours used across the render tests, named so goldens read clearly.
enum Palette {
    static let background = Color(rgb: 0x000000)
    static let white = Color(rgb: 0xFFFFFF)
    static let red = Color(rgb: 0xFF0000)
    static let blue = Color(rgb: 0x0000FF)
    static let gold = Color(rgb: 0xFFCC00)
    static let orange = Color(rgb: 0xFF8800)
    static let brown = Color(rgb: 0x9E664A)
}

/// The test sprite: a capital F, 3 wide and 4 tall, asymmetric both ways so every mirror and
/// turn shows.
let letterF = try! Sprite(palette: ["#": Palette.white], rows: [
    "###",
    "#..",
    "##.",
    "#..",
])

/// Draws `scene` on a fresh canvas.
func drawn(_ scene: Scene, columns: Int, rows: Int, time: Double = 0) -> Canvas {
    let canvas = Canvas(columns: columns, rows: rows, background: scene.background)
    scene.draw(into: canvas, time: time)
    return canvas
}

/// The canvas's plain-text frame with a `|` closing every line, so trailing blanks show in
/// the goldens.
func plain(_ canvas: Canvas) -> String {
    canvas.makeFrame().plainText(background: canvas.background)
        .split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0 + "|" }
        .joined(separator: "\n")
}

/// The pixel layer as one character per pixel: `legend` names colours, the background is `.`,
/// anything else `?`.
func pixelMap(_ canvas: Canvas, _ legend: [Color: Character]) -> String {
    var lines: [String] = []
    for y in 0..<canvas.height {
        var line = ""
        for x in 0..<canvas.width {
            let c = canvas.pixel(x: x, y: y)!
            line.append(c == canvas.background ? "." : legend[c] ?? "?")
        }
        lines.append(line)
    }
    return lines.joined(separator: "\n")
}

/// A scene holding `nodes` under its root.
func scene(_ nodes: Node...) -> Scene {
    let s = Scene(background: Palette.background)
    for n in nodes { try! s.add(n) }
    return s
}
