#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// Set by `--reference`: measure Chipmunk2D on the same scenes in the same run.
nonisolated(unsafe) var physicsReferenceRequested = false
/// The `--filter` prefix, so a single scene can be run alone.
nonisolated(unsafe) var physicsFilter: String? = nil

/// Physics benchmarks: milliseconds (thread CPU time) per 60 Hz step of the native world.
///
/// With `--reference` (and pymunk installed), every round of ours is followed by a round of
/// Chipmunk2D on the same scene (`Benchmarks/reference/chipmunk_scenes.py`), so load from
/// other work on the machine falls on both alike, and the ratio is printed. Otherwise the
/// note gives Chipmunk's figures as last measured on this machine class.
func physicsBenchmarks() -> [BenchResult] {
    let reference = physicsReferenceRequested ? ChipmunkReference.find() : nil
    var results: [BenchResult] = []
    // `--filter physics.balls_50` runs that scene alone.
    for scene in PhysicsScene.all where physicsFilter.map({ !$0.hasPrefix("physics.") || scene.name.hasPrefix($0) }) ?? true {
        var ours: [Double] = []
        var theirs: [Double] = []
        for _ in 0..<physicsRounds {
            ours.append(timeSteps(scene.makeWorld))
            if let reference, let t = reference.round(scene.key) { theirs.append(t) }
        }
        let mine = median(ours)
        if theirs.count == physicsRounds {
            let chipmunk = median(theirs)
            let ratio = mine / chipmunk
            results.append(BenchResult(
                name: scene.name, value: mine, unit: "ms",
                note: "Chipmunk2D \(format3(chipmunk)) ms, same run: \(format3(ratio))x its time"))
            results.append(BenchResult(
                name: scene.name.replacingSuffix("_ms", with: "_vs_chipmunk"), value: ratio, unit: "x",
                note: "goal <= 1.0"))
        } else {
            let why = reference == nil ? "" : " (reference run failed)"
            results.append(BenchResult(
                name: scene.name, value: mine, unit: "ms", note: "Chipmunk2D ~\(scene.noted) ms, noted\(why)"))
        }
    }
    if physicsFilter.map({ !$0.hasPrefix("physics.") || "physics.overlap_energy".hasPrefix($0) }) ?? true {
        let theirs = reference?.value("overlap_energy")
        let note = theirs.map { "target 0; Chipmunk2D \(format3($0)) on the same cluster, same run" } ?? "target 0"
        results.append(BenchResult(name: "physics.overlap_energy", value: overlapEnergy(), unit: "", note: note))
    }
    return results
}

/// Fresh worlds measured per scene; the figure is their median.
private let physicsRounds = 5

/// One benchmark scene, as `chipmunk_scenes.py` builds it too.
private struct PhysicsScene {
    let name: String
    /// The scene's name in the reference script.
    let key: String
    /// Chipmunk's figure for runs without the reference: the median `--reference` measured
    /// on the 2-core development machine (thread CPU time, pymunk 7.3.1, while busy).
    let noted: Double
    let makeWorld: () -> PhysicsWorld

    static var all: [PhysicsScene] { [
        PhysicsScene(name: "physics.balls_50_ms", key: "balls_50", noted: 0.027) { ballCatchWorld(balls: 50) },
        PhysicsScene(name: "physics.balls_200_ms", key: "balls_200", noted: 0.14) { ballCatchWorld(balls: 200) },
        PhysicsScene(name: "physics.balls_2000_ms", key: "balls_2000", noted: 3.6) { largeWorld() },
        PhysicsScene(name: "physics.balls_2000_filtered_ms", key: "balls_2000_filtered", noted: 3.0) { largeWorld(filtered: true) },
    ] }
}

/// The ball-catch scene: 375 x 667, bounds on, the eight obstacle boxes of GAMES.md §2,
/// balls r = 10, elasticity 0.8, friction 1, UIKit gravity. Balls are dropped from a jittered
/// grid over the upper screen.
private func ballCatchWorld(balls: Int) -> PhysicsWorld {
    let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 375, height: 667))
    for (cx, cy, size) in [
        (150.0, 200.0, 25.0), (300, 300, 30), (70, 300, 10), (280, 160, 10),
        (100, 160, 10), (390, 250, 10), (145, 250, 25), (330, 350, 20),
    ] {
        world.addWall(nil, rect: Rect(center: Vec2(cx, cy), width: size, height: size))
    }
    dropGrid(into: world, count: balls, radius: 10, width: 375, top: 10)
    return world
}

