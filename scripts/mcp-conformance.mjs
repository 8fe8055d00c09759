// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
// against both MCP servers: `bananaqr serve`'s /mcp and `bananaqr expenses serve`'s /mcp.
// scripts/mcp-conformance.sh runs it on Node ≥ 22 (the suite's own requirement); see there.
//
// The suite's server mode connects its own client (the TypeScript SDK's) to a URL and runs
// scenarios; most of them call fixture tools (test_simple_text, test_image_content, …), read
// fixture resources or get fixture prompts that a conformance test server implements and these
// servers, with their own tools, do not. SCENARIOS says for each scenario whether it applies
// and, if not, why. Every scenario is run against both servers and its result printed; only the
// applicable ones decide: each must have at least one passing check and no failing one. A
// scenario this file does not know (a newer suite) fails the run until it is decided on.
//
// The suite's client sends no Authorization header (its server mode has no option for one), and
// none of the applicable scenarios calls an expenses tool: initialize, ping and tools/list are
// open on the expenses server. So the expenses server is run twice: as the suite connects, and
// through a proxy that adds "Authorization: Bearer <token>" to every request, with a token
// issued by `bananaqr expenses token` (the applicable scenarios pass with a valid token too), and
// once with a wrong token, which the server must refuse with 401 (server-initialize fails).
//
// Usage: node scripts/mcp-conformance.mjs            (BANANAQR_BIN=path: an already built binary)
//        node scripts/mcp-conformance.mjs --list     (the scenarios, and why some do not apply)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

const FIXTURE = 'needs the suite\'s fixture tool';
// SCENARIOS: null for a scenario that applies to a server whose tools are its own (no fixture
// tools, resources or prompts; tools capability only), else why it does not apply.
const SCENARIOS = {
  'server-initialize': null,
  'ping': null,
  'tools-list': null,
  'dns-rebinding-protection': null,
  'logging-set-level': 'needs the logging capability, which neither server declares (the Go SDK still answers logging/setLevel with {}, so it passes without testing anything they offer)',
  'completion-complete': 'needs completions of the fixture prompt test_prompt_with_arguments; the servers have no prompts or completions',
  'tools-call-simple-text': `${FIXTURE} test_simple_text`,
  'tools-call-image': `${FIXTURE} test_image_content (bananaqr's generate_qr answers image content; e2e/mcp-browser.mjs and scripts/mcp-inspector.sh check it)`,
  'tools-call-audio': `${FIXTURE} test_audio_content`,
  'tools-call-embedded-resource': `${FIXTURE} test_embedded_resource`,
  'tools-call-mixed-content': `${FIXTURE} test_multiple_content_types`,
  'tools-call-with-logging': `${FIXTURE} test_tool_with_logging, and logging`,
  'tools-call-error': `${FIXTURE} test_error_handling (tool errors of the servers' own tools are tested in Go)`,
  'tools-call-with-progress': `${FIXTURE} test_tool_with_progress`,
  'tools-call-sampling': `${FIXTURE} test_sampling; the servers ask the client nothing`,
  'tools-call-elicitation': `${FIXTURE} test_elicitation; the servers ask the client nothing`,
  'json-schema-2020-12': `${FIXTURE} json_schema_2020_12_tool`,
  'elicitation-sep1034-defaults': `${FIXTURE} test_elicitation_sep1034_defaults; the servers ask the client nothing`,
  'elicitation-sep1330-enums': `${FIXTURE} test_elicitation_sep1330_enums; the servers ask the client nothing`,
  'server-sse-polling': `${FIXTURE} test_reconnection and a session with SSE streams; the servers are stateless and answer JSON (design/mcp.md), so it only warns`,
  'server-sse-multiple-streams': 'needs a session (Mcp-Session-Id) with SSE streams; the servers are stateless and answer JSON, so it only warns',
  'resources-list': 'needs resources, which the servers do not have (the Go SDK answers an empty list, so it passes without testing anything they offer)',
  'resources-read-text': 'needs the fixture resource test://static-text',
  'resources-read-binary': 'needs the fixture resource test://static-binary',
  'resources-templates-read': 'needs the fixture resource template test://template/{id}/data',
  'resources-subscribe': 'needs resources and resource subscriptions',
  'resources-unsubscribe': 'needs resources and resource subscriptions',
  'prompts-list': 'needs prompts, which the servers do not have (the Go SDK answers an empty list, so it passes without testing anything they offer)',
  'prompts-get-simple': 'needs the fixture prompt test_simple_prompt',
  'prompts-get-with-args': 'needs the fixture prompt test_prompt_with_arguments',
  'prompts-get-embedded-resource': 'needs the fixture prompt test_prompt_with_embedded_resource',
  'prompts-get-with-image': 'needs the fixture prompt test_prompt_with_image',
};
const applicable = Object.keys(SCENARIOS).filter((s) => SCENARIOS[s] === null);

if (process.argv.includes('--list')) {
  for (const [s, why] of Object.entries(SCENARIOS)) console.log(`${s}\t${why === null ? 'applies' : `does not apply: ${why}`}`);
  process.exit(0);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bananaqr-conformance-'));
const children = [];
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1)); // the servers stopped on the way out
let failures = 0;
const fail = (msg) => { failures++; console.log(`FAIL: ${msg}`); };

