/// The POSIX `ustar` archive format (POSIX.1-1988, kept by POSIX.1-2001), which every `tar`
/// reads: a 512-byte header per entry, its data padded to 512 bytes, two zero blocks at the
/// end. Only what carts need: writing plain files, and reading headers strictly so that a
/// cart's checks see every entry as it is (its type, its full name, its declared size).
enum Tar {
    static let blockSize = 512

    /// Entry types (the header's `typeflag`).
    static let regularFile = UInt8(ascii: "0")
    static let hardLink = UInt8(ascii: "1")
    static let symbolicLink = UInt8(ascii: "2")
    static let characterDevice = UInt8(ascii: "3")
    static let blockDevice = UInt8(ascii: "4")
    static let directory = UInt8(ascii: "5")
    static let fifo = UInt8(ascii: "6")

    /// One entry to write: a plain file unless `type` says otherwise (tests write the others).
    struct Entry {
        var path: String
        var bytes: [UInt8]
        var type: UInt8 = Tar.regularFile
        var linkTarget = ""

        init(path: String, bytes: [UInt8], type: UInt8 = Tar.regularFile, linkTarget: String = "") {
            self.path = path
            self.bytes = bytes
            self.type = type
            self.linkTarget = linkTarget
        }
    }

    // MARK: Writing

    /// The archive of `entries`, in the order given, every header with the same owner (0/0,
    /// no names), mode (0644) and time (0): the same entries always give the same bytes.
    /// Nil when a path does not fit a ustar header (see ``splitPath(_:)``).
    static func archive(_ entries: [Entry]) -> [UInt8]? {
        var out: [UInt8] = []
        for e in entries {
            guard let header = header(for: e) else { return nil }
            out += header
            if e.type == regularFile {
                out += e.bytes
                out += [UInt8](repeating: 0, count: padding(e.bytes.count))
            }
        }
        return out + [UInt8](repeating: 0, count: 2 * blockSize)
    }

    /// The 512-byte header of `entry`.
    static func header(for entry: Entry) -> [UInt8]? {
        guard let (prefix, name) = splitPath(entry.path), entry.linkTarget.utf8.count <= 100 else { return nil }
        var h = [UInt8](repeating: 0, count: blockSize)
        func put(_ text: String, at offset: Int) {
            for (i, b) in text.utf8.enumerated() { h[offset + i] = b }
        }
        func octal(_ value: Int, at offset: Int, width: Int) {  // zero-padded digits, then NUL
            let digits = String(value, radix: 8)
            put(String(repeating: "0", count: width - 1 - digits.count) + digits, at: offset)
        }
        put(name, at: 0)
        octal(0o644, at: 100, width: 8)
        octal(0, at: 108, width: 8)  // uid
        octal(0, at: 116, width: 8)  // gid
        octal(entry.type == regularFile ? entry.bytes.count : 0, at: 124, width: 12)
        octal(0, at: 136, width: 12)  // mtime
        h[156] = entry.type
        put(entry.linkTarget, at: 157)
        put("ustar", at: 257)  // then NUL
        put("00", at: 263)
        put(prefix, at: 345)
        put("        ", at: 148)  // the checksum counts its own field as spaces
        let sum = h.reduce(0) { $0 + Int($1) }
        octal(sum, at: 148, width: 7)  // six digits, NUL, then the space left in place
        return h
    }

