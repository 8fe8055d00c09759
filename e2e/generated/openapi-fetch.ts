// The client openapi-typescript generates from the served /openapi.json (gen/openapi-typescript,
// types only), called through openapi-fetch against a running bananaqr serve. Compiled with
// tsc --strict: a document whose types stop fitting these calls fails the build.

import assert from 'node:assert/strict';
import createClient from 'openapi-fetch';
import type { paths } from './gen/openapi-typescript/schema.js';
import { base, checkError, checkWifiJSON, expectRateLimited, limitedBase, ok, rawJSON, save, tooLong } from './checks.js';

const client = createClient<paths>({ baseUrl: base });

// An SVG: openapi-fetch parses every body as JSON unless told otherwise (parseAs).
const svg = await client.GET('/api/qr-code.svg', {
  params: { query: { url: 'https://example.com/generated/openapi-fetch' } },
  parseAs: 'text',
});
assert.equal(svg.response.status, 200);
assert.match(svg.response.headers.get('Content-Type') ?? '', /^image\/svg\+xml/);
assert.ok(svg.data !== undefined && svg.data.startsWith('<svg'), 'not SVG markup');
await save('code.svg', svg.data);
ok('GET /api/qr-code.svg: an SVG');

// A PNG.
const png = await client.GET('/api/qr-code.png', {
  params: { query: { text: 'bananaqr openapi-fetch PNG', size: 256 } },
  parseAs: 'arrayBuffer',
});
assert.equal(png.response.status, 200);
assert.equal(png.response.headers.get('Content-Type'), 'image/png');
assert.ok(png.data, 'no PNG');
await save('code.png', png.data);
ok('GET /api/qr-code.png: a PNG');

// A Wi-Fi code as JSON: the style properties left out, as their defaults allow.
const wifiBody = { type: 'wifi', ssid: 'Lab-openapi-fetch', password: 'hunter22', format: 'json' } as const;
const wifi = await client.POST('/api/qr-code', { body: wifiBody });
assert.equal(wifi.response.status, 200, JSON.stringify(wifi.error));
// The 200 answer's media types are SVG, PNG, PDF, EPS and JSON: format=json asks for the last.
assert.ok(wifi.data !== undefined && typeof wifi.data === 'object', 'not JSON');
const wifiPNG = checkWifiJSON({ ...wifi.data }, await rawJSON('/api/qr-code', wifiBody));
assert.ok(wifi.data.warnings.length === 0 && wifi.data.ecc.length === 1, 'warnings, ecc');
await save('wifi.png', wifiPNG.buffer.slice(wifiPNG.byteOffset, wifiPNG.byteOffset + wifiPNG.byteLength) as ArrayBuffer);
ok('POST /api/qr-code format=json (wifi): the fields, the PNG');

// A 400 with its code and hint.
const bad = await client.POST('/api/qr-code', { body: { type: 'url', url: 'javascript:alert(1)' } });
checkError(bad.error, 400, bad.response, 'INVALID_URL');
ok(`400 INVALID_URL, hint: ${bad.error?.hint}`);

// A 413.
const big = await client.POST('/api/qr-code', { body: { type: 'text', text: tooLong } });
checkError(big.error, 413, big.response, 'PAYLOAD_TOO_LARGE');
ok('413 PAYLOAD_TOO_LARGE');

// A 429 with Retry-After, from the server that makes one code a minute.
const limited = createClient<paths>({ baseUrl: limitedBase });
await expectRateLimited(async () => {
  const r = await limited.POST('/api/qr-code', { body: { type: 'text', text: 'again', format: 'png' }, parseAs: 'arrayBuffer' });
  return { error: r.error, response: r.response };
});

// A batch: a ZIP archive.
const batch = await client.POST('/api/qr-code/batch', {
  body: [{ url: 'https://example.com/menu', filename: 'menu' }, { type: 'text', text: 'hello openapi-fetch', format: 'png' }],
  parseAs: 'arrayBuffer',
});
assert.equal(batch.response.status, 200);
assert.equal(batch.response.headers.get('Content-Type'), 'application/zip');
assert.ok(batch.data, 'no archive');
await save('batch.zip', batch.data);
ok('POST /api/qr-code/batch: a ZIP archive');