/// 2000 balls r = 5 in a 1600 x 1200 world with its bounds, same materials. Filtered: the
/// balls alternate between two categories that collide only with their own and the bounds.
private func largeWorld(filtered: Bool = false) -> PhysicsWorld {
    let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 1600, height: 1200))
    dropGrid(into: world, count: 2000, radius: 5, width: 1600, top: 5, filtered: filtered)
    return world
}

private func dropGrid(into world: PhysicsWorld, count: Int, radius: Double, width: Double, top: Double,
                      filtered: Bool = false) {
    var random = SeededRandom(seed: 2024)
    let spacing = radius * 2.6
    let perRow = Int((width - 2 * radius) / spacing)
    for i in 0..<count {
        let x = radius + spacing / 2 + Double(i % perRow) * spacing + random.nextDouble(in: -0.2, 0.2) * radius
        let y = top + radius + Double(i / perRow) * spacing
        var d = BallDefinition(position: Vec2(x, y), radius: radius, elasticity: 0.8, friction: 1)
        if filtered {
            let half: UInt32 = i % 2 == 0 ? 2 : 4
            d.filter = CollisionFilter(category: half, mask: half | 1)
        }
        world.addBall(d)
    }
}

/// The kinetic energy (UIKit mass units, px/s) a cluster of 200 overlapping balls at rest
/// gains over 120 steps without gravity or walls while it is pushed apart: the largest total.
/// The same cluster as `chipmunk_scenes.py --scene overlap_energy`.
private func overlapEnergy() -> Double {
    let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 800, height: 600), gravity: .zero)
    world.boundsEnabled = false
    var random = SeededRandom(seed: 7)
    for _ in 0..<200 {
        let x = 400 + random.nextDouble(in: -40, 40), y = 300 + random.nextDouble(in: -40, 40)
        world.addBall(BallDefinition(position: Vec2(x, y), radius: 5, elasticity: 1))
    }
    var peak = 0.0
    for _ in 0..<120 {
        world.step()
        var energy = 0.0
        for id in world.bodies {
            energy += 0.5 * world.mass(of: id)! * world.velocity(of: id)!.lengthSquared
        }
        peak = max(peak, energy)
    }
    return peak
}

/// One round: a fresh world, 60 settling steps, then the mean milliseconds of the next 600.
///
/// Timed in the thread's CPU time, as the reference script times Chipmunk: on a machine
/// shared with other work, wall time mostly measures how often the process was descheduled
/// (a 50-ball round lasts about 20 ms, a couple of time slices), which swamped the ratio.
private func timeSteps(_ makeWorld: () -> PhysicsWorld) -> Double {
    let world = makeWorld()
    for _ in 0..<60 { world.step() }
    let t0 = threadCPUTime()
    for _ in 0..<600 { world.step() }
    let ms = (threadCPUTime() - t0) / 600 * 1000
    blackHole(world.bodyCount)
    return ms
}

/// Chipmunk2D through pymunk, one round a process: `chipmunk_scenes.py --rounds 1 --raw`.
private struct ChipmunkReference {
    let script: String

    /// The script beside this source tree, when python3 can import pymunk.
    static func find() -> ChipmunkReference? {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        let script = (parts + ["reference", "chipmunk_scenes.py"]).joined(separator: "/")
        guard access(script, R_OK) == 0 else {
            writeOut("arcade-bench: \(script) not found; Chipmunk figures are the noted ones\n", fd: 2)
            return nil
        }
        guard system("python3 -c 'import pymunk' >/dev/null 2>&1") == 0 else {
            writeOut("arcade-bench: python3 cannot import pymunk (pip install pymunk==7.3.1); Chipmunk figures are the noted ones\n", fd: 2)
            return nil
        }
        return ChipmunkReference(script: script)
    }

    /// Chipmunk's milliseconds per step for one fresh world of `scene`, or nil on failure.
    func round(_ scene: String) -> Double? {
        guard let ms = value(scene), ms > 0 else { return nil }
        return ms
    }

    /// The number the script prints for `scene` (one round), or nil on failure.
    func value(_ scene: String) -> Double? {
        let command = "python3 '\(script)' --scene \(scene) --rounds 1 --raw"
        guard let pipe = popen(command, "r") else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let got = fread(&buffer, 1, buffer.count, pipe)
            if got == 0 { break }
            bytes += buffer[0..<got]
        }
        guard pclose(pipe) == 0 else { return nil }
        let output = String(decoding: bytes, as: UTF8.self)
        // "balls_200 0.143512"
        let fields = output.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2, fields[0] == scene, let value = Double(fields[1]) else { return nil }
        return value
    }
}

private extension String {
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
