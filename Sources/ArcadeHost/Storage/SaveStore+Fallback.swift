/// What the store does when its file fails during play: it carries on in memory.
extension SaveStore {
    /// The file failed (the disk is full, it was deleted, damaged or made unwritable): copies
    /// what the file holds into memory, carries on there, writes the open group's earlier
    /// writes again, and says so in ``notices``. The file itself is left as it is (a
    /// damaged one is moved aside at the next start). Nothing is thrown: the game plays on.
    func carryOnInMemory(after error: StorageError) {
        guard case .file(let path) = location, let file = db else { return }
        let pending = (groupWrites ?? []) + queued
        groupWrites = nil
        queued = []
        if file.inTransaction { try? statements?.rollback.run() }
        statements = nil
        var readBack = false
        if let memory = try? SQLiteDatabase(path: ":memory:") {
            do {
                try file.copy(into: memory)
                try SaveSchema.migrate(memory)
                statements = try SaveStatements(memory)
                db = memory
                readBack = true
            } catch {
                readBack = false
            }
        }
        file.close()
        openedFile = nil
        location = .memory
        if !readBack { openMemory() }
        notices.append(Self.inMemoryNotice(path: path, error: error, readBack: readBack))
        for write in pending { replay(write) }
    }

    /// "The save file ... stopped working: the disk is full. Saves are kept in memory ..."
    static func inMemoryNotice(path: String, error: StorageError, readBack: Bool) -> SaveNotice {
        let gist: String
        switch error.kind {
        case .diskFull: gist = "the disk is full"
        case .readOnly: gist = "the save file cannot be written"
        case .busy: gist = "the save file is busy"
        case .damaged: gist = "the save file is damaged"
        case .deleted: gist = "the save file was deleted"
        case .io, .tooLarge, .invalid, .closed: gist = "the save file failed"
        }
        var message = "The save file \(path) stopped working: \(error.cause ?? error.message). "
            + "Saves are kept in memory from now on; \(SaveNotice.lostOnQuit)."
        if !readBack { message += " What it held could not be read back, so this session's saves start empty." }
        if error.kind == .damaged { message += " It will be moved aside when the arcade next starts." }
        return SaveNotice(message: message, short: "Saves are kept in memory until you quit: \(gist).")
    }
}
