#!/usr/bin/env bash
# What one JSON-RPC batch costs each MCP server (issue 26, item 1): the expenses server's RSS
# after a batch of 15,000 tools/list (830 KB, no token), and the QR service's after 32 batches
# of 1,150 tools/list (63 KB each) sent at once; with each answer's status, size and time.
# Both servers refuse batches (400, MCP 2025-06-18 removed them; the expenses server's 754 KB
# one is over its 128 KiB bound, 413), so their RSS should not move.
#
#   bash bench/mcp-batch.sh                          # builds ./cmd/bananaqr
#   BIN=/tmp/bananaqr.old bash bench/mcp-batch.sh    # another build, such as one from before
#
# Needs bash, curl and python3; ports EXPENSES_PORT [18090] and QR_PORT [18091] on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
EXPENSES_PORT=${EXPENSES_PORT:-18090}
QR_PORT=${QR_PORT:-18091}
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
if [[ -z ${BIN:-} ]]; then
	BIN=$work/bananaqr
	go build -o "$BIN" ./cmd/bananaqr
fi

# rss PID prints the process's resident and peak resident memory in MB.
rss() { awk '/^VmRSS|^VmHWM/ {printf "%s %.1f MB  ", $1, $2/1024}' "/proc/$1/status"; echo; }

# batch N prints a JSON-RPC batch of N tools/list requests.
batch() { python3 -c 'import sys; n=int(sys.argv[1]); print("[" + ",".join("{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/list\"}" % i for i in range(n)) + "]")' "$1"; }

# post URL FILE posts FILE as an MCP client does, and prints status, bytes and seconds.
post() {
	curl -s -o /dev/null -m 120 -w '%{http_code} %{size_download} bytes %{time_total} s\n' -X POST "$1" \
		-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' --data-binary @"$2" || echo "curl failed ($?)"
}

# wait_port PORT waits until something listens on 127.0.0.1:PORT.
wait_port() { for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$1/" && return; sleep 0.1; done; echo "nothing on $1" >&2; exit 1; }

batch 15000 >"$work/expenses.json"
batch 1150 >"$work/qr.json"
echo "batches: expenses $(wc -c <"$work/expenses.json") bytes, QR $(wc -c <"$work/qr.json") bytes"

"$BIN" expenses serve --addr "127.0.0.1:$EXPENSES_PORT" --db "$work/e.db" 2>"$work/expenses.log" &
pids+=($!)
wait_port "$EXPENSES_PORT"
echo "expenses, before:  $(rss "${pids[0]}")"
echo "expenses, 15,000 tools/list: $(post "http://127.0.0.1:$EXPENSES_PORT/mcp" "$work/expenses.json")"
echo "expenses, after:   $(rss "${pids[0]}")"

"$BIN" serve --addr "127.0.0.1:$QR_PORT" --rate-limit 0 2>"$work/qr.log" &
pids+=($!)
wait_port "$QR_PORT"
echo "QR, before:        $(rss "${pids[1]}")"
for _ in $(seq 32); do post "http://127.0.0.1:$QR_PORT/mcp" "$work/qr.json" >>"$work/qr.out" & done
wait_qr=$(jobs -p | grep -v -e "${pids[0]}" -e "${pids[1]}" || true)
[[ -n $wait_qr ]] && wait $wait_qr
echo "QR, 32 x 1,150 tools/list at once: $(awk '{n[$1" "$2" "$3]++; if ($4 > t) t = $4} END {for (k in n) printf "%d x %s, ", n[k], k; printf "slowest %s s\n", t}' "$work/qr.out")"
echo "QR, after:         $(rss "${pids[1]}")"
