#!/usr/bin/env bash
# Install the Debian packages listed in the given files (default: the assistant's own,
# scripts/debian-packages-runtime.txt, and the tests', scripts/debian-packages.txt) when
# some are missing. Needs apt-get and root (or sudo); elsewhere it says what is missing and
# carries on, and the end-to-end tests skip with that reason (they fail instead when
# CI=true).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lists=("$@")
[ ${#lists[@]} -eq 0 ] && lists=("$here/debian-packages-runtime.txt" "$here/debian-packages.txt")
mapfile -t wanted < <(cat "${lists[@]}" | grep -v '^\s*#' | grep -v '^\s*$')
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "Not a Debian-based system: install the equivalents of ${wanted[*]} yourself for the X11 tests."
    exit 0
fi
missing=()
for package in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo"
else
    echo "Missing Debian packages (install them as root): ${missing[*]}"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
