#!/usr/bin/env bash
# How one replica scales with cores: the server pinned (taskset) to 1, 2, 4, … cores, wrk pinned
# to the cores left, for SVG, 1024 px PNG and JSON codes of a different text each request (rate
# limit off, JSON access log on). Prints codes a second by cores and format, the codes a second
# of each core against one core's (1.00 is linear), non-2xx responses and the share of CPU the
# garbage collector took (GODEBUG=gctrace's running figure at the end of each server's run).
# Go sets GOMAXPROCS from the CPU affinity, so the pinned server runs that many threads.
#
#   bash bench/scaling.sh                      # needs wrk (apt-get install -y wrk), taskset, curl, go
#   CORES="1 2 4 8" DURATION=30s bash bench/scaling.sh
#
# Knobs: CORES [powers of two up to half the machine's cores], DURATION [20s], CONNECTIONS [128],
# FORMATS ["svg png json"], PORT [18084]. The figures in docs/deploying.md came from a 16-core
# machine with CORES="1 2 4 8"; on a 2-core machine only CORES=1 leaves wrk a core of its own.
set -euo pipefail

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench_dir")"
total=$(getconf _NPROCESSORS_ONLN)
duration="${DURATION:-20s}"
connections="${CONNECTIONS:-128}"
formats="${FORMATS:-svg png json}"
port="${PORT:-18084}"
if [ -z "${CORES:-}" ]; then
	CORES=1
	for n in 2 4 8 16 32; do [ $((n * 2)) -le "$total" ] && CORES="$CORES $n"; done
fi

for tool in wrk taskset curl go; do
	command -v "$tool" >/dev/null 2>&1 || { echo "scaling.sh: $tool not found (wrk: apt-get install -y wrk)" >&2; exit 2; }
done
tmp="$(mktemp -d)"
server=
stop_server() {
	if [ -n "$server" ]; then
		kill "$server" 2>/dev/null || true
		wait "$server" 2>/dev/null || true
		server=
	fi
}
trap 'stop_server; rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/bananaqr" ./cmd/bananaqr)

# path FORMAT prints the request of the wrk script for FORMAT, the text's number appended.
path() {
	case "$1" in
	svg) echo '/api/qr-code.svg?text=scaling-' ;;
	png) echo '/api/qr-code.png?size=1024&text=scaling-' ;;
	json) echo '/api/qr-code?format=json&text=scaling-' ;;
	esac
}

echo "# bananaqr scaling by cores"
echo
echo "- $(go version | cut -d' ' -f3-), $total cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- wrk -c $connections -d $duration on the cores the server does not have; rate limit off; JSON access log"
echo
echo "| cores | format | codes/s | per core | vs 1 core | non-2xx | GC CPU |"
echo "|---:|---|---:|---:|---:|---:|---:|"
declare -A one_core=()
for n in $CORES; do
	if [ "$n" -ge "$total" ]; then
		echo "scaling.sh: $n cores leave wrk none of the $total" >&2
		exit 2
	fi
	GODEBUG=gctrace=1 taskset -c "0-$((n - 1))" "$tmp/bananaqr" serve --addr "127.0.0.1:$port" --rate-limit 0 \
		--log-format json 2>"$tmp/serve-$n.log" >/dev/null &
	server=$!
	for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
	threads=$(((total - n) < 4 ? (total - n) : 4))
	declare -A rows=()
	for f in $formats; do
		cat >"$tmp/$f.lua" <<LUA
local n = 0
request = function()
	n = n + 1
	return wrk.format("GET", "$(path "$f")" .. n)
end
LUA
		taskset -c "$n-$((total - 1))" wrk -t "$threads" -c "$connections" -d "$duration" -s "$tmp/$f.lua" \
			"http://127.0.0.1:$port" >"$tmp/wrk-$n-$f.txt"
		rows[$f]="$(awk '/^Requests\/sec:/ {printf "%d", $2}' "$tmp/wrk-$n-$f.txt") $(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$tmp/wrk-$n-$f.txt")"
	done
	stop_server
	gc=$(grep -o '^gc [0-9]* @[0-9.]*s [0-9]*%' "$tmp/serve-$n.log" | tail -1 | awk '{print $4}')
	for f in $formats; do
		read -r rps non2xx <<<"${rows[$f]}"
		[ "$n" = 1 ] && one_core[$f]=$rps
		per=$((rps / n))
		ratio=$(awk -v p="$per" -v o="${one_core[$f]:-0}" 'BEGIN { if (o > 0) printf "%.2f", p / o; else print "-" }')
		echo "| $n | $f | $rps | $per | $ratio | ${non2xx:-0} | ${gc:-?} |"
	done
done
