#if canImport(Glibc)
import Glibc
#endif
import CGif
import CZlib
import ArcadePicture

public struct DecodeFailure: Error, CustomStringConvertible {
    public let description: String
}

/// Reads a PNG file back, independently of the writer: any chunk order, several IDAT
/// chunks, all five filters; 8-bit RGB only (what the arcade writes). CRCs are checked.
public func decodePNG(_ bytes: [UInt8]) throws -> Picture {
    guard bytes.count > 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
        throw DecodeFailure(description: "not a PNG signature")
    }
    func be(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
    var i = 8, width = 0, height = 0, data: [UInt8] = [], ended = false
    while i + 12 <= bytes.count {
        let length = be(i)
        let type = String(decoding: bytes[i + 4..<i + 8], as: UTF8.self)
        let body = Array(bytes[i + 8..<i + 8 + length])
        let crc = Array(bytes[i + 4..<i + 8 + length]).withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        guard UInt32(truncatingIfNeeded: crc) == UInt32(be(i + 8 + length)) else { throw DecodeFailure(description: "bad CRC in \(type)") }
        switch type {
        case "IHDR":
            width = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
            height = Int(body[4]) << 24 | Int(body[5]) << 16 | Int(body[6]) << 8 | Int(body[7])
            guard body[8] == 8, body[9] == 2, body[12] == 0 else { throw DecodeFailure(description: "not 8-bit RGB") }
        case "IDAT": data += body
        case "IEND": ended = true
        default: break
        }
        i += 12 + length
    }
    guard ended else { throw DecodeFailure(description: "no IEND") }
    let stride = 1 + 3 * width
    var raw = [UInt8](repeating: 0, count: stride * height)
    var size = uLongf(raw.count)
    let rc = raw.withUnsafeMutableBufferPointer { r in data.withUnsafeBufferPointer { uncompress(r.baseAddress, &size, $0.baseAddress, uLong($0.count)) } }
    guard rc == Z_OK, Int(size) == raw.count else { throw DecodeFailure(description: "inflate failed (\(rc))") }
    var out = [UInt8](repeating: 0, count: 3 * width * height)
    for y in 0..<height {
        let filter = raw[y * stride]
        for x in 0..<3 * width {
            let v = Int(raw[y * stride + 1 + x])
            let a = x >= 3 ? Int(out[y * 3 * width + x - 3]) : 0
            let b = y > 0 ? Int(out[(y - 1) * 3 * width + x]) : 0
            let c = x >= 3 && y > 0 ? Int(out[(y - 1) * 3 * width + x - 3]) : 0
            let predicted: Int
            switch filter {
            case 0: predicted = 0
            case 1: predicted = a
            case 2: predicted = b
            case 3: predicted = (a + b) / 2
            case 4:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: throw DecodeFailure(description: "unknown filter \(filter)")
            }
            out[y * 3 * width + x] = UInt8((v + predicted) & 0xFF)
        }
    }
    var picture = Picture(width: width, height: height)
    for p in 0..<width * height {
        picture.pixels[p] = UInt32(out[3 * p]) << 16 | UInt32(out[3 * p + 1]) << 8 | UInt32(out[3 * p + 2])
    }
    return picture
}

/// A GIF read back with giflib's decoder: each stored frame composed over the ones before
/// (as a viewer shows it), with its delay in centiseconds and its rectangle.
public struct DecodedGIF {
    public var width = 0, height = 0
    public var frames: [(picture: Picture, centiseconds: Int, rect: (x: Int, y: Int, w: Int, h: Int))] = []
    public var loops = false
}

public func decodeGIF(_ path: String) throws -> DecodedGIF {
    var error: Int32 = 0
    guard let gif = DGifOpenFileName(path, &error) else { throw DecodeFailure(description: "cannot open \(path) (\(error))") }
    defer { DGifCloseFile(gif, nil) }
    guard DGifSlurp(gif) == GIF_OK else { throw DecodeFailure(description: "cannot read \(path) (\(gif.pointee.Error))") }
    var out = DecodedGIF()
    out.width = Int(gif.pointee.SWidth)
    out.height = Int(gif.pointee.SHeight)
    var canvas = Picture(width: out.width, height: out.height)
    for n in 0..<Int(gif.pointee.ImageCount) {
        let image = gif.pointee.SavedImages[n]
        let d = image.ImageDesc
        guard let map = d.ColorMap ?? gif.pointee.SColorMap else { throw DecodeFailure(description: "frame \(n) has no colours") }
        var gcb = GraphicsControlBlock()
        guard DGifSavedExtensionToGCB(gif, Int32(n), &gcb) == GIF_OK else { throw DecodeFailure(description: "frame \(n) has no delay") }
        for y in 0..<Int(d.Height) {
            for x in 0..<Int(d.Width) {
                let index = Int(image.RasterBits[y * Int(d.Width) + x])
                if index == Int(gcb.TransparentColor) { continue }  // the pixel before shows
                guard index < Int(map.pointee.ColorCount) else { throw DecodeFailure(description: "index out of the table") }
                let c = map.pointee.Colors[index]
                canvas[Int(d.Left) + x, Int(d.Top) + y] = UInt32(c.Red) << 16 | UInt32(c.Green) << 8 | UInt32(c.Blue)
            }
        }
        out.frames.append((canvas, Int(gcb.DelayTime), (Int(d.Left), Int(d.Top), Int(d.Width), Int(d.Height))))
        for e in 0..<Int(image.ExtensionBlockCount) where image.ExtensionBlocks[e].Function == 0xFF {
            let b = image.ExtensionBlocks[e]
            if b.ByteCount == 11, String(decoding: UnsafeBufferPointer(start: b.Bytes, count: 11), as: UTF8.self) == "NETSCAPE2.0" {
                out.loops = true
            }
        }
    }
    return out
}

/// The bytes of the file at `path`.
public func fileBytes(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        out += buffer[0..<n]
    }
    return out
}

/// A fresh folder under the temporary folder.
public func pictureTestFolder() -> String {
    var template = Array("/tmp/arcade-picture-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}
