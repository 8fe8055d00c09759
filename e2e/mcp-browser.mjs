#!/usr/bin/env node
// A browser-hosted MCP client against bananaqr's /mcp, end to end (issue 19, item 4): the
// official MCP TypeScript SDK's Client and StreamableHTTPClientTransport (@modelcontextprotocol/sdk,
// bundled for the browser with esbuild, both pinned in package.json) run in headless Chromium
// (Debian's /usr/bin/chromium, driven by playwright-core) on a page served from another origin
// (a second loopback port) than `bananaqr serve`. Every request the page makes to /mcp is
// cross-origin, so Chromium enforces CORS on it: the JSON body and, after initialize, the
// Mcp-Protocol-Version header need a preflight that allows them, and the page also sends a bearer
// token (Authorization), which only a preflight answer naming it lets through. It checks:
//   1. the preflight's answer as a browser reads it (the headers the SDK sends are allowed);
//   2. in the page: initialize, tools/list (generate_qr is there), tools/call generate_qr with a
//      URL, answered with an image content holding a PNG, which Chromium decodes;
//   3. that PNG, read back with zbarimg, is the URL;
//   4. in the page: a raw fetch with Authorization and Mcp-Protocol-Version whose script reads
//      an exposed header (X-Request-Id) of the answer.
//
// Usage: npm ci && node e2e/mcp-browser.mjs   (test.sh runs it)
// Without /usr/bin/chromium, node_modules (playwright-core, esbuild, @modelcontextprotocol/sdk)
// or zbarimg it prints SKIPPED and exits 0, unless CI is set: then it fails.
// BANANAQR_BIN=path runs an already built binary instead of building one (to run it against
// another build, such as one without the CORS for /mcp, which must fail).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

import { buildBinary, check, CHROMIUM, failed, finish, privateTmp, requirePrerequisites, root, startServer, stopServers } from './setup.mjs';

const started = Date.now();
const TARGET = 'https://example.com/bananas?ripe=yes';

requirePrerequisites(['playwright-core/package.json', 'esbuild/package.json', '@modelcontextprotocol/sdk/package.json']);

const require = createRequire(path.join(root, 'package.json'));
const { chromium } = require('playwright-core');
const esbuild = require('esbuild');

const tmp = privateTmp('bananaqr-mcp-browser-'); // removed on exit

// ---------------------------------------------------------------------------------------------
// The two origins: bananaqr serve, and the page's own server

// bananaqr serve: startServer (e2e/setup.mjs).

// The page: a module script that imports the SDK's bundle from its own origin and exposes
// window.mcpRun(endpoint), which runs the client and returns what it saw.
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>MCP from a browser</title></head>
<body><p>A browser-hosted MCP client.</p>
<script type="module">
import { Client, StreamableHTTPClientTransport } from '/sdk.js';

window.mcpRun = async (endpoint, target) => {
  const client = new Client({ name: 'bananaqr-browser-e2e', version: '1.0.0' });
  // A bearer token on every request, as an OAuth-authorized client sends it: bananaqr ignores
  // it, but the browser sends it only if the preflight allows Authorization by name.
  const transport = new StreamableHTTPClientTransport(new URL(endpoint),
    { requestInit: { headers: { Authorization: 'Bearer browser-e2e' } } });
  await client.connect(transport); // initialize, then notifications/initialized with Mcp-Protocol-Version
  const out = { server: client.getServerVersion(), protocolVersion: transport.protocolVersion };
  const { tools } = await client.listTools();
  out.tools = tools.map((t) => t.name);
  const result = await client.callTool({ name: 'generate_qr', arguments: { type: 'url', url: target, size: 400 } });
  out.isError = Boolean(result.isError);
  out.content = result.content.map((c) => ({ type: c.type, mimeType: c.mimeType, data: c.data, text: c.text }));
  const image = result.content.find((c) => c.type === 'image');
  if (image) {
    const bytes = Uint8Array.from(atob(image.data), (ch) => ch.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: image.mimeType }));
    out.bitmap = { width: bitmap.width, height: bitmap.height };
  }
  await client.close();
  return out;
};

// A raw cross-origin POST with the headers of a 2026-07-28 client and a bearer token, whose
// script reads an exposed response header.
window.rawCall = async (endpoint) => {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
      Authorization: 'Bearer browser-e2e', 'Mcp-Protocol-Version': '2025-11-25', 'Mcp-Method': 'tools/list' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return { status: res.status, requestId: res.headers.get('X-Request-Id'), body: await res.json() };
};
window.pageReady = true;
</script></body></html>
`;

// startPageServer serves the page and the SDK's bundle on another loopback port, resolving to
// its origin.
function startPageServer(bundle) {
  const pageServer = http.createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
    } else if (req.url === '/sdk.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(bundle);
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => pageServer.listen(0, '127.0.0.1', () => resolve({ pageServer, origin: `http://127.0.0.1:${pageServer.address().port}` })));
}

// ---------------------------------------------------------------------------------------------
// Checks

