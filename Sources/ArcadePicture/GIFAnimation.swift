#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import ArcadeRender
import CGif

/// What went wrong writing a picture.
public struct PictureError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// An animated GIF of frames, written with giflib as the frames come.
///
/// The first frame is stored whole; each later one only as the rectangle of cells that
/// changed since the one before, left in place over it. A frame that changes nothing adds
/// its time to the one before. Each stored frame has its own colour table: the colours its
/// rectangle shows when they are 255 or fewer (exact), else a fixed table of 252 colours
/// (6 reds x 7 greens x 6 blues) each colour goes to the nearest of, and one more entry,
/// transparent, for the cells inside the rectangle that did not change (long runs of one
/// index, which GIF's compression shrinks to little). The GIF loops forever.
///
/// Every frame is drawn at the size of the first: a larger one is cut, a smaller one is
/// filled with black.
public final class GIFAnimation {
    public let columns: Int
    public let rows: Int
    public let scale: Int
    public let painter: CellPainter
    /// The path written.
    public let path: String

    private var gif: UnsafeMutablePointer<GifFileType>?
    /// The last frame added (what the picture shows once the pending frame is written).
    private var previous: Frame?
    /// The frame waiting for its time to be known, with the cells it stores.
    private var pending: (frame: Frame, before: Frame?, columns: Range<Int>, rows: Range<Int>, centiseconds: Int)?
    /// Frames stored in the file so far.
    public private(set) var framesWritten = 0
    /// Frames with the same cells as the one before, whose time went to that one.
    public private(set) var framesMerged = 0

