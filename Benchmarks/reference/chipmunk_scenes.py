#!/usr/bin/env python3
"""The physics benchmark scenes of arcade-bench, built in Chipmunk2D (pymunk 7.3.1).

Prints milliseconds per 60 Hz step for the same scenes as `physics.balls_50_ms`,
`physics.balls_200_ms`, `physics.balls_2000_ms` and `physics.balls_2000_filtered_ms` (half the
balls in one category, half in another, each colliding only with its own and the bounds) in
Benchmarks/arcade-bench/PhysicsBench.swift, and for `physics.overlap_energy` the kinetic energy
Chipmunk gives a cluster of 200 overlapping balls while it pushes them apart,
with the same protocol: a fresh world, 60 settling steps, then the mean of the next 600 steps
in thread CPU time; the median over several fresh worlds.

    python3 chipmunk_scenes.py                    # all three scenes, a table
    python3 chipmunk_scenes.py --scene balls_200 --rounds 1 --raw
                                                  # one number per round (what arcade-bench reads)

How the scenes are made equal to the arcade's world:
- Same bounds, obstacle boxes, ball radii and drop grid (the same xoshiro256** stream, seed 2024).
- Gravity 1000 px/s^2 down (UIKit's (0, 1)), step 1/60 s, masses from UIKit's density 1
  (pi r^2 / 10000), rotation allowed (moment of a solid disc).
- Materials: the arcade gives a ball pair the larger elasticity (0.8) and a ball-wall pair the
  ball's; Chipmunk multiplies the two shapes' values. Every shape gets sqrt(0.8), so every pair
  bounces with 0.8 as in the arcade. Friction 1 everywhere (1 x 1 = 1, as sqrt(1 x 1) = 1).
- The bounds are the arcade's half-planes: here four thick static segments whose inner faces lie
  on the edges, so nothing can slip past them.
- Solver: Chipmunk's defaults, which is how it is normally used: 10 iterations, collision slop
  0.1, bias pow(0.9, 60), no damping. Sleeping stays off, as the arcade world has none.
- Broad phase: Chipmunk's faster one for each scene, as a tuned Chipmunk game would choose:
  the default bounding-box tree for the ball-catch scenes (50, 200 balls), the spatial hash for
  2000 equal balls (cell = ball diameter, 10 cells a ball: the best of the settings tried, and
  pymunk's own advice; 1.4-2x faster than the tree there). `--broadphase` overrides it.
- The timed loop calls cpSpaceStep directly, so the figure is Chipmunk's C and not pymunk's
  Python bookkeeping, and is timed in the thread's CPU time (as arcade-bench times the
  arcade's world), so time spent descheduled on a busy machine counts for neither.
"""

import argparse
import math
import sys
import time

import pymunk
from pymunk._chipmunk_cffi import lib

MASK = (1 << 64) - 1


class SeededRandom:
    """The arcade's SeededRandom (xoshiro256** seeded through SplitMix64), for the same grid."""

    def __init__(self, seed):
        sm = seed

        def split_mix():
            nonlocal sm
            sm = (sm + 0x9E3779B97F4A7C15) & MASK
            z = sm
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            return z ^ (z >> 31)

        self.s = [split_mix() for _ in range(4)]

    @staticmethod
    def _rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK

    def next(self):
        s0, s1, s2, s3 = self.s
        result = (self._rotl((s1 * 5) & MASK, 7) * 9) & MASK
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = self._rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def next_unit(self):
        return (self.next() >> 11) * 2.0 ** -53

    def next_double(self, lower, upper):
        return lower + (upper - lower) * self.next_unit()


ELASTICITY = math.sqrt(0.8)  # per shape: every pair gets 0.8
FRICTION = 1.0

# The eight obstacle boxes of GAMES.md §2: centre x, centre y, side.
BALL_CATCH_BOXES = [
    (150.0, 200.0, 25.0), (300, 300, 30), (70, 300, 10), (280, 160, 10),
    (100, 160, 10), (390, 250, 10), (145, 250, 25), (330, 350, 20),
]

# name: (width, height, balls, radius, top of the grid, obstacle boxes, broad phase)
SCENES = {
    "balls_50": (375.0, 667.0, 50, 10.0, 10.0, BALL_CATCH_BOXES, "tree"),
    "balls_200": (375.0, 667.0, 200, 10.0, 10.0, BALL_CATCH_BOXES, "tree"),
    "balls_2000": (1600.0, 1200.0, 2000, 5.0, 5.0, [], "hash"),
    "balls_2000_filtered": (1600.0, 1200.0, 2000, 5.0, 5.0, [], "hash"),
}

# Categories of the filtered scene: the bounds, and two halves of the balls that collide only
# among themselves (and with the bounds), as PhysicsBench.swift's filtered world.
BOUNDS_CATEGORY, HALF_A, HALF_B = 1, 2, 4


