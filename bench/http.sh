#!/usr/bin/env bash
# Load benchmark of the HTTP service with wrk, on loopback, and a Markdown report with
# PASS/FAIL targets.
#
# It builds and starts two servers:
#   - bench/cmd/barehttp, a bare net/http handler answering a constant 3 KB body (the
#     baseline), on 127.0.0.1:$BARE_PORT;
#   - bananaqr serve --rate-limit 0 --log-format json, on 127.0.0.1:$QR_PORT;
# and measures, with the same wrk settings and one short warm-up run each, the requests/s
# of the bare handler, of an SVG and of a 1024 px PNG QR code of
# https://example.com/products/12345?ref=newsletter. Then it loads bananaqr with 64
# connections of 2048 px PNGs for a few seconds, fires one burst of exactly 64 simultaneous
# curl requests, and reads the server's peak RSS (VmHWM).
#
# Targets: SVG >= 50% and PNG >= 25% of the bare handler's requests/s; no non-2xx/3xx
# response and no socket error in any run; peak RSS < 150 MB. The exit status is 1 if a
# target fails, 2 if the benchmark could not run.
#
# Environment knobs (defaults in brackets):
#   DURATION     length of each measured run, wrk -d                  [10s]
#   CONNECTIONS  connections of the measured runs, wrk -c             [32]
#   THREADS      wrk threads of the measured runs, wrk -t             [2]
#   BARE_PORT    port of the bare handler                             [18081]
#   QR_PORT      port of bananaqr serve                               [18082]
#
# The raw wrk output is saved to bench/http-results.txt (gitignored) and streamed to
# stderr; the report goes to stdout. Needs wrk (Debian: apt-get install wrk), curl and go.
set -euo pipefail

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench_dir")"

duration="${DURATION:-10s}"
connections="${CONNECTIONS:-32}"
threads="${THREADS:-2}"
bare_port="${BARE_PORT:-18081}"
qr_port="${QR_PORT:-18082}"

warmup_duration=2s     # each warm-up run
burst_duration=5s      # the 64-connection 2048 px PNG run
burst_connections=64   # connections of that run and curl requests of the burst
wrk_timeout=10s        # a response slower than this is a wrk timeout (a socket error)
rss_limit_mb=150

raw="$bench_dir/http-results.txt"

die() {
	echo "http.sh: $*" >&2
	exit 2
}

for tool in wrk curl go awk od; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool not found (wrk: apt-get install -y wrk)"
done