    /// Starts a GIF at `path` for frames of `columns` x `rows` cells, each pixel `scale` x
    /// `scale` (1 to 8).
    public init(path: String, columns: Int, rows: Int, scale: Int = 1, painter: CellPainter = CellPainter()) throws(PictureError) {
        guard (1...8).contains(scale) else { throw PictureError("the scale must be a whole number from 1 to 8") }
        guard columns > 0, rows > 0 else { throw PictureError("a picture needs at least one cell") }
        self.columns = columns
        self.rows = rows
        self.scale = scale
        self.painter = painter
        self.path = path
        let width = columns * CellPainter.cellWidth * scale, height = rows * CellPainter.cellHeight * scale
        guard width <= 65535, height <= 65535 else { throw PictureError("the picture would be \(width)x\(height) pixels: a GIF holds at most 65535 a side") }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PictureError("cannot write '\(path)': \(String(cString: strerror(errno)))") }
        var error: Int32 = 0
        guard let gif = EGifOpenFileHandle(fd, &error) else {
            close(fd)
            throw Self.problem(error)
        }
        self.gif = gif
        EGifSetGifVersion(gif, true)
        try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil))
        // the NETSCAPE2.0 application block: loop forever
        try check(EGifPutExtensionLeader(gif, arcade_gif_application_ext()))
        let name = Array("NETSCAPE2.0".utf8)
        try check(name.withUnsafeBufferPointer { EGifPutExtensionBlock(gif, 11, $0.baseAddress) })
        let loop: [UInt8] = [1, 0, 0]
        try check(loop.withUnsafeBufferPointer { EGifPutExtensionBlock(gif, 3, $0.baseAddress) })
        try check(EGifPutExtensionTrailer(gif))
    }

    deinit {
        if let gif { EGifCloseFile(gif, nil) }
    }

    /// Adds `frame`, shown for `centiseconds` (1 or more).
    public func add(_ frame: Frame, centiseconds: Int) throws(PictureError) {
        let frame = fitted(frame)
        let time = max(1, centiseconds)
        guard let previous else {
            self.previous = frame
            pending = (frame, nil, 0..<columns, 0..<rows, time)
            return
        }
        guard let changed = Self.changedCells(previous, frame) else {
            pending?.centiseconds += time
            framesMerged += 1
            return
        }
        try flush()
        pending = (frame, previous, changed.columns, changed.rows, time)
        self.previous = frame
    }

    /// Writes the last frame and closes the file.
    public func finish() throws(PictureError) {
        try flush()
        guard let gif else { return }
        self.gif = nil
        var error: Int32 = 0
        guard EGifCloseFile(gif, &error) == GIF_OK else { throw Self.problem(error) }
    }

    /// The rectangle of cells that differ between `a` and `b` (the same size), or nil.
    /// Either half of a wide glyph that changed takes the other with it.
    static func changedCells(_ a: Frame, _ b: Frame) -> (columns: Range<Int>, rows: Range<Int>)? {
        var minC = Int.max, maxC = -1, minR = Int.max, maxR = -1
        a.cells.withUnsafeBufferPointer { ca in
            b.cells.withUnsafeBufferPointer { cb in
                for r in 0..<a.rows {
                    let o = r * a.columns
                    var first = -1, last = -1
                    for c in 0..<a.columns where ca[o + c] != cb[o + c] {
                        if first < 0 { first = c }
                        last = c
                    }
                    guard first >= 0 else { continue }
                    minC = min(minC, first)
                    maxC = max(maxC, last)
                    minR = min(minR, r)
                    maxR = r
                }
            }
        }
        guard maxC >= 0 else { return nil }
        // a continuation's look depends on the cell before it, a wide glyph's on the one after
        return (max(0, minC - 1)..<min(a.columns, maxC + 2), minR..<maxR + 1)
    }

    /// `frame` at this animation's size.
    private func fitted(_ frame: Frame) -> Frame {
        guard frame.columns != columns || frame.rows != rows else { return frame }
        var out = Frame(columns: columns, rows: rows)
        for r in 0..<min(rows, frame.rows) {
            for c in 0..<min(columns, frame.columns) { out[c, r] = frame[c, r] }
        }
        return out
    }

    /// Writes the pending frame.
    private func flush() throws(PictureError) {
        guard let p = pending, let gif else { return }
        pending = nil
        // the colours the rectangle shows where it changed (one entry is kept for "unchanged")
        var colors: [UInt32: UInt8] = [:]
        var table: [UInt32] = []
        var exact = true
        outer: for r in p.rows {
            for c in p.columns where !Self.isUnchanged(c, r, p.frame, p.before) {
                let look = painter.look(of: p.frame, column: c, row: r)
                for color in [look.on, look.off] {
                    let v = Picture.rgb(color)
                    if colors[v] == nil {
                        guard table.count < 255 else { exact = false; break outer }
                        colors[v] = UInt8(table.count)
                        table.append(v)
                    }
                }
            }
        }
        if !exact { table = Self.cube }
        let clear = UInt8(table.count)
        table.append(0)
        var bits: Int32 = 1
        while (1 << bits) < table.count { bits += 1 }
        var entries = table.map { GifColorType(Red: UInt8($0 >> 16), Green: UInt8(($0 >> 8) & 0xFF), Blue: UInt8($0 & 0xFF)) }
        while entries.count < 1 << bits { entries.append(GifColorType(Red: 0, Green: 0, Blue: 0)) }
        guard let map = GifMakeMapObject(1 << bits, entries) else { throw PictureError("giflib could not make a colour table") }
        defer { GifFreeMapObject(map) }

        var gcb = GraphicsControlBlock(DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false,
                                       DelayTime: Int32(min(p.centiseconds, 65535)),
                                       TransparentColor: p.before == nil ? NO_TRANSPARENT_COLOR : Int32(clear))
        var ext = [GifByteType](repeating: 0, count: 4)
        let n = EGifGCBToExtension(&gcb, &ext)
        try check(EGifPutExtension(gif, arcade_gif_graphics_ext(), Int32(n), ext))

        let cw = CellPainter.cellWidth * scale, ch = CellPainter.cellHeight * scale
        let w = p.columns.count * cw, h = p.rows.count * ch
        try check(EGifPutImageDesc(gif, Int32(p.columns.lowerBound * cw), Int32(p.rows.lowerBound * ch), Int32(w), Int32(h),
                                   false, map))
        var indices = [UInt8](repeating: 0, count: w * h)
        indices.withUnsafeMutableBufferPointer { b in
            let base = b.baseAddress!
            for r in p.rows {
                for c in p.columns {
                    let at = base + (r - p.rows.lowerBound) * ch * w + (c - p.columns.lowerBound) * cw
                    if Self.isUnchanged(c, r, p.frame, p.before) {
                        // the cell as it was: left out (transparent), which compresses well
                        for y in 0..<ch { (at + y * w).update(repeating: clear, count: cw) }
                    } else {
                        painter.paint(p.frame, columns: c..<c + 1, rows: r..<r + 1, scale: scale, into: at, stride: w) { color in
                            exact ? colors[Picture.rgb(color)] ?? 0 : Self.cubeIndex(color)
                        }
                    }
                }
            }
        }
        for y in 0..<h {
            try check(indices.withUnsafeMutableBufferPointer { EGifPutLine(gif, $0.baseAddress! + y * w, Int32(w)) })
        }
        framesWritten += 1
    }

    /// True when cell `c`, `r` of `frame` looks as it did in `before`: it, and the other half
    /// of a wide glyph it is part of, are the same.
    static func isUnchanged(_ c: Int, _ r: Int, _ frame: Frame, _ before: Frame?) -> Bool {
        guard let before else { return false }
        let cell = frame[c, r]
        guard cell == before[c, r] else { return false }
        if cell.isContinuation, c > 0, frame[c - 1, r] != before[c - 1, r] { return false }
        if c + 1 < frame.columns, frame[c + 1, r] != before[c + 1, r], frame[c + 1, r].isContinuation || before[c + 1, r].isContinuation {
            return false
        }
        return true
    }

    /// 6 reds x 7 greens x 6 blues, for a frame of more than 256 colours.
    static let cube: [UInt32] = (0..<252).map { i in
        let r = i / 42, g = (i / 6) % 7, b = i % 6
        return UInt32(r * 51) << 16 | UInt32((g * 255 + 3) / 6) << 8 | UInt32(b * 51)
    }

    /// The entry of ``cube`` nearest `color`.
    static func cubeIndex(_ color: Color) -> UInt8 {
        let r = (Int(color.r) + 25) / 51, g = (Int(color.g) * 6 + 127) / 255, b = (Int(color.b) + 25) / 51
        return UInt8(r * 42 + g * 6 + b)
    }

    private func check(_ rc: Int32) throws(PictureError) {
        guard rc == GIF_ERROR else { return }
        throw Self.problem(gif?.pointee.Error ?? 0)
    }

    private static func problem(_ code: Int32) -> PictureError {
        let text = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return PictureError("giflib: \(text)")
    }
}

extension Picture {
    /// Writes the picture as a PNG file at `path`.
    public func writePNG(to path: String) throws(PictureError) {
        let bytes = png()
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PictureError("cannot write '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw PictureError("cannot write '\(path)': \(String(cString: strerror(errno)))") }
            done += n
        }
    }
}
