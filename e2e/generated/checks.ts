// What both TypeScript clients share: their arguments, the checks of an answer, and where the
// images and archives go for scripts/generated-clients.sh to decode.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

// args are the command line: the base URL of bananaqr serve, that of a server whose rate limit
// is one code a minute, and the directory the answers' bodies are written to.
export const [base, limitedBase, out] = process.argv.slice(2);
if (!base || !limitedBase || !out) {
  console.error('usage: node client.js BASE_URL LIMITED_BASE_URL OUT_DIR');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

// save writes an answer's body to out/name, for the script to decode.
export async function save(name: string, body: string | ArrayBuffer | Blob): Promise<void> {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8')
    : body instanceof Blob ? Buffer.from(await body.arrayBuffer()) : Buffer.from(body);
  fs.writeFileSync(path.join(out, name), bytes);
}

// must returns v, failing when it is undefined (a generated client's response when the request
// never got one, say).
export function must<T>(v: T | undefined, what: string): T {
  assert.ok(v !== undefined, `no ${what}`);
  return v;
}

// ok prints a check that passed.
export function ok(what: string): void {
  console.log(`ok: ${what}`);
}

// The error object every error answer carries.
export interface APIError { error: string; code: string; message: string; hint: string }

// checkError asserts that an answer is the error object with code, a hint and no other property.
export function checkError(got: APIError | undefined, status: number, response: Response, code: string): void {
  assert.ok(got, `${status}: no error object`);
  assert.equal(response.status, status, 'status');
  assert.equal(got.code, code, 'code');
  assert.ok(got.hint.length > 0, 'empty hint');
  assert.equal(got.message, got.error, 'message and error differ');
  assert.deepEqual(Object.keys(got).sort(), ['code', 'error', 'hint', 'message'], 'properties');
}

// checkWifiJSON compares a format=json answer to a Wi-Fi code to what the raw JSON says and to
// what the service promises of a private payload, and returns its PNG.
export function checkWifiJSON(got: Record<string, unknown>, raw: Record<string, unknown>): Buffer {
  assert.deepEqual(got, raw, 'the typed answer differs from the raw JSON');
  assert.equal(got.payload_type, 'wifi');
  assert.equal(got.format, 'json');
  assert.equal(got.payload, null, 'a private payload is echoed');
  assert.equal(got.image_url, null);
  assert.equal(got.svg_url, null);
  assert.equal(got.size, 1024);
  const version = got.version as number;
  assert.equal(got.modules, 17 + 4 * version, 'modules is not 17 + 4 × version');
  assert.ok(String(got.svg).startsWith('<svg'), 'svg is not SVG markup');
  const png = Buffer.from(String(got.png_base64), 'base64');
  assert.equal(`data:image/png;base64,${got.png_base64}`, got.png_data_url);
  return png;
}

// rawJSON fetches the same request without the generated client, to compare.
export async function rawJSON(pathname: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(base + pathname, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200, `raw POST ${pathname}`);
  return await res.json() as Record<string, unknown>;
}

// checkRetryAfter asserts a 429's Retry-After: whole seconds, at least 1.
export function checkRetryAfter(response: Response): void {
  const value = response.headers.get('Retry-After');
  assert.match(value ?? '', /^[1-9][0-9]*$/, `Retry-After ${value}`);
}

// expectRateLimited asks for a code with ask, from the server that makes one a minute, until it
// is refused (three times at most), and checks the refusal: 429 RATE_LIMITED with Retry-After.
export async function expectRateLimited(ask: () => Promise<{ error: APIError | undefined; response: Response }>): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const r = await ask();
    if (r.response.status === 429) {
      checkError(r.error, 429, r.response, 'RATE_LIMITED');
      checkRetryAfter(r.response);
      ok('429 RATE_LIMITED with Retry-After');
      return;
    }
    assert.equal(r.response.status, 200);
  }
  assert.fail('no 429 after 3 codes at one a minute');
}

// tooLong is a payload over the 2,048 characters a code holds (413 PAYLOAD_TOO_LARGE).
export const tooLong = 'x'.repeat(2049);
