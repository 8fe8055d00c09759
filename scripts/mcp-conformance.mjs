// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
// against both MCP servers: `bananaqr serve`'s /mcp and `bananaqr expenses serve`'s /mcp.
// scripts/mcp-conformance.sh runs it on Node ≥ 22 (the suite's own requirement); see there.
//
// The suite's server mode connects its own client (the TypeScript SDK's) to a URL and runs
// scenarios. It is run with --requirements for each revision the servers speak that the suite
// freezes a list for: 2025-11-25 (initialize, sessions optional) and 2026-07-28 (stateless,
// server/discover, per-request _meta). Many scenarios call fixture tools (test_simple_text,
// slow_compute, …), read fixture resources or get fixture prompts that a conformance test
// server implements and these servers, with their own tools, do not. SCENARIOS says for each
// scenario whether it applies and, if not, why; FIXTURE_CHECKS names the single checks of an
// applicable scenario that need a fixture. The rule: every check that does not need a fixture
// passes (a FAILURE anywhere else fails the run); the others are printed with their reason. A
// scenario this file does not know (a newer suite) fails the run until it is decided on.
//
// The suite's client sends no Authorization header (its server mode has no option for one), and
// none of the applicable scenarios calls an expenses tool: discovery, lists and the protocol's
// own methods are open on the expenses server. So the expenses server is run twice: as the suite
// connects, and through a proxy that adds "Authorization: Bearer <token>" to every request, with
// a token issued by `bananaqr expenses token` (the applicable checks pass with a valid token
// too), and once with a wrong token, which the server must refuse with 401 (server-initialize
// fails).
//
// Authorization (issue 34). The suite tests authorization from two sides. Its client scenarios
// (auth/…, `conformance list --client`) test an MCP client: the suite plays both the MCP server
// and the authorization server, and checks what the client asks of them; a server has nothing to
// run there. Its authorization server scenarios (`conformance authorization`, AUTHORIZATION_
// SCENARIOS) test an authorization server: they apply to bananaqr expenses serve, whose OAuth 2.1
// authorization server is on by default, and not to bananaqr serve, which has none (its tools are
// open). This script reaches that server as those clients do: the 401's challenge names the
// protected resource metadata (RFC 9728 5.1), whose authorization_servers names the issuer; it
// registers a client there (RFC 7591, the default --registration open) for the suite's callback
// http://127.0.0.1:<port>/callback, and, when the suite prints the authorization URL for a person
// to open, plays the person's browser: opens the page, signs in with the user's password, allows,
// and follows the redirect to the suite's callback. The suite then exchanges the code with PKCE
// and the resource (RFC 8707) at the token endpoint and checks the answer.
//
// Usage: node scripts/mcp-conformance.mjs            (BANANAQR_BIN=path: an already built binary)
//        node scripts/mcp-conformance.mjs --list     (the scenarios, and why some do not apply)
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

