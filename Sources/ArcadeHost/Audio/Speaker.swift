#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import Synchronization

/// The speaker: plays each step's samples through the system's audio library, on a thread
/// of its own.
///
/// On Linux that is ALSA's `libasound.so.2` (PulseAudio and PipeWire serve ALSA clients
/// too), loaded with `dlopen` at the first sound rather than linked: the arcade then builds
/// where ALSA's headers are missing and runs where its library is. When no device can be
/// opened (no library, no sound card, an ssh session, CI) the arcade is silent: one line in
/// the log says so, nothing shows on screen, and nothing else changes.
///
/// The game's step only copies its samples into a small ring (``capacity`` samples, 32 ms
/// at 48 kHz) and never waits: what does not fit is dropped. The output thread takes from
/// the ring in periods of 5 ms (silence when it is empty) and writes them to a device
/// buffer of 15 ms, so a sound is heard well under 50 ms after the step that played it.
public final class Speaker: SoundSink, @unchecked Sendable {
    /// Where the output stands.
    public enum State: Int, Sendable {
        /// No sound yet: the device is not open.
        case idle
        /// The output thread is opening the device.
        case opening
        case playing
        /// No device: silent for the rest of the run.
        case silent
    }

    /// Samples the ring holds: 32 ms at 48 kHz.
    public static let capacity = 1536
    /// Samples the output thread writes at a time: 5 ms.
    static let period = 240
    /// The device's buffer, in microseconds.
    static let deviceLatency: UInt32 = 15_000

    public let sampleRate: Int
    let library: String
    let device: String
    /// Muted: samples are dropped here and the device stays as it is.
    public var muted = false
    /// Samples dropped because the ring was full.
    public private(set) var dropped = 0

    private let log: (String) -> Void
    private let state = Atomic<Int>(State.idle.rawValue)
    private let running = Atomic<Bool>(true)
    private let finished = Atomic<Bool>(false)
    /// Samples written into the ring and taken from it, ever (the ring's positions are these
    /// modulo ``capacity``).
    private let written = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)
    private let ring = UnsafeMutablePointer<Int16>.allocate(capacity: capacity)
    /// Why the device could not be opened, or which one plays: set by the output thread
    /// before it publishes its state, logged once by the game's thread.
    private var outcome = ""
    private var reported = State.idle

    /// `library` and `device` are ALSA's by default; tests name ones that do not exist.
    public init(sampleRate: Int = Mixer.defaultSampleRate, library: String = "libasound.so.2", device: String = "default",
                log: @escaping (String) -> Void) {
        self.sampleRate = sampleRate
        self.library = library
        self.device = device
        self.log = log
        ring.initialize(repeating: 0, count: Self.capacity)
    }

    deinit {
        ring.deallocate()
    }

    public var currentState: State { State(rawValue: state.load(ordering: .acquiring)) ?? .idle }

    /// Queues `samples` for the speaker without waiting. The first samples that are not
    /// silence open the device (on the output thread).
    public func write(_ samples: UnsafeBufferPointer<Int16>) {
        let now = currentState
        if now != reported { report(now) }
        guard !muted else { return }
        switch now {
        case .silent:
            return
        case .idle:
            guard samples.contains(where: { $0 != 0 }) else { return }
            start()
        case .opening, .playing:
            break
        }
        push(samples)
    }

    /// Logs what the output thread found, once per state.
    private func report(_ now: State) {
        reported = now
        switch now {
        case .playing, .silent: log(outcome)
        case .idle, .opening: break
        }
    }

    /// Copies what fits into the ring.
    private func push(_ samples: UnsafeBufferPointer<Int16>) {
        let w = written.load(ordering: .relaxed)
        let free = Self.capacity - (w - taken.load(ordering: .acquiring))
        let n = min(samples.count, free)
        dropped += samples.count - n
        for i in 0..<n { ring[(w + i) % Self.capacity] = samples[i] }
        written.store(w + n, ordering: .releasing)
    }

    /// Starts the output thread.
    private func start() {
        state.store(State.opening.rawValue, ordering: .releasing)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let speaker = Unmanaged<Speaker>.fromOpaque(context!).takeRetainedValue()
            speaker.runOutput()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<Speaker>.fromOpaque(context).release()
            fail("sound: no audio output (no thread for it); the arcade plays silent")
            return
        }
        pthread_detach(thread)
    }

    /// Stops the output thread, waiting a moment for it to close the device.
    public func close() {
        running.store(false, ordering: .releasing)
        guard currentState == .opening || currentState == .playing else { return }
        for _ in 0..<40 where !finished.load(ordering: .acquiring) { usleep(5_000) }
    }

    private func fail(_ message: String) {
        outcome = message
        state.store(State.silent.rawValue, ordering: .releasing)
    }

    // MARK: The output thread

    private func runOutput() {
        defer { finished.store(true, ordering: .releasing) }
        guard let alsa = ALSALibrary(path: library) else {
            fail("sound: no audio library (\(library) could not be loaded); the arcade plays silent")
            return
        }
        var handle: OpaquePointer?
        var rc = alsa.open(&handle, device, 0, 0)  // playback, blocking
        guard rc >= 0, let pcm = handle else {
            fail("sound: no audio device (ALSA could not open '\(device)': \(alsa.describe(rc))); the arcade plays silent")
            return
        }
        // 16-bit little-endian, interleaved, mono, resampled by ALSA where the device needs it
        rc = alsa.setParams(pcm, 2, 3, 1, UInt32(sampleRate), 1, Self.deviceLatency)
        guard rc >= 0 else {
            _ = alsa.close(pcm)
            fail("sound: no audio device (ALSA refused \(sampleRate) Hz mono on '\(device)': \(alsa.describe(rc))); the arcade plays silent")
            return
        }
        outcome = "sound: playing through ALSA's '\(device)' at \(sampleRate) Hz"
        state.store(State.playing.rawValue, ordering: .releasing)
        var chunk = [Int16](repeating: 0, count: Self.period)
        while running.load(ordering: .acquiring) {
            let t = taken.load(ordering: .relaxed)
            let available = written.load(ordering: .acquiring) - t
            let n = available > 0 ? min(available, Self.period) : Self.period
            if available > 0 {
                for i in 0..<n { chunk[i] = ring[(t + i) % Self.capacity] }
                taken.store(t + n, ordering: .releasing)
            } else {
                for i in 0..<n { chunk[i] = 0 }
            }
            var offset = 0
            while offset < n, running.load(ordering: .relaxed) {
                let w = chunk.withUnsafeBufferPointer { alsa.writei(pcm, $0.baseAddress! + offset, UInt(n - offset)) }
                if w >= 0 {
                    offset += w
                } else if alsa.recover(pcm, Int32(truncatingIfNeeded: w), 1) < 0 {
                    _ = alsa.close(pcm)
                    fail("sound: the audio device stopped (\(alsa.describe(Int32(truncatingIfNeeded: w)))); the arcade plays silent")
                    return
                }
            }
        }
        _ = alsa.drop(pcm)
        _ = alsa.close(pcm)
    }
}

