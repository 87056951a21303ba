#!/usr/bin/env bash
# Sets up (once) and runs the whole test suite: `bash scripts/test.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
swift build --build-tests
swift test --skip-build
