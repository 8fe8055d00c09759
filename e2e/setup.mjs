// What both browser tests (e2e/run.mjs, e2e/mcp-browser.mjs) need before they start: their
// prerequisites checked (SKIPPED without them, unless CI is set), the binary built, and
// `bananaqr serve` started on a free loopback port, stopped when the test process exits.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// root is the repository's root.
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// CHROMIUM is Debian's Chromium, which the tests drive.
export const CHROMIUM = '/usr/bin/chromium';

// unavailable ends the test for want of reason: SKIPPED (exit 0), or FAIL in CI, which must
// provide everything.
export function unavailable(reason) {
  if (process.env.CI) {
    console.error(`FAIL: ${reason}; CI must provide it (.ci/run installs chromium and zbar-tools, and runs npm ci)`);
    process.exit(1);
  }
  console.log(`SKIPPED: ${reason}`);
  process.exit(0);
}

// requirePrerequisites ends the test (unavailable) unless Chromium, zbarimg and each file of
// node_modules in files (such as 'playwright-core/package.json') are there.
export function requirePrerequisites(files) {
  if (!fs.existsSync(CHROMIUM)) unavailable(`${CHROMIUM} is missing (apt-get install chromium)`);
  for (const file of files) {
    if (!fs.existsSync(path.join(root, 'node_modules', file))) unavailable(`node_modules/${file.split('/')[0]} is missing (npm ci)`);
  }
  try {
    execFileSync('zbarimg', ['--version'], { stdio: 'ignore' });
  } catch {
    unavailable('zbarimg is missing (apt-get install zbar-tools)');
  }
}

// privateTmp makes this run's temporary folder and points TMPDIR at it, so that everything
// started from here (Chromium, Playwright's profiles and downloads, bananaqr, zbarimg) writes
// inside it. It is removed when the process exits, after a failure or a signal too.
export function privateTmp(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.env.TMPDIR = dir;
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) process.on(signal, () => process.exit(code)); // so that 'exit' runs
  return dir;
}

// buildBinary returns the bananaqr binary to test: BANANAQR_BIN when set (an older build, to
// see a test fail), else one built from this checkout into dir.
export function buildBinary(dir) {
  if (process.env.BANANAQR_BIN) return process.env.BANANAQR_BIN;
  const bin = path.join(dir, 'bananaqr');
  execFileSync('go', ['build', '-o', bin, './cmd/bananaqr'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  return bin;
}

// servers are the servers started, each { proc, log }: log holds the first 200,000 characters
// of its standard error (its JSON log), to show when a test fails.
export const servers = [];

// startServer starts `bananaqr serve` with flags on a free loopback port and resolves to its base
// URL, read from the first JSON log line ({"msg":"listening","addr":"127.0.0.1:NNNN"}).
export function startServer(bin, ...flags) {
  return startListening(bin, ['serve', '--addr', '127.0.0.1:0', '--log-format', 'json', ...flags], 'bananaqr serve',
    '{"msg":"listening","addr":"127.0.0.1:…"}', (line) => `http://${line.addr}`);
}

// startListening runs bin with args, a server that logs JSON lines to standard error and first
// {"msg":"listening","addr":"127.0.0.1:NNNN",…}, and resolves to urlOf(that line); urlOf throws
// when the line lacks what the caller needs (form describes the line for the error). The server
// joins servers, so that it is stopped on exit and its log shown when a test fails.
export function startListening(bin, args, name, form, urlOf) {
  const proc = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const server = { proc, log: '' };
  servers.push(server);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not log that it listens within 10 s: ${server.log}`)), 10000);
    let found = false;
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (chunk) => {
      if (server.log.length < 200000) server.log += chunk; // drained either way, so the server never blocks
      if (found) return;
      const nl = server.log.indexOf('\n');
      if (nl < 0) return;
      found = true;
      clearTimeout(timer);
      try {
        const line = JSON.parse(server.log.slice(0, nl));
        if (line.msg !== 'listening' || !/^127\.0\.0\.1:\d+$/.test(line.addr)) throw new Error('not a listening line');
        resolve(urlOf(line));
      } catch {
        reject(new Error(`${name}'s first log line is not ${form}: ${server.log.slice(0, nl)}`));
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      if (!found) reject(new Error(`${name} exited ${code}: ${server.log}`));
    });
  });
}

// stopServers stops every server still running.
export function stopServers() {
  for (const s of servers) if (s.proc.exitCode === null) s.proc.kill('SIGTERM');
}
process.on('exit', stopServers);

// ---------------------------------------------------------------------------------------------
// Checks: each runs on, whatever the others did; finish says how the run went.

let failures = 0;

// check runs fn, one named check, and prints ok with what fn returns, or FAIL with its error.
// With E2E_ONLY=regexp, a check whose name does not match is skipped (while working on one).
const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
export async function check(name, fn) {
  if (only && !only.test(name)) return;
  const t0 = Date.now();
  try {
    const detail = await fn();
    console.log(`ok: ${name}${detail ? ` — ${detail}` : ''} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed(`${name}: ${e && e.stack ? e.stack : e}`);
  }
}

// failed counts a failure outside a check (the run itself) and prints it.
export function failed(what) {
  failures++;
  console.log(`FAIL: ${what}`);
}

// finish ends the run begun at started: on a failure it prints the servers' logs and exits 1,
// else it prints PASS with what passed.
export function finish(started, passed) {
  const took = ((Date.now() - started) / 1000).toFixed(1);
  if (failures) {
    for (const s of servers) if (s.log) console.log(`server log:\n${s.log.slice(0, 4000)}`);
    console.log(`FAIL: ${failures} check(s) failed (${took} s)`);
    process.exit(1);
  }
  console.log(`PASS: ${passed} (${took} s)`);
}
