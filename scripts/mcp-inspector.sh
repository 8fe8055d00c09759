#!/usr/bin/env bash
# Drives a running `bananaqr serve` through /mcp with the official MCP Inspector CLI
# (@modelcontextprotocol/inspector, pinned in package.json and package-lock.json), as a client
# we did not write. It builds bananaqr, starts it on a free loopback port and checks:
#   a. tools/list: exactly one tool, generate_qr, whose input schema enumerates the payload
#      types and takes no raw data, annotated read-only, with an outputSchema and icons;
#   b. a url call: a PNG image block, then a Markdown link to this server's /api/qr-code.png,
#      which serves the same PNG, and resource links to that PNG and its SVG; structured
#      content with the payload and the same image_url;
#   c. a Wi-Fi call: the image only, no text block or link (the payload is private), and
#      structured content whose payload and image_url are null;
#   d. an invalid call (javascript: URL): a tool error (the CLI exits 5) whose one text block is
#      the API's error object, code INVALID_URL, with a hint.
#
# Usage: npm ci && bash scripts/mcp-inspector.sh   (test.sh runs it; .ci/run runs npm ci first;
# BANANAQR_BIN=path tests an already built binary)
# Without node_modules it prints SKIPPED and exits 0, unless CI is set: then it fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The CLI as npm installs it: the package's bin mcp-inspector (the launcher; --cli selects the
# CLI). Never npx -y: it would fetch whatever version it likes.
inspector=()
if [ -x node_modules/.bin/mcp-inspector ]; then
	inspector=(node_modules/.bin/mcp-inspector)
elif [ -f node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js ]; then
	inspector=(node node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js)
elif [ -n "${CI:-}" ]; then
	echo "FAIL: the MCP Inspector is not installed (node_modules/.bin/mcp-inspector); CI must run npm ci first" >&2
	exit 1
else
	echo "SKIPPED: run npm ci first (CI does)"
	exit 0
fi

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

tmp=$(mktemp -d)
# Everything started from here writes its temporary files in $tmp (Node 22+ its compile cache,
# say), removed on exit.
export TMPDIR=$tmp
server_pid=
cleanup() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
# The inspector keeps its catalog and storage under ~/.mcp-inspector: give it a HOME of its
# own (only it: go build keeps the usual module and build caches).
mkdir "$tmp/home"
inspector=(env HOME="$tmp/home" "${inspector[@]}")

echo "MCP Inspector $("${inspector[@]}" --version)"

bin=${BANANAQR_BIN:-$tmp/bananaqr} # BANANAQR_BIN: a binary already built (test.sh builds one for all)
[ -n "${BANANAQR_BIN:-}" ] || go build -o "$bin" ./cmd/bananaqr
"$bin" serve --addr 127.0.0.1:0 --log-format json 2>"$tmp/server.log" &
server_pid=$!

