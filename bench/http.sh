#!/usr/bin/env bash
# Load benchmark of the HTTP service with wrk, on loopback: throughput relative to a bare
# net/http handler, the server's CPU time per request, the cost of the rate limit, errors and
# peak memory, with a Markdown report of PASS/FAIL targets. One script of over 400 lines on
# purpose: it runs as it is on any machine with bash, wrk and curl, with nothing to install.
#
#   bash bench/http.sh              # full run: 3 rounds of 8 s runs, a few minutes
#   bash bench/http.sh --quick      # CI: 1 round of 1 s runs; judges errors and RSS only
#   BASELINE=/tmp/bananaqr.old bash bench/http.sh   # A/B against another build, side by side
#
# Servers, built (or given) and started once, each on 127.0.0.1:
#   bare      bench/cmd/barehttp, a bare net/http handler answering a constant 3,072-byte
#             text/plain body: the yardstick, on $BARE_PORT;
#   off       bananaqr serve --rate-limit 0 --log-format json, on $QR_PORT;
#   on        bananaqr serve --rate-limit 100000000 --log-format json (the in-memory limit,
#             with a budget large enough never to refuse), on $QR_LIMITED_PORT;
#   baseline  only with BASELINE=/path/to/bananaqr: that binary, served like "off", on
#             $BASELINE_PORT; reported in columns of its own and never judged.
# Each bananaqr server's stderr (its JSON access log) goes to a file in a temporary directory.
# Every URL is checked once (status 200, content type, body) before it is loaded.
#
# Runs: every measured run is wrk -t $THREADS -c $CONNECTIONS -d $DURATION --timeout 10s
# --latency, preceded by a warm-up run of the same URL (2 s; counted for errors only). A round
# is one such run of the bare handler and of each format on each bananaqr server:
#   svg   GET /api/qr-code.svg?url=…
#   png   GET /api/qr-code.png?url=…&size=1024
#   json  GET /api/qr-code?url=…&format=json
# (url = https://example.com/products/12345?ref=newsletter). In a round the runs of one format
# on the different servers follow each other, and both the order of the formats (the bare run
# counting as one) and that of the servers within a format rotate from round to round, so that
# drift over time (a neighbour on the machine, thermal throttling) does not favour one run. Every ratio is taken against the bare handler's requests/s of the
# same round, and the figures judged are the medians over the rounds of those per-round ratios.
#
# Beside each requests/s figure: the server's own CPU time per request, the steadier figure on
# a shared machine: utime+stime of the server process (fields 14 and 15 of /proc/PID/stat, all
# its threads, in clock ticks of getconf CLK_TCK) read just before and just after the measured
# run, the delta in µs divided by the requests wrk counted in that run. The tick counts of
# every run are in the raw output, to check the arithmetic by hand.
#
# Then, on each bananaqr server: a 5 s run of 2048 px PNGs with 64 connections, one burst of
# exactly 64 simultaneous curl requests of the same, and the server's peak RSS (VmHWM in
# /proc/PID/status, over its whole life).
#
# Targets (rate limit off, median of the per-round ratios to the bare handler):
#   svg >= 0.65, png >= 0.40, json >= 0.30;
#   rate limit on within 5 % of off: median of the per-round on/off ratios >= 0.95 per format;
#   zero errors: no non-2xx/3xx response and no socket error in any run, warm-ups, the 2048 px
#     runs and the curl bursts (all 2xx) included;
#   peak RSS of the "off" and "on" servers < 150 MiB.
# --quick (for CI, whose machines are too noisy for ratios) defaults to ROUNDS=1 and
# DURATION=1s (the environment still wins) with 0.5 s warm-ups, prints the ratios without
# judging them and judges errors and RSS only.
#
# Environment knobs (defaults in brackets; --quick changes the first two and the warm-up):
#   ROUNDS           rounds of interleaved runs                                      [3]
#   DURATION         length of each measured run, wrk -d (whole seconds, or m, h)    [8s]
#   CONNECTIONS      connections of the measured runs, wrk -c                        [64]
#   THREADS          wrk threads of the measured runs, wrk -t                        [2]
#   BARE_PORT        port of barehttp                                                [18081]
#   QR_PORT          port of bananaqr serve, rate limit off                          [18082]
#   QR_LIMITED_PORT  port of bananaqr serve, rate limit on                           [18084]
#   BASELINE         another bananaqr binary to compare with                         [none]
#   BASELINE_PORT    its port                                                        [18085]
# (18083 is left to bench/load.sh.)
#
# Output: the Markdown report on stdout; one progress line a run on stderr; the raw wrk output
# of every run, warm-ups included, with the CPU tick counts, in bench/http-results.txt
# (gitignored). Exit status: 0 if every judged target passes, 1 if one fails, 2 if the
# benchmark could not run (missing tool, busy port, build failure, a server that does not
# start, answers wrongly or dies, wrk failing). Needs wrk (Debian: apt-get install wrk), curl,
# go, awk, od, getconf and timeout.
set -euo pipefail

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench_dir")"

