#if canImport(Glibc)
import Glibc
#endif

/// A program run on a pseudo-terminal, as a terminal emulator or ssh runs one: the pair of
/// ends, and the program started on one of them.
public enum TerminalProcess {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A pseudo-terminal pair of the given size: the primary end (the emulator's) and the
    /// secondary (the program's tty).
    public static func openPseudoTerminal(cols: Int, rows: Int) throws -> (primary: Int32, secondary: Int32) {
        let primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard primary >= 0 else { throw Failure(description: "cannot open /dev/ptmx (errno \(errno))") }
        var unlocked: Int32 = 0
        var index: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN (posix_openpt's friends are not visible from Swift here)
        guard ioctl(primary, 0x4004_5431, &unlocked) == 0, ioctl(primary, 0x8004_5430, &index) == 0 else {
            close(primary)
            throw Failure(description: "cannot unlock the pseudo-terminal")
        }
        let secondary = open("/dev/pts/\(index)", O_RDWR | O_NOCTTY)
        guard secondary >= 0 else {
            close(primary)
            throw Failure(description: "cannot open /dev/pts/\(index)")
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(cols), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(primary, UInt(TIOCSWINSZ), &size)
        return (primary, secondary)
    }

    /// Starts `arguments` (the executable's path first) with `terminal` as its standard input
    /// and output, and as its standard error too unless `stderr` names a file for it; in a
    /// process group of its own (a shell's job), with no signal blocked and the job-control and terminating
    /// signals at their default actions.
    public static func spawn(_ arguments: [String], terminal: Int32, stderr: String? = nil,
                             environment: [String: String]) throws -> pid_t {
        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        posix_spawn_file_actions_adddup2(&files, terminal, 0)
        posix_spawn_file_actions_adddup2(&files, terminal, 1)
        if let stderr {
            posix_spawn_file_actions_addopen(&files, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&files, terminal, 2)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTSTP, SIGCONT, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, arguments[0], &files, &attributes, argv, envp)
        guard rc == 0 else { throw Failure(description: "cannot start \(arguments[0]) (error \(rc))") }
        return pid
    }
}
