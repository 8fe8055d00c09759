#!/usr/bin/env node
// The expenses server's OAuth 2.1 authorization, end to end with a real client (issue 34, item
// 6): the official MCP TypeScript SDK's OAuth client (@modelcontextprotocol/sdk's auth flow:
// an OAuthClientProvider given to StreamableHTTPClientTransport, then transport.finishAuth),
// bundled for the browser with esbuild, runs in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core) on a page served from another origin (a second loopback port)
// than `bananaqr expenses serve`, which runs with a temporary SQLite database holding the user
// anna and her password (`bananaqr expenses user add anna --password-stdin`). Every request the
// SDK makes is cross-origin, so Chromium enforces CORS on all of them. It checks:
//   1. the preflights of /register and /token, as a browser reads them;
//   2. the client connects and lists the tools without a token (the server asks none for
//      discovery); its first tools/call gets 401, and the SDK discovers (protected resource metadata, then
//      the authorization server's metadata, RFC 9728 and RFC 8414), registers the client
//      (RFC 7591) and sends the browser to /authorize with PKCE (S256), the resource (RFC 8707)
//      and a state;
//   3. the sign-in and consent page names the client and both permissions, and is usable:
//      lang, one h1, a label on every input, the keyboard's Tab order, axe-core (WCAG 2.1 A and
//      AA) without violations, before and after a wrong password, which it announces;
//   4. the person types her name and password with the keyboard and presses Allow: the browser
//      comes back to the page's /callback with the code, the state and the issuer (RFC 9207);
//      the page checks both, the SDK exchanges the code with its PKCE verifier at /token, and
//      with the access token the page calls get_me (anna, by her id) and add_expense, then
//      sees the expense in list_expenses;
//   5. Chromium let the SDK read the answers of /register and /token (CORS mode, no network
//      error), and no request of the SDK failed for CORS (discovery included);
//   6. another person's browser, where the person presses Deny: the callback gets
//      error=access_denied with the state, no token is asked for or stored, and /mcp still
//      answers 401 without one.
//
// Usage: npm ci && node e2e/expenses-oauth.mjs   (test.sh runs it)
// Without /usr/bin/chromium, node_modules (playwright-core, esbuild, @modelcontextprotocol/sdk,
// axe-core) or zbarimg it prints SKIPPED and exits 0, unless CI is set: then it fails.
// BANANAQR_BIN=path runs an already built binary instead of building one (to run it against
// another build, such as one without the authorization server, which must fail).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

import { buildBinary, check, CHROMIUM, failed, finish, privateTmp, requirePrerequisites, root, servers, startListening, stopServers } from './setup.mjs';

const started = Date.now();
const USER = 'anna';
const PASSWORD = 'bananas are berries, 2026';
const CLIENT_NAME = 'Banana Budget (browser e2e)';
const SCOPES = ['expenses:read', 'expenses:write'];
const EXPENSE = { title: 'Lunch at the market', amount: 12.5, currency: 'EUR', splits: { me: 12.5 } };

requirePrerequisites(['playwright-core/package.json', 'esbuild/package.json', '@modelcontextprotocol/sdk/package.json', 'axe-core/axe.min.js']);

const require = createRequire(path.join(root, 'package.json'));
const { chromium } = require('playwright-core');
const esbuild = require('esbuild');

const tmp = privateTmp('bananaqr-expenses-oauth-'); // removed on exit

// ---------------------------------------------------------------------------------------------
// The two origins: bananaqr expenses serve, and the page's own server

// addUser adds the user with the password to the database db and returns her id, read from
// what the command prints ("added user anna (id …) with a password").
function addUser(bin, db) {
  const out = execFileSync(bin, ['expenses', 'user', 'add', USER, '--password-stdin', '--db', db],
    { input: `${PASSWORD}\n`, stdio: ['pipe', 'pipe', 'pipe'] }).toString();
  const m = /\(id ([0-9a-f]{32})\)/.exec(out);
  if (!m) throw new Error(`expenses user add printed no id: ${out}`);
  return m[1];
}

