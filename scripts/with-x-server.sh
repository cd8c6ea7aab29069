#!/usr/bin/env bash
# Run a command on a fresh virtual X server with a window manager and a compositor
# (as tests/x11.py does): Xvfb alone maps no windows the way a desktop does, so the
# stand-in window of bench-live would never be found.
#   scripts/with-x-server.sh toa-assistant bench-live
set -euo pipefail
for cmd in Xvfb openbox; do
    command -v "$cmd" >/dev/null || { echo "$0: $cmd is missing (make system-deps)" >&2; exit 2; }
done
number=71
while [ -e "/tmp/.X${number}-lock" ] || [ -e "/tmp/.X11-unix/X${number}" ]; do
    number=$((number + 1))
done
Xvfb ":${number}" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
pids=($!)
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
for _ in $(seq 200); do [ -e "/tmp/.X11-unix/X${number}" ] && break; sleep 0.05; done
export DISPLAY=":${number}" QT_QPA_PLATFORM=xcb
openbox >/dev/null 2>&1 &
pids+=($!)
if command -v xcompmgr >/dev/null; then xcompmgr >/dev/null 2>&1 & pids+=($!); fi
sleep 0.8
"$@"
