#!/usr/bin/env bash
# Makes the pictures of the bundled games in docs/pictures/: for each game, a short scripted
# run is recorded (--record), then replayed into an animated GIF (--gif) and a PNG of its
# last frame (--png). Deterministic: the same arcade makes the same files.
#
#   bash scripts/pictures.sh                 # builds the arcade (release) first
#   ARCADE=path/to/arcade bash scripts/pictures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ARCADE:-}" ]; then
  bash scripts/setup.sh
  swift build -c release --product arcade >&2
  ARCADE=.build/release/arcade
fi
out=docs/pictures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# Each game's run: `steps fps` then its input script (see the README's "Input scripts").
script() {
  case "$1" in
    ballcatch) cat <<'EOF'
480 15
0 key space
40 key left
70 keyup left
80 key up
84 keyup up
110 key right
170 keyup right
180 key up
184 keyup up
220 key left
250 keyup left
260 key up
264 keyup up
300 key right
330 keyup right
340 key up
344 keyup up
390 key left
420 keyup left
430 key up
434 keyup up
EOF
      ;;
    coinbank) cat <<'EOF'
300 8
0 key space
30 key space
150 key space
270 key space
390 key space
EOF
      ;;
    fishing) cat <<'EOF'
420 12
0 key space
5 keyup space
150 key space
155 keyup space
300 key space
305 keyup space
EOF
      ;;
    giftcombo) cat <<'EOF'
480 10
0 key space
40 key 1
70 key 2
80 key 2
110 key 3
120 key 3
130 key 3
170 key 4
180 key 4
190 key 4
200 key 4
240 key 1
270 key 2
280 key 2
320 key 3
330 key 3
340 key 3
380 key 1
410 key 4
EOF
      ;;
    lastcircle) cat <<'EOF'
480 15
0 key space
170 key 1
240 key 1
320 key 1
400 key 1
EOF
      ;;
  esac
}

for id in ballcatch coinbank fishing giftcombo lastcircle; do
  script "$id" > "$work/$id.all"
  read -r steps fps < "$work/$id.all"
  tail -n +2 "$work/$id.all" > "$work/$id.txt"
  "$ARCADE" play "$id" --games games --headless --seed 7 --input "$work/$id.txt" --frames "$steps" --record "$work/$id.rec"
  "$ARCADE" play "$id" --games games --headless --replay "$work/$id.rec" --gif "$out/$id.gif" --gif-fps "$fps" \
    --png "$out/$id.png"
done
ls -l "$out"