// check, failed and finish: e2e/setup.mjs.

// headerList returns a response header's comma-separated values, lower-cased.
const headerList = (headers, name) => (headers.get(name) || '').split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);

let browser;
let pageServer;
try {
  const bin = buildBinary(tmp);
  const base = await startServer(bin, '--rate-limit', '0');
  const endpoint = `${base}/mcp`;

  // The SDK's browser build: its client and transport with their dependencies (zod, ajv,
  // eventsource-parser) in one ES module.
  const built = await esbuild.build({
    stdin: {
      contents: "export { Client } from '@modelcontextprotocol/sdk/client/index.js';\n" +
        "export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';\n",
      resolveDir: root,
    },
    bundle: true, format: 'esm', platform: 'browser', target: 'chrome120', write: false, logLevel: 'warning',
  });
  const sdkVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')).version;
  let origin;
  ({ pageServer, origin } = await startPageServer(built.outputFiles[0].contents));
  assert.notEqual(new URL(origin).origin, new URL(base).origin, 'the page and the server share an origin');
  console.log(`bananaqr serve on ${base}; the page on ${origin}; @modelcontextprotocol/sdk ${sdkVersion}`);

  await check('1. the preflight of /mcp allows the headers the SDK sends, Authorization by name', async () => {
    const asked = ['authorization', 'content-type', 'mcp-protocol-version'];
    const res = await fetch(endpoint, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': asked.join(',') },
    });
    assert.ok(res.status >= 200 && res.status < 300, `preflight status ${res.status}`);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.ok(headerList(res.headers, 'access-control-allow-methods').includes('post'), 'POST not allowed');
    const allowed = headerList(res.headers, 'access-control-allow-headers');
    for (const h of asked) assert.ok(allowed.includes(h), `${h} not in Access-Control-Allow-Headers: ${allowed}`);
    return `Access-Control-Allow-Headers: ${res.headers.get('access-control-allow-headers')}`;
  });

  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(String(e)));
  const mcpRequests = [];
  page.on('request', (r) => { if (r.url() === endpoint) mcpRequests.push(r); });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => window.pageReady === true, null, { timeout: 10000 });

  let run;
  await check('2. in Chromium on another origin: initialize, tools/list, tools/call generate_qr', async () => {
    try {
      run = await page.evaluate(([e, t]) => window.mcpRun(e, t), [endpoint, TARGET]);
    } catch (e) {
      throw new Error(`${e.message}\nbrowser console: ${problems.join('\n')}`);
    }
    assert.equal(run.server.name, 'bananaqr');
    assert.ok(run.protocolVersion, 'no protocol version negotiated');
    assert.ok(run.tools.includes('generate_qr'), `tools: ${run.tools}`);
    assert.equal(run.isError, false, `tool error: ${JSON.stringify(run.content)}`);
    const image = run.content.find((c) => c.type === 'image');
    assert.ok(image, `no image content: ${JSON.stringify(run.content.map((c) => c.type))}`);
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual([...Buffer.from(image.data, 'base64').subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'not a PNG');
    assert.deepEqual(run.bitmap, { width: 400, height: 400 });
    // The requests after initialize carried the headers that need the preflight.
    const later = mcpRequests.slice(1).map((r) => r.headers());
    assert.ok(later.length >= 2 && later.every((h) => h['mcp-protocol-version'] === run.protocolVersion && h.authorization === 'Bearer browser-e2e'),
      `requests after initialize: ${JSON.stringify(later)}`);
    return `protocol ${run.protocolVersion}, tools ${run.tools.join(', ')}, a ${run.bitmap.width}×${run.bitmap.height} PNG, ${mcpRequests.length} requests to /mcp (${mcpRequests.map((r) => r.method()).join(", ")})`;
  });

  await check('3. the PNG reads back as the URL (zbarimg)', async () => {
    assert.ok(run, 'no result from check 2');
    const file = path.join(tmp, 'code.png');
    fs.writeFileSync(file, Buffer.from(run.content.find((c) => c.type === 'image').data, 'base64'));
    const out = execFileSync('zbarimg', ['--raw', '-q', file], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
    assert.equal(out, `${TARGET}\n`);
    return TARGET;
  });

  await check('4. a raw fetch with Authorization and Mcp-Protocol-Version reads an exposed header', async () => {
    const raw = await page.evaluate((e) => window.rawCall(e), endpoint);
    assert.equal(raw.status, 200);
    assert.ok(raw.requestId, 'X-Request-Id is not readable: not in Access-Control-Expose-Headers');
    assert.ok(raw.body.result.tools.some((t) => t.name === 'generate_qr'), JSON.stringify(raw.body));
    return `X-Request-Id ${raw.requestId}`;
  });
} catch (e) {
  failed(e && e.stack ? e.stack : e);
} finally {
  if (browser) await browser.close();
  if (pageServer) pageServer.close();
  stopServers();
}

finish(started, 'an MCP client in headless Chromium on another origin uses /mcp');
