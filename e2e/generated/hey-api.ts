// The SDK @hey-api/openapi-ts generates from the served /openapi.json (gen/hey-api: its types,
// one function per operation and its own fetch client), called against a running bananaqr serve.
// Compiled with tsc --strict: a document whose types stop fitting these calls fails the build.

import assert from 'node:assert/strict';
import { createClient, createConfig } from './gen/hey-api/client/index.js';
import { client } from './gen/hey-api/client.gen.js';
import { createQrCodeBatch, createStructuredQrCode, getQrCodePng, getQrCodeSvg } from './gen/hey-api/sdk.gen.js';
import { base, checkError, must, checkWifiJSON, expectRateLimited, limitedBase, ok, rawJSON, save, tooLong } from './checks.js';

client.setConfig({ baseUrl: base });

// An SVG (a Blob: the client reads image/* as binary).
const svgResult = await getQrCodeSvg({ query: { url: 'https://example.com/generated/hey-api' } });
const svg = { ...svgResult, response: must(svgResult.response, 'response') };
assert.equal(svg.response.status, 200);
assert.match(svg.response.headers.get('Content-Type') ?? '', /^image\/svg\+xml/);
assert.ok(svg.data, 'no SVG');
await save('code.svg', svg.data);
ok('GET /api/qr-code.svg: an SVG');

// A PNG.
const pngResult = await getQrCodePng({ query: { text: 'bananaqr hey-api PNG', size: 256 } });
const png = { ...pngResult, response: must(pngResult.response, 'response') };
assert.equal(png.response.status, 200);
assert.equal(png.response.headers.get('Content-Type'), 'image/png');
assert.ok(png.data, 'no PNG');
await save('code.png', png.data);
ok('GET /api/qr-code.png: a PNG');

// A Wi-Fi code as JSON: the style properties left out, as their defaults allow.
const wifiBody = { type: 'wifi', ssid: 'Lab-hey-api', password: 'hunter22', format: 'json' } as const;
const wifiResult = await createStructuredQrCode({ body: wifiBody });
const wifi = { ...wifiResult, response: must(wifiResult.response, 'response') };
assert.equal(wifi.response.status, 200, JSON.stringify(wifi.error));
assert.ok(wifi.data && typeof wifi.data === 'object' && !(wifi.data instanceof Blob), 'not JSON');
const wifiPNG = checkWifiJSON({ ...wifi.data }, await rawJSON('/api/qr-code', wifiBody));
await save('wifi.png', new Blob([new Uint8Array(wifiPNG)]));
ok('POST /api/qr-code format=json (wifi): the fields, the PNG');

// A 400 with its code and hint.
const badResult = await createStructuredQrCode({ body: { type: 'url', url: 'javascript:alert(1)' } });
const bad = { ...badResult, response: must(badResult.response, 'response') };
checkError(bad.error, 400, bad.response, 'INVALID_URL');
ok(`400 INVALID_URL, hint: ${bad.error?.hint}`);

// A 413.
const bigResult = await createStructuredQrCode({ body: { type: 'text', text: tooLong } });
const big = { ...bigResult, response: must(bigResult.response, 'response') };
checkError(big.error, 413, big.response, 'PAYLOAD_TOO_LARGE');
ok('413 PAYLOAD_TOO_LARGE');

// A 429 with Retry-After, from the server that makes one code a minute.
const limited = createClient(createConfig({ baseUrl: limitedBase }));
await expectRateLimited(async () => {
  const result = await createStructuredQrCode({ client: limited, body: { type: 'text', text: 'again', format: 'png' } });
  return { error: result.error, response: must(result.response, 'response') };
});

// A batch: a ZIP archive.
const batchResult = await createQrCodeBatch({
  body: [{ url: 'https://example.com/menu', filename: 'menu' }, { type: 'text', text: 'hello hey-api', format: 'png' }],
});
const batch = { ...batchResult, response: must(batchResult.response, 'response') };
assert.equal(batch.response.status, 200);
assert.equal(batch.response.headers.get('Content-Type'), 'application/zip');
assert.ok(batch.data, 'no archive');
await save('batch.zip', batch.data);
ok('POST /api/qr-code/batch: a ZIP archive');
