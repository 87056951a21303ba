#!/usr/bin/env bash
# Installs what the arcade needs from Debian's packages, when missing:
# liblua5.4-dev (the Lua VM the games run on), zlib and giflib (PNG and GIF pictures of
# frames), unifont (the glyphs of the text in those pictures) and, for the tests, tmux.
set -euo pipefail

need=()
pkg-config --exists lua5.4 2>/dev/null || need+=(liblua5.4-dev)
pkg-config --exists sqlite3 2>/dev/null || need+=(libsqlite3-dev)
pkg-config --exists zlib 2>/dev/null || need+=(zlib1g-dev)
[ -f /usr/include/gif_lib.h ] || need+=(libgif-dev)
[ -f /usr/share/unifont/unifont.hex ] || need+=(unifont)
if [ "${1:-}" = "--tests" ]; then
  command -v tmux >/dev/null 2>&1 || need+=(tmux)
fi
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)

if [ ${#need[@]} -gt 0 ]; then
  echo "arcade setup: installing ${need[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
