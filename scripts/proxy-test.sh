#!/usr/bin/env bash
# The compose topology (compose.yaml), run natively: Debian's nginx with deploy/nginx.conf in
# front of two `bananaqr serve` replicas on loopback ports, sharing the machine's Redis
# (BANANAQR_TEST_REDIS_URL, in a database number of its own), with --trusted-proxies 127.0.0.1,
# --base-url http://qr.example.test and --mcp-allow-any-host. Clients send the public Host
# (qr.example.test). Checks, each printing PASS or FAIL:
#   a. callers from 127.0.0.2 and 127.0.0.3 each get their own 60 codes a minute across both
#      replicas (the 61st is 429; both replicas served each of them);
#   b. a spoofed X-Forwarded-For (or X-Real-IP, Forwarded) from them changes nothing;
#   c. image_url and svg_url of JSON answers, and the MCP server card's remote, start with the
#      public base URL (a spoofed X-Forwarded-Host changes nothing);
#   d. /mcp through the proxy: tools/list, and tools/call generate_qr answers an image;
#   e. the API's bounds hold through the proxy: a 70 KB body gets the API's 413 error object, a
#      long GET (8,400 characters of query, its payload repeated in a response header) is
#      served;
#   f. one replica SIGKILLed during a 20 s load (GET, POST /api/qr-code and POST /mcp, rate limit
#      raised): every request answered 2xx (nginx retries on the other replica);
#   g. a rolling restart under load (SIGTERM replica 1, wait for its exit, start it, wait until
#      healthy, then replica 2): every request answered 2xx, both drained cleanly (exit 0);
#   h. compose.yaml agrees with deploy/nginx.conf (it cannot run here: no registry): the
#      upstream names are its replicas, on BANANAQR_ADDR's port, which trust nginx's address,
#      share its Redis, have a base URL and the image's health check (python3-yaml).
# nginx runs as a foreground process of this script with its own prefix, temp paths, pid file
# and logs in a temporary directory, never as the system's service.
#
# Usage: bash scripts/proxy-test.sh   (test.sh runs it; .ci/run installs nginx and wrk)
#   BANANAQR_TEST_REDIS_URL   the Redis (redis://127.0.0.1:6379/0); its database number is
#                             replaced by BANANAQR_PROXY_TEST_REDIS_DB (default 12)
#   BANANAQR_NGINX_CONF       the server file to test instead of deploy/nginx.conf (with the
#                             same upstream names and listen 80)
#   BANANAQR_BIN              a bananaqr binary to test instead of building ./cmd/bananaqr
#   KEEP=1                    keep the temporary directory (logs) and say where it is
# Without nginx, wrk, redis-cli or a reachable Redis it prints SKIPPED and exits 0, unless CI is
# set: then it fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

. scripts/skip.sh

nginx_bin=$(command -v nginx || true)
[ -n "$nginx_bin" ] || { [ -x /usr/sbin/nginx ] && nginx_bin=/usr/sbin/nginx; } || true
[ -n "$nginx_bin" ] || skip "nginx is not installed (apt-get install nginx)"
command -v wrk >/dev/null || skip "wrk is not installed (apt-get install wrk)"
command -v redis-cli >/dev/null || skip "redis-cli is not installed (apt-get install redis-tools)"
command -v jq >/dev/null || skip "jq is not installed (apt-get install jq)"
[ -n "${BANANAQR_TEST_REDIS_URL:-}" ] || skip "set BANANAQR_TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/0)"

# A database of this test's own, so that its callers' budgets (127.0.0.x) meet no other test's.
redis_db=${BANANAQR_PROXY_TEST_REDIS_DB:-12}
redis_url=$(sed -E "s#^(rediss?://[^/?]+)(/[0-9]*)?\$#\\1/$redis_db#" <<<"$BANANAQR_TEST_REDIS_URL")
[ "$(redis-cli -u "$redis_url" ping 2>/dev/null)" = PONG ] || skip "Redis at $redis_url does not answer PING"