die() {
	echo "http.sh: $*" >&2
	exit 2
}

quick=0
for arg in "$@"; do
	case "$arg" in
	--quick) quick=1 ;;
	-h | --help)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
		exit 0
		;;
	*) die "unknown argument $arg (usage: bash bench/http.sh [--quick])" ;;
	esac
done

if ((quick)); then
	rounds="${ROUNDS:-1}"
	duration="${DURATION:-1s}"
	warmup_duration=0.5s
else
	rounds="${ROUNDS:-3}"
	duration="${DURATION:-8s}"
	warmup_duration=2s
fi
connections="${CONNECTIONS:-64}"
threads="${THREADS:-2}"
bare_port="${BARE_PORT:-18081}"
qr_port="${QR_PORT:-18082}"
qr_limited_port="${QR_LIMITED_PORT:-18084}"
baseline="${BASELINE:-}"
baseline_port="${BASELINE_PORT:-18085}"

rate_limit_on=100000000 # codes a minute: never refuses, but every request goes through the limit
rss_duration=5s         # each 2048 px PNG run
rss_connections=64      # connections of that run and curl requests of the burst
wrk_timeout=10s         # a response slower than this is a wrk timeout (a socket error)
rss_limit_mb=150
on_off_min=0.95 # rate limit on / off
declare -A target=([svg]=0.65 [png]=0.40 [json]=0.30)
formats=(svg png json)

raw="$bench_dir/http-results.txt"