tmp="$(mktemp -d)"
pids=()   # the servers
wrk_pid=  # the wrk run under way, if any
cleanup() {
	local pid
	for pid in ${wrk_pid:+"$wrk_pid"} "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# port_busy PORT: whether something already accepts connections on 127.0.0.1:PORT.
port_busy() {
	(: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# wait_ready NAME PID URL LOG: waits up to 15 s for URL to answer 200, failing early if
# the server process dies.
wait_ready() {
	local name="$1" pid="$2" url="$3" log="$4" deadline=$((SECONDS + 15))
	until curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null; do
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "http.sh: $name exited before answering; its log:" >&2
			tail -n 20 "$log" >&2 || true
			exit 2
		fi
		if ((SECONDS >= deadline)); then
			echo "http.sh: $name did not answer $url within 15 s; its log:" >&2
			tail -n 20 "$log" >&2 || true
			exit 2
		fi
		sleep 0.1
	done
}

for port in "$bare_port" "$qr_port"; do
	if port_busy "$port"; then
		die "127.0.0.1:$port is already in use; free it or set BARE_PORT / QR_PORT"
	fi
done

echo "http.sh: building" >&2
(cd "$bench_dir" && go build -o "$tmp/barehttp" ./cmd/barehttp) || die "building bench/cmd/barehttp failed"
(cd "$root" && go build -o "$tmp/bananaqr" ./cmd/bananaqr) || die "building cmd/bananaqr failed"

bare="http://127.0.0.1:$bare_port"
qr="http://127.0.0.1:$qr_port"
target_url='https%3A%2F%2Fexample.com%2Fproducts%2F12345%3Fref%3Dnewsletter'
url_bare="$bare/"
url_svg="$qr/api/qr-code.svg?url=$target_url"
url_png="$qr/api/qr-code.png?url=$target_url"
url_png2048="$qr/api/qr-code.png?url=$target_url&size=2048"

"$tmp/barehttp" -addr "127.0.0.1:$bare_port" 2>"$tmp/barehttp.log" &
bare_pid=$!
pids+=("$bare_pid")
"$tmp/bananaqr" serve --addr "127.0.0.1:$qr_port" --rate-limit 0 --log-format json 2>"$tmp/serve.log" &
qr_pid=$!
pids+=("$qr_pid")

wait_ready barehttp "$bare_pid" "$url_bare" "$tmp/barehttp.log"
wait_ready "bananaqr serve" "$qr_pid" "$url_svg" "$tmp/serve.log"

# check_response NAME URL WANT_TYPE WANT_HEAD [PNG_WIDTH]: one request, to fail clearly
# before loading a URL that does not answer what is expected.
check_response() {
	local name="$1" url="$2" want_type="$3" want_head="$4" width="${5:-}" got
	got="$(curl -sS -o "$tmp/body" -w '%{http_code} %{content_type}' --max-time 10 "$url")" ||
		die "$name: request failed: $url"
	[[ "$got" == "200 $want_type"* ]] || die "$name: got '$got', want '200 $want_type': $url"
	head -c 512 "$tmp/body" | LC_ALL=C grep -aq -- "$want_head" ||
		die "$name: the body does not start as expected ($want_head): $url"
	if [[ -n "$width" ]]; then
		got="$(od -An -tu1 -j16 -N4 "$tmp/body" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')"
		[[ "$got" == "$width" ]] || die "$name: PNG is $got px wide, want $width: $url"
	fi
}
check_response bare "$url_bare" "text/plain" "0123456789abcdef"
[[ "$(wc -c <"$tmp/body")" -eq 3072 ]] || die "bare: body is not 3,072 bytes"
check_response svg "$url_svg" "image/svg+xml" "<svg"
check_response png "$url_png" "image/png" "PNG" 1024
check_response png2048 "$url_png2048" "image/png" "PNG" 2048

{
	echo "# bench/http.sh raw wrk output"
	echo "# go: $(go version)"
	echo "# wrk: $(wrk --version 2>&1 | head -n 1 || true)"
	echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo
} >"$raw"

# Per measured run: requests/s, latency percentiles, requests and errors, by run name.
declare -A rps p50 p99 requests non2xx sockerr
runs=()        # names of the measured runs, in order
total_errors=0 # non-2xx/3xx responses plus socket errors over every run, warm-ups included
error_notes=() # which runs had errors

# run_wrk NAME WARMUP(yes|no) THREADS CONNECTIONS DURATION URL: one wrk run, its raw
# output appended to the results file and stderr, its figures parsed.
run_wrk() {
	local name="$1" warmup="$2" t="$3" c="$4" d="$5" url="$6" out="$tmp/wrk.out"
	local -a args=(-t "$t" -c "$c" -d "$d" --timeout "$wrk_timeout" --latency "$url")
	{
		echo "== $name$([[ $warmup == yes ]] && echo ' (warm-up)'): wrk ${args[*]}"
	} | tee -a "$raw" >&2
	# In the background, so that an interrupt stops it at once (see cleanup).
	wrk "${args[@]}" >"$out" 2>&1 &
	wrk_pid=$!
	if ! wait "$wrk_pid"; then
		wrk_pid=
		cat "$out" >&2
		die "wrk failed on $name"
	fi
	wrk_pid=
	echo >>"$out"
	tee -a "$raw" <"$out" >&2

	local r n s q
	r="$(awk '/^Requests\/sec:/ {print $2}' "$out")"
	[[ -n "$r" ]] || die "no Requests/sec in wrk's output for $name"
	n="$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$out")"
	n="${n:-0}"
	s="$(awk '/Socket errors:/ {gsub(/,/, ""); print $4 + $6 + $8 + $10}' "$out")"
	s="${s:-0}"
	q="$(awk '/ requests in / {print $1}' "$out")"
	if ((n + s > 0)); then
		total_errors=$((total_errors + n + s))
		error_notes+=("$name$([[ $warmup == yes ]] && echo ' warm-up'): $n non-2xx/3xx, $s socket errors")
	fi
	[[ $warmup == yes ]] && return 0
	runs+=("$name")
	rps[$name]="$r"
	non2xx[$name]="$n"
	sockerr[$name]="$s"
	requests[$name]="${q:-?}"
	p50[$name]="$(awk '/Latency Distribution/ {f = 1; next} f && $1 == "50%" {print $2; exit}' "$out")"
	p99[$name]="$(awk '/Latency Distribution/ {f = 1; next} f && $1 == "99%" {print $2; exit}' "$out")"
}

start=$SECONDS
for spec in "bare|$url_bare" "svg|$url_svg" "png|$url_png"; do
	name="${spec%%|*}"
	url="${spec#*|}"
	run_wrk "$name" yes "$threads" "$connections" "$warmup_duration" "$url"
	run_wrk "$name" no "$threads" "$connections" "$duration" "$url"
done
run_wrk png2048-c64 no 2 "$burst_connections" "$burst_duration" "$url_png2048"

# One burst of exactly 64 simultaneous requests, each on its own connection.
echo "== curl burst: $burst_connections simultaneous requests of $url_png2048" | tee -a "$raw" >&2
seq "$burst_connections" |
	xargs -P "$burst_connections" -I{} curl -s -o /dev/null -w '%{http_code}\n' --max-time 30 "$url_png2048" \
		>"$tmp/burst.out" || true
burst_ok="$(grep -c '^2' "$tmp/burst.out" || true)"
burst_bad=$((burst_connections - burst_ok))
echo "$burst_ok of $burst_connections answered 2xx; codes: $(sort "$tmp/burst.out" | uniq -c | awk '{printf "%s×%s ", $1, $2}')" |
	tee -a "$raw" >&2
echo >>"$raw"
if ((burst_bad > 0)); then
	total_errors=$((total_errors + burst_bad))
	error_notes+=("curl burst: $burst_bad of $burst_connections not 2xx")
fi
elapsed=$((SECONDS - start))

# Peak RSS of the bananaqr server over its whole life, read after every run.
kill -0 "$qr_pid" 2>/dev/null || die "bananaqr serve died during the runs; see its log (removed with $tmp)"
hwm_kb="$(awk '/^VmHWM:/ {print $2}' "/proc/$qr_pid/status")"
[[ -n "$hwm_kb" ]] || die "no VmHWM in /proc/$qr_pid/status"
echo "== bananaqr serve VmHWM: $hwm_kb kB" | tee -a "$raw" >&2

# --- Report -------------------------------------------------------------------------------

fmt_rps() { awk -v x="$1" 'BEGIN {printf "%.0f", x}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a >= b)}'; }

verdict() { # verdict STATUS: PASS for 0, FAIL otherwise
	if (($1 == 0)); then echo PASS; else echo FAIL; fi
}

svg_ratio="$(ratio "${rps[svg]}" "${rps[bare]}")"
png_ratio="$(ratio "${rps[png]}" "${rps[bare]}")"
hwm_mb="$(awk -v k="$hwm_kb" 'BEGIN {printf "%.1f", k / 1024}')" # MiB, as /proc's kB are KiB
svg_ok=1 png_ok=1 err_ok=1 rss_ok=1 # 0 is a pass
if ge "$svg_ratio" 0.50; then svg_ok=0; fi
if ge "$png_ratio" 0.25; then png_ok=0; fi
if ((total_errors == 0)); then err_ok=0; fi
if ! ge "$hwm_mb" "$rss_limit_mb"; then rss_ok=0; fi
failed=0
((svg_ok + png_ok + err_ok + rss_ok == 0)) || failed=1

echo "# bananaqr HTTP benchmark"
echo
echo "- go: $(go version)"
echo "- wrk: $(wrk --version 2>&1 | head -n 1 | awk '{print $1, $2}')"
echo "- cpu: $( (grep -m1 'model name' /proc/cpuinfo 2>/dev/null || echo 'model name: unknown') | sed 's/^model name[[:space:]]*:[[:space:]]*//')"
echo "- cores: $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')"
echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "- rate runs: wrk -t $threads -c $connections -d $duration --timeout $wrk_timeout --latency, each after a $warmup_duration warm-up; wrk and the servers share the machine"
echo "- RSS run: wrk -t 2 -c $burst_connections -d $burst_duration of 2048 px PNGs, then $burst_connections simultaneous curl requests"
echo
echo "| run | URL | requests/s | p50 | p99 | requests | non-2xx/3xx | socket errors |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for name in "${runs[@]}"; do
	case "$name" in
	bare) u="barehttp GET / (3,072 B)" ;;
	svg) u="GET /api/qr-code.svg?url=…" ;;
	png) u="GET /api/qr-code.png?url=… (1024 px)" ;;
	*) u="GET /api/qr-code.png?url=…&size=2048, 64 connections" ;;
	esac
	echo "| $name | $u | $(fmt_rps "${rps[$name]}") | ${p50[$name]} | ${p99[$name]} | ${requests[$name]} | ${non2xx[$name]} | ${sockerr[$name]} |"
done
echo
echo "| target | measured | ratio | result |"
echo "|---|---|---:|---|"
echo "| SVG ≥ 50% of the bare handler's requests/s | $(fmt_rps "${rps[svg]}") vs $(fmt_rps "${rps[bare]}") req/s | $svg_ratio | $(verdict "$svg_ok") |"
echo "| PNG 1024 px ≥ 25% of the bare handler's requests/s | $(fmt_rps "${rps[png]}") vs $(fmt_rps "${rps[bare]}") req/s | $png_ratio | $(verdict "$png_ok") |"
echo "| zero errors (non-2xx/3xx, socket errors) in every run | $total_errors | — | $(verdict "$err_ok") |"
echo "| bananaqr peak RSS (VmHWM) < $rss_limit_mb MiB | $hwm_mb MiB | $(ratio "$hwm_mb" "$rss_limit_mb") | $(verdict "$rss_ok") |"
if ((${#error_notes[@]} > 0)); then
	echo
	echo "Errors:"
	for note in "${error_notes[@]}"; do
		echo "- $note"
	done
fi
echo
echo "Runs took $((elapsed / 60))m$((elapsed % 60))s (raw output: bench/http-results.txt)."

exit "$failed"