// startExpensesServer starts `bananaqr expenses serve` on a free loopback port with the
// database db and flags, and resolves to its MCP endpoint, read from the first JSON log line
// ({"msg":"listening","addr":"127.0.0.1:NNNN","endpoint":"http://127.0.0.1:NNNN/mcp"}): without
// --base-url the server's public origin is the listener's (localBaseURL). It joins setup.mjs's
// servers, so that it is stopped on exit and its log shown on a failure.
function startExpensesServer(bin, db, ...flags) {
  return startListening(bin, ['expenses', 'serve', '--addr', '127.0.0.1:0', '--db', db, '--write-limit', '0', '--log-format', 'json', ...flags],
    'bananaqr expenses serve', '{"msg":"listening","addr":"127.0.0.1:…","endpoint":"http://127.0.0.1:…/mcp"}', (line) => {
      if (line.endpoint !== `http://${line.addr}/mcp`) throw new Error('no endpoint');
      return line.endpoint;
    });
}

// The page, at / and at /callback: a module script with the SDK's bundle from its own origin,
// and an OAuthClientProvider that keeps what it must remember across the trip to the sign-in
// page in sessionStorage, as a single-page application does. window.startFlow(endpoint)
// connects, which sends the window to the authorization page; at /callback the page finishes
// the flow by itself (window.flowResult) and calls the tools. Every fetch of the SDK goes
// through a logging fetch, kept in sessionStorage too.
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Banana Budget</title></head>
<body><h1>Banana Budget</h1><p>A browser-hosted MCP client that signs in with OAuth.</p>
<script type="module">
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '/sdk.js';

const store = {
  get: (k) => { const v = sessionStorage.getItem('e2e:' + k); return v === null ? undefined : JSON.parse(v); },
  set: (k, v) => sessionStorage.setItem('e2e:' + k, JSON.stringify(v)),
  del: (k) => sessionStorage.removeItem('e2e:' + k),
};
const redirectUrl = location.origin + '/callback';

// loggingFetch is fetch, noting each request: its method, URL, whether it sent a bearer
// token, and the answer's status and type ('cors' when the browser let the script read a
// cross-origin answer) or the error (a TypeError when CORS refused it).
function loggingFetch(input, init) {
  const url = String(input instanceof Request ? input.url : input);
  const entry = { method: (init && init.method) || 'GET', url,
    bearer: /^Bearer /.test(new Headers(init && init.headers).get('Authorization') || '') };
  const note = () => { const log = store.get('log') || []; log.push(entry); store.set('log', log); };
  return fetch(input, init).then((res) => { entry.status = res.status; entry.type = res.type; note(); return res; },
    (err) => { entry.error = err.name + ': ' + err.message; note(); throw err; });
}