# The first log line says where it listens: {"msg":"listening","addr":"127.0.0.1:NNNNN",...}.
addr=
for _ in $(seq 100); do
	if [ -s "$tmp/server.log" ] && [ "$(wc -l <"$tmp/server.log")" -ge 1 ]; then
		addr=$(head -n 1 "$tmp/server.log" | node -e '
			const line = JSON.parse(require("fs").readFileSync(0, "utf8"));
			if (line.msg !== "listening" || !/^127\.0\.0\.1:\d+$/.test(line.addr)) process.exit(1);
			console.log(line.addr);' 2>/dev/null) || fail "the server's first log line is not {\"msg\":\"listening\",\"addr\":\"127.0.0.1:…\"}: $(head -n 1 "$tmp/server.log")"
		break
	fi
	kill -0 "$server_pid" 2>/dev/null || fail "bananaqr serve exited: $(cat "$tmp/server.log")"
	sleep 0.1
done
[ -n "$addr" ] || fail "bananaqr serve did not log that it listens within 10 s: $(cat "$tmp/server.log")"
echo "bananaqr serve listens on $addr"

# inspect NAME WANT_EXIT ARGS...: runs the CLI against /mcp with ARGS, its JSON result to
# $tmp/NAME.json and its stderr to $tmp/NAME.err, and fails unless it exits WANT_EXIT.
inspect() {
	local name=$1 want=$2 got=0
	shift 2
	timeout 30 "${inspector[@]}" --cli "http://$addr/mcp" --transport http --format json "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err" || got=$?
	if [ "$got" != "$want" ]; then
		fail "$name: mcp-inspector exited $got, want $want
stdout: $(head -c 2000 "$tmp/$name.json")
stderr: $(head -c 2000 "$tmp/$name.err")"
	fi
}

# check NAME MESSAGE: runs the JavaScript on stdin with `out` the parsed $tmp/NAME.json, `err`
# the CLI's stderr, `addr` the server's address; an exception (assert) fails the check, else
# it prints "ok: MESSAGE".
check() {
	local name=$1 message=$2 script
	script="$(cat)"
	node - "$tmp/$name.json" "$tmp/$name.err" "$addr" >"$tmp/$name.check" 2>&1 <<JS || fail "$name: $(cat "$tmp/$name.check")
output: $(head -c 2000 "$tmp/$name.json")"
const fs = require("fs"), assert = require("assert");
const [out, err, addr] = [JSON.parse(fs.readFileSync(process.argv[2], "utf8")), fs.readFileSync(process.argv[3], "utf8"), process.argv[4]];
const isPNG = (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
(async () => {
$script
})().catch((e) => { console.error(e.message); process.exit(1); });
JS
	echo "ok: $message"
}

# a. The tool list.
inspect list 0 --method tools/list
check list "tools/list: one tool, generate_qr; type enumerates url, wifi, vcard, email, sms, text and the extensions tel, geo, event, epc and the payment types swissqr, emvco, upi, spayd, bitcoin; no data property; read-only; an outputSchema; the banana as SVG and PNG icons" <<'JS'
const tools = out.result.tools;
assert.deepStrictEqual(tools.map((t) => t.name), ["generate_qr"], "want exactly one tool, generate_qr");
const props = tools[0].inputSchema.properties;
assert.deepStrictEqual(props.type && props.type.enum, ["url", "wifi", "vcard", "email", "sms", "text", "tel", "geo", "event", "epc", "swissqr", "emvco", "upi", "spayd", "bitcoin"], "inputSchema.properties.type.enum");
assert.ok(!("data" in props), "inputSchema has a data property: the tool must not take raw QR strings");
assert.strictEqual(tools[0].annotations && tools[0].annotations.readOnlyHint, true, "annotations.readOnlyHint");
assert.strictEqual(tools[0].outputSchema && tools[0].outputSchema.type, "object", "outputSchema");
assert.deepStrictEqual((tools[0].icons || []).map((i) => i.mimeType), ["image/svg+xml", "image/png"], "icons");
JS

# b. A public code: the image and a Markdown link that serves it.
inspect url 0 --method tools/call --tool-name generate_qr --tool-arg type=url url=https://example.com
check url "tools/call url: a PNG image block, then a Markdown link to http://$addr/api/qr-code.png?… that serves the same PNG, resource links to it and its SVG, structured content" <<'JS'
const r = out.result;
assert.ok(!r.isError, "isError is set");
assert.deepStrictEqual(r.content.map((c) => c.type), ["image", "text", "resource_link", "resource_link"], "content block types");
const [img, text, pngLink, svgLink] = r.content;
assert.strictEqual(img.mimeType, "image/png", "image mimeType");
const png = Buffer.from(img.data, "base64");
assert.ok(isPNG(png), "the image data is not a PNG");
const prefix = `![QR code](http://${addr}/api/qr-code.png?`;
assert.ok(text.text.startsWith(prefix) && text.text.endsWith(")"), `text block ${JSON.stringify(text.text)} is not ${prefix}…)`);
const link = text.text.slice("![QR code](".length, -1);
const res = await fetch(link);
assert.strictEqual(res.status, 200, `GET ${link}`);
assert.strictEqual(res.headers.get("content-type"), "image/png", `GET ${link}: Content-Type`);
assert.ok(Buffer.from(await res.arrayBuffer()).equals(png), `GET ${link} serves another image than the tool returned`);
assert.strictEqual(pngLink.uri, link, "the PNG's resource link");
assert.strictEqual(r.structuredContent.image_url, link, "structuredContent.image_url");
assert.strictEqual(r.structuredContent.payload, "https://example.com", "structuredContent.payload");
const svg = await fetch(svgLink.uri);
assert.ok(svg.status === 200 && svg.headers.get("content-type") === "image/svg+xml" && svgLink.mimeType === "image/svg+xml", `GET ${svgLink.uri}`);
JS

# c. A private code: the image only.
inspect wifi 0 --method tools/call --tool-name generate_qr --tool-args-json '{"type":"wifi","ssid":"Lab","password":"hunter22"}'
check wifi "tools/call wifi: a PNG image block, no text block or link, null payload and image_url (private payload)" <<'JS'
const r = out.result;
assert.ok(!r.isError, "isError is set");
assert.deepStrictEqual(r.content.map((c) => c.type), ["image"], "content block types");
assert.strictEqual(r.content[0].mimeType, "image/png", "image mimeType");
assert.ok(isPNG(Buffer.from(r.content[0].data, "base64")), "the image data is not a PNG");
assert.ok(r.structuredContent.payload === null && r.structuredContent.image_url === null, "a private payload or its link in structuredContent");
const rest = JSON.stringify({ ...r, content: [] });
assert.ok(!rest.includes("hunter22"), "the password is repeated in the result");
JS

# d. A tool error: exit 5, and the API's error object as the one text block.
inspect invalid 5 --method tools/call --tool-name generate_qr --tool-args-json '{"type":"url","url":"javascript:alert(1)"}'
check invalid "tools/call javascript: URL: a tool error (exit 5), {error, code INVALID_URL, message, hint}" <<'JS'
assert.strictEqual(JSON.parse(err.trim().split("\n").pop()).error.code, "tool_is_error", "the CLI's error envelope on stderr");
const r = out.result;
assert.strictEqual(r.isError, true, "isError");
assert.deepStrictEqual(r.content.map((c) => c.type), ["text"], "content block types");
const e = JSON.parse(r.content[0].text);
assert.strictEqual(e.code, "INVALID_URL", "code");
for (const k of ["error", "message", "hint"]) {
	assert.ok(typeof e[k] === "string" && e[k] !== "", `${k} is empty`);
}
JS

echo "MCP Inspector checks passed"
