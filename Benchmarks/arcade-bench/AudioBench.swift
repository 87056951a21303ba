import ArcadeCore

/// Audio benchmarks: the synth mixing eight busy channels, as a game's steps ask for it.
func audioBenchmarks() -> [BenchResult] {
    [BenchResult(name: "audio.mix_8ch_ms_per_s", value: mixEightChannels() * 1000, unit: "ms",
                 note: "CPU to mix 1 s of 8 looping voices (every wave, slides, vibrato) in 60 Hz steps; target < 5 ms")]
}

/// CPU seconds to mix one second of eight channels that never fall silent: the median of
/// seven seconds mixed.
private func mixEightChannels() -> Double {
    func sound(_ wave: Waveform, _ notes: String, slide: Double = 0, vibrato: Double = 0, duty: Double = 0.5) -> Sound {
        var spec = SoundSpec()
        spec.wave = wave
        spec.notes = (try? SoundSpec.parseNotes(notes)) ?? [60]
        spec.speed = 5
        spec.volume = 0.12
        spec.slide = slide
        spec.vibrato = vibrato
        spec.duty = duty
        spec.loop = true
        return Sound(name: wave.rawValue, spec: spec)
    }
    let mixer = Mixer()
    let voices = [
        sound(.square, "c5 e5 g5 c6", duty: 0.25), sound(.square, "c4 - g4 -", vibrato: 0.3),
        sound(.triangle, "c3 g3", slide: 2), sound(.triangle, "e4 d4 c4 b3"),
        sound(.saw, "g3 a3 b3", vibrato: 0.2), sound(.sine, "c6 g5", slide: -3, vibrato: 0.5),
        sound(.noise, "c5 c3"), sound(.noise, "g6", slide: -12),
    ]
    for (i, v) in voices.enumerated() { mixer.play(v, channel: i) }
    var step = [Int16](repeating: 0, count: Mixer.defaultSampleRate / 60)
    var samples: [Double] = []
    for _ in 0..<7 {
        let t0 = threadCPUTime()
        for _ in 0..<60 { step.withUnsafeMutableBufferPointer { mixer.render(into: $0) } }
        samples.append(threadCPUTime() - t0)
        blackHole(step)
    }
    samples.sort()
    return samples[samples.count / 2]
}