# One run at a time on a machine: the callers' addresses are fixed. The lock is taken on the
# folder /tmp itself, which every run sees whatever its TMPDIR, so that no lock file is left
# behind; the kernel releases it when the script ends, however it ends.
exec 9</tmp
flock -w 120 9 || skip "another scripts/proxy-test.sh holds the lock for over 2 minutes"

tmp=$(mktemp -d)
chmod 755 "$tmp" # nginx's workers (user nobody when started as root) create their temp files here
base_url=http://qr.example.test
public_host=qr.example.test
declare -A replica_pid=()
nginx_pid=
load_pid=
failures=0

redis_clean() {
	redis-cli -u "$redis_url" --scan --pattern 'rate:bananaqr:ratelimit:127.0.0.*' |
		while read -r key; do redis-cli -u "$redis_url" del "$key" >/dev/null; done
}

cleanup() {
	local status=$?
	[ -z "$load_pid" ] || kill "$load_pid" 2>/dev/null || true
	for i in "${!replica_pid[@]}"; do
		kill -KILL "${replica_pid[$i]}" 2>/dev/null || true
	done
	if [ -n "$nginx_pid" ]; then
		kill -TERM "$nginx_pid" 2>/dev/null || true
		wait "$nginx_pid" 2>/dev/null || true
	fi
	wait 2>/dev/null || true
	redis_clean || true
	if [ "$status" != 0 ] || [ "$failures" != 0 ]; then
		[ -f "$tmp/error.log" ] && { echo "--- nginx's error log, last lines"; tail -n 10 "$tmp/error.log"; }
		for f in "$tmp"/replica-*.log; do
			echo "--- $(basename "$f"), all but the access log"
			grep -v '"msg":"request"' "$f" | tail -n 10
		done
	fi
	if [ -n "${KEEP:-}" ]; then
		echo "kept: $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass() { echo "PASS: $*"; }
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

if [ -n "${BANANAQR_BIN:-}" ]; then
	cp "$BANANAQR_BIN" "$tmp/bananaqr"
else
	echo "building bananaqr"
	go build -o "$tmp/bananaqr" ./cmd/bananaqr
fi

nginx_conf=${BANANAQR_NGINX_CONF:-deploy/nginx.conf}
proxy_port=$(free_port)
declare -A port=([1]=$(free_port) [2]=$(free_port))
proxy=http://127.0.0.1:$proxy_port
replica_starts=0

# start_replica I RATE starts replica I with a rate limit of RATE codes a minute and waits until
# its /healthz answers. Its log (JSON, one line a request) goes to replica-I.N.log, N counting
# starts.
start_replica() {
	local i=$1 rate=$2
	replica_starts=$((replica_starts + 1))
	"$tmp/bananaqr" serve --addr "127.0.0.1:${port[$i]}" --redis-url "$redis_url" \
		--trusted-proxies 127.0.0.1 --base-url "$base_url" --mcp-allow-any-host \
		--rate-limit "$rate" --log-format json --shutdown-timeout 10s \
		2>"$tmp/replica-$i.$replica_starts.log" &
	replica_pid[$i]=$!
	for _ in $(seq 100); do
		curl -fs -o /dev/null "http://127.0.0.1:${port[$i]}/healthz" && return 0
		kill -0 "${replica_pid[$i]}" 2>/dev/null || break
		sleep 0.1
	done
	echo "replica $i did not become healthy:" >&2
	cat "$tmp/replica-$i.$replica_starts.log" >&2
	exit 1
}

# stop_replica I SIGNAL sends SIGNAL to replica I and waits for it to exit; its exit status is
# left in $stopped.
stopped=
stop_replica() {
	local i=$1 signal=$2
	kill "-$signal" "${replica_pid[$i]}"
	stopped=0
	{ wait "${replica_pid[$i]}"; } 2>/dev/null || stopped=$? # (no "Killed" from bash)
	unset "replica_pid[$i]"
}

# The committed example, with only its addresses changed: the replicas' names become their
# loopback ports, and nginx listens on a free loopback port. Each substitution must have
# happened, or the example and this test have drifted apart.
sed -e "s/server bananaqr-1:8080 /server 127.0.0.1:${port[1]} /" \
	-e "s/server bananaqr-2:8080 /server 127.0.0.1:${port[2]} /" \
	-e "s/listen 80;/listen 127.0.0.1:$proxy_port;/" "$nginx_conf" >"$tmp/bananaqr.conf"
for want in "server 127.0.0.1:${port[1]} " "server 127.0.0.1:${port[2]} " "listen 127.0.0.1:$proxy_port;"; do
	grep -qF "$want" "$tmp/bananaqr.conf" || {
		echo "FAIL: $nginx_conf no longer has the line that becomes '$want'" >&2
		exit 1
	}
done
if grep -n 'bananaqr-[0-9]:\|listen 80' "$tmp/bananaqr.conf"; then
	echo "FAIL: an address of $nginx_conf above is not rewritten for the native run" >&2
	exit 1
fi
# What Debian's /etc/nginx/nginx.conf would wrap it in, with every path in the temporary
# directory, and an access log that names the replica(s) each request went to.
cat >"$tmp/nginx.conf" <<EOF
worker_processes 2;
pid $tmp/nginx.pid;
events { worker_connections 1024; }
http {
    log_format upstreams '\$remote_addr \$status [\$upstream_addr] [\$upstream_status] "\$request"';
    access_log $tmp/access.log upstreams;
    client_body_temp_path $tmp/client_body;
    proxy_temp_path $tmp/proxy;
    fastcgi_temp_path $tmp/fastcgi;
    uwsgi_temp_path $tmp/uwsgi;
    scgi_temp_path $tmp/scgi;
    include $tmp/bananaqr.conf;
}
EOF

start_replica 1 60
start_replica 2 60
redis_clean
"$nginx_bin" -t -q -p "$tmp/" -c "$tmp/nginx.conf" -e "$tmp/error.log" || {
	cat "$tmp/error.log" >&2
	exit 1
}
"$nginx_bin" -p "$tmp/" -c "$tmp/nginx.conf" -e "$tmp/error.log" -g 'daemon off;' &
nginx_pid=$!
for _ in $(seq 50); do
	curl -fs -o /dev/null -H "Host: $public_host" "$proxy/healthz" && break
	sleep 0.1
done
echo "nginx on $proxy, replicas on 127.0.0.1:${port[1]} and 127.0.0.1:${port[2]}, Redis $redis_url"

# from ADDRESS CURL-ARGS... runs curl from a loopback ADDRESS with the public Host.
from() {
	local address=$1
	shift
	curl -s --interface "$address" -H "Host: $public_host" "$@"
}

svg=$proxy/api/qr-code.svg?text=proxy

# burst ADDRESS N: N codes in one curl (one kept-alive connection, a few ms each, so that
# GCRA's refill of one code a second hardly comes into it); prints their statuses, one a line.
burst() {
	local address=$1 n=$2 args=()
	for _ in $(seq "$n"); do args+=(-o /dev/null "$svg"); done
	from "$address" -w '%{http_code}\n' "${args[@]}"
}

# Requests the replicas let through because Redis failed (fail open), from their metrics.
fail_opens() {
	local total=0 n
	for i in 1 2; do
		n=$(curl -s "http://127.0.0.1:${port[$i]}/metrics" | awk '$1 == "bananaqr_rate_limiter_backend_errors_total" {print int($2)}')
		total=$((total + ${n:-0}))
	done
	echo "$total"
}

# upstreams_of ADDRESS: how many of ADDRESS's requests each replica answered (access log).
upstreams_of() {
	local address=$1
	sleep 0.2 # nginx writes its access log after the answer
	awk -v a="$address" -v p1="127.0.0.1:${port[1]}" -v p2="127.0.0.1:${port[2]}" '
		$1 == a { if (index($0, "[" p1 "]")) one++; if (index($0, "[" p2 "]")) two++ }
		END { printf "%d %d\n", one, two }' "$tmp/access.log"
}

# --- c. the public base URL in answers and in the MCP server card (caller 127.0.0.4)
json=$(from 127.0.0.4 -H 'X-Forwarded-Host: evil.example' "$proxy/api/qr-code?text=base&format=json")
post=$(from 127.0.0.4 -H 'Content-Type: application/json' -d '{"text":"base","format":"json"}' "$proxy/api/qr-code")
card=$(from 127.0.0.4 "$proxy/mcp/server-card")
wellknown=$(from 127.0.0.4 "$proxy/.well-known/mcp.json")
urls=$(jq -r '.image_url, .svg_url' <<<"$json"$'\n'"$post" 2>/dev/null || true)
remote=$(jq -r '.remotes[0].url' <<<"$card" 2>/dev/null || true)
if [ "$(grep -c "^$base_url/api/qr-code\.\(png\|svg\)?text=base\$" <<<"$urls")" = 4 ] &&
	[ "$remote" = "$base_url/mcp" ] && [ "$wellknown" = "$card" ]; then
	pass "c. image_url, svg_url (GET and POST, X-Forwarded-Host spoofed) and the server card's remote start with $base_url"
else
	fail "c. public base URL: urls=[$(tr '\n' ' ' <<<"$urls")] card remote=[$remote]"
fi

# --- d. /mcp through the proxy, with the public Host (caller 127.0.0.5)
mcp() {
	from 127.0.0.5 -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -d "$1" "$proxy/mcp"
}
tools=$(mcp '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' | jq -r '.result.tools[].name' 2>/dev/null || true)
called=$(mcp '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"generate_qr","arguments":{"type":"text","text":"through nginx"}}}' |
	jq -r '"\(.result.isError // false) \(.result.content[0].type) \(.result.content[0].mimeType)"' 2>/dev/null || true)
if [ "$tools" = generate_qr ] && [ "$called" = "false image image/png" ]; then
	pass "d. /mcp through nginx: tools/list names generate_qr, tools/call answers a PNG image"
else
	fail "d. /mcp through nginx: tools/list=[$tools] tools/call=[$called]"
fi

# --- e. the API's bounds through the proxy (caller 127.0.0.6). nginx's own answers carry no
# X-Request-Id; the replicas' all do.
head -c 70000 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
head -c 65536 /dev/zero | tr '\0' ' ' >"$tmp/max.json"
big=$(from 127.0.0.6 -D "$tmp/big.headers" -w '\n%{http_code}' -H 'Content-Type: application/json' --data-binary "@$tmp/big.json" "$proxy/api/qr-code")
# nginx's 413 is a copy of the API's: held to a replica's own answer, byte for byte.
curl -s -o "$tmp/big.replica" -H 'Content-Type: application/json' --data-binary "@$tmp/big.json" "http://127.0.0.1:${port[1]}/api/qr-code"
from 127.0.0.6 -o "$tmp/big.proxy" -H 'Content-Type: application/json' --data-binary "@$tmp/big.json" "$proxy/api/qr-code"
max=$(from 127.0.0.6 -o /dev/null -D - -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "@$tmp/max.json" "$proxy/api/qr-code")
long_text=$(printf '%%C3%%A9%.0s' $(seq 1400)) # é 1,400 times: 2,800 bytes, 8,400 characters
long=$(from 127.0.0.6 -o /dev/null -D - -w '%{http_code}' "$proxy/api/qr-code.svg?ecc=L&text=$long_text")
if [ "$(tail -n1 <<<"$big")" = 413 ] && [ "$(head -n1 <<<"$big" | jq -r .code 2>/dev/null)" = BODY_TOO_LARGE ] &&
	! grep -qi '^X-Request-Id:' "$tmp/big.headers" && cmp -s "$tmp/big.proxy" "$tmp/big.replica" &&
	grep -qi '^X-Request-Id:' <<<"$max" && [ "$(tail -n1 <<<"$max")" != 413 ] &&
	[ "$(tail -n1 <<<"$long")" = 200 ] && grep -qi '^X-Qr-Payload: ' <<<"$long"; then
	pass "e. a 70 KB body gets nginx's 413 BODY_TOO_LARGE (byte for byte the API's), a 64 KiB one reaches a replica ($(tail -n1 <<<"$max")), an 8,400-character query is served with its payload header"
else
	fail "e. bounds: 70 KB body: $(tr '\n' ' ' <<<"$big" | cut -c1-200) (a replica's: $(cut -c1-200 "$tmp/big.replica")); 64 KiB body: $(tail -n1 <<<"$max"); long GET: $(tail -n1 <<<"$long")"
fi

# The batch endpoint reads up to 256 KiB: a 100 KB batch reaches a replica (a body of blanks is
# not JSON: its 400), a 300 KB one gets nginx's 413, byte for byte the replica's.
head -c 100000 /dev/zero | tr '\0' ' ' >"$tmp/batch-mid.json"
head -c 300000 /dev/zero | tr '\0' ' ' >"$tmp/batch-big.json"
mid=$(from 127.0.0.6 -o /dev/null -D - -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "@$tmp/batch-mid.json" "$proxy/api/qr-code/batch")
curl -s -o "$tmp/batch-big.replica" -H 'Content-Type: application/json' --data-binary "@$tmp/batch-big.json" "http://127.0.0.1:${port[1]}/api/qr-code/batch"
bigb=$(from 127.0.0.6 -o "$tmp/batch-big.proxy" -D - -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "@$tmp/batch-big.json" "$proxy/api/qr-code/batch")
if grep -qi '^X-Request-Id:' <<<"$mid" && [ "$(tail -n1 <<<"$mid")" = 400 ] &&
	[ "$(tail -n1 <<<"$bigb")" = 413 ] && ! grep -qi '^X-Request-Id:' <<<"$bigb" && cmp -s "$tmp/batch-big.proxy" "$tmp/batch-big.replica"; then
	pass "e. batches: a 100 KB body reaches a replica, a 300 KB one gets nginx's 413 (byte for byte the API's)"
else
	fail "e. batches: 100 KB body: $(tail -n1 <<<"$mid"); 300 KB body: $(tail -n1 <<<"$bigb") $(cut -c1-200 "$tmp/batch-big.proxy") (a replica's: $(cut -c1-200 "$tmp/batch-big.replica"))"
fi

# --- a. each caller's own 60 a minute across both replicas
# burst_then_refused ADDRESS: 60 codes, then codes until one is refused. GCRA gives a code back
# each second, and a Redis that times out lets a request through (counted in the metrics): both
# are allowed for, and printed.
burst_then_refused() {
	local address=$1 start opens statuses allowed=0 extra=0 status
	opens=$(fail_opens)
	start=$(date +%s%N)
	statuses=$(burst "$address" 60)
	while :; do
		status=$(from "$address" -o "$tmp/refused.json" -D "$tmp/refused.headers" -w '%{http_code}' "$svg")
		[ "$status" = 200 ] || break
		# Codes given back since the burst began (counted when this answer arrived, so never
		# fewer than when it was granted), and requests let through by a failing Redis.
		allowed=$((($(date +%s%N) - start) / 1000000000 + $(fail_opens) - opens))
		[ "$extra" -lt "$allowed" ] || break
		extra=$((extra + 1))
	done
	echo "$(grep -c '^200$' <<<"$statuses") $status $extra $allowed"
}
read -r ok2 refused2 extra2 allowed2 < <(burst_then_refused 127.0.0.2)
read -r via1_2 via2_2 < <(upstreams_of 127.0.0.2)
read -r ok3 refused3 extra3 allowed3 < <(burst_then_refused 127.0.0.3)
read -r via1_3 via2_3 < <(upstreams_of 127.0.0.3)
body_code=$(jq -r .code "$tmp/refused.json" 2>/dev/null || true)
remaining=$(awk -F': ' 'tolower($1) == "ratelimit-remaining" {print $2+0}' "$tmp/refused.headers")
if [ "$ok2" = 60 ] && [ "$refused2" = 429 ] && [ "$ok3" = 60 ] && [ "$refused3" = 429 ] &&
	[ "$via1_2" -gt 0 ] && [ "$via2_2" -gt 0 ] && [ "$via1_3" -gt 0 ] && [ "$via2_3" -gt 0 ] &&
	[ "$body_code" = RATE_LIMITED ] && [ "$remaining" = 0 ]; then
	pass "a. 127.0.0.2: 60 codes then 429 (replicas served $via1_2 and $via2_2); 127.0.0.3: its own 60 then 429 ($via1_3 and $via2_3); RATE_LIMITED, RateLimit-Remaining 0 (codes GCRA gave back or a failing Redis let through before the 429: $extra2 and $extra3)"
else
	fail "a. 127.0.0.2: $ok2 ok then $refused2 (replicas $via1_2/$via2_2); 127.0.0.3: $ok3 ok then $refused3 (replicas $via1_3/$via2_3); code=$body_code remaining=$remaining"
fi

# --- b. spoofed client addresses change nothing
# GCRA gives 127.0.0.2 a code back each second, and on a busy machine (test.sh runs this beside
# the Go tests) seconds pass between a. and b., and between two requests: a spoofed request may
# then be served, from 127.0.0.2's own budget (RateLimit-Remaining below 59: what seconds gave
# back), noted "200 own"; served as a fresh 127.0.0.9 it would have 59 left (and its key, checked
# below, would exist). drain ADDRESS asks codes until one is refused (at most 5), so that a
# spoofed request starts from an empty budget when the machine is quick enough.
drain() {
	local i
	for i in 1 2 3 4 5; do
		[ "$(from "$1" -o /dev/null -w '%{http_code}' "$svg")" != 429 ] || return 0
	done
}
spoofs=()
for header in 'X-Forwarded-For: 127.0.0.9' 'X-Forwarded-For: 127.0.0.9, 127.0.0.1' 'X-Real-IP: 127.0.0.9' 'Forwarded: for=127.0.0.9'; do
	drain 127.0.0.2
	answer=$(from 127.0.0.2 -o /dev/null -D - -w '%{http_code}' -H "$header" "$svg")
	status=$(tail -n1 <<<"$answer")
	if [ "$status" = 200 ] && [ "$(awk -F': ' 'tolower($1) == "ratelimit-remaining" {print $2+0}' <<<"$answer")" -lt 59 ]; then
		status="200 own"
	fi
	spoofs+=("$status")
done
# A fresh caller claiming to be the exhausted 127.0.0.2 is served as itself.
fresh=$(from 127.0.0.7 -o /dev/null -w '%{http_code}' -H 'X-Forwarded-For: 127.0.0.2' "$svg")
charged=$(redis-cli -u "$redis_url" exists rate:bananaqr:ratelimit:127.0.0.9)
refused=$(printf '%s\n' "${spoofs[@]}" | grep -cxE '429|200 own' || true)
if [ "$refused" = 4 ] && [ "$fresh" = 200 ] && [ "$charged" = 0 ]; then
	pass "b. 127.0.0.2 claiming 127.0.0.9 (X-Forwarded-For, with a trusted hop, X-Real-IP, Forwarded) is still refused as 127.0.0.2 (${spoofs[*]}); 127.0.0.7 claiming 127.0.0.2 is served; no budget kept for 127.0.0.9"
else
	fail "b. spoofed: ${spoofs[*]} (want 429s, or 200 from 127.0.0.2's own budget), fresh caller claiming 127.0.0.2: $fresh (want 200), key for 127.0.0.9: $charged (want 0)"
fi

# --- load phases: the rate limit raised out of the way (still kept in Redis)
load_rate=1000000
for i in 1 2; do
	stop_replica "$i" TERM
	[ "$stopped" = 0 ] || fail "replica $i did not exit 0 on SIGTERM (status $stopped)"
	start_replica "$i" "$load_rate"
done

# The load: GET an SVG, POST /api/qr-code, POST /mcp tools/call in turn, from 16 connections;
# wrk's done() prints the requests, the answers by status and the socket errors.
cat >"$tmp/load.lua" <<EOF
local host = "$public_host"
local kinds = {
	wrk.format("GET", "/api/qr-code.svg?text=load", {Host = host}),
	wrk.format("POST", "/api/qr-code", {Host = host, ["Content-Type"] = "application/json"},
		'{"text":"load","format":"svg"}'),
	wrk.format("POST", "/mcp", {Host = host, ["Content-Type"] = "application/json",
		Accept = "application/json, text/event-stream"},
		'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"generate_qr","arguments":{"type":"text","text":"load"}}}'),
}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) n = 0; answered = 0; other = 0 end
function request() n = n % #kinds + 1; return kinds[n] end
function response(status, headers, body)
	if status >= 200 and status < 300 then answered = answered + 1 else other = other + 1 end