// suite runs the conformance CLI with args and resolves to its output (stdout and stderr).
// Asynchronously: the bearer-token proxy serves it from this process.
function suite(...args) {
  const proc = spawn(process.execPath, [SUITE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(proc);
  let out = '';
  proc.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
  proc.stderr.setEncoding('utf8').on('data', (d) => { out += d; });
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

// run runs scenarios (all of the suite's when none are named) against url and returns, for each
// scenario, its checks (from the suite's checks.json).
async function run(label, url, scenarios) {
  const out = fs.mkdtempSync(path.join(tmp, 'results-'));
  const outputs = [];
  if (scenarios) {
    for (const s of scenarios) outputs.push(await suite('server', '--url', url, '--scenario', s, '-o', out));
  } else {
    outputs.push(await suite('server', '--url', url, '--suite', 'all', '-o', out));
  }
  const results = {};
  for (const dir of fs.readdirSync(out)) {
    const m = dir.match(/^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    if (m) results[m[1]] = JSON.parse(fs.readFileSync(path.join(out, dir, 'checks.json'), 'utf8'));
  }
  if (Object.keys(results).length === 0) fail(`${label}: the suite saved no results:\n${outputs.join('\n')}`);
  return results;
}

// summary says what a scenario's checks came to.
function summary(checks) {
  const count = (s) => checks.filter((c) => c.status === s).length;
  const failed = checks.filter((c) => c.status === 'FAILURE');
  let text = `${count('SUCCESS')} passed, ${failed.length} failed, ${count('WARNING')} warnings`;
  if (failed.length) text += `: ${failed.map((c) => c.errorMessage || c.id).join('; ').slice(0, 160)}`;
  return { passed: count('SUCCESS') > 0 && failed.length === 0, text };
}

// judge prints a server's results and fails the run for an applicable scenario that did not
// pass (or did not run).
function judge(label, results, only) {
  console.log(`\n== ${label}`);
  for (const s of only || Object.keys(SCENARIOS)) {
    const checks = results[s];
    if (SCENARIOS[s] === null) {
      if (!checks) { fail(`${label}: ${s} did not run`); continue; }
      const r = summary(checks);
      if (r.passed) console.log(`ok: ${s} (${r.text})`);
      else fail(`${label}: ${s} (${r.text})`);
    } else if (checks) {
      console.log(`not applicable: ${s} — ${summary(checks).text}`);
    }
  }
}

try {
  const listed = [...(await suite('list', '--server')).matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
  const unknown = listed.filter((s) => !(s in SCENARIOS));
  if (listed.length === 0) fail('conformance list --server listed no scenarios');
  if (unknown.length) fail(`scenarios this script does not know (decide whether they apply, in SCENARIOS): ${unknown.join(', ')}`);
  const version = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@modelcontextprotocol/conformance/package.json'), 'utf8')).version;
  console.log(`@modelcontextprotocol/conformance ${version} on Node ${process.version}: ${listed.length} server scenarios, ${applicable.length} apply (${applicable.join(', ')})`);

  let bin = process.env.BANANAQR_BIN;
  if (!bin) {
    bin = path.join(tmp, 'bananaqr');
    execFileSync('go', ['build', '-o', bin, './cmd/bananaqr'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  }

  // bananaqr serve: its first log line is {"msg":"listening","addr":"127.0.0.1:NNNN",…}.
  const qr = await start('bananaqr serve', bin, ['serve', '--addr', '127.0.0.1:0', '--log-format', 'json', '--rate-limit', '0'],
    /"msg":"listening","addr":"(127\.0\.0\.1:\d+)"/);
  judge(`bananaqr serve (http://${qr}/mcp)`, await run('bananaqr serve', `http://${qr}/mcp`));

  // bananaqr expenses serve, on a new SQLite database with one user and a token.
  const db = path.join(tmp, 'expenses.db');
  execFileSync(bin, ['expenses', 'user', 'add', 'conformance', '--db', db], { stdio: ['ignore', 'ignore', 'inherit'] });
  const token = execFileSync(bin, ['expenses', 'token', 'conformance', '--db', db], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  const expenses = await start('bananaqr expenses serve', bin, ['expenses', 'serve', '--addr', '127.0.0.1:0', '--db', db],
    /msg=listening addr=(127\.0\.0\.1:\d+)/);
  judge(`bananaqr expenses serve (http://${expenses}/mcp)`, await run('bananaqr expenses', `http://${expenses}/mcp`));

  const withToken = await bearerProxy(expenses, token);
  judge(`bananaqr expenses serve with a valid bearer token (proxy http://${withToken.addr}/mcp)`,
    await run('bananaqr expenses with a token', `http://${withToken.addr}/mcp`, applicable), applicable);
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
} catch (e) {
  fail(e && e.stack ? e.stack : String(e));
}

if (failures) {
  console.log(`\nFAIL: ${failures} problem(s) with the MCP conformance suite`);
  process.exit(1);
}
console.log(`\nPASS: every applicable MCP conformance scenario passes against both servers (${applicable.join(', ')}); the others do not apply (node scripts/mcp-conformance.mjs --list says why)`);
process.exit(0);