const FIXTURE = 'needs the suite\'s fixture';
const REVISIONS = ['2025-11-25', '2026-07-28'];
// SCENARIOS: null for a scenario that applies to a server whose tools are its own (tools, and
// prompts and resources declared and empty), else why it does not apply.
const SCENARIOS = {
  'server-initialize': null,
  'server-session-lifecycle': null, // stateless servers: the suite skips its checks
  'server-stateless': null,
  'ping': null,
  'tools-list': null,
  'prompts-list': null,
  'resources-list': null,
  'sep-2164-resource-not-found': null,
  'dns-rebinding-protection': null,
  'caching': null,
  'http-header-validation': null,
  'tasks-capability-negotiation': null,
  'tasks-dispatch-and-envelope': null,
  'logging-set-level': 'needs the logging capability, which neither server declares (the Go SDK still answers logging/setLevel with {}, so it passes without testing anything they offer)',
  'completion-complete': `${FIXTURE} prompt test_prompt_with_arguments and its completions; the servers have no prompts or completions`,
  'tools-call-simple-text': `${FIXTURE} tool test_simple_text`,
  'tools-call-image': `${FIXTURE} tool test_image_content (bananaqr's generate_qr answers image content; Go tests, e2e/mcp-browser.mjs and scripts/mcp-inspector.sh check it)`,
  'tools-call-audio': `${FIXTURE} tool test_audio_content`,
  'tools-call-embedded-resource': `${FIXTURE} tool test_embedded_resource`,
  'tools-call-mixed-content': `${FIXTURE} tool test_multiple_content_types`,
  'tools-call-with-logging': `${FIXTURE} tool test_tool_with_logging, and logging`,
  'tools-call-error': `${FIXTURE} tool test_error_handling (tool errors of the servers' own tools are tested in Go)`,
  'tools-call-with-progress': `${FIXTURE} tool test_tool_with_progress`,
  'tools-call-sampling': `${FIXTURE} tool test_sampling; the servers ask the client nothing`,
  'tools-call-elicitation': `${FIXTURE} tool test_elicitation; the servers ask the client nothing`,
  'json-schema-2020-12': `${FIXTURE} tool json_schema_2020_12_tool`,
  'elicitation-sep1034-defaults': `${FIXTURE} tool test_elicitation_sep1034_defaults; the servers ask the client nothing`,
  'elicitation-sep1330-enums': `${FIXTURE} tool test_elicitation_sep1330_enums; the servers ask the client nothing`,
  'server-sse-polling': `${FIXTURE} tool test_reconnection and a session with SSE streams; the servers are stateless and answer JSON (design/mcp.md)`,
  'server-sse-multiple-streams': 'needs a session (Mcp-Session-Id) with SSE streams; the servers are stateless and answer JSON',
  'resources-read-text': `${FIXTURE} resource test://static-text`,
  'resources-read-binary': `${FIXTURE} resource test://static-binary`,
  'resources-templates-read': `${FIXTURE} resource template test://template/{id}/data`,
  'resources-subscribe': 'needs fixture resources and resource subscriptions, which the servers do not declare',
  'resources-unsubscribe': 'needs fixture resources and resource subscriptions, which the servers do not declare',
  'sep-2640-skills-directory': 'the skills extension (SEP-2640), which the servers do not offer',
  'sep-2640-skills-enumeration': 'the skills extension (SEP-2640), which the servers do not offer',
  'sep-2640-skills-manifest': 'the skills extension (SEP-2640), which the servers do not offer',
  'prompts-get-simple': `${FIXTURE} prompt test_simple_prompt`,
  'prompts-get-with-args': `${FIXTURE} prompt test_prompt_with_arguments`,
  'prompts-get-embedded-resource': `${FIXTURE} prompt test_prompt_with_embedded_resource`,
  'prompts-get-with-image': `${FIXTURE} prompt test_prompt_with_image`,
  'http-custom-header-server-validation': 'needs a tool with x-mcp-header parameter annotations (SEP-2243), which neither server has',
  'tasks-lifecycle': `${FIXTURE} tools greet, slow_compute, failing_job, protocol_error_job (the tasks extension, which the servers do not offer)`,
  'tasks-wire-fields': `${FIXTURE} tool slow_compute (tasks)`,
  'tasks-request-state-removal': `${FIXTURE} tool slow_compute (tasks)`,
  'tasks-mrtr-input': `${FIXTURE} tools confirm_delete and multi_input (tasks)`,
  'tasks-request-headers': `${FIXTURE} tools greet and slow_compute (tasks)`,
  'tasks-status-notifications': 'the suite has no checks for it yet',
  'tasks-required-task-error': `${FIXTURE} tool failing_job (a tool that requires a task)`,
  'tasks-mrtr-composition': `${FIXTURE} tool test_tool_with_task`,
};
for (const s of ['basic-elicitation', 'basic-sampling', 'basic-list-roots', 'request-state', 'multiple-input-requests', 'multi-round',
  'missing-input-response', 'non-tool-request', 'result-type', 'unsupported-methods', 'tampered-state', 'capability-check',
  'ignore-extra-params', 'validate-input']) {
  SCENARIOS[`input-required-result-${s}`] = `${FIXTURE} tools and prompt test_input_required_result_* (SEP-2322); the servers ask the client nothing`;
}
// FIXTURE_CHECKS: checks of applicable scenarios that need a fixture, and why.
const FIXTURE_CHECKS = {
  'server-stateless/sep-2575-server-rejects-undeclared-capability': `${FIXTURE} tool test_missing_capability`,
  'server-stateless/sep-2575-missing-capability-http-400': `${FIXTURE} tool test_missing_capability`,
  'server-stateless/sep-2575-http-server-no-independent-requests-on-stream': `${FIXTURE} tool test_streaming_elicitation`,
  'server-stateless/sep-2575-server-no-log-without-loglevel': `${FIXTURE} tool test_logging_tool`,
  'tasks-capability-negotiation/tasks-extension-advertised': 'asks the server to advertise the tasks extension, which it does not offer (it runs no tasks)',
  'tasks-capability-negotiation/sep-2663-server-rejects-undeclared-client': `${FIXTURE} tool slow_compute`,
  'tasks-capability-negotiation/tasks-per-request-meta-opt-in': `${FIXTURE} tool slow_compute`,
  'tasks-dispatch-and-envelope/tasks-server-directed-creation-no-hint': `${FIXTURE} tool failing_job`,
  'tasks-dispatch-and-envelope/sep-2663-legacy-task-param-ignored': `${FIXTURE} tool greet`,
  'tasks-dispatch-and-envelope/tasks-immediate-result-shortcut': `${FIXTURE} tool slow_compute`,
  'tasks-dispatch-and-envelope/tasks-result-type-complete-on-non-task-responses': `${FIXTURE} tool greet`,
  'tasks-dispatch-and-envelope/sep-2663-durable-create-strong-consistency': `${FIXTURE} tool slow_compute`,
};
const applicable = Object.keys(SCENARIOS).filter((s) => SCENARIOS[s] === null);
// AUTHORIZATION_SCENARIOS: the suite's authorization server scenarios, null for one that applies
// to bananaqr expenses serve's authorization server, else why not. The suite's requirement sets
// (requirements/*.yaml) deliberately list none, the MCP specification putting authorization
// servers beyond its scope; issue 34 asks for them.
const AUTHORIZATION_SCENARIOS = {
  // RFC 8414 metadata at /.well-known/oauth-authorization-server: 200, JSON, the issuer equal to
  // the URL it was found under, the endpoints, response type code, S256, and (2025-11-25) Client
  // ID Metadata Documents supported.
  'authorization-server-metadata-endpoint': null,
  // OAuth 2.1 4.1: an authorization request with PKCE S256, state and resource, answered at the
  // redirect URI with the code, the state and iss (RFC 9207, checked against the metadata); the
  // code exchanged by a public client (none) for a JSON answer with access_token and token_type,
  // Cache-Control: no-store.
  'authorization-code-grant': null,
};
const applicableAuthorization = Object.keys(AUTHORIZATION_SCENARIOS).filter((s) => AUTHORIZATION_SCENARIOS[s] === null);

