/// Why a save, a read or a score could not be done; the message is meant for the player
/// (the host shows it, the Lua binding raises it).
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, broadly, for callers that react differently (e.g. retry when busy).
    public enum Kind: String, Sendable {
        /// A value, a key or a game's saves passed a size limit.
        case tooLarge
        /// The key or the value cannot be stored (empty key, non-finite number).
        case invalid
        /// The disk (or the database's page limit) is full.
        case diskFull
        /// The file or its folder cannot be written.
        case readOnly
        /// Another process held the database longer than the busy timeout.
        case busy
        /// The file's contents are damaged; the next start moves it aside.
        case damaged
        /// The file was deleted or replaced while the store had it open.
        case deleted
        /// Any other failure of the disk or of SQLite.
        case io
        /// The store was closed.
        case closed
    }

    /// The broad cause.
    public var kind: Kind
    /// What happened, without a function name: `value is 300 KiB, over the 256 KiB limit`.
    public var message: String
    /// For a failure of the file: what went wrong with it, without what was being done
    /// ("the disk is full"), for the notice the store gives when it carries on in memory.
    var cause: String?

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    init(_ kind: Kind, _ message: String, cause: String) {
        self.init(kind, message)
        self.cause = cause
    }

    /// Errors are equal when they say the same (``cause`` only repeats part of the message).
    public static func == (a: StorageError, b: StorageError) -> Bool {
        a.kind == b.kind && a.message == b.message
    }

    /// The message.
    public var description: String { message }

    /// True when the save file itself failed (rather than the value being refused, the
    /// store being closed, or another arcade holding the file for a moment): the store then
    /// carries on in memory.
    var isFileFailure: Bool {
        switch kind {
        case .diskFull, .readOnly, .damaged, .deleted, .io: true
        case .tooLarge, .invalid, .closed, .busy: false
        }
    }
}

/// Sizes in messages: "300 KiB", "1.2 MiB", "512 bytes".
enum ByteCount {
    /// `bytes` in the largest binary unit that keeps it at 1 or more, to one decimal
    /// (dropped when it is .0). A size over `limit` never prints as the limit itself:
    /// then the exact number of bytes is shown.
    static func describe(_ bytes: Int, over limit: Int? = nil) -> String {
        let text = rounded(bytes)
        if let limit, bytes > limit, text == rounded(limit) { return "\(bytes) bytes" }
        return text
    }

    private static func rounded(_ bytes: Int) -> String {
        let (unit, size): (String, Int) = bytes >= 1 << 20 ? ("MiB", 1 << 20) : bytes >= 1 << 10 ? ("KiB", 1 << 10) : ("bytes", 1)
        if size == 1 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let tenths = (bytes * 10 + size / 2) / size
        return tenths % 10 == 0 ? "\(tenths / 10) \(unit)" : "\(tenths / 10).\(tenths % 10) \(unit)"
    }
}
