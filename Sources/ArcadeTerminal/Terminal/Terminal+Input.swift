#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

extension Terminal {
    /// Waits up to `timeout` seconds for input and returns the events that arrived (possibly
    /// none). The loop passes the time until its next step.
    ///
    /// - Throws: `TerminalError.inputClosed` when the terminal went away, `.systemCall` on
    ///   another read error.
    public func readEvents(timeout: Double) throws(TerminalError) -> [InputEvent] {
        var events: [InputEvent] = []
        try readEvents(timeout: timeout, into: &events)
        return events
    }

    /// `readEvents(timeout:)`, appending to `events`.
    ///
    /// One `poll` on the input and the SIGWINCH self-pipe, ending early when a lone ESC is due
    /// to be settled or an inferred key release is due. Then: a resize (if the size changed),
    /// the decoded keys and mouse events, `esc` for an ESC left alone for `escapeTimeout`,
    /// and, unless the kitty protocol reports releases, the releases `holdTracker` infers.
    /// Terminal replies are handled here too: an answer to the kitty query pushes our flags.
    public func readEvents(timeout: Double, into events: inout [InputEvent]) throws(TerminalError) {
        let start = TTY.monotonicSeconds()
        var wait = max(timeout, 0)
        if decoder.hasPendingInput {
            wait = min(wait, max(lastByteTime + escapeTimeout - start, 0))
        }
        let tracksHolds = infersKeyRelease && keyboardMode != .kitty
        if tracksHolds, let deadline = holdTracker.nextDeadline {
            wait = min(wait, max(deadline - start, 0))
        }
        // input read while the loop was busy (``watchingForInterrupt(_:_:)``) is there already
        if !carriedInput.isEmpty { wait = 0 }

        pollSet[0] = pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)
        pollSet[1] = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(min((wait * 1000).rounded(.up), Double(Int32.max)))
        let ready = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, 2, milliseconds) }
        if ready < 0 && errno != EINTR { throw .systemCall("poll", errno: errno) }
        let now = TTY.monotonicSeconds()

        scratch.removeAll(keepingCapacity: true)
        if !carriedInput.isEmpty {
            carriedInput.withUnsafeBufferPointer { decoder.decode($0, into: &scratch) }
            carriedInput.removeAll(keepingCapacity: true)
            lastByteTime = now
        }
        // A signal (EINTR) may be the SIGWINCH whose byte is in the pipe, so look then too.
        if (ready < 0 || pollSet[1].revents != 0) && wakeRead >= 0 && TTY.drain(wakeRead) {
            let current = size
            if current != lastSize {
                lastSize = current
                scratch.append(.resize(cols: current.cols, rows: current.rows))
            }
        }
        if ready > 0 && pollSet[0].revents != 0 {
            let count = readBuffer.withUnsafeMutableBytes { buffer in
                read(inputFD, buffer.baseAddress, buffer.count)
            }
            if count > 0 {
                readBuffer.withUnsafeBufferPointer { buffer in
                    decoder.decode(UnsafeBufferPointer(rebasing: buffer[0..<count]), into: &scratch)
                }
                lastByteTime = now
            } else if count == 0 || errno == EIO {
                // EIO is how Linux reports a terminal that hung up.
                throw .inputClosed
            } else if errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK {
                throw .systemCall("read", errno: errno)
            }
        }
        if decoder.hasPendingInput && now - lastByteTime >= escapeTimeout {
            decoder.flush(into: &scratch)
        }
        try answerReplies()

        if infersKeyRelease && keyboardMode != .kitty {
            holdTracker.process(scratch, at: now, into: &events)
        } else {
            events.append(contentsOf: scratch)
        }
        if tracksHolds && keyboardMode == .kitty {
            // The terminal reports releases from now on; settle the inferred holds.
            events.append(contentsOf: holdTracker.releaseAll())
        }
    }

    /// Runs `body`, work that may take long (a game's steps and its frame), while another
    /// thread watches the input for Ctrl-C: on one, `onInterrupt` runs on that thread (it
    /// should make the work stop). What the player typed meanwhile is decoded by the next
    /// ``readEvents(timeout:into:)``, except the Ctrl-C that interrupted. Returns `body`'s
    /// result, and whether the player pressed Ctrl-C.
    public func watchingForInterrupt<R, E: Error>(_ onInterrupt: @escaping @Sendable () -> Void,
                                                  _ body: () throws(E) -> R) throws(E) -> (R, interrupted: Bool) {
        let watch = interruptWatch ?? InterruptWatch(fd: inputFD)
        interruptWatch = watch
        let watching = isActive && watch.begin(onInterrupt)
        let result: Result<R, E>
        do throws(E) { result = .success(try body()) } catch { result = .failure(error) }
        var interrupted = false
        if watching {
            let (bytes, pressed) = watch.end()
            carriedInput.append(contentsOf: bytes)
            interrupted = pressed
        }
        return (try result.get(), interrupted)
    }

    /// A resize that ``readEvents(timeout:into:)`` has not reported yet: the window's size now,
    /// when it differs from the size last reported. Reported once: the next read does not
    /// report it again. The loop asks just before it sends a frame, since a window that
    /// shrank while the frame was made would scroll and wrap a frame of the old size.
    public func takeResize() -> InputEvent? {
        let current = size
        guard current != lastSize else { return nil }
        lastSize = current
        return .resize(cols: current.cols, rows: current.rows)
    }

    /// Acts on the terminal's answers to the queries in `enterSequence`, and counts those to
    /// `askStatus()`.
    private func answerReplies() throws(TerminalError) {
        for reply in decoder.takeReplies() {
            switch reply {
            case .keyboardFlags:
                guard keyboardMode == .probing else { continue }
                // Arm the pop before pushing, so a crash right after the push still pops.
                SignalGuard.includeKittyPop()
                try write(Self.kittyPushSequence)
                keyboardMode = .kitty
            case .primaryDeviceAttributes:
                if keyboardMode == .probing { keyboardMode = .legacy }
            case .deviceStatus:
                noteStatusAnswer()
            }
        }
    }
}