if (process.argv.includes('--list')) {
  for (const [s, why] of Object.entries(SCENARIOS)) console.log(`${s}\t${why === null ? 'applies' : `does not apply: ${why}`}`);
  for (const [c, why] of Object.entries(FIXTURE_CHECKS)) console.log(`${c}\tdoes not apply: ${why}`);
  for (const [s, why] of Object.entries(AUTHORIZATION_SCENARIOS)) {
    console.log(`authorization ${s}\t${why === null ? 'applies to bananaqr expenses serve' : `does not apply: ${why}`}`);
  }
  console.log('client auth/…\tnot run: they test an MCP client (the suite plays the MCP server and the authorization server)');
  process.exit(0);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bananaqr-conformance-'));
process.env.TMPDIR = tmp; // the suite, the servers and npx write their temporary files here, removed on exit
const children = [];
// stopChildren ends the servers and suites still running, and waits until they have exited: the
// expenses server writes its database in tmp until then.
async function stopChildren() {
  await Promise.all(children.filter((c) => c.exitCode === null && c.signalCode === null).map((c) => new Promise((resolve) => {
    c.once('exit', resolve);
    c.kill('SIGTERM');
  })));
}
// On any exit, failures and signals included; a child still writing may make one pass miss a file.
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (let i = 0; i < 20 && fs.existsSync(tmp); i++) fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1)); // the servers stopped on the way out
let failures = 0;
const fail = (msg) => { failures++; console.log(`FAIL: ${msg}`); };

