#!/usr/bin/env bash
# Runs the side-by-side QR benchmarks and prints a Markdown report.
#
# Environment knobs (defaults in brackets):
#   BENCH      benchmark regexp passed to -bench        [.]
#   COUNT      number of runs of every benchmark        [7]
#   BENCHTIME  time per run, passed to -benchtime       [1s]
#
# The raw `go test` output is saved to bench/results.txt (gitignored).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

bench="${BENCH:-.}"
count="${COUNT:-7}"
benchtime="${BENCHTIME:-1s}"

echo "# bananaqr benchmarks"
echo
echo "- go: $(go version)"
echo "- cpu: $( (grep -m1 'model name' /proc/cpuinfo 2>/dev/null || echo 'model name: unknown') | sed 's/^model name[[:space:]]*:[[:space:]]*//')"
echo "- cores: $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')"
echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "- command: go test -run '^\$' -bench '${bench}' -benchmem -count ${count} -benchtime ${benchtime} ."
echo

start=$SECONDS
# Raw output goes to results.txt and, for progress, to stderr.
if ! go test -run '^$' -bench "${bench}" -benchmem -count "${count}" -benchtime "${benchtime}" . 2>&1 |
	tee results.txt >&2; then
	echo "run.sh: go test failed; raw output in bench/results.txt" >&2
	exit 1
fi
elapsed=$((SECONDS - start))

echo
go run ./cmd/benchreport <results.txt
echo
echo "Benchmarks took $((elapsed / 60))m$((elapsed % 60))s (raw output: bench/results.txt)."