// Provider is the OAuthClientProvider: a public client that registers dynamically with
// redirect_uris [its own /callback].
class Provider {
  get redirectUrl() { return redirectUrl; }
  get clientMetadata() {
    return { client_name: ${JSON.stringify(CLIENT_NAME)}, redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  state() { const s = crypto.randomUUID(); store.set('state', s); return s; }
  clientInformation() { return store.get('client'); }
  saveClientInformation(info) { store.set('client', info); }
  tokens() { return store.get('tokens'); }
  saveTokens(tokens) { store.set('tokens', tokens); }
  saveCodeVerifier(v) { store.set('verifier', v); }
  codeVerifier() { const v = store.get('verifier'); if (!v) throw new Error('no code verifier saved'); return v; }
  saveDiscoveryState(s) { store.set('discovery', s); }
  discoveryState() { return store.get('discovery'); }
  invalidateCredentials(what) {
    if (what === 'all' || what === 'client') store.del('client');
    if (what === 'all' || what === 'tokens') store.del('tokens');
    if (what === 'all' || what === 'verifier') store.del('verifier');
    if (what === 'all' || what === 'discovery') store.del('discovery');
  }
  redirectToAuthorization(url) { store.set('authorizationUrl', url.href); location.assign(url.href); }
}

const newTransport = () => new StreamableHTTPClientTransport(new URL(store.get('endpoint')), { authProvider: new Provider(), fetch: loggingFetch });

// startFlow connects to endpoint without a token and lists the tools (discovery needs none),
// then calls get_me: the SDK gets 401, discovers, registers and sends the window to the
// authorization page (UnauthorizedError ends the call meanwhile).
window.startFlow = async (endpoint) => {
  sessionStorage.clear();
  store.set('endpoint', endpoint);
  const client = new Client({ name: 'banana-budget-e2e', version: '1.0.0' });
  const start = {};
  try {
    await client.connect(newTransport());
    start.tools = (await client.listTools()).tools.map((t) => t.name);
    await client.callTool({ name: 'get_me', arguments: {} });
    start.called = true;
  } catch (e) {
    Object.assign(start, { unauthorized: e instanceof UnauthorizedError, error: e.name + ': ' + e.message });
  }
  store.set('start', start);
};

// finishFlow handles the redirect back: the state must be the one sent and the issuer the one
// discovered (RFC 9207) before the code is exchanged; then it calls the tools.
async function finishFlow() {
  const q = new URLSearchParams(location.search);
  const discovery = store.get('discovery') || {};
  const out = { params: Object.fromEntries(q), sentState: store.get('state'), start: store.get('start'),
    authorizationUrl: store.get('authorizationUrl'), client: store.get('client'),
    issuer: discovery.authorizationServerMetadata && discovery.authorizationServerMetadata.issuer };
  const done = () => Object.assign(out, { tokens: store.get('tokens') || null, log: store.get('log') || [] });
  try {
    if (!q.get('state') || q.get('state') !== out.sentState) throw new Error('the state is not the one sent');
    if (q.get('iss') !== out.issuer) throw new Error('iss is not the issuer discovered');
    if (q.has('error')) return done();
    const transport = newTransport();
    await transport.finishAuth(q.get('code')); // the token request, with the PKCE verifier
    out.afterExchange = store.get('tokens') || null;
    const client = new Client({ name: 'banana-budget-e2e', version: '1.0.0' });
    await client.connect(newTransport()); // a new connection, with the access token
    out.tools = (await client.listTools()).tools.map((t) => t.name);
    const call = async (name, args) => {
      const r = await client.callTool({ name, arguments: args });
      return { isError: Boolean(r.isError), structured: r.structuredContent, text: r.content.map((c) => c.text).join('\\n') };
    };
    out.me = await call('get_me', {});
    out.added = await call('add_expense', ${JSON.stringify(EXPENSE)});
    out.listed = await call('list_expenses', {});
    await client.close();
  } catch (e) {
    out.error = e.name + ': ' + e.message;
  }
  return done();
}
if (location.pathname === '/callback') window.flowResult = finishFlow();
window.pageReady = true;
</script></body></html>
`;

// startPageServer serves the page (at / and /callback) and the SDK's bundle on another
// loopback port, resolving to its origin.
function startPageServer(bundle) {
  const pageServer = http.createServer((req, res) => {
    const { pathname } = new URL(req.url, 'http://page');
    if (pathname === '/' || pathname === '/callback') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(PAGE);
    } else if (pathname === '/sdk.js') {
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

// pathOf returns a URL's path.
const pathOf = (u) => new URL(u).pathname;

let browser;
let pageServer;
try {
  const bin = buildBinary(tmp);
  const db = path.join(tmp, 'expenses.db');
  const userID = addUser(bin, db);
  const endpoint = await startExpensesServer(bin, db);
  const base = new URL(endpoint).origin;

  // The SDK's browser build: its client, transport and auth with their dependencies in one ES
  // module.
  const built = await esbuild.build({
    stdin: {
      contents: "export { Client } from '@modelcontextprotocol/sdk/client/index.js';\n" +
        "export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';\n" +
        "export { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';\n",
      resolveDir: root,
    },
    bundle: true, format: 'esm', platform: 'browser', target: 'chrome120', write: false, logLevel: 'warning',
  });
  const sdkVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')).version;
  let origin;
  ({ pageServer, origin } = await startPageServer(built.outputFiles[0].contents));
  assert.notEqual(new URL(origin).origin, base, 'the page and the server share an origin');
  const callback = `${origin}/callback`;
  console.log(`bananaqr expenses serve on ${base} (user ${USER}, id ${userID}); the page on ${origin}; @modelcontextprotocol/sdk ${sdkVersion}`);

  await check('1. the preflights of /register (JSON) and /token allow a script on another origin', async () => {
    const seen = [];
    for (const [p, asked] of [['/register', ['content-type']], ['/token', ['content-type']]]) {
      const res = await fetch(base + p, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': asked.join(',') },
      });
      assert.ok(res.status >= 200 && res.status < 300, `${p}: preflight status ${res.status}`);
      assert.equal(res.headers.get('access-control-allow-origin'), '*', `${p}: Access-Control-Allow-Origin`);
      assert.ok(headerList(res.headers, 'access-control-allow-methods').includes('post'), `${p}: POST not in Access-Control-Allow-Methods`);
      const allowed = headerList(res.headers, 'access-control-allow-headers');
      for (const h of asked) assert.ok(allowed.includes(h), `${p}: ${h} not in Access-Control-Allow-Headers: ${allowed}`);
      seen.push(`${p}: ${res.status}`);
    }
    return seen.join(', ');
  });

  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  const serverLog = servers[servers.length - 1];
  const logMark = serverLog.log.length; // what the server logged before the browser's requests
  const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

  // person opens a browser (a context of its own: cookies and sessionStorage), loads the page
  // and starts the flow; it resolves when the window shows the authorization page, to
  // { page, problems, authorize } (authorize: the authorization page's first response).
  async function person() {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => window.pageReady === true, null, { timeout: 10000 });
    const authorize = page.waitForResponse((r) => r.url().startsWith(`${base}/authorize?`), { timeout: 15000 }).catch((e) => e);
    await page.evaluate((e) => { window.startFlow(e); }, endpoint); // not awaited: it navigates
    try {
      await page.waitForURL((u) => u.origin === base && u.pathname === '/authorize', { timeout: 15000 });
    } catch (e) {
      const state = page.url().startsWith(origin) ? await page.evaluate(() => JSON.stringify({ ...sessionStorage })).catch(() => '') : '';
      throw new Error(`the window did not reach ${base}/authorize (at ${page.url()}): ${e.message}\nsessionStorage: ${state}\nbrowser console: ${problems.join('\n')}`);
    }
    const first = await authorize;
    if (first instanceof Error) throw first;
    return { context, page, problems, authorize: first };
  }

  // axe runs axe-core's WCAG 2.1 A and AA rules on the page as it is, and returns its
  // violations as lines. It is evaluated through the DevTools protocol, so the page's CSP
  // (no script at all) stays as it is.
  async function axe(p, label) {
    if (!(await p.evaluate(() => typeof window.axe === 'object'))) await p.evaluate(axeSource);
    const result = await p.evaluate(() => window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }));
    return result.violations.map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.length}× ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  }

  // pageFacts reads what a person (and a screen reader) gets from the authorization page.
  const pageFacts = (p) => p.evaluate(() => ({
    lang: document.documentElement.lang,
    h1: [...document.querySelectorAll('h1')].map((h) => h.textContent.trim()),
    unlabelled: [...document.querySelectorAll('input:not([type=hidden]), button, select, textarea')]
      .filter((el) => !(el.labels && [...el.labels].some((l) => l.textContent.trim())) && !el.getAttribute('aria-label') && !(el.tagName === 'BUTTON' && el.textContent.trim()))
      .map((el) => el.outerHTML),
    grants: [...document.querySelectorAll('input[name=grant]')].map((el) => ({ scope: el.value, checked: el.checked, label: [...el.labels].map((l) => l.textContent.trim()).join(' ') })),
    alert: (document.querySelector('[role=alert]') || { textContent: '' }).textContent.trim(),
    text: document.body.innerText,
  }));

  // tabOrder presses Tab from the top of the page until focus leaves the form, and returns the
  // focused controls in order (id, or a button's value).
  async function tabOrder(p) {
    await p.evaluate(() => { document.activeElement && document.activeElement.blur(); window.getSelection().removeAllRanges(); });
    const order = [];
    for (let i = 0; i < 8; i++) {
      await p.keyboard.press('Tab');
      const id = await p.evaluate(() => { const el = document.activeElement; return el && el !== document.body ? (el.id || el.value || el.tagName) : null; });
      if (!id || order.includes(id)) break;
      order.push(id);
    }
    return order;
  }

  // tabTo moves focus to the control target (an id, or a button's value) with Tab from the top.
  async function tabTo(p, target) {
    await p.evaluate(() => { document.activeElement && document.activeElement.blur(); });
    for (let i = 0; i < 8; i++) {
      await p.keyboard.press('Tab');
      if (await p.evaluate((t) => { const el = document.activeElement; return el && (el.id === t || el.value === t && el.tagName === 'BUTTON'); }, target)) return;
    }
    throw new Error(`Tab never reached ${target}`);
  }

  // ---- Allow ----
  let allow;
  await check('2. tools/list needs no token, the first tools/call gets 401: the SDK discovers, registers and sends the window to /authorize with PKCE S256, the resource and a state', async () => {
    allow = await person();
    const u = new URL(allow.page.url());
    const q = u.searchParams;
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge') || '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(q.get('redirect_uri'), callback);
    assert.equal(q.get('resource'), endpoint, 'resource (RFC 8707)');
    assert.ok(q.get('state'), 'no state');
    assert.match(q.get('client_id') || '', /^bqk_/, 'not a client_id this server registered');
    assert.deepEqual((q.get('scope') || '').split(' ').sort(), SCOPES);
    assert.equal(allow.authorize.status(), 200);
    const csp = allow.authorize.headers()['content-security-policy'] || '';
    assert.match(csp, /default-src 'none'/, `CSP: ${csp}`);
    return `client ${q.get('client_id').slice(0, 12)}…, scope "${q.get('scope')}"`;
  });

  await check('3. the sign-in and consent page names the client and both permissions; lang, one h1, every control labelled, Tab order, axe-core clean', async () => {
    assert.ok(allow, 'no authorization page (check 2)');
    const p = allow.page;
    const facts = await pageFacts(p);
    assert.equal(facts.lang, 'en');
    assert.equal(facts.h1.length, 1, `h1: ${facts.h1}`);
    assert.ok(facts.h1[0].includes(CLIENT_NAME), `h1 does not name the client: ${facts.h1[0]}`);
    assert.deepEqual(facts.unlabelled, [], 'controls without a label');
    assert.deepEqual(facts.grants.map((g) => g.scope), SCOPES);
    for (const g of facts.grants) {
      assert.ok(g.checked, `${g.scope} not checked at first`);
      assert.ok(g.label.length > 10, `${g.scope}: label "${g.label}"`);
    }
    assert.ok(facts.text.includes(new URL(origin).host), 'the page does not say where the person is sent back to');
    const order = await tabOrder(p);
    assert.deepEqual(order, ['grant-expenses:read', 'grant-expenses:write', 'username', 'password', 'allow', 'deny'], `Tab order: ${order}`);
    const violations = await axe(p, 'the authorization page');
    assert.deepEqual(violations, []);
    return `"${facts.h1[0]}"; ${facts.grants.map((g) => `${g.scope}: "${g.label}"`).join('; ')}; Tab: ${order.join(' → ')}`;
  });

  await check('4. a wrong password: the page says so (role=alert, described-by), keeps the name and the choices, axe-core clean', async () => {
    assert.ok(allow, 'no authorization page (check 2)');
    const p = allow.page;
    await tabTo(p, 'username');
    await p.keyboard.type(USER);
    await p.keyboard.press('Tab');
    await p.keyboard.type('not the password at all');
    await tabTo(p, 'allow');
    const answer = p.waitForResponse((r) => r.url() === `${base}/authorize` && r.request().method() === 'POST');
    await p.keyboard.press('Enter');
    assert.equal((await answer).status(), 401);
    await p.waitForSelector('[role=alert]', { timeout: 10000 }); // in the new document: the answer is in before it is shown
    await p.waitForLoadState();
    const facts = await pageFacts(p);
    assert.match(facts.alert, /not right/, `alert: ${facts.alert}`);
    assert.equal(await p.inputValue('#username'), USER);
    assert.equal(await p.getAttribute('#username', 'aria-describedby'), 'problem');
    assert.deepEqual(facts.grants.map((g) => g.checked), [true, true]);
    assert.deepEqual(await axe(p, 'after a wrong password'), []);
    return `"${facts.alert}"`;
  });

  let result;
  await check('5. the right password typed, Allow pressed: back at /callback with code, state and iss; the SDK exchanges the code (PKCE) and the page calls get_me and add_expense', async () => {
    assert.ok(allow, 'no authorization page (check 2)');
    const p = allow.page;
    await tabTo(p, 'password');
    await p.keyboard.type(PASSWORD);
    await tabTo(p, 'allow');
    await p.keyboard.press('Enter');
    await p.waitForURL((u) => u.origin === origin && u.pathname === '/callback', { timeout: 15000 });
    await p.waitForFunction(() => window.flowResult !== undefined, null, { timeout: 10000 });
    result = await p.evaluate(() => window.flowResult);
    const where = `\nresult: ${JSON.stringify(result, null, 1).slice(0, 3000)}\nbrowser console: ${allow.problems.join('\n')}`;
    assert.ok(!result.error, `the page failed: ${result.error}${where}`);
    assert.ok(result.start && result.start.tools && result.start.tools.includes('get_me'), `tools/list without a token: ${JSON.stringify(result.start)}`);
    assert.ok(result.start.unauthorized, `the first get_me did not end in UnauthorizedError: ${JSON.stringify(result.start)}`);
    assert.match(result.params.code || '', /^bqc_/, `no code at the callback${where}`);
    assert.equal(result.params.iss, base);
    assert.equal(result.params.state, result.sentState);
    assert.equal(result.client.client_name, CLIENT_NAME);
    assert.deepEqual(result.client.redirect_uris, [callback]);
    const t = result.afterExchange;
    assert.ok(t, `no tokens saved after finishAuth${where}`);
    assert.match(t.access_token, /^bqa_/);
    assert.match(t.refresh_token, /^bqr_/);
    assert.equal(t.token_type.toLowerCase(), 'bearer');
    assert.deepEqual(t.scope.split(' ').sort(), SCOPES);
    assert.ok(t.expires_in > 0);
    assert.ok(result.tools.includes('get_me') && result.tools.includes('add_expense'), `tools: ${result.tools}`);
    assert.equal(result.me.isError, false, result.me.text);
    assert.deepEqual({ id: result.me.structured.id, name: result.me.structured.name }, { id: userID, name: USER });
    assert.equal(result.added.isError, false, result.added.text);
    const added = result.added.structured;
    assert.match(added.id || '', /^[0-9a-f]{32}$/, `add_expense: ${JSON.stringify(added)}`);
    assert.deepEqual([added.title, added.amount, added.currency, added.paidBy], [EXPENSE.title, '12.50', 'EUR', 'me']);
    assert.equal(result.listed.isError, false, result.listed.text);
    assert.ok(JSON.stringify(result.listed.structured).includes(added.id), `list_expenses does not show ${added.id}: ${result.listed.text}`);
    return `get_me ${result.me.structured.name} (${userID.slice(0, 8)}…), add_expense ${added.id.slice(0, 8)}… ${added.amount} ${added.currency}, listed`;
  });

  await check('6. Chromium enforced CORS and let the SDK read /register and /token (and every other answer): the requests, in order', async () => {
    assert.ok(result && result.log, 'no flow (check 5)');
    const log = result.log;
    const line = (e) => `${e.method} ${pathOf(e.url)}${e.bearer ? ' (bearer)' : ''} → ${e.error || `${e.status} ${e.type}`}`;
    const failedFetches = log.filter((e) => e.error);
    assert.deepEqual(failedFetches.map(line), [], 'fetches that failed (a TypeError is CORS refusing an answer)');
    for (const e of log) assert.equal(e.type, 'cors', `not read in CORS mode: ${line(e)}`);
    const find = (step, p) => {
      const [method, status] = step.split(' ');
      return log.findIndex((e) => e.method === method && pathOf(e.url) === p && (!status || e.status === Number(status)));
    };
    const steps = [['POST 401', '/mcp'], ['GET', '/.well-known/oauth-protected-resource/mcp'], ['GET', '/.well-known/oauth-authorization-server'], ['POST', '/register'], ['POST', '/token']];
    const at = steps.map(([m, p]) => find(m, p));
    assert.ok(at.every((i) => i >= 0), `missing: ${steps.filter((_, i) => at[i] < 0).map((s) => s.join(' '))}\n${log.map(line).join('\n')}`);
    assert.deepEqual([...at].sort((a, b) => a - b), at, `out of order:\n${log.map(line).join('\n')}`);
    assert.ok(log.slice(0, at[0]).every((e) => pathOf(e.url) === '/mcp' && !e.bearer), 'requests before the first 401 other than to /mcp without a token');
    assert.equal(log[at[3]].status, 201, '/register');
    assert.equal(log[at[4]].status, 200, '/token');
    const after = log.slice(at[4] + 1).filter((e) => e.method === 'POST' && pathOf(e.url) === '/mcp');
    assert.ok(after.length >= 4 && after.every((e) => e.bearer && e.status >= 200 && e.status < 300), `/mcp after the token:\n${after.map(line).join('\n')}`);
    // The server's access log shows the preflights Chromium sent: the JSON of /register and
    // the Mcp-Protocol-Version of the metadata requests are not CORS-safelisted.
    const preflights = serverLog.log.slice(logMark).split('\n').filter(Boolean).map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'request' && l.method === 'OPTIONS').map((l) => `${l.route} ${l.status}`);
    for (const p of ['/register', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server']) {
      assert.ok(preflights.includes(`${p} 204`), `no preflight of ${p} in the server's log: ${preflights}`);
    }
    return `${log.map(line).join('; ')}; preflights: ${[...new Set(preflights)].join(', ')}`;
  });

  await allow?.context.close();

  // ---- Deny ----
  await check('7. another browser, Deny pressed: the callback gets error=access_denied with the state and iss; no token asked for or stored; get_me without one still 401', async () => {
    const deny = await person();
    try {
      const p = deny.page;
      await tabTo(p, 'deny');
      await p.keyboard.press('Enter');
      await p.waitForURL((u) => u.origin === origin && u.pathname === '/callback', { timeout: 15000 });
      await p.waitForFunction(() => window.flowResult !== undefined, null, { timeout: 10000 });
      const r = await p.evaluate(() => window.flowResult);
      assert.ok(!r.error, `the page failed: ${r.error}`);
      assert.equal(r.params.error, 'access_denied', JSON.stringify(r.params));
      assert.equal(r.params.code, undefined, 'a code with the denial');
      assert.equal(r.params.state, r.sentState);
      assert.equal(r.params.iss, base);
      assert.equal(r.tokens, null, `tokens stored: ${JSON.stringify(r.tokens)}`);
      assert.ok(r.log.some((e) => e.method === 'POST' && pathOf(e.url) === '/register' && e.status === 201), 'this browser did not register its client');
      assert.deepEqual(r.log.filter((e) => pathOf(e.url) === '/token'), [], 'a token request after Deny');
      const res = await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_me', arguments: {} } }) });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate') || '', /^Bearer .*resource_metadata=/);
      return `error=${r.params.error} (${r.params.error_description})`;
    } finally {
      await deny.context.close();
    }
  });
} catch (e) {
  failed(e && e.stack ? e.stack : e);
} finally {
  if (browser) await browser.close();
  if (pageServer) pageServer.close();
  stopServers();
}

finish(started, 'the MCP TypeScript SDK\'s OAuth client in headless Chromium signs anna in to bananaqr expenses serve and calls its tools');