// suite runs the conformance CLI with args and resolves to its output (stdout and stderr).
// Asynchronously: the bearer-token proxy serves it from this process. When the last argument is
// a function, it is called with the output so far each time more comes.
function suite(...args) {
  const watch = typeof args.at(-1) === 'function' ? args.pop() : () => {};
  const proc = spawn(process.execPath, [SUITE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(proc);
  let out = '';
  proc.stdout.setEncoding('utf8').on('data', (d) => { out += d; watch(out); });
  proc.stderr.setEncoding('utf8').on('data', (d) => { out += d; watch(out); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGTERM'); reject(new Error(`conformance ${args.join(' ')}: no end within 120 s:\n${out}`)); }, 120000);
    proc.on('close', () => { clearTimeout(timer); resolve(out); });
  });
}

// start runs a server and resolves to the address its log says it listens on (pattern's group).
function start(name, bin, args, pattern) {
  const proc = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(proc);
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not log that it listens within 10 s: ${log}`)), 10000);
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (chunk) => {
      if (log.length < 100000) log += chunk;
      const m = log.match(pattern);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited ${code}: ${log}`)); });
  });
}

// bearerProxy forwards every request to upstream (host:port) as it came, Host included (the
// dns-rebinding scenario sets it), with "Authorization: Bearer token" added. It resolves to its
// own address and the answers it passed back ({status, challenge: WWW-Authenticate}).
function bearerProxy(upstream, token) {
  const i = upstream.lastIndexOf(':');
  const answers = [];
  const proxy = http.createServer((req, res) => {
    const out = http.request({ host: upstream.slice(0, i), port: Number(upstream.slice(i + 1)), method: req.method,
      path: req.url, headers: { ...req.headers, authorization: `Bearer ${token}` } }, (up) => {
      answers.push({ status: up.statusCode, challenge: up.headers['www-authenticate'] });
      res.writeHead(up.statusCode, up.headers);
      up.pipe(res);
    });
    out.on('error', (e) => { res.writeHead(502).end(String(e)); });
    req.pipe(out);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => {
    proxy.unref();
    resolve({ addr: `127.0.0.1:${proxy.address().port}`, answers });
  }));
}

// run runs the scenarios each revision requires (--requirements), or the named scenarios, against
// url and returns, for each revision and scenario ("2026-07-28 caching"), its checks (from the
// suite's checks.json).
async function run(label, url, scenarios) {
  const results = {};
  const outputs = [];
  const sets = scenarios ? [['', scenarios.flatMap((s) => ['--scenario', s])]] : REVISIONS.map((r) => [r, ['--requirements', r]]);
  for (const [revision, args] of sets) {
    const out = fs.mkdtempSync(path.join(tmp, 'results-'));
    outputs.push(await suite('server', '--url', url, ...args, '-o', out));
    for (const dir of fs.readdirSync(out)) {
      const m = dir.match(/^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/);
      if (m) results[`${revision} ${m[1]}`.trim()] = JSON.parse(fs.readFileSync(path.join(out, dir, 'checks.json'), 'utf8'));
    }
  }
  if (Object.keys(results).length === 0) fail(`${label}: the suite saved no results:\n${outputs.join('\n')}`);
  return results;
}

// judge prints a server's results and fails the run for a failed check that needs no fixture:
// any in an applicable scenario but those FIXTURE_CHECKS names. It also fails when an applicable
// scenario of the requirements did not run at all.
function judge(label, results, excused = {}) {
  const why = (scenario, c) => FIXTURE_CHECKS[`${scenario}/${c.id}`] || excused[`${scenario}/${c.id}`];
  console.log(`\n== ${label}`);
  for (const [key, checks] of Object.entries(results)) {
    const scenario = key.split(' ').pop();
    const reason = SCENARIOS[scenario];
    const count = (st) => checks.filter((c) => c.status === st).length;
    const text = `${count('SUCCESS')} passed, ${count('FAILURE')} failed, ${count('WARNING')} warnings`;
    if (reason !== null && reason !== undefined) {
      console.log(`not applicable: ${key} (${text}) — ${reason}`);
      continue;
    }
    const failed = checks.filter((c) => c.status === 'FAILURE');
    const notApplicable = failed.filter((c) => why(scenario, c));
    const wrong = failed.filter((c) => !why(scenario, c));
    if (wrong.length) {
      fail(`${label}: ${key}: ${wrong.map((c) => `${c.id}: ${c.errorMessage || c.description}`).join('; ').slice(0, 400)}`);
    } else {
      console.log(`ok: ${key} (${text}${notApplicable.length ? `; not applicable: ${notApplicable.map((c) => c.id).join(', ')}` : ''})`);
    }
  }
  const ran = new Set(Object.keys(results).map((key) => key.split(' ').pop()));
  const missing = applicable.filter((s) => !ran.has(s));
  if (missing.length) fail(`${label}: applicable scenarios that did not run: ${missing.join(', ')}`);
}