end
function done(summary, latency, requests)
	local ok, bad = 0, 0
	for _, t in ipairs(threads) do ok = ok + t:get("answered"); bad = bad + t:get("other") end
	local e = summary.errors
	io.write(string.format("LOAD requests=%d 2xx=%d other=%d connect=%d read=%d write=%d timeout=%d\n",
		summary.requests, ok, bad, e.connect, e.read, e.write, e.timeout))
end
EOF

# load SECONDS OUT runs wrk against the proxy in the background, its summary to OUT.
load() {
	wrk -t2 -c16 -d"$1"s --timeout 10s -s "$tmp/load.lua" "$proxy" >"$2" 2>&1 &
	load_pid=$!
}

# judge NAME OUT: PASS when every request wrk sent was answered 2xx, with no socket error.
judge() {
	local name=$1 line requests ok
	line=$(grep '^LOAD ' "$2" || true)
	requests=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")
	ok=$(sed -E 's/.* 2xx=([0-9]+).*/\1/' <<<"$line")
	if [ -n "$line" ] && [ "$requests" -gt 0 ] && [ "$ok" = "$requests" ] &&
		grep -q 'other=0 connect=0 read=0 write=0 timeout=0' <<<"$line"; then
		pass "$name: ${line#LOAD }$3"
	else
		fail "$name: ${line:-wrk printed no summary: $(tail -n 5 "$2")}$3"
	fi
}

