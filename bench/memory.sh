#!/usr/bin/env bash
# Memory under batches of large codes (issue 26, item 2): bananaqr serve, 64 callers at once each
# POSTing a batch of 60 version 40 codes with rounded corners as EPS, then as PDF (the largest
# files the service makes, some 850 KB each), and the server's peak resident memory (VmHWM in
# /proc/PID/status, over its whole life), which must stay under 150 MiB.
#
#   bash bench/memory.sh            # full run: 64 callers x 60 codes x (EPS, PDF), a few minutes
#   bash bench/memory.sh --quick    # test.sh: 64 callers x 8 codes x (EPS, PDF), about 15 s
#   CALLERS=32 CODES=60 FORMATS=eps bash bench/memory.sh -- --max-active 1   # flags after -- go to serve
#
# Each caller sends from an address of its own on loopback, 127.<format>.<n/200>.<n%200+1>, one
# per format, so that each address asks for CODES codes (at most 60: within the default rate
# limit of 60 a minute, which stays on). A 200 must be a whole ZIP archive of CODES files, each
# read back with its CRC-32; a 503 must be OVERLOADED with a Retry-After of a second or more,
# which the caller waits out before sending the batch again (its codes were given back: a 429
# afterwards would fail the run); anything else fails the run. bench/cmd/memload does the work.
#
# Knobs: CALLERS [64], CODES [60; 8 with --quick], FORMATS [eps,pdf], LIMIT_MIB [150],
# PORT [18086], DEADLINE [10m]. Needs go. Exit status: 0 pass, 1 fail, 2 could not run.
set -euo pipefail

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench_dir")"

quick=0
serve_args=()
while (($#)); do
	case "$1" in
	--quick) quick=1 ;;
	--) shift; serve_args=("$@"); break ;;
	-h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
	*) echo "memory.sh: unknown argument $1 (usage: bash bench/memory.sh [--quick] [-- serve flags])" >&2; exit 2 ;;
	esac
	shift
done
codes="${CODES:-60}"
((quick)) && codes="${CODES:-8}"
port="${PORT:-18086}"
if (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
	echo "memory.sh: port $port is busy (PORT=… picks another)" >&2
	exit 2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/bananaqr" ./cmd/bananaqr) || { echo "memory.sh: building cmd/bananaqr failed" >&2; exit 2; }
(cd "$bench_dir" && go build -o "$tmp/memload" ./cmd/memload) || { echo "memory.sh: building bench/cmd/memload failed" >&2; exit 2; }
"$tmp/memload" -bananaqr "$tmp/bananaqr" -addr "127.0.0.1:$port" -callers "${CALLERS:-64}" -codes "$codes" \
	-formats "${FORMATS:-eps,pdf}" -limit-mib "${LIMIT_MIB:-150}" -deadline "${DEADLINE:-10m}" -- "${serve_args[@]}"