// freePort resolves to a TCP port on 127.0.0.1 that nothing listens on now: the suite's callback
// server listens there next.
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer().on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// unescapeHTML decodes the character references html/template writes in attribute values.
function unescapeHTML(s) {
  const named = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (ref, name) => {
    if (name[0] !== '#') return named[name.toLowerCase()] ?? ref;
    return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
  });
}

// signIn does what a person does in a browser at an authorization URL: opens the sign-in and
// consent page, keeps its cookie (the form's anti-forgery token is bound to it), posts the form
// as it came (its hidden fields, every permission it offers ticked) with name and password and
// Allow, and follows the server's redirect to the client's redirect URI, the suite's callback. It
// resolves to that redirect.
async function signIn(authorizeURL, name, password) {
  const page = await fetch(authorizeURL, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) {
    throw new Error(`GET ${authorizeURL}: ${page.status}, not the sign-in page: ${page.headers.get('location') || html.slice(0, 300)}`);
  }
  const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const form = new URLSearchParams();
  for (const [, attrs] of html.matchAll(/<input\b([^>]*)>/g)) {
    const a = Object.fromEntries([...attrs.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, unescapeHTML(v)]));
    if (a.type === 'hidden' || (a.type === 'checkbox' && a.name === 'grant')) form.append(a.name, a.value);
  }
  form.set('username', name);
  form.set('password', password);
  form.set('decision', 'allow');
  const action = html.match(/<form method="post" action="([^"]+)"/);
  if (!action || !form.has('form_token') || !form.has('grant')) throw new Error(`the sign-in page has no form to post: ${html.slice(0, 300)}`);
  const answer = await fetch(new URL(unescapeHTML(action[1]), authorizeURL), { method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: form });
  const location = answer.headers.get('location');
  if (answer.status !== 303 || !location) throw new Error(`signing in: ${answer.status} without a redirect: ${(await answer.text()).slice(0, 300)}`);
  const back = await fetch(location);
  if (!back.ok) throw new Error(`the redirect ${location} answered ${back.status}`);
  return location;
}

// getJSON fetches url and resolves to its JSON body, failing unless it answers 200 and JSON.
async function getJSON(url) {
  const r = await fetch(url);
  if (r.status !== 200 || !/^application\/json\b/.test(r.headers.get('content-type') || '')) {
    throw new Error(`GET ${url}: ${r.status} ${r.headers.get('content-type')}, want 200 and JSON: ${(await r.text()).slice(0, 300)}`);
  }
  return r.json();
}

// discoverIssuer follows a client's way from a 401's WWW-Authenticate challenge to the
// authorization server (MCP authorization 2025-11-25, "Authorization Server Discovery"): its
// resource_metadata names the protected resource metadata (RFC 9728 5.1), whose resource must be
// the MCP endpoint (RFC 9728 3.3) and whose authorization_servers names the issuer. It resolves
// to the issuer, and the authorization server's metadata (RFC 8414 3).
async function discoverIssuer(challenge, resource) {
  const m = /\bresource_metadata="([^"]+)"/.exec(challenge || '');
  if (!m) throw new Error(`the 401's challenge names no resource_metadata: ${challenge}`);
  const prm = await getJSON(m[1]);
  if (prm.resource !== resource) throw new Error(`the protected resource metadata ${m[1]} names resource ${prm.resource}, want ${resource}`);
  const issuer = Array.isArray(prm.authorization_servers) ? prm.authorization_servers[0] : undefined;
  if (typeof issuer !== 'string') throw new Error(`the protected resource metadata ${m[1]} names no authorization_servers: ${JSON.stringify(prm)}`);
  return { issuer, metadata: await getJSON(`${issuer.replace(/\/$/, '')}/.well-known/oauth-authorization-server`) };
}

