#!/usr/bin/env bash
# The scan benchmark: how often zxing-cpp, zbar and OpenCV's WeChat detector read bananaqr's codes
# (and plain libqrencode and segno codes of the same payloads) under simulated camera conditions.
# Usage: bash bench/scan/run.sh [--quick] [--reps N] [--styles a,b] [--json FILE]
# Needs Debian's python3-opencv python3-zxing-cpp python3-pyzbar python3-numpy python3-pil
# python3-segno qrencode. About 4 minutes on 2 cores with the defaults; --quick takes seconds.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
(cd "$here/.." && go build -o "$bin/scancodes" ./cmd/scancodes) # in the bench module
/usr/bin/python3 "$here/scan.py" --codes "$bin/scancodes" "$@"