# retried: requests of the load (from 127.0.0.1) that nginx sent to a second replica, counted
# from the access log since line $1.
retried() {
	sleep 0.2
	tail -n "+$1" "$tmp/access.log" | awk '$1 == "127.0.0.1" && /\[[^]]*, [^]]*\]/' | wc -l
}

# --- f. one replica killed during a load of 20 s, started again 6 s later
mark=$(($(wc -l <"$tmp/access.log") + 1))
load 20 "$tmp/load-kill.txt"
sleep 5
stop_replica 2 KILL
kill_status=$stopped
sleep 6
start_replica 2 "$load_rate"
restarted_log=$tmp/replica-2.$replica_starts.log
wait "$load_pid"
served_after=$(grep -c '"msg":"request"' "$restarted_log" || true)
judge "f. replica 2 SIGKILLed (status $kill_status) 5 s into 20 s of load, started again 6 s later" "$tmp/load-kill.txt" \
	"; $(retried "$mark") retried on the other replica; the restarted replica served $served_after"
[ "$served_after" -gt 0 ] || fail "f. the restarted replica 2 got no request back from nginx"

# --- g. a rolling restart under load
mark=$(($(wc -l <"$tmp/access.log") + 1))
load 14 "$tmp/load-rolling.txt"
sleep 2
statuses=()
for i in 1 2; do
	stop_replica "$i" TERM
	statuses+=("$stopped")
	start_replica "$i" "$load_rate"
	sleep 2