// runAuthorization registers a client with the authorization server of metadata for the suite's
// callback, runs the suite's authorization scenarios against issuer for resource, signs in as
// name with password when the suite asks a person to, and returns each scenario's checks.
async function runAuthorization(issuer, metadata, resource, name, password) {
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/callback`;
  const reg = await fetch(metadata.registration_endpoint, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [callback], client_name: 'MCP conformance suite', token_endpoint_auth_method: 'none' }) });
  const client = await reg.json();
  if (reg.status !== 201 || typeof client.client_id !== 'string') throw new Error(`registering a client: ${reg.status} ${JSON.stringify(client)}`);
  const out = fs.mkdtempSync(path.join(tmp, 'results-'));
  let browsing;
  const output = await suite('authorization', '--url', issuer, '--client-id', client.client_id, '--resource', resource,
    '--port', String(port), '-o', out, (text) => {
      // The suite prints the URL to open once its callback server listens.
      const url = text.includes(`Callback server started: http://127.0.0.1:${port}`) &&
        text.split('\n').find((line) => line.startsWith(`${metadata.authorization_endpoint}?`));
      if (url && !browsing) {
        browsing = signIn(url.trim(), name, password).then(
          (to) => console.log(`signed in as ${name} at ${metadata.authorization_endpoint}; redirected to ${to.replace(/code=[^&]+/, 'code=…')}`),
          (e) => {
            fail(`authorization: playing the browser: ${e.message}`);
            // Ends the suite's wait for a person (5 minutes): the callback with an error.
            return fetch(`${callback}?error=access_denied&error_description=${encodeURIComponent('the script could not sign in')}`).catch(() => {});
          });
      }
    });
  await browsing;
  const results = {};
  for (const dir of fs.readdirSync(out)) {
    const m = dir.match(/^authorization-server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    if (m) results[m[1]] = JSON.parse(fs.readFileSync(path.join(out, dir, 'checks.json'), 'utf8'));
  }
  if (Object.keys(results).length === 0) fail(`authorization: the suite saved no results:\n${output}`);
  return results;
}

// judgeAuthorization prints the authorization scenarios' results and fails the run for an
// applicable one that did not run, or has a check that failed, was skipped (the code grant is
// skipped when the suite has no client or no token endpoint method in common with the server) or
// warned: the suite's one warning is a SHOULD the server meets (client_id_metadata_document_
// supported), so a warning is a regression.
function judgeAuthorization(label, results) {
  console.log(`\n== ${label}`);
  for (const [scenario, checks] of Object.entries(results)) {
    const count = (st) => checks.filter((c) => c.status === st).length;
    const text = `${count('SUCCESS')} passed, ${count('FAILURE')} failed, ${count('WARNING')} warnings, ${count('SKIPPED')} skipped`;
    const reason = AUTHORIZATION_SCENARIOS[scenario];
    if (reason !== null && reason !== undefined) {
      console.log(`not applicable: authorization ${scenario} (${text}) — ${reason}`);
      continue;
    }
    const wrong = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO');
    if (wrong.length) {
      fail(`${label}: ${scenario}: ${wrong.map((c) => `${c.id} ${c.status}: ${c.errorMessage || c.description}`).join('; ').slice(0, 600)}`);
    } else {
      console.log(`ok: authorization ${scenario} (${text}; checks ${checks.map((c) => c.id).join(', ')})`);
    }
  }
  const missing = applicableAuthorization.filter((s) => !(s in results));
  if (missing.length) fail(`${label}: applicable authorization scenarios that did not run: ${missing.join(', ')}`);
}

