import CZlib

/// PNG files: the chunks (signature, IHDR, IDAT, IEND) are written here, zlib compresses the
/// pixel rows. 8-bit RGB, each row filtered with PNG's "up" filter (rows of cells repeat
/// row after row, which that filter turns into zeros).
public enum PNGWriter {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The PNG file of `picture`.
    public static func encode(_ picture: Picture, level: Int32 = 6) -> [UInt8] {
        let w = picture.width, h = picture.height
        let rowBytes = 1 + 3 * w
        var raw = [UInt8](repeating: 0, count: rowBytes * h)
        raw.withUnsafeMutableBufferPointer { out in
            picture.pixels.withUnsafeBufferPointer { px in
                for y in 0..<h {
                    let o = y * rowBytes
                    out[o] = 2  // up
                    for x in 0..<w {
                        let p = px[y * w + x]
                        let q = y > 0 ? px[(y - 1) * w + x] : 0
                        let d = o + 1 + 3 * x
                        out[d] = UInt8(truncatingIfNeeded: (p >> 16) &- (q >> 16))
                        out[d + 1] = UInt8(truncatingIfNeeded: (p >> 8) &- (q >> 8))
                        out[d + 2] = UInt8(truncatingIfNeeded: p &- q)
                    }
                }
            }
        }
        var compressed = [UInt8](repeating: 0, count: Int(compressBound(uLong(raw.count))))
        var size = uLongf(compressed.count)
        let rc = compressed.withUnsafeMutableBufferPointer { c in
            raw.withUnsafeBufferPointer { r in compress2(c.baseAddress, &size, r.baseAddress, uLong(r.count), level) }
        }
        precondition(rc == Z_OK, "zlib could not compress a picture (\(rc))")
        compressed.removeLast(compressed.count - Int(size))

        var file = signature
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(w))
        header.appendBigEndian(UInt32(h))
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, adaptive filters, not interlaced
        chunk("IHDR", header, into: &file)
        chunk("IDAT", compressed, into: &file)
        chunk("IEND", [], into: &file)
        return file
    }

    /// Appends a chunk: its length, type, data and the CRC of type and data.
    static func chunk(_ type: String, _ data: [UInt8], into file: inout [UInt8]) {
        file.appendBigEndian(UInt32(data.count))
        let typeBytes = Array(type.utf8)
        var crc = crc32(0, typeBytes, uInt(typeBytes.count))
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        file += typeBytes
        file += data
        file.appendBigEndian(UInt32(truncatingIfNeeded: crc))
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24))
        append(UInt8((v >> 16) & 0xFF))
        append(UInt8((v >> 8) & 0xFF))
        append(UInt8(v & 0xFF))
    }
}