done
wait "$load_pid"
judge "g. rolling restart (SIGTERM, exit, start, healthy; replica 1 then 2) under 14 s of load" "$tmp/load-rolling.txt" \
	"; exit statuses ${statuses[*]}; $(retried "$mark") retried on the other replica"
[ "${statuses[*]}" = "0 0" ] || fail "g. a replica did not drain and exit 0 on SIGTERM: ${statuses[*]}"

# --- h. compose.yaml and deploy/nginx.conf agree
if /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
	if problems=$(/usr/bin/python3 - compose.yaml deploy/nginx.conf <<'PY'
import ipaddress, re, sys, urllib.parse, yaml
compose = yaml.safe_load(open(sys.argv[1]))  # safe_load resolves the <<: merge of x-bananaqr
nginx = open(sys.argv[2]).read()
services, problems = compose["services"], []
upstreams = set(re.findall(r"^\s*server\s+([\w.-]+:\d+)", nginx, re.M))
proxy = services.get("proxy", {})
if not any(v.startswith("./deploy/nginx.conf:/etc/nginx/conf.d/") for v in proxy.get("volumes", [])):
    problems.append("proxy does not mount ./deploy/nginx.conf into /etc/nginx/conf.d/")
if not any(str(p).endswith(":80") for p in proxy.get("ports", [])):
    problems.append("proxy does not publish nginx's listen 80")
proxy_addr = ipaddress.ip_address(proxy["networks"]["bananaqr"]["ipv4_address"])
for upstream in sorted(upstreams):
    name, port = upstream.split(":")
    env = services.get(name, {}).get("environment")
    if env is None:
        problems.append(f"nginx's upstream {upstream}: no such service with an environment")
        continue
    if env.get("BANANAQR_ADDR", ":8080").rsplit(":", 1)[1] != port:
        problems.append(f"{name} listens on {env.get('BANANAQR_ADDR')}, nginx sends to {upstream}")
    trusted = [ipaddress.ip_network(t.strip(), strict=False) for t in env.get("BANANAQR_TRUSTED_PROXIES", "").split(",") if t.strip()]
    if not any(proxy_addr in t for t in trusted):
        problems.append(f"{name} does not trust nginx's address {proxy_addr}")
    if urllib.parse.urlparse(env.get("BANANAQR_REDIS_URL", "")).hostname not in services:
        problems.append(f"{name}'s BANANAQR_REDIS_URL is not a service of compose.yaml")
    if not env.get("BANANAQR_BASE_URL"):
        problems.append(f"{name} has no BANANAQR_BASE_URL")
    if services[name].get("healthcheck", {}).get("test") != ["CMD", "/bananaqr", "healthcheck"]:
        problems.append(f"{name}'s health check is not /bananaqr healthcheck")
if len({u.split(":")[0] for u in upstreams}) != 2:
    problems.append(f"nginx's upstreams {sorted(upstreams)}: want two replicas")
print("; ".join(problems))
sys.exit(1 if problems else 0)
PY
	); then
		pass "h. compose.yaml agrees with deploy/nginx.conf: replicas bananaqr-1 and bananaqr-2 on nginx's upstream port, trusting nginx's address, one Redis, a base URL, /bananaqr healthcheck"
	else
		fail "h. compose.yaml and deploy/nginx.conf disagree: $problems"
	fi
elif [ -n "${CI:-}" ]; then
	fail "h. python3-yaml is not installed"
else
	echo "SKIPPED: h. compose.yaml against deploy/nginx.conf needs python3-yaml"
fi

if [ "$failures" != 0 ]; then
	echo "$failures check(s) failed"
	exit 1
fi
echo "all proxy checks passed"
