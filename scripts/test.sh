#!/usr/bin/env bash
# Sets up (once) and runs the whole test suite: `bash scripts/test.sh`.
# The Swift tests, then the games' own Lua tests (games/<id>/tests/*.lua) through the arcade
# just built. Each game's determinism check runs once, in the Swift tests
# (DeterminismCheckTests.theBundledGamesAreDeterministic), so `arcade test` skips it here.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
swift build --build-tests
swift test --skip-build
"$(swift build --show-bin-path)/arcade" test --games games --no-determinism
# the examples in the guide: their Lua tests and their determinism check
"$(swift build --show-bin-path)/arcade" test --games docs/examples
