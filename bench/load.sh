#!/usr/bin/env bash
# Sustained load on the HTTP service: wrk for $DURATION (60 s) with $CONNECTIONS (256)
# connections, a mix of SVG and 1024 px PNG codes of different texts (rate limit off), while the
# server's resident memory is sampled every second. Prints requests/s, p50/p99 latency,
# non-2xx responses, socket errors and the largest RSS seen, and checks the targets: zero
# non-2xx responses and socket errors, RSS under 150 MB throughout. Exit 1 when a target
# fails, 2 when the run could not be made.
#
#   bash bench/load.sh                 # needs wrk (Debian: apt-get install wrk), curl, go
#   DURATION=10s bash bench/load.sh    # shorter
#
# Knobs: DURATION [60s], CONNECTIONS [256], THREADS [2], PORT [18083]. Loopback only.
set -euo pipefail

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench_dir")"
duration="${DURATION:-60s}"
connections="${CONNECTIONS:-256}"
threads="${THREADS:-2}"
port="${PORT:-18083}"
rss_limit_mb=150

for tool in wrk curl go; do
	command -v "$tool" >/dev/null 2>&1 || { echo "load.sh: $tool not found (wrk: apt-get install -y wrk)" >&2; exit 2; }
done
if (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
	echo "load.sh: port $port is busy (PORT=… picks another)" >&2
	exit 2
fi

tmp="$(mktemp -d)"
server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

(cd "$root" && go build -o "$tmp/bananaqr" ./cmd/bananaqr)
"$tmp/bananaqr" serve --addr "127.0.0.1:$port" --rate-limit 0 --log-format json 2>"$tmp/serve.log" &
server=$!
for _ in $(seq 150); do
	curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
	sleep 0.1
done
curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || { echo "load.sh: the server did not start" >&2; exit 2; }

# The mix: SVG and PNG, alternating, each request a different text.
cat >"$tmp/mix.lua" <<'EOF'
local n = 0
request = function()
	n = n + 1
	local format = (n % 2 == 0) and "svg" or "png"
	return wrk.format("GET", "/api/qr-code." .. format .. "?text=load-test-" .. n .. "&corners=" .. ((n % 3 == 0) and "rounded" or "square"))
end
EOF

wrk -t "$threads" -c "$connections" -d "$duration" --timeout 10s --latency -s "$tmp/mix.lua" \
	"http://127.0.0.1:$port" | tee "$bench_dir/load-results.txt" >"$tmp/wrk.txt"

rps=$(awk '/^Requests\/sec:/ {print $2}' "$tmp/wrk.txt")
p50=$(awk '$1 == "50%" {print $2}' "$tmp/wrk.txt")
p99=$(awk '$1 == "99%" {print $2}' "$tmp/wrk.txt")
non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$tmp/wrk.txt")
sockerr=$(awk '/Socket errors:/ {s = 0; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) s += $i; print s}' "$tmp/wrk.txt")
peak_kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$server/status") # the kernel's peak RSS of the process
peak_mb=$(awk -v k="$peak_kb" 'BEGIN {printf "%.1f", k / 1024}')

echo "# bananaqr load test"
echo
echo "- $(go version | cut -d' ' -f3-), $(getconf _NPROCESSORS_ONLN) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- wrk -t $threads -c $connections -d $duration, SVG and 1024 px PNG alternating (a third rounded), rate limit off"
echo
echo "| requests/s | p50 | p99 | non-2xx | socket errors | peak RSS |"
echo "|---:|---:|---:|---:|---:|---:|"
echo "| $rps | $p50 | $p99 | ${non2xx:-0} | ${sockerr:-0} | $peak_mb MiB |"
echo
status=0
if [ "${non2xx:-0}" -eq 0 ] && [ "${sockerr:-0}" -eq 0 ]; then echo "- PASS zero errors"; else echo "- FAIL errors: ${non2xx:-0} non-2xx, ${sockerr:-0} socket"; status=1; fi
if [ "$peak_kb" -lt $((rss_limit_mb * 1024)) ]; then echo "- PASS peak RSS $peak_mb MiB < $rss_limit_mb MB"; else echo "- FAIL peak RSS $peak_mb MiB"; status=1; fi
exit $status