def add_bounds(space, width, height):
    thick = 50.0
    body = space.static_body
    for a, b in [
        ((-thick, -thick), (width + thick, -thick)),
        ((width + thick, -thick), (width + thick, height + thick)),
        ((width + thick, height + thick), (-thick, height + thick)),
        ((-thick, height + thick), (-thick, -thick)),
    ]:
        seg = pymunk.Segment(body, a, b, thick)
        seg.elasticity = ELASTICITY
        seg.friction = FRICTION
        space.add(seg)


def build(name, broadphase=None):
    width, height, count, radius, top, boxes, preferred = SCENES[name]
    space = pymunk.Space()
    space.gravity = (0.0, 1000.0)
    space.iterations = 10
    if (broadphase or preferred) == "hash":
        space.use_spatial_hash(2 * radius, 10 * count)
    add_bounds(space, width, height)
    for cx, cy, size in boxes:
        h = size / 2
        box = pymunk.Poly(space.static_body, [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)])
        box.elasticity = ELASTICITY
        box.friction = FRICTION
        space.add(box)
    # The drop grid of PhysicsBench.swift's dropGrid.
    random = SeededRandom(2024)
    spacing = radius * 2.6
    per_row = int((width - 2 * radius) / spacing)
    mass = math.pi * radius * radius / 10_000
    moment = pymunk.moment_for_circle(mass, 0, radius)
    for i in range(count):
        x = radius + spacing / 2 + (i % per_row) * spacing + random.next_double(-0.2, 0.2) * radius
        y = top + radius + (i // per_row) * spacing
        body = pymunk.Body(mass, moment)
        body.position = (x, y)
        ball = pymunk.Circle(body, radius)
        ball.elasticity = ELASTICITY
        ball.friction = FRICTION
        if name.endswith("_filtered"):
            half = HALF_A if i % 2 == 0 else HALF_B
            ball.filter = pymunk.ShapeFilter(categories=half, mask=half | BOUNDS_CATEGORY)
        space.add(body, ball)
    return space


def overlap_energy():
    """The kinetic energy (UIKit mass units, px/s) a cluster of 200 overlapping balls at rest
    gains over 120 steps without gravity or walls while it is pushed apart: the largest total."""
    space = pymunk.Space()
    space.gravity = (0.0, 0.0)
    space.iterations = 10
    random = SeededRandom(7)
    radius = 5.0
    mass = math.pi * radius * radius / 10_000
    moment = pymunk.moment_for_circle(mass, 0, radius)
    bodies = []
    for _ in range(200):
        body = pymunk.Body(mass, moment)
        body.position = (400 + random.next_double(-40, 40), 300 + random.next_double(-40, 40))
        ball = pymunk.Circle(body, radius)
        ball.elasticity = 1.0
        ball.friction = 0.0
        space.add(body, ball)
        bodies.append(body)
    peak = 0.0
    for _ in range(120):
        space.step(1.0 / 60.0)
        energy = sum(0.5 * b.mass * (b.velocity.x ** 2 + b.velocity.y ** 2) for b in bodies)
        peak = max(peak, energy)
    return peak


def one_round(name, broadphase=None, settle=60, measured=600):
    """Mean milliseconds per step over `measured` steps after `settle`, in a fresh world."""
    space = build(name, broadphase)
    dt = 1.0 / 60.0
    space.step(dt)  # lets pymunk check its bodies once; then straight to Chipmunk
    handle = space._space
    step = lib.cpSpaceStep
    for _ in range(settle - 1):
        step(handle, dt)
    t0 = time.thread_time()
    for _ in range(measured):
        step(handle, dt)
    elapsed = time.thread_time() - t0
    return elapsed / measured * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", choices=sorted(SCENES) + ["overlap_energy"], action="append",
                        help="scene to run (repeatable; default all)")
    parser.add_argument("--rounds", type=int, default=5, help="fresh worlds per scene (median)")
    parser.add_argument("--broadphase", choices=["tree", "hash"],
                        help="Chipmunk's bounding-box tree or spatial hash (default: the faster per scene)")
    parser.add_argument("--raw", action="store_true", help="print each round's ms/step, one a line")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    for name in args.scene or ["balls_50", "balls_200", "balls_2000", "balls_2000_filtered", "overlap_energy"]:
        if name == "overlap_energy":
            energy = overlap_energy()
            print(f"{name} {energy:.6f}" if args.raw else f"physics.overlap_energy  {energy:.6g}  (Chipmunk2D)", flush=True)
            continue
        samples = [one_round(name, args.broadphase) for _ in range(args.rounds)]
        if args.raw:
            for s in samples:
                print(f"{name} {s:.6f}", flush=True)
        else:
            samples.sort()
            median = samples[len(samples) // 2]
            print(f"physics.{name}_ms  {median:8.4f} ms  (Chipmunk2D {pymunk.chipmunk_version.split('-')[0]}, "
                  f"pymunk {pymunk.version}, median of {args.rounds})", flush=True)


if __name__ == "__main__":
    sys.exit(main())
