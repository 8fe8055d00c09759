// The server under test for the browser tests: `bananaqr serve` started on a free loopback port,
// stopped when the test process exits.

import { spawn } from 'node:child_process';

// servers are the servers started, each { proc, log }: log holds the first 200,000 characters
// of its standard error (its JSON log), to show when a test fails.
export const servers = [];

// startServer starts `bananaqr serve` with flags on a free loopback port and resolves to its base
// URL, read from the first JSON log line ({"msg":"listening","addr":"127.0.0.1:NNNN"}).
export function startServer(bin, ...flags) {
  const proc = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--log-format', 'json', ...flags], { stdio: ['ignore', 'ignore', 'pipe'] });
  const server = { proc, log: '' };
  servers.push(server);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bananaqr serve did not log that it listens within 10 s: ${server.log}`)), 10000);
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
        resolve(`http://${line.addr}`);
      } catch {
        reject(new Error(`the server's first log line is not {"msg":"listening","addr":"127.0.0.1:…"}: ${server.log.slice(0, nl)}`));
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      if (!found) reject(new Error(`bananaqr serve exited ${code}: ${server.log}`));
    });
  });
}

// stopServers stops every server still running.
export function stopServers() {
  for (const s of servers) if (s.proc.exitCode === null) s.proc.kill('SIGTERM');
}
process.on('exit', stopServers);