/// The few functions of ALSA's library the speaker calls, found with `dlsym`. Declared here
/// rather than imported from `<alsa/asoundlib.h>`, so building needs no ALSA headers.
struct ALSALibrary {
    typealias Open = @convention(c) (UnsafeMutablePointer<OpaquePointer?>, UnsafePointer<CChar>, Int32, Int32) -> Int32
    typealias SetParams = @convention(c) (OpaquePointer, Int32, Int32, UInt32, UInt32, Int32, UInt32) -> Int32
    typealias WriteI = @convention(c) (OpaquePointer, UnsafeRawPointer, UInt) -> Int
    typealias Recover = @convention(c) (OpaquePointer, Int32, Int32) -> Int32
    typealias Handle = @convention(c) (OpaquePointer) -> Int32
    typealias StrError = @convention(c) (Int32) -> UnsafePointer<CChar>?
    /// ALSA's error handler is variadic (`file, line, function, err, fmt, ...`); this one
    /// reads none of its arguments, which the C calling conventions of the platforms the
    /// arcade runs on allow.
    typealias ErrorHandler = @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?) -> Void
    typealias SetErrorHandler = @convention(c) (ErrorHandler?) -> Int32

    let open: Open
    let setParams: SetParams
    let writei: WriteI
    let recover: Recover
    let drop: Handle
    let close: Handle
    let strerror: StrError

    /// Loads the library at `path` (nil when it or one of the functions is missing) and
    /// keeps ALSA's own messages off stderr, which is the game's screen.
    init?(path: String) {
        guard let lib = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, _: T.Type) -> T? {
            dlsym(lib, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let open = symbol("snd_pcm_open", Open.self),
              let setParams = symbol("snd_pcm_set_params", SetParams.self),
              let writei = symbol("snd_pcm_writei", WriteI.self),
              let recover = symbol("snd_pcm_recover", Recover.self),
              let drop = symbol("snd_pcm_drop", Handle.self),
              let close = symbol("snd_pcm_close", Handle.self),
              let strerror = symbol("snd_strerror", StrError.self) else { return nil }
        (self.open, self.setParams, self.writei, self.recover) = (open, setParams, writei, recover)
        (self.drop, self.close, self.strerror) = (drop, close, strerror)
        if let setHandler = symbol("snd_lib_error_set_handler", SetErrorHandler.self) {
            _ = setHandler { _, _, _, _, _ in }
        }
    }

    /// ALSA's words for error `code`.
    func describe(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