try {
  const listed = [...(await suite('list', '--server')).matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
  const unknown = listed.filter((s) => !(s in SCENARIOS));
  if (listed.length === 0) fail('conformance list --server listed no scenarios');
  if (unknown.length) fail(`scenarios this script does not know (decide whether they apply, in SCENARIOS): ${unknown.join(', ')}`);
  const listedAuthorization = [...(await suite('list', '--authorization')).matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
  const unknownAuthorization = listedAuthorization.filter((s) => !(s in AUTHORIZATION_SCENARIOS));
  if (listedAuthorization.length === 0) fail('conformance list --authorization listed no scenarios');
  if (unknownAuthorization.length) fail(`authorization server scenarios this script does not know (decide whether they apply, in AUTHORIZATION_SCENARIOS): ${unknownAuthorization.join(', ')}`);
  const version = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@modelcontextprotocol/conformance/package.json'), 'utf8')).version;
  console.log(`@modelcontextprotocol/conformance ${version} on Node ${process.version}, --requirements ${REVISIONS.join(' and ')}: ${listed.length} server scenarios, ${applicable.length} apply (${applicable.join(', ')}); ${listedAuthorization.length} authorization server scenarios, ${applicableAuthorization.length} apply to bananaqr expenses serve (${applicableAuthorization.join(', ')})`);

  let bin = process.env.BANANAQR_BIN;
  if (!bin) {
    bin = path.join(tmp, 'bananaqr');
    execFileSync('go', ['build', '-o', bin, './cmd/bananaqr'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  }

  // bananaqr serve: its first log line is {"msg":"listening","addr":"127.0.0.1:NNNN",…}.
  const qr = await start('bananaqr serve', bin, ['serve', '--addr', '127.0.0.1:0', '--log-format', 'json', '--rate-limit', '0'],
    /"msg":"listening","addr":"(127\.0\.0\.1:\d+)"/);
  judge(`bananaqr serve (http://${qr}/mcp)`, await run('bananaqr serve', `http://${qr}/mcp`));

  // bananaqr expenses serve, on a new SQLite database with one user, with a password to sign in
  // with on the authorization server's page, and a token.
  const db = path.join(tmp, 'expenses.db');
  const password = randomBytes(18).toString('base64url');
  execFileSync(bin, ['expenses', 'user', 'add', 'conformance', '--password-stdin', '--db', db], { input: `${password}\n`, stdio: ['pipe', 'ignore', 'inherit'] });
  const token = execFileSync(bin, ['expenses', 'token', 'conformance', '--db', db], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  const expenses = await start('bananaqr expenses serve', bin, ['expenses', 'serve', '--addr', '127.0.0.1:0', '--db', db],
    /msg=listening addr=(127\.0\.0\.1:\d+)/);
  // Two header checks call the server's first tool, which needs a token: without one the server
  // answers 401 before it reads the headers. The run with a token below must pass them.
  const tokenless = 'calls an expenses tool, which needs a token: 401 comes first (the run with a token passes it)';
  judge(`bananaqr expenses serve (http://${expenses}/mcp)`, await run('bananaqr expenses', `http://${expenses}/mcp`), {
    'http-header-validation/sep-2243-server-reject-invalid-headers': tokenless,
    'http-header-validation/sep-2243-server-accepts-whitespace-header-value': tokenless,
  });

  const withToken = await bearerProxy(expenses, token);
  judge(`bananaqr expenses serve with a valid bearer token (proxy http://${withToken.addr}/mcp)`,
    await run('bananaqr expenses with a token', `http://${withToken.addr}/mcp`));
  if (withToken.answers.some((a) => a.status === 401)) fail(`the valid token was refused: ${JSON.stringify(withToken.answers)}`);

  // The control: the proxy's header reaches the server, which refuses a wrong token at
  // initialize with 401 and a Bearer challenge (RFC 6750 3).
  const wrongToken = await bearerProxy(expenses, `${token}x`);
  const refused = (await run('bananaqr expenses with a wrong token', `http://${wrongToken.addr}/mcp`, ['server-initialize']))['server-initialize'] || [];
  const challenge = wrongToken.answers.find((a) => a.status === 401 && /^Bearer\b/.test(a.challenge || ''));
  if (challenge && refused.some((c) => c.status === 'FAILURE')) {
    console.log(`ok: a wrong bearer token is refused at initialize: 401, WWW-Authenticate: ${challenge.challenge}`);
  } else {
    fail(`a wrong bearer token was not refused with 401 and a Bearer challenge: answers ${JSON.stringify(wrongToken.answers)}, checks ${JSON.stringify(refused).slice(0, 300)}`);
  }

  // The authorization server, found from that 401 as a client finds it.
  const resource = `http://${expenses}/mcp`;
  const { issuer, metadata } = await discoverIssuer(challenge && challenge.challenge, resource);
  console.log(`ok: the 401's resource_metadata names ${resource}, authorized by ${issuer}`);
  judgeAuthorization(`bananaqr expenses serve's authorization server (${issuer}, resource ${resource})`,
    await runAuthorization(issuer, metadata, resource, 'conformance', password));
} catch (e) {
  fail(e && e.stack ? e.stack : String(e));
}

await stopChildren();
if (failures) {
  console.log(`\nFAIL: ${failures} problem(s) with the MCP conformance suite`);
  process.exit(1);
}
console.log(`\nPASS: every MCP conformance check of ${REVISIONS.join(' and ')} that needs no fixture passes against both servers (scenarios ${applicable.join(', ')}), and the authorization server scenarios ${applicableAuthorization.join(', ')} against bananaqr expenses serve's; the others do not apply (node scripts/mcp-conformance.mjs --list says why)`);
process.exit(0);