    /// `path` as ustar's `prefix` (up to 155 bytes) and `name` (up to 100), split at a slash
    /// when it is longer than 100 bytes; nil when no split fits.
    static func splitPath(_ path: String) -> (prefix: String, name: String)? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty else { return nil }
        if bytes.count <= 100 { return ("", path) }
        for i in bytes.indices.reversed() where bytes[i] == UInt8(ascii: "/") && i <= 155 {
            guard bytes.count - i - 1 <= 100, i > 0, i < bytes.count - 1 else { return nil }
            return (String(decoding: bytes[..<i], as: UTF8.self), String(decoding: bytes[(i + 1)...], as: UTF8.self))
        }
        return nil
    }

    /// Zero bytes after `size` bytes of data, to the end of their last block.
    static func padding(_ size: Int) -> Int {
        (blockSize - size % blockSize) % blockSize
    }

    // MARK: Reading

    /// Why an archive could not be read.
    enum Problem: Error, Equatable {
        /// The first block is not a ustar header.
        case notTar
        /// The archive ends before its end marker, or inside an entry's data.
        case truncated
        /// A header's checksum, magic or numbers are wrong, or bytes follow the end marker.
        case damaged(String)
    }

    /// One header as read: the entry's full path (`prefix/name`), type, declared size, and
    /// where its data starts.
    struct Header {
        var path: String
        var type: UInt8
        var size: Int
        var linkTarget: String
        var dataOffset: Int
    }

    /// Reads an archive's headers one at a time, never trusting a size before it is checked.
    struct Reader {
        let bytes: [UInt8]
        private(set) var offset = 0
        /// Headers read so far.
        private(set) var count = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The next header, or nil at the end marker (two zero blocks, then only zeros).
        mutating func next() throws(Problem) -> Header? {
            guard offset + blockSize <= bytes.count else {
                // the start of a first header that was cut short is still a truncated archive
                let started = bytes.count >= 263 && Array(bytes[257..<263]) == Array("ustar\0".utf8)
                throw count == 0 && !started ? .notTar : .truncated
            }
            let h = bytes[offset..<(offset + blockSize)]
            if h.allSatisfy({ $0 == 0 }) {
                guard count > 0 else { throw .notTar }
                guard offset + 2 * blockSize <= bytes.count else { throw .truncated }
                guard bytes[(offset + blockSize)...].allSatisfy({ $0 == 0 }) else {
                    throw .damaged("bytes follow the archive's end marker")
                }
                return nil
            }
            let base = h.startIndex
            let isUstar = Array(h[(base + 257)..<(base + 263)]) == Array("ustar\0".utf8)
                && Array(h[(base + 263)..<(base + 265)]) == Array("00".utf8)
            guard isUstar else { throw count == 0 ? .notTar : .damaged("entry \(count + 1) is not a ustar header") }
            var sum = 0
            for (i, b) in h.enumerated() { sum += (148..<156).contains(i) ? 32 : Int(b) }
            guard let stored = Self.octal(h[(base + 148)..<(base + 156)]), stored == sum else {
                throw .damaged("the header of entry \(count + 1) fails its checksum")
            }
            guard let size = Self.octal(h[(base + 124)..<(base + 136)]) else {
                throw .damaged("the header of entry \(count + 1) has no readable size")
            }
            let name = Self.text(h[base..<(base + 100)]), prefix = Self.text(h[(base + 345)..<(base + 500)])
            let header = Header(path: prefix.isEmpty ? name : prefix + "/" + name, type: h[base + 156], size: size,
                                linkTarget: Self.text(h[(base + 157)..<(base + 257)]), dataOffset: offset + blockSize)
            count += 1
            // links, devices and folders have no data whatever their size field says
            let dataBlocks = header.type == regularFile || header.type == 0 ? (size + blockSize - 1) / blockSize : 0
            offset += blockSize * (1 + dataBlocks)
            return header
        }

        /// The data of a plain file's `header`.
        func data(of header: Header) throws(Problem) -> [UInt8] {
            guard header.dataOffset + header.size <= bytes.count else { throw .truncated }
            return Array(bytes[header.dataOffset..<(header.dataOffset + header.size)])
        }

        /// An octal number field: optional leading spaces, octal digits, then NUL or spaces.
        /// Nil for anything else (base-256 sizes included: no cart needs one).
        static func octal(_ field: ArraySlice<UInt8>) -> Int? {
            var value = 0, digits = 0, ended = false
            for b in field {
                if b == 0 || b == 32 {
                    if digits > 0 { ended = true }
                    continue
                }
                guard !ended, b >= 48, b <= 55, digits < 16 else { return nil }
                value = value * 8 + Int(b - 48)
                digits += 1
            }
            return digits > 0 ? value : nil
        }

        /// A NUL-terminated text field (the whole field when it has no NUL).
        static func text(_ field: ArraySlice<UInt8>) -> String {
            String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
