import ArcadeCore

/// The sprite text file format (`.sprite`): a palette and one or more frames of pixel art.
///
/// ```
/// # a small fish facing left, two frames
/// frame_time 0.25
/// color Y #ffcc00
/// color k #202020
/// frame
/// ..YYYY.
/// .kYYYYY
/// ..YYYY.
/// frame
/// ..YYYY.
/// .kYYYY.Y
/// ..YYYY.
/// ```
///
/// - `frame_time <seconds>` (optional, default 0.1): how long each frame shows.
/// - `color <character> <colour>`: a palette entry; the colour is `#rgb`, `#rrggbb` or
///   `#rrggbbaa` (alpha blends).
/// - `frame`: starts a frame; every following line up to the next `frame` is one row of
///   pixels, taken literally. `.` and space are transparent; short rows are padded on the
///   right with transparent pixels.
///
/// `frame_time` and `color` lines come before the first `frame`. Blank lines and lines
/// starting with `#` are skipped everywhere, so `#` cannot be a palette key and a fully
/// transparent row is written with dots. A trailing carriage return is ignored.
public enum SpriteFile {
    /// Seconds per frame when the file does not say.
    public static let defaultFrameTime = 0.1

    /// Parses the text of a `.sprite` file.
    ///
    /// Each frame is at most ``Sprite/maximumSide`` pixels each way, and all frames together
    /// at most `pixelLimit` pixels (the caller's memory budget): a file cannot make the arcade
    /// allocate more than that, however its rows are shaped. Sizes are checked before any
    /// pixel is allocated.
    public static func parse(_ text: String, pixelLimit: Int = .max) throws(SpriteFileError) -> Flipbook {
        var palette: [Character: Color] = [:]
        var frameTime = defaultFrameTime
        var frames: [(line: Int, rows: [String], rowLines: [Int])] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            if line == "frame" {
                frames.append((lineNumber, [], []))
                continue
            }
            if !frames.isEmpty {
                guard frames[frames.count - 1].rows.count < Sprite.maximumSide else {
                    throw SpriteFileError(line: lineNumber, message: "frame has more than \(Sprite.maximumSide) rows (an image is at most \(Sprite.maximumSide) x \(Sprite.maximumSide) pixels)")
                }
                frames[frames.count - 1].rows.append(String(line))
                frames[frames.count - 1].rowLines.append(lineNumber)
                continue
            }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            switch words.first {
            case "color":
                guard words.count == 3, words[1].count == 1, let key = words[1].first else {
                    throw SpriteFileError(line: lineNumber, message: "expected `color <character> <#hex colour>`")
                }
                guard !Sprite.isTransparentKey(key), key != "#" else {
                    throw SpriteFileError(line: lineNumber, message: "'\(key)' cannot be a palette key")
                }
                guard let color = Color(hex: String(words[2])) else {
                    throw SpriteFileError(line: lineNumber, message: "'\(words[2])' is not a colour (#rgb, #rrggbb or #rrggbbaa)")
                }
                guard palette[key] == nil else {
                    throw SpriteFileError(line: lineNumber, message: "palette key '\(key)' defined twice")
                }
                palette[key] = color
            case "frame_time":
                guard words.count == 2, let t = Double(words[1]), t > 0, t.isFinite else {
                    throw SpriteFileError(line: lineNumber, message: "expected `frame_time <seconds>` with seconds > 0")
                }
                frameTime = t
            default:
                throw SpriteFileError(line: lineNumber, message: "expected `color`, `frame_time` or `frame`")
            }
        }
        guard !frames.isEmpty else {
            throw SpriteFileError(line: lineNumber, message: "no `frame` in the file")
        }
        var pixels = 0
        for frame in frames {
            let width = frame.rows.reduce(0) { max($0, $1.count) }
            guard width <= Sprite.maximumSide, frame.rows.count <= Sprite.maximumSide else {
                throw SpriteFileError(line: frame.line, message: "frame: \(SpriteError.tooLarge(width: width, height: frame.rows.count))")
            }
            pixels += width * frame.rows.count
            if pixels > pixelLimit {
                throw SpriteFileError(line: frame.line, message: "the frames up to this one need \(pixels) pixels, more than the \(pixelLimit) the game's memory has room for", neededPixels: pixels)
            }
        }
        var sprites: [Sprite] = []
        for frame in frames {
            do {
                sprites.append(try Sprite(palette: palette, rows: frame.rows))
            } catch {
                switch error {
                case .unknownKey(_, let row, _):
                    throw SpriteFileError(line: frame.rowLines[row - 1], message: error.description)
                default:
                    throw SpriteFileError(line: frame.line, message: "frame: \(error.description)")
                }
            }
        }
        return Flipbook(frames: sprites, frameDuration: frameTime)
    }
}

/// A `.sprite` file that could not be read, with the 1-based line at fault.
public struct SpriteFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public let line: Int
    /// What is wrong, in words for the game author.
    public let message: String
    /// Set when the file is well formed but its pixels do not fit the `pixelLimit` given to
    /// ``SpriteFile/parse(_:pixelLimit:)`` (a memory problem rather than a format one): the
    /// pixels of the frames up to ``line``.
    public let neededPixels: Int?

    /// An error at `line`.
    public init(line: Int, message: String, neededPixels: Int? = nil) {
        self.line = line
        self.message = message
        self.neededPixels = neededPixels
    }

    /// The message, for the game author.
    public var description: String { "line \(line): \(message)" }
}
