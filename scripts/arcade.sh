#!/usr/bin/env bash
# Sets up (once) and runs the arcade: `bash scripts/arcade.sh [arcade arguments]`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product arcade >&2
exec .build/release/arcade "$@"
