import Foundation
@testable import ArcadeHost

/// A new empty folder under /tmp for one test, removed when the value is dropped.
final class ScratchFolder {
    let path: String

    init(_ name: String = #function) {
        let clean = name.filter { $0.isLetter || $0.isNumber }
        var template = Array("/tmp/arcade-\(clean)-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit {
        // undo the permission changes some tests make, so the folder can be removed
        chmod(path, 0o755)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The database path a store uses with `--data <this folder>`.
    var database: String { SaveStore.path(inDataDirectory: path) }

    func file(_ name: String) -> String { path + "/" + name }

    func bytes(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: file(name)).map { Array($0) }
    }

    func write(_ name: String, _ bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: file(name), contents: Data(bytes))
    }

    /// Names in the folder, sorted.
    func listing() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

/// True when the tests run as root, for whom file permissions do not stop writes.
var runningAsRoot: Bool { geteuid() == 0 }