[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$rounds'"
[[ "$duration" =~ ^[1-9][0-9]*[smh]?$ ]] || die "DURATION must be whole seconds, minutes or hours for wrk (8s, 1m), not '$duration'"
for tool in wrk curl go awk od getconf timeout; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool not found (wrk: apt-get install -y wrk)"
done
clk_tck="$(getconf CLK_TCK)"
[[ "$clk_tck" =~ ^[1-9][0-9]*$ ]] || die "getconf CLK_TCK gave '$clk_tck'"
if [[ -n "$baseline" ]]; then
	[[ -f "$baseline" && -x "$baseline" ]] || die "BASELINE=$baseline is not an executable file"
	baseline="$(cd "$(dirname "$baseline")" && pwd)/$(basename "$baseline")"
fi

tmp="$(mktemp -d)"
pids=()   # the servers
wrk_pid=  # the wrk run under way, if any
cleanup() {
	local pid
	for pid in ${wrk_pid:+"$wrk_pid"} "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in ${wrk_pid:+"$wrk_pid"} "${pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- Servers ------------------------------------------------------------------------------

# port_busy PORT: whether something already accepts connections on 127.0.0.1:PORT.
port_busy() {
	(: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

servers=(off on) # the bananaqr servers, in the order of their runs within a format
[[ -n "$baseline" ]] && servers+=(baseline)
declare -A port=([bare]="$bare_port" [off]="$qr_port" [on]="$qr_limited_port" [baseline]="$baseline_port")
declare -A pid  # by server
declare -A base # http://127.0.0.1:PORT by server
for s in bare "${servers[@]}"; do
	base[$s]="http://127.0.0.1:${port[$s]}"
	port_busy "${port[$s]}" &&
		die "127.0.0.1:${port[$s]} is already in use; free it or set BARE_PORT / QR_PORT / QR_LIMITED_PORT / BASELINE_PORT"
done
[[ "$(printf '%s\n' "${port[@]}" | sort -u | wc -l)" -eq "${#port[@]}" ]] || die "two servers share a port"

echo "http.sh: building" >&2
(cd "$bench_dir" && go build -o "$tmp/barehttp" ./cmd/barehttp) || die "building bench/cmd/barehttp failed"
(cd "$root" && go build -o "$tmp/bananaqr" ./cmd/bananaqr) || die "building cmd/bananaqr failed"

# start_server NAME COMMAND...: starts a server in the background, its stderr to
# $tmp/NAME.log, and records its process id in pid[NAME]. The command is exec'd by the
# background shell, so the id is that of the server itself (whose /proc/PID is read).
start_server() {
	local name="$1"
	shift
	"$@" 2>"$tmp/$name.log" &
	pid[$name]=$!
	pids+=("$!")
}

# wait_ready NAME URL: waits up to 15 s for URL to answer 200, failing early if the server
# process dies.
wait_ready() {
	local name="$1" url="$2" deadline=$((SECONDS + 15))
	until curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null; do
		if ! kill -0 "${pid[$name]}" 2>/dev/null; then
			echo "http.sh: server $name exited before answering; its log:" >&2
			tail -n 20 "$tmp/$name.log" >&2 || true
			exit 2
		fi
		if ((SECONDS >= deadline)); then
			echo "http.sh: server $name did not answer $url within 15 s; its log:" >&2
			tail -n 20 "$tmp/$name.log" >&2 || true
			exit 2
		fi
		sleep 0.1
	done
}

start_server bare "$tmp/barehttp" -addr "127.0.0.1:$bare_port"
start_server off "$tmp/bananaqr" serve --addr "127.0.0.1:$qr_port" --rate-limit 0 --log-format json
start_server on "$tmp/bananaqr" serve --addr "127.0.0.1:$qr_limited_port" --rate-limit "$rate_limit_on" --log-format json
if [[ -n "$baseline" ]]; then
	start_server baseline "$baseline" serve --addr "127.0.0.1:$baseline_port" --rate-limit 0 --log-format json
fi

target_url='https%3A%2F%2Fexample.com%2Fproducts%2F12345%3Fref%3Dnewsletter'
declare -A path=(
	[svg]="/api/qr-code.svg?url=$target_url"
	[png]="/api/qr-code.png?url=$target_url&size=1024"
	[json]="/api/qr-code?url=$target_url&format=json"
	[png2048]="/api/qr-code.png?url=$target_url&size=2048"
)
# url RUN: the URL a run loads; RUN is "bare" or SERVER:FORMAT (off:svg, on:png2048, …).
url() {
	if [[ "$1" == bare ]]; then
		echo "${base[bare]}/"
	else
		echo "${base[${1%%:*}]}${path[${1#*:}]}"
	fi
}

wait_ready bare "$(url bare)"
for s in "${servers[@]}"; do
	wait_ready "$s" "$(url "$s:svg")"
done

# check_response NAME URL WANT_TYPE WANT_BODY [PNG_WIDTH]: one request, to fail clearly
# before loading a URL that does not answer what is expected: status 200, a Content-Type
# starting with WANT_TYPE, WANT_BODY (a fixed string) in the first 4 KiB of the body and, for
# a PNG, its width.
check_response() {
	local name="$1" url="$2" want_type="$3" want_body="$4" width="${5:-}" got
	got="$(curl -sS -o "$tmp/body" -w '%{http_code} %{content_type}' --max-time 10 "$url")" ||
		die "$name: request failed: $url"
	[[ "$got" == "200 $want_type"* ]] || die "$name: got '$got', want '200 $want_type': $url"
	head -c 4096 "$tmp/body" | LC_ALL=C grep -aqF -- "$want_body" ||
		die "$name: the body does not contain $want_body: $url"
	if [[ -n "$width" ]]; then
		got="$(od -An -tu1 -j16 -N4 "$tmp/body" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')"
		[[ "$got" == "$width" ]] || die "$name: PNG is $got px wide, want $width: $url"
	fi
}
check_response bare "$(url bare)" "text/plain" "0123456789abcdef"
[[ "$(wc -c <"$tmp/body")" -eq 3072 ]] || die "bare: body is not 3,072 bytes"
for s in "${servers[@]}"; do
	check_response "$s:svg" "$(url "$s:svg")" "image/svg+xml" "<svg"
	check_response "$s:png" "$(url "$s:png")" "image/png" "PNG" 1024
	check_response "$s:json" "$(url "$s:json")" "application/json" '"ok":true'
	check_response "$s:png2048" "$(url "$s:png2048")" "image/png" "PNG" 2048
done

# --- Runs ---------------------------------------------------------------------------------

{
	echo "# bench/http.sh raw wrk output"
	echo "# go: $(go version)"
	echo "# wrk: $(wrk --version 2>&1 | head -n 1 || true)"
	echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "# CLK_TCK: $clk_tck ticks a second"
	for s in bare "${servers[@]}"; do
		echo "# server $s: pid ${pid[$s]}, ${base[$s]}"
	done
	echo
} >"$raw"

# cpu_ticks PID: the CPU time the process has used, user plus system, all its threads, in
# clock ticks: fields 14 (utime) and 15 (stime) of /proc/PID/stat. The fields are counted
# after the command name, which is in parentheses and may hold spaces: field 3 is f[0].
cpu_ticks() {
	local stat f
	stat="$(<"/proc/$1/stat")" || die "cannot read /proc/$1/stat (did the server die?)"
	read -r -a f <<<"${stat##*) }"
	echo $((f[11] + f[12]))
}

total_errors=0 # non-2xx/3xx responses plus socket errors over every run, warm-ups included
error_notes=() # which runs had errors

# Figures of the last run_wrk.
last_rps= last_requests= last_cpu_us=

# run_wrk LABEL WARMUP(yes|no) SERVER THREADS CONNECTIONS DURATION URL: one wrk run, its raw
# output appended to the results file, its errors added to total_errors, and, for a measured
# run, its requests/s, request count and the server's CPU µs a request in last_*. A duration
# wrk cannot take (under a second: 0.5s) runs wrk for longer and stops it with SIGINT, after
# which wrk prints its figures as usual.
run_wrk() {
	local label="$1" warmup="$2" server="$3" t="$4" c="$5" d="$6" url="$7" out="$tmp/wrk.out"
	local -a cmd=(wrk -t "$t" -c "$c" -d "$d" --timeout "$wrk_timeout" --latency "$url")
	if [[ ! "$d" =~ ^[0-9]+[smh]?$ ]]; then
		cmd=(timeout --preserve-status -s INT "$d" wrk -t "$t" -c "$c" -d 10s --timeout "$wrk_timeout" --latency "$url")
	fi
	echo "== $label$([[ $warmup == yes ]] && echo ' (warm-up)'): ${cmd[*]}" >>"$raw"

	local ticks0 ticks1
	ticks0="$(cpu_ticks "${pid[$server]}")"
	# In the background, so that an interrupt stops it at once (see cleanup).
	"${cmd[@]}" >"$out" 2>&1 &
	wrk_pid=$!
	if ! wait "$wrk_pid"; then
		wrk_pid=
		cat "$out" >&2
		die "wrk failed on $label"
	fi
	wrk_pid=
	ticks1="$(cpu_ticks "${pid[$server]}")"
	cat "$out" >>"$raw"

	local r n s q
	r="$(awk '/^Requests\/sec:/ {print $2}' "$out")"
	q="$(awk '/ requests in / {print $1}' "$out")"
	[[ -n "$r" && "$q" =~ ^[0-9]+$ ]] || die "no Requests/sec or request count in wrk's output for $label"
	n="$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$out")"
	n="${n:-0}"
	s="$(awk '/Socket errors:/ {gsub(/,/, ""); print $4 + $6 + $8 + $10}' "$out")"
	s="${s:-0}"
	if ((n + s > 0)); then
		total_errors=$((total_errors + n + s))
		error_notes+=("$label$([[ $warmup == yes ]] && echo ' (warm-up)'): $n non-2xx/3xx, $s socket errors")
	fi
	((q > 0)) || die "no request answered in $label"

	last_rps="$r"
	last_requests="$q"
	last_cpu_us="$(awk -v d=$((ticks1 - ticks0)) -v hz="$clk_tck" -v q="$q" 'BEGIN {printf "%.1f", d * 1e6 / hz / q}')"
	{
		echo "server $server CPU (utime+stime): $ticks0 -> $ticks1 ticks, delta $((ticks1 - ticks0)) ticks" \
			"/ $clk_tck ticks/s = $(awk -v d=$((ticks1 - ticks0)) -v hz="$clk_tck" 'BEGIN {printf "%.2f", d / hz}') s" \
			"over $q requests = $last_cpu_us µs/request"
		echo
	} >>"$raw"
	if [[ $warmup == yes ]]; then
		echo "http.sh: $label warm-up: $(printf '%.0f' "$r") req/s, $((n + s)) errors" >&2
	else
		echo "http.sh: $label: $(printf '%.0f' "$r") req/s, $last_cpu_us µs CPU/request, $((n + s)) errors" >&2
	fi
}

# A round: the bare handler, then each format in turn on every bananaqr server. The runs of a
# format on the different servers stay next to each other, so that their ratios (rate limit
# on/off, off/baseline) compare runs a few seconds apart; the order of the groups rotates by
# an even share from round to round (each comes early, in the middle and late), and so does
# the order of the servers within a group (none is always first).
groups=(bare "${formats[@]}")
n_groups=${#groups[@]}
n_servers=${#servers[@]}

# Figures by "ROUND RUN" (round from 1): requests/s, requests, CPU µs a request.
declare -A rps requests cpu_us
round_order=() # the order of each round's runs, for the report
start=$SECONDS
for ((r = 1; r <= rounds; r++)); do
	shift_by=$(((r - 1) * n_groups / rounds))
	order=()
	for g in "${groups[@]:shift_by}" "${groups[@]:0:shift_by}"; do
		if [[ $g == bare ]]; then
			order+=(bare)
			continue
		fi
		for ((k = 0; k < n_servers; k++)); do
			order+=("${servers[(k + r - 1) % n_servers]}:$g")
		done
	done
	echo "http.sh: round $r of $rounds: ${order[*]}" >&2
	round_order[$r]="${order[*]}"
	echo "#### round $r of $rounds: ${order[*]}" >>"$raw"
	echo >>"$raw"
	for item in "${order[@]}"; do
		server="${item%%:*}"
		run_wrk "round $r $item" yes "$server" "$threads" "$connections" "$warmup_duration" "$(url "$item")"
		run_wrk "round $r $item" no "$server" "$threads" "$connections" "$duration" "$(url "$item")"
		rps["$r $item"]="$last_rps"
		requests["$r $item"]="$last_requests"
		cpu_us["$r $item"]="$last_cpu_us"
	done
done

# Memory: on each bananaqr server, 64 connections of 2048 px PNGs, then one burst of exactly
# 64 simultaneous requests, each on its own connection, then the peak RSS.
declare -A hwm_mb # by server, MiB (/proc's kB are KiB)
for s in "${servers[@]}"; do
	u="$(url "$s:png2048")"
	run_wrk "$s:png2048 -c $rss_connections" no "$s" 2 "$rss_connections" "$rss_duration" "$u"
	echo "== curl burst on $s: $rss_connections simultaneous requests of $u" >>"$raw"
	seq "$rss_connections" |
		xargs -P "$rss_connections" -I{} curl -s -o /dev/null -w '%{http_code}\n' --max-time 30 "$u" \
			>"$tmp/burst.out" || true
	burst_ok="$(grep -c '^2' "$tmp/burst.out" || true)"
	burst_bad=$((rss_connections - burst_ok))
	echo "$burst_ok of $rss_connections answered 2xx; codes: $(sort "$tmp/burst.out" | uniq -c | awk '{printf "%s×%s ", $1, $2}')" >>"$raw"
	echo "http.sh: curl burst on $s: $burst_ok of $rss_connections answered 2xx" >&2
	if ((burst_bad > 0)); then
		total_errors=$((total_errors + burst_bad))
		error_notes+=("curl burst on $s: $burst_bad of $rss_connections not 2xx")
	fi
	kill -0 "${pid[$s]}" 2>/dev/null || die "server $s died during the runs"
	hwm_kb="$(awk '/^VmHWM:/ {print $2}' "/proc/${pid[$s]}/status")"
	[[ -n "$hwm_kb" ]] || die "no VmHWM in /proc/${pid[$s]}/status"
	hwm_mb[$s]="$(awk -v k="$hwm_kb" 'BEGIN {printf "%.1f", k / 1024}')"
	echo "== server $s VmHWM: $hwm_kb kB" >>"$raw"
	echo >>"$raw"
done
for s in bare "${servers[@]}"; do
	kill -0 "${pid[$s]}" 2>/dev/null || die "server $s died during the runs"
done
elapsed=$((SECONDS - start))

# --- Report -------------------------------------------------------------------------------

fmt0() { awk -v x="$1" 'BEGIN {printf "%.0f", x}'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a >= b)}'; }
# median X...: the middle value (the mean of the two middle ones for an even count).
median() {
	printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
		if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# one_dec X: X with one decimal (the CPU µs figures).
one_dec() { awk -v x="$1" 'BEGIN {printf "%.1f", x}'; }

failed=0
# judge OK(0|1) [JUDGED(yes|no)]: sets verdict to PASS or FAIL for a judged target,
# recording a failure in failed, or to "not judged" (the ratios in --quick mode). Not to be
# called in a $(…) subshell, where failed would be lost.
verdict=
judge() {
	local ok="$1" judged="${2:-yes}"
	if [[ $judged == no ]]; then
		verdict="not judged (--quick)"
	elif ((ok)); then
		verdict="**PASS**"
	else
		failed=1
		verdict="**FAIL**"
	fi
}
ratios_judged=yes
((quick)) && ratios_judged=no

declare -A label=([svg]="SVG" [png]="PNG 1024 px" [json]="JSON")
declare -A med_ratio med_cpu med_cpu_on med_on_off med_vs_baseline med_cpu_baseline

wrk_cmd="wrk -t $threads -c $connections -d $duration --timeout $wrk_timeout --latency URL" # as run_wrk runs it

echo "# bananaqr HTTP benchmark"
echo
echo "- go: $(go version)"
echo "- wrk: $(wrk --version 2>&1 | head -n 1 | awk '{print $1, $2}')"
echo "- cpu: $( (grep -m1 'model name' /proc/cpuinfo 2>/dev/null || echo 'model name: unknown') | sed 's/^model name[[:space:]]*:[[:space:]]*//'), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores, shared by wrk and the servers"
echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')$( ((quick)) && echo ' — **--quick**: ratios printed, not judged')"
echo "- every measured run: \`$wrk_cmd\`, preceded by a $warmup_duration warm-up of the same URL$([[ ! "$warmup_duration" =~ ^[0-9]+[smh]?$ ]] && echo " (\`timeout --preserve-status -s INT $warmup_duration wrk … -d 10s …\`: wrk takes whole seconds only)"); for example \`${wrk_cmd% URL} '$(url off:svg)'\`"
for ((r = 1; r <= rounds; r++)); do
	echo "- round $r order: ${round_order[$r]}"
done
echo "- URLs: bare \`$(url bare)\`; svg \`$(url off:svg)\`; png \`$(url off:png)\`; json \`$(url off:json)\` (off: port $qr_port; on: port $qr_limited_port$([[ -n "$baseline" ]] && echo "; baseline: port $baseline_port"))"
echo "- servers: off = \`bananaqr serve --rate-limit 0 --log-format json\`; on = \`bananaqr serve --rate-limit $rate_limit_on --log-format json\` (in memory)$([[ -n "$baseline" ]] && echo "; baseline = \`$baseline serve --rate-limit 0 --log-format json\`")"
echo "- ratio: the run's requests/s over the bare handler's in the same round; CPU: the server's utime+stime per request, in µs (CLK_TCK $clk_tck)"
echo

for f in "${formats[@]}"; do
	echo "## ${label[$f]}: \`GET ${path[$f]%%\?*}?…\` (target ≥ ${target[$f]}× bare, rate limit on ≥ ${on_off_min}× off)"
	echo
	head="| round | bare req/s | bare CPU µs/req | off req/s | off ratio | off CPU µs/req | on req/s | on ratio | on CPU µs/req | on/off |"
	sep="|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	if [[ -n "$baseline" ]]; then
		head+=" baseline req/s | baseline ratio | baseline CPU µs/req | off/baseline |"
		sep+="---:|---:|---:|---:|"
	fi
	echo "$head"
	echo "$sep"
	bare_rps=() bare_cpu=() off_ratio=() off_cpu=() on_ratio=() on_cpu=() on_off=() b_ratio=() b_cpu=() vs_b=()
	for ((r = 1; r <= rounds; r++)); do
		b="${rps["$r bare"]}"
		bare_rps+=("$b")
		bare_cpu+=("${cpu_us["$r bare"]}")
		off_ratio+=("$(div "${rps["$r off:$f"]}" "$b")")
		off_cpu+=("${cpu_us["$r off:$f"]}")
		on_ratio+=("$(div "${rps["$r on:$f"]}" "$b")")
		on_cpu+=("${cpu_us["$r on:$f"]}")
		on_off+=("$(div "${rps["$r on:$f"]}" "${rps["$r off:$f"]}")")
		row="| $r | $(fmt0 "$b") | ${cpu_us["$r bare"]} | $(fmt0 "${rps["$r off:$f"]}") | ${off_ratio[-1]} | ${off_cpu[-1]} | $(fmt0 "${rps["$r on:$f"]}") | ${on_ratio[-1]} | ${on_cpu[-1]} | ${on_off[-1]} |"
		if [[ -n "$baseline" ]]; then
			b_ratio+=("$(div "${rps["$r baseline:$f"]}" "$b")")
			b_cpu+=("${cpu_us["$r baseline:$f"]}")
			vs_b+=("$(div "${rps["$r off:$f"]}" "${rps["$r baseline:$f"]}")")
			row+=" $(fmt0 "${rps["$r baseline:$f"]}") | ${b_ratio[-1]} | ${b_cpu[-1]} | ${vs_b[-1]} |"
		fi
		echo "$row"
	done
	med_ratio[$f]="$(median "${off_ratio[@]}")"
	med_cpu[$f]="$(one_dec "$(median "${off_cpu[@]}")")"
	med_on_off[$f]="$(median "${on_off[@]}")"
	med_cpu_on[$f]="$(one_dec "$(median "${on_cpu[@]}")")"
	row="| **median** | $(fmt0 "$(median "${bare_rps[@]}")") | $(one_dec "$(median "${bare_cpu[@]}")") | | **${med_ratio[$f]}** | **${med_cpu[$f]}** | | **$(median "${on_ratio[@]}")** | **${med_cpu_on[$f]}** | **${med_on_off[$f]}** |"
	if [[ -n "$baseline" ]]; then
		med_vs_baseline[$f]="$(median "${vs_b[@]}")"
		med_cpu_baseline[$f]="$(one_dec "$(median "${b_cpu[@]}")")"
		row+=" | **$(median "${b_ratio[@]}")** | **${med_cpu_baseline[$f]}** | **${med_vs_baseline[$f]}** |"
	fi
	echo "$row"
	echo
done

echo "## Targets"
echo
echo "| target | measured (medians over $rounds round(s)) | result |"
echo "|---|---|---|"
for f in "${formats[@]}"; do
	ok=0
	ge "${med_ratio[$f]}" "${target[$f]}" && ok=1
	judge "$ok" "$ratios_judged"
	echo "| ${label[$f]} ≥ ${target[$f]}× the bare handler's requests/s (rate limit off) | ${med_ratio[$f]}× (server CPU ${med_cpu[$f]} µs/request) | $verdict |"
done
for f in "${formats[@]}"; do
	ok=0
	ge "${med_on_off[$f]}" "$on_off_min" && ok=1
	judge "$ok" "$ratios_judged"
	echo "| ${label[$f]}, rate limit on ≥ ${on_off_min}× off (requests/s, per round) | ${med_on_off[$f]}× (CPU ${med_cpu_on[$f]} vs ${med_cpu[$f]} µs/request) | $verdict |"
done
ok=0
((total_errors == 0)) && ok=1
judge "$ok"
echo "| zero errors: non-2xx/3xx and socket errors in every run (warm-ups included), curl bursts all 2xx | $total_errors | $verdict |"
ok=1
rss_note=
for s in off on; do
	ge "${hwm_mb[$s]}" "$rss_limit_mb" && ok=0
	rss_note+="${rss_note:+, }$s ${hwm_mb[$s]} MiB"
done
[[ -n "$baseline" ]] && rss_note+=" (baseline ${hwm_mb[baseline]} MiB, not judged)"
judge "$ok"
echo "| peak RSS (VmHWM) < $rss_limit_mb MiB after $rss_connections connections of 2048 px PNGs for $rss_duration and a burst of $rss_connections curl requests | $rss_note | $verdict |"
if [[ -n "$baseline" ]]; then
	echo
	echo "Against the baseline (not judged): requests/s, median of the per-round off/baseline ratios:" \
		"svg ${med_vs_baseline[svg]}×, png ${med_vs_baseline[png]}×, json ${med_vs_baseline[json]}×;" \
		"server CPU µs/request, off vs baseline (medians): svg ${med_cpu[svg]} vs ${med_cpu_baseline[svg]}," \
		"png ${med_cpu[png]} vs ${med_cpu_baseline[png]}, json ${med_cpu[json]} vs ${med_cpu_baseline[json]}."
fi
if ((${#error_notes[@]} > 0)); then
	echo
	echo "Errors:"
	for note in "${error_notes[@]}"; do
		echo "- $note"
	done
fi
echo
echo "Runs took $((elapsed / 60))m$((elapsed % 60))s (raw wrk output and CPU tick counts: bench/http-results.txt)."

exit "$failed"
