// ArcadeHost
#if canImport(Glibc)
import Glibc
#endif

/// What the arcade's process sets up before anything else runs.
public enum ArcadeProcess {
    /// Called first thing by the `arcade` executable. A write past the file size limit
    /// (`ulimit -f`, `RLIMIT_FSIZE`) then fails with EFBIG, as a full disk does, instead of
    /// ending the process with SIGXFSZ: `pack`, `install` and the save file each say why the
    /// write failed and remove what they had half written.
    public static func start() {
        SaveFile.ignoreFileSizeSignal()
    }
}
