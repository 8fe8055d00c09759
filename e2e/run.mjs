#!/usr/bin/env node
// End-to-end tests of the web page in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core from package.json). It builds bananaqr, starts it on a free loopback port
// (and a second one with --rate-limit 2), and checks, printing a line per check:
//   1. each payload type (the spec's six and the four extensions): fill the form, wait for the live preview, download the PNG and read it
//      back with zbarimg to the exact payload; the SVG download is an SVG;
//   2. an invalid value (a 5-character WPA password) shows the API's hint in the element the
//      field's aria-describedby names, with aria-invalid="true";
//   3. the Wi-Fi password and SSID are in no request URL the page makes;
//   4. no request leaves 127.0.0.1 during the whole run (data: and blob: URLs aside);
//   5. the layout at 360 and 1280 px: full-page screenshots (light and dark) into $E2E_ARTIFACTS
//      (default: inside the run's temporary folder, removed at the end), no horizontal overflow at
//      360 px, side by side at 1280;
//   6. a 429 shows a countdown from Retry-After (a refused sample: none, until the user types);
//   7. before anything is typed, a sample code of the Link field's placeholder, from one request,
//      marked as a sample, read back with zbarimg; the first keystroke ends it, and a late
//      sample never lands;
//   8. the step numbers read 1, 2, … row by row and column by column at 360 to 1440 px, at the
//      top and scrolled to the last step (viewport screenshots steps-<width>.png);
//   9. the banana is drawn (inline SVG, yellow on screen), and no banana emoji is left;
//  10. the extension types (tel, geo, event, epc, and the payments swissqr, emvco, upi, spayd,
//      bitcoin, filled from payload/testdata's vectors): an invalid value of each shows the API's
//      message beside its field; an all-day event sends dates; an EPC payment disables the logo
//      and the error correction (no logo, M) and sends neither; a Swiss QR-bill locks the
//      corners and the colours too, and a link gets each choice back; the EMV code's schemes
//      (Pix, PromptPay, another) show the fields they read and make the vectors' codes; the
//      type picker's 15 types fit at 360 px; the PDF and EPS downloads of a
//      public and a private code are a PDF and an EPS of size pixels at 300 dpi, as the size's
//      hint says; no private type's value is in any request URL;
//  11. issue 21: axe-core (WCAG 2.1 A and AA) finds nothing in every state, light and dark, at 360
//      and 1280 px (with E2E_SCREENSHOTS=dir, the page at both widths and schemes goes there); an
//      error after a code leaves nothing of it to copy, download or hear; typing 22 characters
//      announces only changes of meaning; the page's transfer size on load, gzip-compressed; the
//      print helper and Copy image; the details read from the SVG answer's headers match the JSON's; the
//      settings link (public types only); the no-JavaScript form for a link; the examples at
//      360 px keep their lines;
//  12. issue 29: the Copy buttons never cover their command (1280 and 360 px); 22 characters typed
//      at 350 ms a key ask for at most 6 codes, none for a scheme alone; a 429 while typing is
//      retried when the RateLimit-* headers say a code is back, and the code shows; a refusal is
//      said once, beside its field; at 360 px the code (or its small copy) is in view after
//      typing; the load with the first code is under 35 KB gzip;
//  13. the payment types' panels (/payments.html) are not in the page on load and not asked
//      for until the Payments group is reached for or a payment type chosen, then once; when
//      they cannot come, the form's error area says so and the type chosen before still works;
//  14. issue 32: the words around the code (a caption above or below, a link's destination) are
//      sent when given, carried by the image and settings links, and the code reads back; the
//      preview's alt is the SVG's title and description; the destination for links only, no
//      caption on a Swiss QR-bill; INVALID_CAPTION's message shows beside the caption;
// and a few more: keyboard-only use, a label on every control, no CSP violation or script error.
//
// Usage: npm ci && node e2e/run.mjs   (test.sh runs it)
// E2E_ONLY=regexp runs only the checks whose name matches (some rely on the page earlier ones left).
// Without /usr/bin/chromium, node_modules/playwright-core or zbarimg it prints SKIPPED and exits
// 0, unless CI is set: then it fails.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { buildBinary, check, CHROMIUM, failed, finish, privateTmp, requirePrerequisites, root, startServer, stopServers } from './setup.mjs';

const started = Date.now();

requirePrerequisites(['playwright-core/package.json', 'axe-core/axe.min.js']);

const require = createRequire(path.join(root, 'package.json'));
const { chromium } = require('playwright-core');

const tmp = privateTmp('bananaqr-e2e-'); // removed on exit, with the screenshots unless E2E_ARTIFACTS names a folder
const artifacts = process.env.E2E_ARTIFACTS || path.join(tmp, 'screenshots');
fs.mkdirSync(artifacts, { recursive: true });

// ---------------------------------------------------------------------------------------------
// The server

// startServer and stopServers: e2e/setup.mjs.

// ---------------------------------------------------------------------------------------------
// Checks

// check, failed and finish: e2e/setup.mjs.

// zbar reads a PNG with zbarimg: the raw bytes of the one symbol, without the newline zbarimg
// appends.
function zbar(file) {
  const out = execFileSync('zbarimg', ['--raw', '-q', file], { stdio: ['ignore', 'pipe', 'pipe'] }); // stderr: its D-Bus chatter
  assert.equal(out[out.length - 1], 0x0a, 'zbarimg output ends in a newline');
  return out.subarray(0, out.length - 1);
}

// zxing reads a PNG with zxing-cpp (Debian's python3-zxing-cpp, as the payload tests read
// codes): the raw bytes of the one QR code. zbar 0.23 reads no code of the service with the
// Swiss cross in its centre (render.SwissCross), which zxing-cpp and phones' readers do.
function zxing(file) {
  const script = 'import sys, zxingcpp\nfrom PIL import Image\nr = zxingcpp.read_barcode(Image.open(sys.argv[1]).convert("L"), formats=zxingcpp.BarcodeFormat.QRCode)\nprint(r.bytes.hex() if r is not None and r.valid else "")';
  const hex = execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' }).trim();
  assert.ok(hex, `zxing-cpp reads no QR code in ${file}`);
  return Buffer.from(hex, 'hex');
}

// waitReady waits until the preview shows the code of the form as it is now.
async function waitReady(page, type) {
  await page.waitForFunction((t) => {
    const p = document.getElementById('preview');
    return p.dataset.state === 'ready' && p.dataset.payloadType === t &&
      document.getElementById('qr-frame').getAttribute('aria-busy') === 'false' && !document.getElementById('preview-img').hidden;
  }, type, { timeout: 10000 });
}

async function chooseType(page, type) {
  await page.locator(`label.seg:has(#type-${type})`).click();
  await page.locator(`#panel-${type}`).waitFor({ state: 'visible' });
}

// download clicks a download button and returns the saved file and its suggested name.
async function download(page, button, file) {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 10000 }), page.click(button)]);
  await dl.saveAs(file);
  return dl.suggestedFilename();
}

// scanPNG downloads the code on show as a PNG (into tmp as name.png) and returns what zbarimg
// reads of it.
async function scanPNG(page, name) {
  const png = path.join(tmp, `${name}.png`);
  await download(page, '#download-png', png);
  return zbar(png).toString('utf8');
}

// vector returns the build vector of payload/testdata/<type>/vectors.json with that name: the
// request's fields (input) and the exact payload (expected).
function vector(type, name) {
  const file = JSON.parse(fs.readFileSync(path.join(root, 'payload', 'testdata', type, 'vectors.json'), 'utf8'));
  const found = file.build.find((v) => v.name === name);
  assert.ok(found, `payload/testdata/${type}/vectors.json has no vector named ${JSON.stringify(name)}`);
  return found;
}

// fillFields fills a type's panel with a request's fields, each into the control of its API
// name: a radio of that value (data-field), else the control #<type>-<field>; a read-only
// control must already hold the value.
async function fillFields(page, type, input) {
  for (const [field, value] of Object.entries(input)) {
    const radio = `#panel-${type} label.seg:has(input[data-field="${field}"][value="${value}"])`;
    if (await page.locator(radio).count()) {
      await page.locator(radio).click();
      continue;
    }
    const el = page.locator(`#${type}-${field}`);
    if (await el.evaluate((x) => x.readOnly)) assert.equal(await el.inputValue(), value, `#${type}-${field} holds ${value}`);
    else await el.fill(value);
  }
}

// The payment types' codes, from the vectors of their builders' tests. ASCII payloads only: the
// Swiss QR Code declares UTF-8 in its coding type and carries no ECI, so zbar would guess.
const SWISS = vector('swissqr', 'IBAN without reference (NON), debtor, message');
const PIX = vector('emvco', 'pix manual static example');
const PROMPTPAY = vector('emvco', 'promptpay Local phone number');
const EMV_OTHER = vector('emvco', 'generic reverse-domain scheme');
const UPI = vector('upi', 'NPCI 1.6 QR code sample');
const SPAYD = vector('spayd', 'every key');
const BITCOIN = vector('bitcoin', 'unified QR');

// secretsOf returns a request's values that must go in no URL: those of 6 characters or more
// (shorter ones, such as CH or 28, are in URLs anyway).
const secretsOf = (input) => Object.values(input).map((v) => v.trim()).filter((v) => v.length >= 6);

const TYPES = [
  {
    type: 'url',
    fill: async (page) => page.fill('#url-url', 'example.com'),
    want: 'https://example.com',
    public: true,
  },
  {
    type: 'text',
    fill: async (page) => page.fill('#text-text', 'Bananas are berries 🍌\nStrawberries are not.'),
    want: 'Bananas are berries 🍌\nStrawberries are not.',
    public: true,
  },
  {
    type: 'wifi',
    fill: async (page) => {
      await page.fill('#wifi-ssid', 'Lab Net');
      await page.fill('#wifi-password', 'hunter22');
    },
    want: 'WIFI:T:WPA;S:Lab Net;P:hunter22;;',
    secrets: ['hunter22', 'Lab Net', 'Lab%20Net', 'Lab+Net'],
  },
  {
    type: 'vcard',
    fill: async (page) => {
      await page.fill('#vcard-name', 'Anna Müller');
      await page.fill('#vcard-organization', 'Banana Lab');
      await page.fill('#vcard-phone', '+49 30 123456');
      await page.fill('#vcard-email', 'anna@example.com');
    },
    want: 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Müller;Anna;;;\r\nFN:Anna Müller\r\nORG:Banana Lab\r\nTEL:+49 30 123456\r\nEMAIL:anna@example.com\r\nEND:VCARD\r\n',
    secrets: ['Müller', 'M%C3%BCller', '49 30 123456', 'anna@example.com', 'anna%40example.com'],
  },
  {
    type: 'email',
    fill: async (page) => {
      await page.fill('#email-to', 'anna@example.com');
      await page.fill('#email-subject', 'Hello');
      await page.fill('#email-message', 'See you!');
    },
    want: 'mailto:anna@example.com?subject=Hello&body=See%20you%21',
    secrets: ['See you', 'See%20you'],
  },
  {
    type: 'sms',
    fill: async (page) => {
      await page.fill('#sms-phone', '+1 555 123 4567');
      await page.fill('#sms-message', 'Meet at 10:30');
    },
    want: 'SMSTO:+15551234567:Meet at 10:30',
    secrets: ['Meet at 10:30', 'Meet%20at'],
  },
  {
    type: 'tel',
    fill: async (page) => page.fill('#tel-phone', '+1 555 987 6543'),
    want: 'tel:+15559876543',
    secrets: ['987 6543', '9876543', '987%206543'],
  },
  {
    type: 'geo',
    fill: async (page) => {
      await page.fill('#geo-latitude', '48.8582');
      await page.fill('#geo-longitude', '2.2945');
    },
    want: 'geo:48.8582,2.2945',
    secrets: ['48.8582', '2.2945'],
  },
  {
    type: 'event',
    // The context's zone is Europe/Paris (UTC+01:00 in December): the page adds the offset
    // that a datetime-local input lacks, and the service writes the time in UTC.
    fill: async (page) => {
      await page.fill('#event-summary', 'Banana tasting');
      await page.fill('#event-start', '2026-12-24T18:00');
      await page.fill('#event-end', '2026-12-24T20:30');
      await page.fill('#event-location', 'Banana Lab, Berlin');
    },
    want: 'BEGIN:VEVENT\r\nSUMMARY:Banana tasting\r\nDTSTART:20261224T170000Z\r\nDTEND:20261224T193000Z\r\nLOCATION:Banana Lab\\, Berlin\r\nEND:VEVENT\r\n',
    secrets: ['Banana tasting', 'Banana%20tasting', 'Banana Lab', '2026-12-24'],
  },
  {
    type: 'epc',
    // ASCII only: the code declares UTF-8 on its third line and carries no ECI, so zbar guesses.
    fill: async (page) => {
      await page.fill('#epc-name', 'Red Cross');
      await page.fill('#epc-iban', 'DE89 3704 0044 0532 0130 00');
      await page.fill('#epc-bic', 'COBADEFFXXX');
      await page.fill('#epc-amount', '12.50');
      await page.locator('label.seg:has(input[name="epc-purpose"][value="reference"])').click();
      await page.fill('#epc-reference', 'RF18 5390 0754 7034');
    },
    want: 'BCD\n002\n1\nSCT\nCOBADEFFXXX\nRed Cross\nDE89370400440532013000\nEUR12.5\n\nRF18539007547034',
    secrets: ['Red Cross', 'Red%20Cross', 'DE89', 'COBADEFF', 'RF18', '12.50'],
  },
  {
    type: 'swissqr',
    fill: async (page) => {
      await page.check('#swissqr-debtor'); // the payer's address
      await fillFields(page, 'swissqr', SWISS.input);
    },
    want: SWISS.expected,
    read: zxing, // zbar reads no code with the Swiss cross
    secrets: secretsOf(SWISS.input),
  },
  {
    type: 'emvco',
    fill: async (page) => fillFields(page, 'emvco', PIX.input),
    want: PIX.expected,
    secrets: secretsOf(PIX.input),
  },
  {
    type: 'upi',
    fill: async (page) => fillFields(page, 'upi', UPI.input),
    want: UPI.expected,
    secrets: secretsOf(UPI.input),
  },
  {
    type: 'spayd',
    fill: async (page) => fillFields(page, 'spayd', SPAYD.input),
    want: SPAYD.expected,
    secrets: secretsOf(SPAYD.input),
  },
  {
    type: 'bitcoin',
    fill: async (page) => fillFields(page, 'bitcoin', BITCOIN.input),
    want: BITCOIN.expected,
    secrets: secretsOf(BITCOIN.input),
  },
];

// ---------------------------------------------------------------------------------------------
// The run

let browser;
try {
  const bin = buildBinary(tmp);
  const base = await startServer(bin, '--rate-limit', '0');
  console.log(`bananaqr serve listens on ${base}; screenshots in ${artifacts}`);

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [],
  });
  // A fixed zone, for the event's times (the page sends a datetime-local with the browser's offset).
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/Paris' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });

  // Every request any page makes, for checks 3 and 4; CSP violations and script errors.
  const requests = [];
  const problems = [];
  context.on('request', (r) => requests.push({ url: r.url(), method: r.method(), body: r.postData() || '' }));
  const watch = (page) => {
    page.on('pageerror', (e) => problems.push(`script error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of (400|413|429)/.test(m.text())) {
        problems.push(`console: ${m.text()}`);
      }
    });
  };
  context.on('page', watch);

  const page = await context.newPage();
  await page.goto(base + '/');

  await check('the page loads: title, header, tagline, a link to /openapi.json, the MCP URL of this origin', async () => {
    assert.match(await page.title(), /bananaqr/);
    assert.equal((await page.textContent('h1')).trim(), 'bananaqr');
    assert.match(await page.textContent('.tagline'), /QR codes that scan, for links, Wi-Fi, contacts and more — nothing stored/);
    assert.ok(await page.locator('a[href="/openapi.json"]').count() > 0, 'a link to /openapi.json');
    assert.equal((await page.textContent('#ex-mcp')).trim(), `claude mcp add --transport http bananaqr ${base}/mcp`);
    assert.equal(await page.getAttribute('#status', 'aria-live'), 'polite');
  });

  await check('every control has a label', async () => {
    const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, textarea, select, button')]
      .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !(el.tagName === 'BUTTON' && el.textContent.trim()))
      .map((el) => el.id || el.outerHTML.slice(0, 80)));
    assert.deepEqual(unlabelled, []);
  });

  // 9. The banana, drawn.
  await check('the banana is drawn: inline SVGs of #banana-mark beside the title and on the logo switch, yellow on screen; no banana emoji in the title or the page', async () => {
    await page.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
    const emoji = '\u{1F34C}';
    assert.ok(!(await page.title()).includes(emoji), 'no emoji in the title');
    assert.ok(!(await page.content()).includes(emoji), 'no emoji in the page as the browser holds it');
    const bananas = await page.$$eval('svg.banana', (els) => els.map((el) => {
      const r = el.getBoundingClientRect();
      return { where: el.closest('h1') ? 'h1' : el.closest('label.switch') ? 'switch' : 'elsewhere', hidden: el.getAttribute('aria-hidden'), href: el.querySelector('use')?.getAttribute('href'), w: r.width, h: r.height };
    }));
    assert.deepEqual(bananas.map((b) => [b.where, b.hidden, b.href]), [['h1', 'true', '#banana-mark'], ['switch', 'true', '#banana-mark']]);
    assert.ok(bananas.every((b) => b.w >= 16 && b.h >= 16), `sizes ${JSON.stringify(bananas)}`);
    assert.equal(await page.getByRole('switch', { name: 'Banana in the middle', exact: true }).count(), 1, 'the switch is named by its text; the drawing is decoration');
    // What the screen shows: the switch's banana, read back pixel by pixel in a canvas.
    const shot = await page.locator('label.switch svg.banana').screenshot();
    const pixels = await page.evaluate(async (b64) => {
      const im = new Image();
      im.src = `data:image/png;base64,${b64}`;
      await im.decode();
      const c = document.createElement('canvas');
      c.width = im.width;
      c.height = im.height;
      const g = c.getContext('2d');
      g.drawImage(im, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let yellow = 0;
      let ink = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i] > 220 && d[i + 1] > 180 && d[i + 2] < 120) yellow++; // #FFD23F, the body
        if (d[i] < 110 && d[i + 1] < 90 && d[i + 2] < 60) ink++; // #3B2A14, the outline
      }
      return { yellow, ink, all: d.length / 4 };
    }, shot.toString('base64'));
    assert.ok(pixels.yellow > pixels.all / 20 && pixels.ink > pixels.all / 50, `pixels ${JSON.stringify(pixels)}`);
    return `yellow ${pixels.yellow} and ink ${pixels.ink} of ${pixels.all} pixels`;
  });

  // 7. The sample code.
  await check('before anything is typed: a sample code of the Link field\'s placeholder, from one request, marked as a sample, without downloads or link; it reads back with zbarimg; the first keystroke ends it', async () => {
    const placeholder = await page.getAttribute('#url-url', 'placeholder');
    assert.equal(placeholder, 'example.com/menu');
    assert.equal(await page.inputValue('#url-url'), '');
    const posts = requests.filter((r) => new URL(r.url).pathname === '/api/qr-code');
    assert.equal(posts.length, 1, 'one request on load');
    assert.equal(posts[0].method, 'POST');
    assert.equal(JSON.parse(posts[0].body).url, placeholder);
    assert.ok(await page.isVisible('#sample-badge'), 'the Sample badge shows');
    assert.equal((await page.textContent('#sample-badge')).trim(), 'Sample');
    assert.equal(await page.textContent('#status'), 'Sample: the code of https://example.com/menu. Type a link to make your own.');
    assert.equal(await page.getAttribute('#preview-img', 'alt'), 'Sample QR code: https://example.com/menu. Scan it with a phone\'s camera to open the link.', 'the SVG\'s title and description');
    assert.match(await page.getAttribute('#preview-img', 'src'), /^blob:/);
    assert.equal(await page.textContent('#meta-payload'), 'https://example.com/menu');
    assert.ok(await page.isDisabled('#download-png') && await page.isDisabled('#download-svg'), 'nothing to download: it is nobody\'s code');
    assert.ok(!(await page.isVisible('#share')), 'no image link for the sample');
    const shot = path.join(tmp, 'sample.png');
    await page.locator('#preview-img').screenshot({ path: shot });
    fs.copyFileSync(shot, path.join(artifacts, 'sample-code.png'));
    assert.equal(zbar(shot).toString('utf8'), 'https://example.com/menu', 'the sample on screen scans');
    await page.focus('#url-url');
    await page.keyboard.type('e');
    const after = await page.evaluate(() => ({
      state: document.getElementById('preview').dataset.state,
      image: !document.getElementById('preview-img').hidden,
      badge: !document.getElementById('sample-badge').hidden,
    }));
    assert.deepEqual(after, { state: 'empty', image: false, badge: false }, 'the first keystroke ends the sample, before the debounce');
    await waitReady(page, 'url');
    assert.equal(await page.textContent('#meta-payload'), 'https://e');
    assert.ok(!(await page.isVisible('#sample-badge')));
    assert.match(await page.textContent('#status'), /^Ready: a link code/);
    await page.fill('#url-url', '');
    await page.waitForFunction(() => document.getElementById('preview').dataset.state === 'empty', null, { timeout: 10000 });
    assert.equal(await page.textContent('#status'), 'Type a link to see its code.', 'once typed into, an empty field asks for a link: no sample again');
    return 'sample-code.png';
  });

  await check('a slow sample never lands once the user has typed', async () => {
    const p = await context.newPage();
    await p.route('**/api/qr-code', async (route) => { // the sample's answer comes late
      if ((route.request().postData() || '').includes('example.com/menu')) await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => {}); // the page may have dropped it
    });
    await p.goto(base + '/');
    await p.fill('#url-url', 'example.org');
    await waitReady(p, 'url');
    await p.waitForTimeout(2000); // the sample's answer has arrived by now
    assert.equal(await p.getAttribute('#preview', 'data-state'), 'ready');
    assert.equal(await p.textContent('#meta-payload'), 'https://example.org');
    assert.equal(await p.getAttribute('#preview-img', 'alt'), 'QR code: https://example.org. Scan it with a phone\'s camera to open the link.');
    assert.ok(!(await p.isVisible('#sample-badge')));
    await p.close();
  });

  // 8. The steps' order at every width.
  await check('the step numbers read 1, 2, … row by row and column by column, at 360, 768, 900, 1024 and 1440 px, at the top and scrolled to the last step; the result between or beside them has no number', async () => {
    const p = await context.newPage();
    await p.goto(base + '/');
    await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
    assert.equal(await p.locator('.preview-card .step').count(), 0, 'the result has a mark, not a number');
    assert.equal(await p.locator('.preview-card .step-mark').count(), 1);
    const seen = [];
    for (const width of [360, 768, 900, 1024, 1440]) {
      await p.setViewportSize({ width, height: 900 });
      for (const where of ['top', 'last step']) {
        await p.evaluate((w) => {
          const steps = document.querySelectorAll('.step');
          if (w === 'top') window.scrollTo({ top: 0, behavior: 'instant' });
          else steps[steps.length - 1].scrollIntoView({ block: 'start', behavior: 'instant' });
        }, where);
        const steps = await p.$$eval('.step', (els) => els.map((el) => {
          const r = el.getBoundingClientRect();
          return { n: el.textContent.trim(), x: r.x, y: r.y, w: r.width, h: r.height };
        }));
        const want = steps.map((_, i) => String(i + 1));
        assert.deepEqual(steps.map((s) => s.n), want, `${width} px: the labels are 1, 2, … in the page's order`);
        assert.ok(steps.length >= 2 && steps.every((s) => s.w > 0 && s.h > 0), `${width} px: every step shows`);
        const byRows = [...steps].sort((a, b) => (Math.abs(a.y - b.y) > a.h / 2 ? a.y - b.y : a.x - b.x)).map((s) => s.n);
        const byColumns = [...steps].sort((a, b) => (Math.abs(a.x - b.x) > a.w / 2 ? a.x - b.x : a.y - b.y)).map((s) => s.n);
        assert.deepEqual(byRows, want, `${width} px, ${where}: read row by row: ${JSON.stringify(steps)}`);
        assert.deepEqual(byColumns, want, `${width} px, ${where}: read column by column: ${JSON.stringify(steps)}`);
        if (where === 'top') {
          await p.screenshot({ path: path.join(artifacts, `steps-${width}.png`) });
          seen.push(`${width}: ${steps.map((s) => `${s.n}@${Math.round(s.x)},${Math.round(s.y)}`).join(' ')}`);
        }
      }
    }
    await p.close();
    return seen.join('; ');
  });

  // 1, 2, 3: each type; the Wi-Fi password's error and where it may not go.
  for (const t of TYPES) {
    await check(`${t.type}: the preview follows the form; the PNG download reads back with ${t.read ? 'zxing-cpp' : 'zbarimg'} as ${JSON.stringify(t.want)}; the SVG download is an SVG; ${t.public ? 'the image link copies' : 'no link, a private note'}`, async () => {
      const from = requests.length;
      await chooseType(page, t.type);
      await t.fill(page);
      await waitReady(page, t.type);
      assert.match(await page.getAttribute('#preview-img', 'src'), /^blob:/);
      const version = Number(await page.textContent('#meta-version .value'));
      assert.ok(version >= 1 && version <= 40, `version ${version}`);
      assert.match(await page.textContent('#meta-ecc .value'), /^[LMQH]$/);
      assert.equal(await page.textContent('#meta-size .value'), '1024 × 1024 px');

      const png = path.join(tmp, `${t.type}.png`);
      assert.equal(await download(page, '#download-png', png), `qr-${t.type}.png`);
      assert.deepEqual(fs.readFileSync(png).subarray(0, 8), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'a PNG');
      const got = (t.read || zbar)(png);
      assert.equal(got.toString('utf8'), t.want);
      assert.deepEqual(got, Buffer.from(t.want, 'utf8'));

      const svg = path.join(tmp, `${t.type}.svg`);
      assert.equal(await download(page, '#download-svg', svg), `qr-${t.type}.svg`);
      const text = fs.readFileSync(svg, 'utf8');
      assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>/);
      assert.match(text, /<\/svg>\s*$/);

      // Public codes offer their link and Markdown; private ones say why not.
      const shareVisible = await page.isVisible('#share');
      const noteVisible = await page.isVisible('#private-note');
      if (t.public) {
        assert.ok(shareVisible && !noteVisible, 'a public code shows the image link and Markdown');
        const link = await page.inputValue('#share-image-url');
        assert.ok(link.startsWith(`${base}/api/qr-code.png?`), link);
        assert.match(await page.inputValue('#share-markdown'), /^!\[.*\]\(http:\/\/127\.0\.0\.1:\d+\/api\/qr-code\.png\?/);
        assert.equal(await page.textContent('#meta-payload'), t.want);
        await page.click('button[data-copy="share-image-url"]');
        await page.waitForFunction(() => document.querySelector('button[data-copy="share-image-url"] .copy-text').textContent === 'Copied');
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link, 'the image link is on the clipboard');
      } else {
        assert.ok(!shareVisible && noteVisible, 'a private code hides the link and shows the private note');
        assert.ok(!(await page.isVisible('#meta-payload')), 'a private payload is not echoed');
      }
      // The preview and both downloads went as POST bodies.
      const mine = requests.slice(from).filter((r) => new URL(r.url).pathname === '/api/qr-code');
      assert.ok(mine.length >= 3 && mine.every((r) => r.method === 'POST'), `POST /api/qr-code only: ${mine.map((r) => r.method).join(', ')}`);
      return `version ${version}, ${await page.textContent('#meta-type')}`;
    });

    if (t.type === 'wifi') {
      await check('wifi: a 5-character WPA password shows the API\'s hint in the element aria-describedby names, with aria-invalid="true"; fixing it clears both', async () => {
        await page.fill('#wifi-password', 'abcde');
        await page.waitForSelector('#wifi-password[aria-invalid="true"]', { timeout: 10000 });
        const described = await page.evaluate(() => document.getElementById('wifi-password').getAttribute('aria-describedby')
          .split(/\s+/).map((id) => document.getElementById(id)?.textContent || '').join(' | '));
        assert.match(described, /A WPA password has 8 to 63 characters, or is a key of 64 hexadecimal digits\./);
        assert.match(described, /Password has 5 characters/);
        assert.equal(await page.getAttribute('#preview', 'data-state'), 'error');
        assert.ok(await page.isDisabled('#download-png'), 'no download of a code that cannot be made');
        assert.ok(!described.includes('abcde'), 'the error does not quote the password');
        await page.fill('#wifi-password', 'hunter22');
        await waitReady(page, 'wifi');
        assert.equal(await page.getAttribute('#wifi-password', 'aria-invalid'), null);
        assert.ok(!(await page.getAttribute('#wifi-password', 'aria-describedby') || '').includes('error'));
        return `described by: ${described.replace(/\s+/g, ' ').slice(0, 140)}…`;
      });

      await check('wifi: the show/hide toggle reveals the password and hides it again', async () => {
        await page.click('#wifi-password-toggle');
        assert.equal(await page.getAttribute('#wifi-password', 'type'), 'text');
        assert.equal(await page.getAttribute('#wifi-password-toggle', 'aria-pressed'), 'true');
        await page.click('#wifi-password-toggle');
        assert.equal(await page.getAttribute('#wifi-password', 'type'), 'password');
      });

      await check('wifi: the password and the SSID appear in no request URL (they travel in POST bodies)', async () => {
        const secrets = ['hunter22', 'abcde', 'Lab Net', 'Lab%20Net', 'Lab+Net'];
        const leaks = requests.filter((r) => secrets.some((s) => r.url.includes(s) || decodeURIComponent(r.url).includes(s)));
        assert.deepEqual(leaks.map((r) => r.url), []);
        const bodies = requests.filter((r) => r.method === 'POST' && r.body.includes('"password":"hunter22"'));
        assert.ok(bodies.length >= 3, 'the password went in POST bodies (preview and downloads)');
        return `${requests.length} requests so far, none with them in the URL; ${bodies.length} POST bodies carry the password`;
      });
    }
  }

  // The extension types: their errors beside their fields, the EPC code's fixed style, the
  // all-day event, the print downloads, and where their values may not go.
  const fieldErrors = [
    { type: 'tel', el: '#tel-phone', bad: '12', good: '+1 555 987 6543', message: 'Phone has 2 digits; 3 to 15 are needed', hint: 'Give a number of 3 to 15 digits' },
    { type: 'geo', el: '#geo-latitude', bad: '91', good: '48.8582', message: 'Latitude is out of range -90..90', hint: 'from -90 (south) to 90 (north)' },
    { type: 'event', el: '#event-end', bad: '2026-12-24T17:00', good: '2026-12-24T20:30', message: 'End is before start', hint: 'Give an end at or after start.' },
    { type: 'epc', el: '#epc-iban', bad: 'DE89 3704 0044 0532 0130 01', good: 'DE89 3704 0044 0532 0130 00', message: 'IBAN\'s check digits are wrong', hint: 'Check the IBAN for a mistyped character' },
    { type: 'swissqr', el: '#swissqr-iban', bad: 'DE89 3704 0044 0532 0130 00', good: SWISS.input.iban, message: 'IBAN is not of Switzerland or Liechtenstein', hint: 'Give the IBAN of an account in Switzerland or Liechtenstein' },
    { type: 'swissqr', el: '#swissqr-debtorCountry', bad: 'C1', good: SWISS.input.debtorCountry, message: 'Debtor country is not two letters', hint: 'two-letter ISO 3166-1 country code' },
    { type: 'upi', el: '#upi-vpa', bad: 'nadeem npci', good: UPI.input.vpa, message: 'UPI id is not a virtual payment address', hint: 'Give the payee\'s UPI id as handle@psp' },
  ];
  for (const f of fieldErrors) {
    await check(`${f.type}: ${f.el} = ${JSON.stringify(f.bad)} shows the API's message and hint in the element its aria-describedby names, with aria-invalid="true"; fixing it clears both`, async () => {
      await chooseType(page, f.type);
      await waitReady(page, f.type); // filled by the type's own check above
      await page.fill(f.el, f.bad);
      await page.waitForSelector(`${f.el}[aria-invalid="true"]`, { timeout: 10000 });
      const described = await page.evaluate((sel) => document.querySelector(sel).getAttribute('aria-describedby')
        .split(/\s+/).map((id) => document.getElementById(id)?.textContent || '').join(' | '), f.el);
      assert.ok(described.includes(f.message), described);
      assert.ok(described.includes(f.hint), described);
      const error = await page.evaluate((sel) => {
        const p = document.getElementById(document.querySelector(sel).id + '-error');
        return p && p.closest('.field') === document.querySelector(sel).closest('.field') && !p.closest('[hidden]');
      }, f.el);
      assert.ok(error, 'the error shows in the field\'s own box');
      assert.ok(await page.isHidden('#form-error'), 'not in the general error area');
      assert.equal(await page.getAttribute('#preview', 'data-state'), 'error');
      assert.ok(await page.isDisabled('#download-pdf'), 'no download of a code that cannot be made');
      await page.fill(f.el, f.good);
      await waitReady(page, f.type);
      assert.equal(await page.getAttribute(f.el, 'aria-invalid'), null);
      return described.replace(/\s+/g, ' ').slice(0, 120);
    });
  }

  await check('event: "All day" turns start and end into dates, keeping the day; the code holds VALUE=DATE days, the end inclusive; unticked, the times come back', async () => {
    await chooseType(page, 'event');
    await waitReady(page, 'event');
    await page.locator('label[for="event-all-day"]').click();
    assert.equal(await page.getAttribute('#event-start', 'type'), 'date');
    assert.equal(await page.inputValue('#event-start'), '2026-12-24');
    await page.fill('#event-end', '2026-12-26');
    await waitReady(page, 'event');
    const png = path.join(tmp, 'event-all-day.png');
    await download(page, '#download-png', png);
    assert.equal(zbar(png).toString('utf8'), 'BEGIN:VEVENT\r\nSUMMARY:Banana tasting\r\nDTSTART;VALUE=DATE:20261224\r\nDTEND;VALUE=DATE:20261227\r\nLOCATION:Banana Lab\\, Berlin\r\nEND:VEVENT\r\n');
    const sent = JSON.parse(requests.filter((r) => r.method === 'POST' && r.body.includes('"type":"event"')).at(-1).body);
    assert.deepEqual([sent.start, sent.end], ['2026-12-24', '2026-12-26']);
    await page.locator('label[for="event-all-day"]').click();
    assert.equal(await page.getAttribute('#event-start', 'type'), 'datetime-local');
    assert.equal(await page.inputValue('#event-start'), '2026-12-24T18:00');
    assert.equal(await page.inputValue('#event-end'), '2026-12-26T20:30', 'the new last day, at the time the end had');
    await waitReady(page, 'event');
    const again = JSON.parse(requests.filter((r) => r.method === 'POST' && r.body.includes('"type":"event"')).at(-1).body);
    assert.deepEqual([again.start, again.end], ['2026-12-24T18:00+01:00', '2026-12-26T20:30+01:00'], 'the browser\'s offset added');
    await page.fill('#event-end', '2026-12-24T20:30');
    await waitReady(page, 'event');
  });

  await check('epc: the logo switch and the error correction are disabled, at no logo and M, with a note why; no logo or ecc is sent; other types get the choices back', async () => {
    await chooseType(page, 'url');
    await page.fill('#url-url', 'example.com');
    await waitReady(page, 'url');
    await page.locator('label.switch').click();
    await page.locator('label.seg:has(input[name="ecc"][value="Q"])').click();
    await page.waitForFunction(() => /logo=banana/.test(document.getElementById('share-image-url').value), null, { timeout: 10000 });
    await waitReady(page, 'url');
    const from = requests.length;
    await chooseType(page, 'epc');
    await page.fill('#epc-amount', '13.00'); // a request not in the page's cache
    await waitReady(page, 'epc');
    const locked = await page.evaluate(() => ({
      logo: [document.getElementById('style-logo').checked, document.getElementById('style-logo').disabled],
      ecc: [...document.querySelectorAll('input[name="ecc"]')].map((el) => `${el.value}${el.checked ? '*' : ''}${el.matches(':disabled') ? '' : ' enabled'}`).join(' '),
      note: !document.getElementById('style-fixed-note').hidden,
      described: document.getElementById('style-logo').getAttribute('aria-describedby') + ' / ' + document.getElementById('style-ecc').getAttribute('aria-describedby'),
    }));
    assert.deepEqual(locked.logo, [false, true], 'the logo is off and disabled');
    assert.equal(locked.ecc, 'L M* Q H', 'M is chosen and every level disabled');
    assert.ok(locked.note, 'the note shows');
    assert.match(await page.textContent('#style-fixed-note'), /EPC guideline/);
    assert.match(locked.described, /style-logo-help style-fixed-note \/ style-ecc-help style-fixed-note/);
    assert.equal(await page.textContent('#meta-ecc .value'), 'M');
    const sent = requests.slice(from).filter((r) => r.method === 'POST' && r.body.includes('"type":"epc"'));
    assert.ok(sent.length >= 1 && sent.every((r) => !('logo' in JSON.parse(r.body)) && !('ecc' in JSON.parse(r.body))), `no logo and no ecc in the requests: ${sent.map((r) => r.body).join(', ')}`);
    await page.fill('#epc-amount', '12.50');
    await waitReady(page, 'epc');
    await chooseType(page, 'url');
    await waitReady(page, 'url');
    assert.ok(await page.isChecked('#style-logo') && !(await page.isDisabled('#style-logo')), 'the banana is back');
    assert.ok(await page.isChecked('input[name="ecc"][value="Q"]') && !(await page.isDisabled('input[name="ecc"][value="Q"]')), 'Q is back');
    assert.ok(await page.isHidden('#style-fixed-note'));
    assert.doesNotMatch(await page.getAttribute('#style-logo', 'aria-describedby'), /style-fixed-note/);
    await page.locator('label.switch').click();
    await page.locator('label.seg:has(input[name="ecc"][value="M"])').click();
    await page.waitForFunction(() => !/logo=banana/.test(document.getElementById('share-image-url').value), null, { timeout: 10000 });
    await waitReady(page, 'url');
  });

  await check('swissqr: the logo, the error correction, the corners and both colours are locked at the Swiss QR-bill\'s (no logo, M, square, #000000 on #FFFFFF) with the note why, the presets too; none of them is sent; back on a link, each choice comes back', async () => {
    const styleNow = () => page.evaluate(() => ({
      logo: document.getElementById('style-logo').checked,
      ecc: document.querySelector('input[name="ecc"]:checked').value,
      corners: document.querySelector('input[name="corners"]:checked').value,
      color: document.getElementById('style-color').value.toUpperCase(),
      background: document.getElementById('style-background').value.toUpperCase(),
    }));
    // The controls of the five fields, and whether each is disabled.
    const disabledNow = () => page.evaluate(() => ({
      logo: document.getElementById('style-logo').disabled,
      ecc: [...document.querySelectorAll('input[name="ecc"]')].every((el) => el.matches(':disabled')),
      corners: [...document.querySelectorAll('input[name="corners"]')].every((el) => el.matches(':disabled')),
      color: document.getElementById('style-color').disabled && document.getElementById('style-color-picker').disabled,
      background: document.getElementById('style-background').disabled && document.getElementById('style-background-picker').disabled,
      presets: [...document.querySelectorAll('.preset')].every((el) => el.disabled),
    }));
    const unlocked = { logo: false, ecc: false, corners: false, color: false, background: false, presets: false };
    const pick = (name, value) => page.locator(`label.seg:has(input[name="${name}"][value="${value}"])`).click();
    await chooseType(page, 'url');
    await waitReady(page, 'url');
    const before = await styleNow();
    const corners = await page.evaluate(() => document.querySelector('input[name="corners"]:not(:checked)').value);
    await page.locator('label.switch').click();
    await pick('ecc', 'Q');
    await pick('corners', corners);
    await page.click('.preset[data-color="1A237E"][data-background="FFF8E1"]');
    await waitReady(page, 'url');
    const chosen = await styleNow();
    assert.deepEqual(chosen, { logo: true, ecc: 'Q', corners, color: '#1A237E', background: '#FFF8E1' }, 'the user\'s own style');

    const from = requests.length;
    await chooseType(page, 'swissqr');
    await page.fill('#swissqr-amount', '3949.70'); // a request not in the page's cache
    await waitReady(page, 'swissqr');
    assert.deepEqual(await styleNow(), { logo: false, ecc: 'M', corners: 'square', color: '#000000', background: '#FFFFFF' }, 'the fixed values show');
    assert.deepEqual(await disabledNow(), { logo: true, ecc: true, corners: true, color: true, background: true, presets: true }, 'every fixed control is disabled');
    assert.ok(await page.isVisible('#style-fixed-note'));
    assert.match(await page.textContent('#style-fixed-note'), /Swiss Implementation Guidelines for the QR-bill/);
    const described = await page.evaluate(() => ['style-logo', 'style-ecc', 'style-corners', 'style-color', 'style-background']
      .filter((id) => !(document.getElementById(id).getAttribute('aria-describedby') || '').split(/\s+/).includes('style-fixed-note')));
    assert.deepEqual(described, [], 'each locked control is described by the note');
    assert.equal(await page.textContent('#meta-ecc .value'), 'M');
    const sent = requests.slice(from).filter((r) => r.method === 'POST' && r.body.includes('"type":"swissqr"')).map((r) => JSON.parse(r.body));
    const fixedSent = sent.flatMap((b) => ['logo', 'ecc', 'corners', 'color', 'background'].filter((name) => name in b));
    assert.ok(sent.length >= 1 && fixedSent.length === 0, `no fixed field in the requests: ${fixedSent.join(', ')}`);
    await page.fill('#swissqr-amount', SWISS.input.amount);
    await waitReady(page, 'swissqr');

    await chooseType(page, 'url');
    await waitReady(page, 'url');
    assert.deepEqual(await styleNow(), chosen, 'each choice is back');
    assert.deepEqual(await disabledNow(), unlocked, 'and free again');
    assert.ok(await page.isHidden('#style-fixed-note'));
    assert.equal(await page.getAttribute('#style-corners', 'aria-describedby'), null);
    // As epc locks only the logo and the level, the colours chosen on it are the user's.
    await chooseType(page, 'epc');
    await waitReady(page, 'epc');
    assert.deepEqual(await disabledNow(), { ...unlocked, logo: true, ecc: true });
    await chooseType(page, 'url');
    await page.locator('label.switch').click();
    await pick('ecc', before.ecc);
    await pick('corners', before.corners);
    await page.fill('#style-color', before.color);
    await page.fill('#style-background', before.background);
    await waitReady(page, 'url');
    assert.deepEqual(await styleNow(), before);
  });

  await check('emvco: Pix shows the description and presets the country and currency; PromptPay hides the description, leaves the merchant and city optional; another scheme asks for its identifier, country and currency; each makes its vector\'s code', async () => {
    await chooseType(page, 'emvco');
    await waitReady(page, 'emvco'); // the Pix code of the type's own check
    const shown = () => page.evaluate(() => {
      const $ = (id) => document.getElementById(id);
      const on = (id) => !$(id).closest('[hidden]') && !$(id).disabled;
      return {
        scheme: on('emvco-scheme'), message: on('emvco-message'), country: on('emvco-country'), currency: on('emvco-currency'),
        required: ['emvco-name', 'emvco-city'].filter((id) => $(id).hasAttribute('data-required')).length,
        key: $('emvco-key-label').textContent,
      };
    });
    assert.deepEqual(await shown(), { scheme: false, message: true, country: false, currency: false, required: 2, key: 'Pix key' });
    const clear = () => page.evaluate(() => {
      for (const el of document.querySelectorAll('#panel-emvco input:not([type="radio"])')) el.value = '';
    });

    await page.locator('label.seg:has(#emvco-scheme-promptpay)').click();
    assert.deepEqual(await shown(), { scheme: false, message: false, country: false, currency: false, required: 0, key: 'PromptPay id' });
    assert.ok(await page.isVisible('label[for="emvco-name"] [data-optional-note]'), 'the merchant is marked optional');
    await clear();
    await fillFields(page, 'emvco', PROMPTPAY.input);
    await waitReady(page, 'emvco');
    assert.equal(await scanPNG(page, 'emvco-promptpay'), PROMPTPAY.expected);
    const promptpay = JSON.parse(requests.filter((r) => r.method === 'POST' && r.body.includes('"type":"emvco"')).at(-1).body);
    assert.deepEqual(Object.keys(promptpay).filter((k) => ['scheme', 'key', 'name', 'city', 'message', 'country', 'currency'].includes(k)), ['scheme', 'key'], 'the scheme and the key alone');

    await page.locator('label.seg:has(#emvco-scheme-other)').click();
    assert.deepEqual(await shown(), { scheme: true, message: false, country: true, currency: true, required: 2, key: 'Merchant account' });
    // The scheme's identifier, the country and the currency are missing: no code, a prompt.
    await page.waitForFunction(() => document.getElementById('preview').dataset.state === 'empty', null, { timeout: 10000 });
    assert.match(await page.textContent('#status'), /^Fill in the scheme identifier/);
    await clear();
    await fillFields(page, 'emvco', EMV_OTHER.input);
    await waitReady(page, 'emvco');
    assert.equal(await scanPNG(page, 'emvco-other'), EMV_OTHER.expected);

    await page.locator('label.seg:has(#emvco-scheme-pix)').click();
    await clear();
    await fillFields(page, 'emvco', PIX.input);
    await waitReady(page, 'emvco');
    assert.equal(await scanPNG(page, 'emvco-pix'), PIX.expected);
  });

  await check('print: the size hint tells the printed size at 300 dpi; the PDF and EPS downloads, of a public and of a private code, are a PDF and an EPS of that size, asked for by POST', async () => {
    await chooseType(page, 'url');
    await waitReady(page, 'url');
    assert.equal(await page.textContent('#style-size-print'), 'Prints at 86.7 mm (3.41 in) at 300 dpi, as PDF or EPS.');
    const from = requests.length;
    const files = [];
    for (const type of ['url', 'epc']) {
      await chooseType(page, type);
      await waitReady(page, type);
      const pdf = path.join(tmp, `${type}.pdf`);
      assert.equal(await download(page, '#download-pdf', pdf), `qr-${type}.pdf`);
      const pdfText = fs.readFileSync(pdf, 'latin1');
      assert.ok(pdfText.startsWith('%PDF-'), pdfText.slice(0, 20));
      assert.ok(pdfText.includes('/MediaBox [0 0 245.76 245.76]'), '1024 pixels at 300 dpi: 245.76 pt, 86.7 mm');
      const eps = path.join(tmp, `${type}.eps`);
      assert.equal(await download(page, '#download-eps', eps), `qr-${type}.eps`);
      const epsText = fs.readFileSync(eps, 'latin1');
      assert.ok(epsText.startsWith('%!PS-Adobe-3.0 EPSF-3.0'), epsText.slice(0, 30));
      assert.ok(epsText.includes('%%HiResBoundingBox: 0 0 245.76 245.76'));
      files.push(`qr-${type}.pdf ${fs.statSync(pdf).size} B`, `qr-${type}.eps ${fs.statSync(eps).size} B`);
    }
    const asked = requests.slice(from).filter((r) => new URL(r.url).pathname === '/api/qr-code' && /"format":"(pdf|eps)"/.test(r.body));
    assert.equal(asked.length, 4, 'four print downloads');
    assert.ok(asked.every((r) => r.method === 'POST' && JSON.parse(r.body).download === true), 'POST with "download":true');
    await page.fill('#style-size', '2048');
    await page.waitForFunction(() => document.getElementById('style-size-print').textContent === 'Prints at 173.4 mm (6.83 in) at 300 dpi, as PDF or EPS.', null, { timeout: 5000 });
    await page.fill('#style-size', '1024');
    await waitReady(page, 'epc');
    return files.join(', ');
  });

  await check('the private types\' values appear in no request URL (they travel in POST bodies)', async () => {
    const leaks = [];
    for (const t of TYPES.filter((x) => !x.public)) {
      for (const r of requests) {
        if (!r.url.startsWith('http:')) continue; // data: and blob: URLs never leave the page
        let decoded = r.url;
        try {
          decoded = decodeURIComponent(r.url);
        } catch {
          // a URL that is not percent-encoded UTF-8 is checked as it is
        }
        for (const s of t.secrets) if (r.url.includes(s) || decoded.includes(s)) leaks.push(`${t.type}: ${s} in ${r.url}`);
      }
    }
    assert.deepEqual(leaks, []);
    const types = TYPES.filter((x) => !x.public).map((x) => x.type);
    const carried = types.filter((type) => requests.some((r) => r.method === 'POST' && r.body.includes(`"type":"${type}"`)));
    assert.deepEqual(carried, types, 'each private type went in POST bodies');
    return `${requests.length} requests; ${types.join(', ')}`;
  });

  await check('style: the banana keeps the symbol and the chosen level; a low-contrast colour is refused by the contrast line under the colours, the one the colour field names, with a readable colour to try; a small quiet zone warns', async () => {
    await chooseType(page, 'url');
    await waitReady(page, 'url');
    const plainVersion = await page.textContent('#meta-version .value');
    await page.locator('label.switch').click();
    await page.waitForFunction(() => /logo=banana/.test(document.getElementById('share-image-url').value), null, { timeout: 10000 });
    await waitReady(page, 'url');
    assert.ok(await page.isChecked('input[name="ecc"][value="M"]'), 'the level chosen stays chosen');
    assert.ok(!(await page.isDisabled('input[name="ecc"][value="M"]')));
    assert.equal(await page.textContent('#meta-version .value'), plainVersion, 'the banana costs this code no larger symbol');
    await page.locator('label.switch').click();
    await page.waitForFunction(() => !/logo=banana/.test(document.getElementById('share-image-url').value), null, { timeout: 10000 });
    await waitReady(page, 'url');
    await page.fill('#style-color', '#DDDDDD');
    await page.waitForSelector('#style-color[aria-invalid="true"]', { timeout: 10000 });
    const described = await page.evaluate(() => document.getElementById('style-color').getAttribute('aria-describedby')
      .split(/\s+/).map((id) => document.getElementById(id)?.textContent || '').join(' '));
    await page.waitForFunction(() => /try the colour #[0-9A-F]{6}/.test(document.getElementById('contrast').textContent), null, { timeout: 10000 });
    assert.match(await page.evaluate(() => document.getElementById('style-color').getAttribute('aria-describedby')
      .split(/\s+/).map((id) => document.getElementById(id)?.textContent || '').join(' ')), /hard for QR readers.*try the colour #[0-9A-F]{6}/i, `described by: ${described}`);
    assert.ok(await page.$eval('#contrast', (el) => el.classList.contains('bad')));
    assert.equal(await page.inputValue('#style-color-picker'), '#dddddd', 'the picker follows the hex field');
    await page.click('.preset[data-color="7B260F"][data-background="FFFFFF"]');
    await waitReady(page, 'url');
    assert.equal(await page.getAttribute('#style-color', 'aria-invalid'), null);
    await page.waitForFunction(() => /scanners can read these colours/.test(document.getElementById('contrast').textContent), null, { timeout: 10000 });
    await page.fill('#style-margin', '2');
    await page.waitForFunction(() => /margin is below the 4 modules the QR standard asks for/i.test(document.getElementById('warnings').textContent), null, { timeout: 10000 });
    assert.match(await page.textContent('#style-margin-help'), /Below the 4 modules/);
    await page.fill('#style-margin', '4');
    await page.waitForFunction(() => document.getElementById('warnings').hidden, null, { timeout: 10000 });
    assert.doesNotMatch(await page.textContent('#style-margin-help'), /Below/);
    await page.fill('#style-size', '5000');
    await page.waitForSelector('#style-size[aria-invalid="true"]', { timeout: 10000 });
    assert.match(await page.textContent('#style-size-error'), /128 to 2048/);
    await page.fill('#style-size', '1024');
    await waitReady(page, 'url');
  });

  await check('keyboard only: arrow keys switch the type, Tab reaches its field, typing updates the preview', async () => {
    await chooseType(page, 'url');
    await page.focus('#type-url');
    await page.keyboard.press('ArrowRight');
    assert.ok(await page.isChecked('#type-text'));
    assert.ok(await page.isVisible('#panel-text') && !(await page.isVisible('#panel-url')));
    assert.ok(await page.evaluate(() => document.getElementById('type-text').matches(':focus-visible')), 'the focused tab shows its focus');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'text-text');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('typed by keyboard');
    await waitReady(page, 'text');
    assert.equal(await page.textContent('#meta-payload'), 'typed by keyboard');
  });

  await check('a slow answer to an earlier form never replaces the preview of the form as it is now', async () => {
    const p = await context.newPage();
    await p.route('**/api/qr-code', async (route) => { // answers for ".../ab" come late
      if ((route.request().postData() || '').includes('example.com/ab')) await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await p.goto(base + '/');
    await chooseType(p, 'url');
    await p.fill('#url-url', 'example.com/a');
    await waitReady(p, 'url');
    await p.fill('#url-url', 'example.com/ab');
    await p.waitForTimeout(600); // past the debounce: the slow request is in flight
    await p.fill('#url-url', 'example.com/a'); // back to the code on show
    await p.waitForTimeout(2000); // the slow answer has arrived by now
    assert.equal(await p.textContent('#meta-payload'), 'https://example.com/a');
    await p.close();
  });

  await check('a text over 2,048 characters: 413 shown in the general error area with its hint; the counter turns red', async () => {
    await chooseType(page, 'text');
    await page.fill('#text-text', 'a'.repeat(2049));
    await page.waitForSelector('#form-error:not([hidden])', { timeout: 10000 });
    assert.match(await page.textContent('#form-error-title'), /Too long/);
    assert.match(await page.textContent('#form-error-message'), /2049 characters, more than 2048/);
    assert.match(await page.textContent('#form-error-hint'), /Shorten the content/);
    assert.ok(await page.evaluate(() => document.getElementById('text-text-count').classList.contains('over')));
    await page.screenshot({ path: path.join(artifacts, 'page-1280-413.png') });
    await page.fill('#text-text', 'short again');
    await waitReady(page, 'text');
    assert.ok(await page.isHidden('#form-error'));
  });

  // 5. Layout.
  await check('layout: full-page screenshots at 1280 px (light and dark): the form and the preview side by side', async () => {
    await chooseType(page, 'url');
    await page.fill('#url-url', 'https://example.com/menu?table=12');
    await waitReady(page, 'url');
    await page.screenshot({ path: path.join(artifacts, 'page-1280.png'), fullPage: true });
    const content = await page.locator('.content-card').boundingBox();
    const previewBox = await page.locator('.preview-card').boundingBox();
    assert.ok(previewBox.x > content.x + content.width - 1, 'the preview is right of the form');
    assert.ok(Math.abs(previewBox.y - content.y) < 2, 'and level with it');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 1280));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: path.join(artifacts, 'page-1280-dark.png'), fullPage: true });
    await chooseType(page, 'wifi');
    await waitReady(page, 'wifi');
    await page.screenshot({ path: path.join(artifacts, 'page-1280-dark-wifi.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: path.join(artifacts, 'page-1280-wifi.png'), fullPage: true });
    return 'page-1280.png, page-1280-dark.png, page-1280-wifi.png, page-1280-dark-wifi.png';
  });

  await check('layout: at 360 px wide nothing overflows horizontally, for every type; stacked form, preview, style; full-page screenshots', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 360, height: 780 });
    await phone.goto(base + '/');
    await phone.fill('#url-url', 'example.com');
    await waitReady(phone, 'url');
    const widths = {};
    for (const { type } of TYPES) {
      await chooseType(phone, type);
      widths[type] = await phone.evaluate(() => document.documentElement.scrollWidth);
    }
    assert.ok(Object.values(widths).every((w) => w <= 360), `scrollWidth by type: ${JSON.stringify(widths)}`);
    await chooseType(phone, 'url');
    await waitReady(phone, 'url');
    const boxes = await Promise.all(['.content-card', '.preview-card', '.style-card'].map((s) => phone.locator(s).boundingBox()));
    assert.ok(boxes[0].y < boxes[1].y && boxes[1].y < boxes[2].y, 'content, then preview, then style');
    assert.ok(boxes.every((b) => b.x >= 0 && b.x + b.width <= 360), 'each card within 360 px');
    await phone.screenshot({ path: path.join(artifacts, 'page-360.png'), fullPage: true });
    await phone.emulateMedia({ colorScheme: 'dark' });
    await chooseType(phone, 'wifi');
    await phone.fill('#wifi-ssid', 'Lab Net');
    await phone.fill('#wifi-password', 'hunter22');
    await waitReady(phone, 'wifi');
    await phone.screenshot({ path: path.join(artifacts, 'page-360-dark-wifi.png'), fullPage: true });
    await phone.close();
    return `scrollWidth ${Math.max(...Object.values(widths))} px; page-360.png, page-360-dark-wifi.png`;
  });

  await check('the type picker at 360 px: the 15 types in two titled groups (Everyday, then Payments), three a row, each label whole within its tab', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 360, height: 780 });
    await phone.goto(base + '/');
    const groups = await phone.$$eval('.types [role="group"]', (els) => els.map((g) => ({
      title: document.getElementById(g.getAttribute('aria-labelledby')).textContent,
      types: [...g.querySelectorAll('input[name="type"]')].map((el) => el.value),
      rows: new Set([...g.querySelectorAll('.seg')].map((el) => Math.round(el.getBoundingClientRect().top))).size,
      clipped: [...g.querySelectorAll('.seg-body')].filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 || el.getBoundingClientRect().right > 360)
        .map((el) => el.textContent.trim()),
    })));
    await phone.screenshot({ path: path.join(artifacts, 'types-360.png'), clip: { x: 0, y: 0, width: 360, height: 780 } });
    await phone.close();
    assert.deepEqual(groups.map((g) => g.title), ['Everyday', 'Payments']);
    assert.deepEqual(groups.flatMap((g) => g.types), TYPES.map((t) => t.type), 'every type, in the order of the checks above');
    assert.deepEqual(groups.map((g) => g.rows), [3, 2], 'three a row');
    assert.deepEqual(groups.flatMap((g) => g.clipped), [], 'no label cut');
    return 'types-360.png';
  });

  // 11. Issue 21: accessibility, errors after a code, announcements, weight, printing, the
  // settings link, without JavaScript, the examples at 360 px.
  const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // axe runs axe-core's WCAG 2.1 A and AA rules on the page as it is, and returns its violations
  // as lines (rule, impact, the first nodes). It is evaluated through the DevTools protocol, so
  // the page's CSP (script-src 'self') stays as it is.
  async function axe(p, label) {
    if (!(await p.evaluate(() => typeof window.axe === 'object'))) await p.evaluate(axeSource);
    // Colours as they end, not halfway through a transition (a radio just chosen).
    await p.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => {}))));
    const result = await p.evaluate(() => window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }));
    return result.violations.map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.length}× ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  }

  await check('axe-core (WCAG 2.1 A and AA): zero violations in every state (the sample, nothing typed, each type, an error after a public and a private code, a general error), light and dark, at 360 and 1280 px', async () => {
    const violations = [];
    let runs = 0;
    const shots = process.env.E2E_SCREENSHOTS ? path.resolve(root, process.env.E2E_SCREENSHOTS) : '';
    if (shots) fs.mkdirSync(shots, { recursive: true });
    for (const width of [360, 1280]) {
      for (const scheme of ['light', 'dark']) {
        const p = await context.newPage();
        await p.setViewportSize({ width, height: width === 360 ? 780 : 900 });
        await p.emulateMedia({ colorScheme: scheme });
        await p.goto(base + '/');
        await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
        const run = async (label) => {
          runs++;
          violations.push(...await axe(p, `${width} px ${scheme}, ${label}`));
        };
        await run('the sample');
        await p.fill('#url-url', 'x');
        await p.fill('#url-url', '');
        await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'empty', null, { timeout: 10000 });
        await run('nothing typed');
        for (const t of TYPES) {
          await chooseType(p, t.type);
          await t.fill(p);
          await waitReady(p, t.type);
          await run(t.type);
          if (t.type === 'url' && shots) {
            await p.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
            // At 360 px the code is below the form: the shot reaches down to it.
            await p.screenshot({ path: path.join(shots, `page-${width}-${scheme}.png`), ...(width === 360 ? { fullPage: true, clip: { x: 0, y: 0, width, height: 1500 } } : {}) });
          }
        }
        await chooseType(p, 'url');
        await waitReady(p, 'url');
        await p.fill('#style-size', '5000');
        await p.waitForSelector('#style-size[aria-invalid="true"]', { timeout: 10000 });
        await run('an error after a link\'s code');
        await p.fill('#style-size', '1024');
        await chooseType(p, 'wifi');
        await waitReady(p, 'wifi');
        await p.fill('#wifi-password', 'short');
        await p.waitForSelector('#wifi-password[aria-invalid="true"]', { timeout: 10000 });
        await run('an error after a Wi-Fi code');
        await chooseType(p, 'text');
        await p.fill('#text-text', 'a'.repeat(2049));
        await p.waitForSelector('#form-error:not([hidden])', { timeout: 10000 });
        await run('a general error');
        await chooseType(p, 'url');
        await p.fill('#style-caption', 'Scan for the menu');
        await p.check('#style-show_destination');
        await waitReady(p, 'url');
        await run('a link with its caption and destination');
        await p.fill('#style-caption', 'Scan 扫');
        await p.waitForSelector('#style-caption[aria-invalid="true"]', { timeout: 10000 });
        await run('a caption refused');
        await p.close();
      }
    }
    assert.deepEqual(violations, []);
    return `${runs} states checked${shots ? `; screenshots in ${shots}` : ''}`;
  });

  await check('an error after a code: the old image, its text alternative, its details, its links and its downloads are gone (a bad size, a refused link, a too-faint colour, a too-short Wi-Fi password); the refusal is said once, beside its field, and the status line only points there', async () => {
    const p = await context.newPage();
    await p.goto(base + '/');
    const cases = [
      { type: 'url', ok: (x) => x.fill('#url-url', 'example.com'), bad: (x) => x.fill('#style-size', '5000'), fix: (x) => x.fill('#style-size', '1024'), field: '#style-size' },
      { type: 'url', ok: (x) => x.fill('#url-url', 'example.com'), bad: (x) => x.fill('#url-url', 'javascript:alert(1)'), fix: (x) => x.fill('#url-url', 'example.com'), field: '#url-url' },
      { type: 'url', ok: (x) => x.fill('#url-url', 'example.com'), bad: (x) => x.fill('#style-color', '#DDDDDD'), fix: (x) => x.fill('#style-color', '#7B260F'), field: '#style-color' },
      { type: 'wifi', ok: async (x) => { await x.fill('#wifi-ssid', 'Lab Net'); await x.fill('#wifi-password', 'hunter22'); }, bad: (x) => x.fill('#wifi-password', 'short'), fix: (x) => x.fill('#wifi-password', 'hunter22'), field: '#wifi-password' },
    ];
    const seen = [];
    for (const c of cases) {
      await chooseType(p, c.type);
      await c.ok(p);
      await waitReady(p, c.type);
      if (c.type === 'url') assert.notEqual(await p.inputValue('#share-image-url'), '');
      await c.bad(p);
      await p.waitForSelector(`${c.field}[aria-invalid="true"]`, { timeout: 10000 });
      const left = await p.evaluate(() => {
        const $ = (id) => document.getElementById(id);
        return {
          state: $('preview').dataset.state,
          image: !$('preview-img').hidden || $('preview-img').hasAttribute('src') || $('preview-img').alt !== '',
          details: !$('meta').hidden || !$('print-help').hidden || !$('warnings').hidden,
          share: !$('share').hidden || ['share-image-url', 'share-markdown', 'share-settings'].some((id) => $(id).value !== ''),
          enabled: ['download-png', 'download-svg', 'download-pdf', 'download-eps', 'copy-image'].filter((id) => !$(id).disabled),
          faded: [...$('preview').querySelectorAll('*')].filter((el) => el.checkVisibility() && Number(getComputedStyle(el).opacity) < 1 && !el.matches('.spinner') && !el.closest(':disabled')).map((el) => el.id || el.className),
          status: $('status').textContent,
          fragment: location.hash,
        };
      });
      assert.deepEqual({ ...left, status: left.status.slice(0, 13) }, { state: 'error', image: false, details: false, share: false, enabled: [], faded: [], status: 'Not updated: ', fragment: '' }, `${c.type}, ${c.field}`);
      // Said once: one element says why (a box under the field, or the contrast line under the
      // colours), the field's aria-describedby names it, and its words are nowhere else on the page.
      if (c.field === '#style-color') await p.waitForSelector('#contrast.bad', { timeout: 10000 });
      const said = await p.evaluate((field) => {
        const el = document.querySelector(field);
        const sayers = [...document.querySelectorAll('.field-error, #contrast.bad, #form-error:not([hidden])')].filter((x) => x.checkVisibility());
        const words = sayers.length ? sayers[0].textContent.trim().slice(0, 30).toLowerCase() : '';
        const page = document.body.innerText.toLowerCase();
        return { sayers: sayers.map((x) => x.id), named: (el.getAttribute('aria-describedby') || '').split(/\s+/).includes(sayers[0]?.id), words, times: words ? page.split(words).length - 1 : 0 };
      }, c.field);
      assert.equal(said.sayers.length, 1, `${c.field}: said by ${said.sayers.join(', ')}`);
      assert.ok(said.named, `${c.field}: aria-describedby names ${said.sayers[0]}`);
      assert.equal(said.times, 1, `${c.field}: "${said.words}" is on the page ${said.times} times`);
      assert.match(left.status, /^Not updated: see [A-Z][\w -]*, which says why\.$/);
      seen.push(`${c.field}: ${left.status} / ${said.sayers[0]}: "${said.words}…"`);
      await c.fix(p);
      await waitReady(p, c.type);
    }
    await p.close();
    return seen.join(' | ');
  });

  await check('typing 22 characters into the link announces only changes of meaning, and asks nothing for a value already shown', async () => {
    const p = await context.newPage();
    await p.goto(base + '/');
    await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
    await p.evaluate(() => {
      window.statuses = [];
      const el = document.getElementById('status');
      new MutationObserver(() => window.statuses.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
    });
    let asked = 0;
    p.on('request', (r) => { if (new URL(r.url()).pathname === '/api/qr-code') asked++; });
    await p.focus('#url-url');
    const typed = 'example.com/menu/today';
    assert.equal(typed.length, 22);
    await p.keyboard.type(typed, { delay: 400 }); // the pause follows the pace: a few codes, not one a character
    await waitReady(p, 'url');
    const statuses = await p.evaluate(() => window.statuses);
    assert.deepEqual(statuses, ['Your code appears here as you type.', 'Ready: a link code.'], 'the sample ends, then one code is ready; the rest says the same');
    assert.ok(asked <= 6, `${asked} requests`);
    const before = asked;
    await p.keyboard.type(' '); // a space after a link is no part of it
    await p.waitForTimeout(700);
    await p.fill('#url-url', typed); // the same value again
    await p.waitForTimeout(700);
    assert.equal(asked, before, 'no request for a value already shown');
    assert.equal((await p.evaluate(() => window.statuses)).length, 2);
    await p.close();
    return `${statuses.length} announcements, ${before} requests for 22 characters`;
  });

  await check('weight: the page\'s HTML, CSS and JavaScript arrive gzip-compressed, under 35 KB with the first code (headers too); a preview asks for the SVG alone', async () => {
    const fresh = await browser.newContext(); // an empty cache: every file is sent, none revalidated
    const p = await fresh.newPage();
    const cdp = await fresh.newCDPSession(p);
    let asked = '';
    p.on('request', (r) => { if (new URL(r.url()).pathname === '/api/qr-code') asked = r.postData(); });
    await cdp.send('Network.enable');
    const answers = new Map();
    cdp.on('Network.responseReceived', (e) => answers.set(e.requestId, { url: e.response.url, encoding: e.response.headers['Content-Encoding'] || e.response.headers['content-encoding'] || '' }));
    cdp.on('Network.loadingFinished', (e) => { if (answers.has(e.requestId)) answers.get(e.requestId).bytes = e.encodedDataLength; });
    await p.goto(base + '/');
    await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
    // The colours' verdict (GET /api/contrast, some 500 bytes) is part of the load too: the
    // check waits for it, so that an answer slower than the sample's is not left out.
    await p.waitForFunction(() => document.getElementById('contrast').textContent.startsWith('Contrast'), null, { timeout: 10000 });
    await p.waitForTimeout(300);
    const got = [...answers.values()].filter((a) => a.url.startsWith('http'));
    const files = got.filter((a) => ['/', '/app.js', '/style.css'].includes(new URL(a.url).pathname));
    assert.equal(files.length, 3);
    assert.ok(!got.some((a) => new URL(a.url).pathname === '/payments.html'), 'the payment types\' panels wait until one is wanted');
    assert.ok(files.every((a) => a.encoding === 'gzip'), JSON.stringify(files));
    const total = got.reduce((n, a) => n + (a.bytes || 0), 0);
    const preview = got.find((a) => new URL(a.url).pathname === '/api/qr-code');
    assert.equal(preview.encoding, 'gzip');
    const each = got.map((a) => `${new URL(a.url).pathname} ${a.bytes}`).join(', ');
    assert.ok(total < 35000, `${total} bytes on load with the first code: over 35 KB (issue 29): ${each}`);
    assert.ok(preview.bytes < 2000, `${preview.bytes} bytes for the sample's preview`);
    assert.equal(JSON.parse(asked).format, 'svg', 'the preview asks for the SVG, not JSON with a PNG in it');
    await fresh.close();
    return `${total} bytes on load (${each})`;
  });

  // 13. The payment types' panels, loaded when wanted.
  await check('the payment types\' panels: not in the page on load, nor asked for; when they cannot come, choosing one says so in the form\'s error area, and the type chosen before is chosen again and still works; focus on the Payments group asks for them (GET /payments.html) without showing one; choosing payment types then asks nothing more', async () => {
    // A context of its own: the refused /payments.html is in its console, on purpose.
    const own = await browser.newContext();
    const p = await own.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(e.message));
    const asked = [];
    p.on('request', (r) => { if (new URL(r.url()).pathname === '/payments.html') asked.push(r.method()); });
    let refuse = true;
    await p.route('**/payments.html', (route) => (refuse ? route.fulfill({ status: 503, body: 'busy' }) : route.continue()));
    await p.goto(base + '/');
    await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
    await p.waitForTimeout(300);
    const loaded = ['swissqr', 'emvco', 'upi', 'spayd', 'bitcoin'];
    const inPage = () => p.evaluate((types) => types.filter((t) => document.getElementById('panel-' + t)), loaded);
    assert.deepEqual(await inPage(), [], 'no payment panel on load');
    assert.deepEqual(asked, [], '/payments.html is not asked for on load');
    await p.fill('#url-url', 'example.com');
    await waitReady(p, 'url');

    await p.locator('label.seg:has(#type-upi)').click();
    await p.waitForSelector('#form-error:not([hidden])', { timeout: 10000 });
    assert.equal(await p.textContent('#form-error-title'), 'Cannot show the UPI payment form');
    assert.equal(await p.textContent('#form-error-message'), 'The service answered 503 Service Unavailable');
    assert.ok(await p.isChecked('#type-url') && await p.isVisible('#panel-url'), 'the link is chosen again, its panel shown');
    assert.ok(asked.length >= 1, 'asked for');
    await p.fill('#url-url', 'example.org');
    await waitReady(p, 'url');
    assert.equal(await p.textContent('#meta-payload'), 'https://example.org');
    assert.ok(await p.isHidden('#form-error'), 'the error goes with the next code');

    refuse = false;
    await p.focus('#url-url');
    await p.focus('#type-epc'); // reaching for the Payments group, choosing nothing yet
    await p.waitForFunction((types) => types.every((t) => document.getElementById('panel-' + t)), loaded, { timeout: 10000 });
    assert.ok(await p.isChecked('#type-url') && await p.isVisible('#panel-url'), 'the link stays chosen');
    assert.ok(await p.evaluate((types) => types.every((t) => document.getElementById('panel-' + t).hidden), loaded), 'the panels came hidden');
    const n = asked.length;
    await chooseType(p, 'upi');
    await fillFields(p, 'upi', UPI.input);
    await waitReady(p, 'upi');
    await chooseType(p, 'emvco');
    assert.equal(await p.textContent('#emvco-key-label'), 'Pix key', 'the scheme set up');
    await chooseType(p, 'bitcoin');
    assert.equal(await p.getAttribute('#bitcoin-address', 'data-required'), '', 'the address required until an invoice is given');
    await chooseType(p, 'url');
    await waitReady(p, 'url');
    assert.equal(asked.length, n, 'asked for once');
    assert.deepEqual(asked.slice(0, n).filter((m) => m !== 'GET'), []);
    assert.deepEqual(errors, []);
    await own.close();
  });

  await check('print: the size at 300 dpi, and the rule of thumb\'s smallest print and scanning distance from the code\'s modules; Copy image puts the PNG on the clipboard, and it scans', async () => {
    const p = await context.newPage();
    await p.goto(base + '/');
    await p.fill('#url-url', 'example.com');
    await waitReady(p, 'url');
    const json = await (await fetch(base + '/api/qr-code', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"type":"url","url":"example.com","format":"json"}' })).json();
    const across = json.modules + 2 * json.margin;
    assert.equal(await p.textContent('#print-size'), `8.7 cm × 8.7 cm (3.41 in) at 300 dpi, a module ${((json.module_px / 300) * 25.4).toFixed(2)} mm.`);
    assert.equal(await p.textContent('#print-min'), `At least ${((across * 0.5) / 10).toFixed(1)} cm (${(across * 0.5 / 25.4).toFixed(2)} in) wide: ${across} modules with the quiet zone, at about 0.5 mm each, which phone cameras resolve.`);
    assert.match(await p.textContent('#print-distance'), /^Up to about 86\.7 cm at this size/);
    assert.equal(await p.textContent('#meta-version .value'), String(json.version));
    assert.equal(await p.textContent('#meta-ecc .value'), json.ecc);
    await p.fill('#style-size', '2048');
    await p.waitForFunction(() => document.getElementById('print-size').textContent.startsWith('17.3 cm'), null, { timeout: 10000 });
    await p.click('#copy-image');
    await p.waitForFunction(() => document.querySelector('#copy-image .copy-text').textContent !== 'Copy image', null, { timeout: 10000 });
    assert.equal(await p.textContent('#copy-image .copy-text'), 'Copied', await p.textContent('#copy-image-note'));
    const b64 = await p.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const blob = await item.getType('image/png');
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    });
    const file = path.join(tmp, 'clipboard.png');
    fs.writeFileSync(file, Buffer.from(b64, 'base64'));
    assert.equal(zbar(file).toString('utf8'), 'https://example.com');
    await p.close();
    return `${fs.statSync(file).size} B PNG on the clipboard`;
  });

  await check('the details read from the SVG answer\'s headers (version, modules, error correction, pixels a module) are the JSON answer\'s, for square and rounded corners, a logo, levels L to H and a long text', async () => {
    const p = await context.newPage();
    await p.goto(base + '/');
    const cases = [
      { type: 'url', value: 'example.com', ecc: 'L' },
      { type: 'url', value: 'example.com/a-longer-path?with=query', ecc: 'H', corners: 'rounded' },
      { type: 'url', value: 'example.com', ecc: 'Q', logo: true, margin: '2' },
      { type: 'text', value: 'Bananas '.repeat(40), ecc: 'M', corners: 'rounded', logo: true },
      { type: 'text', value: 'Bananas are berries 🍌\nStrawberries are not.', ecc: 'L' }, // X-QR-Payload percent-encoded
    ];
    const seen = [];
    for (const c of cases) {
      await chooseType(p, c.type);
      await p.locator(`label.seg:has(input[name="ecc"][value="${c.ecc}"])`).click();
      await p.locator(`label.seg:has(input[name="corners"][value="${c.corners || 'square'}"])`).click();
      if ((await p.isChecked('#style-logo')) !== !!c.logo) await p.locator('label.switch').click();
      await p.fill('#style-margin', c.margin || '4');
      await p.fill(c.type === 'url' ? '#url-url' : '#text-text', c.value);
      await waitReady(p, c.type);
      await p.waitForTimeout(400);
      await waitReady(p, c.type);
      const body = { type: c.type, [c.type]: c.value, ecc: c.ecc, corners: c.corners || 'square', logo: c.logo ? 'banana' : 'none', margin: Number(c.margin || 4), format: 'json' };
      const json = await (await fetch(base + '/api/qr-code', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
      const shown = await p.evaluate(() => ['meta-version', 'meta-ecc', 'meta-size'].map((id) => document.getElementById(id).textContent));
      assert.deepEqual(shown, [
        `${json.version}${json.modules} × ${json.modules} modules`,
        `${json.ecc}${json.ecc === c.ecc ? `recovers about ${{ L: 7, M: 15, Q: 25, H: 30 }[json.ecc]}%` : `raised from ${c.ecc}${c.logo ? ' for the banana' : ' at no cost'}`}`,
        `1024 × 1024 px${json.module_px} px a module, quiet zone ${json.margin}`,
      ], JSON.stringify(c));
      const chars = [...json.payload]; // 'Bananas ' ends in a space, which an HTTP field value cannot (RFC 9110 5.5)
      assert.equal(await p.textContent('#meta-payload'), chars.length <= 280 ? json.payload : `${chars.slice(0, 280).join('')}… (${chars.length.toLocaleString('en')} characters)`, 'the payload, from X-QR-Payload');
      seen.push(`v${json.version} ${json.ecc}`);
    }
    await p.close();
    return seen.join(', ');
  });

  await check('the settings link: a public code\'s settings go in the fragment and come back from it; a private type never writes it, nor is read from it', async () => {
    const p = await context.newPage();
    await p.goto(base + '/');
    await p.fill('#url-url', 'example.com/menu?table=12');
    await p.fill('#style-size', '512');
    await p.locator('label.seg:has(input[name="corners"][value="rounded"])').click();
    await p.locator('label.switch').click();
    await p.waitForFunction(() => /logo=banana/.test(location.hash) && /size=512/.test(location.hash), null, { timeout: 10000 });
    await waitReady(p, 'url');
    const link = await p.inputValue('#share-settings');
    assert.equal(link, p.url());
    const fragment = new URLSearchParams(new URL(link).hash.slice(1));
    assert.deepEqual(Object.fromEntries(fragment), { type: 'url', url: 'example.com/menu?table=12', size: '512', corners: 'rounded', logo: 'banana' });
    let q = await context.newPage();
    await q.goto(link);
    await waitReady(q, 'url');
    assert.equal(await q.inputValue('#url-url'), 'example.com/menu?table=12');
    assert.equal(await q.inputValue('#style-size'), '512');
    assert.ok(await q.isChecked('input[name="corners"][value="rounded"]') && await q.isChecked('#style-logo'));
    assert.ok(await q.isHidden('#sample-badge'));
    assert.equal(await q.textContent('#meta-payload'), 'https://example.com/menu?table=12');
    // A private type: the fragment is emptied, and a fragment naming one is not read.
    for (const t of TYPES.filter((x) => !x.public)) {
      await chooseType(q, t.type);
      await t.fill(q);
      await waitReady(q, t.type);
      assert.equal(await q.evaluate(() => location.hash), '', t.type);
    }
    await q.close();
    q = await context.newPage();
    await q.goto(base + '/#type=wifi&ssid=Lab+Net&password=hunter22');
    await q.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
    assert.ok(await q.isChecked('#type-url'));
    assert.equal(await q.inputValue('#wifi-ssid'), '');
    assert.equal(await q.evaluate(() => location.hash), '', 'the private fields are not kept in the address either');
    await q.close();
    await p.close();
    return link.replace(base, '');
  });

  await check('words around the code (issue 32): a caption above or below and the link printed beneath are sent when given, are in the image and settings links, and the code reads back; the preview\'s text alternative is the SVG\'s title and description; "Print the link beneath" for links only, no caption on a Swiss QR-bill; a character the font lacks shows INVALID_CAPTION\'s message beside the caption; the settings link brings the words back', async () => {
    const p = await context.newPage();
    const bodies = [];
    p.on('request', (r) => { if (new URL(r.url()).pathname === '/api/qr-code' && r.method() === 'POST') bodies.push(JSON.parse(r.postData())); });
    await p.goto(base + '/');
    await p.fill('#url-url', 'example.com/menu');
    await waitReady(p, 'url');
    const words = (b) => Object.fromEntries(['caption', 'caption_position', 'show_destination'].filter((k) => k in b).map((k) => [k, b[k]]));
    assert.deepEqual(words(bodies.at(-1)), {}, 'no words sent when none are given');
    assert.ok(await p.isVisible('#style-show_destination') && await p.isEnabled('#style-show_destination'), 'a link may print its destination');
    await p.fill('#style-caption', 'Scan for the menu');
    await p.locator('label.seg:has(input[name="caption_position"][value="above"])').click();
    await p.check('#style-show_destination');
    await p.waitForFunction(() => /caption=Scan/.test(location.hash) && /caption_position=above/.test(location.hash) && /show_destination=true/.test(location.hash), null, { timeout: 10000 });
    await waitReady(p, 'url');
    assert.deepEqual(words(bodies.at(-1)), { caption: 'Scan for the menu', caption_position: 'above', show_destination: true });
    // The text alternative is the SVG's own: its <title> and <desc>, as the service writes them.
    const svg = await (await fetch(base + '/api/qr-code', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...bodies.at(-1), format: 'svg' }) })).text();
    const said = (name) => new RegExp(`<${name} [^>]*>([^<]*)</${name}>`).exec(svg)[1].replace(/&#39;/g, '\'').replace(/&#34;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const alt = await p.getAttribute('#preview-img', 'alt');
    assert.equal(alt, `${said('title')}. ${said('desc')}`);
    assert.equal(alt, 'QR code: https://example.com/menu. Scan it with a phone\'s camera to open the link. Printed with it: Scan for the menu. It leads to example.com/menu.');
    assert.equal(await scanPNG(p, 'captioned'), 'https://example.com/menu', 'the captioned code reads back');
    const imageURL = new URL(await p.inputValue('#share-image-url'));
    assert.deepEqual(Object.fromEntries(imageURL.searchParams), { url: 'example.com/menu', caption: 'Scan for the menu', caption_position: 'above', show_destination: 'true' });
    const fromLink = path.join(tmp, 'captioned-link.png');
    fs.writeFileSync(fromLink, Buffer.from(await (await fetch(imageURL)).arrayBuffer()));
    assert.equal(zbar(fromLink).toString('utf8'), 'https://example.com/menu', 'the image link\'s code reads back');

    // The settings link brings the words back.
    const link = await p.inputValue('#share-settings');
    const q = await context.newPage();
    await q.goto(link);
    await waitReady(q, 'url');
    assert.equal(await q.inputValue('#style-caption'), 'Scan for the menu');
    assert.ok(await q.isChecked('input[name="caption_position"][value="above"]') && await q.isChecked('#style-show_destination'));
    assert.equal(await q.getAttribute('#preview-img', 'alt'), alt);
    await q.close();

    // Text: the caption, below (the default, not sent), and no destination to print.
    await chooseType(p, 'text');
    await p.locator('label.seg:has(input[name="caption_position"][value="below"])').click();
    await p.fill('#style-caption', 'Сканируйте меню');
    await p.fill('#text-text', 'Bananas');
    await waitReady(p, 'text');
    await p.waitForFunction(() => document.getElementById('preview-img').alt.includes('Сканируйте'), null, { timeout: 10000 });
    assert.ok(await p.isHidden('#style-show_destination') && await p.isDisabled('#style-show_destination'), 'no destination but a link\'s');
    assert.deepEqual(words(bodies.at(-1)), { caption: 'Сканируйте меню' });
    assert.equal(await p.getAttribute('#preview-img', 'alt'), 'QR code: Bananas. Scan it with a phone\'s camera to read the text. Printed with it: Сканируйте меню.');
    assert.equal(await scanPNG(p, 'captioned-text'), 'Bananas');

    // A character the caption font lacks: the service's message beside the caption.
    await p.fill('#style-caption', 'Scan 扫');
    await p.waitForSelector('#style-caption[aria-invalid="true"]', { timeout: 10000 });
    const refused = await (await fetch(base + '/api/qr-code', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'text', text: 'Bananas', caption: 'Scan 扫' }) })).json();
    assert.equal(refused.code, 'INVALID_CAPTION');
    assert.equal(await p.textContent('#style-caption-error strong'), refused.message.charAt(0).toUpperCase() + refused.message.slice(1));
    assert.match(refused.message, /扫 \(U\+626B\)/, 'the message names the character');
    assert.ok((await p.getAttribute('#style-caption', 'aria-describedby')).split(' ').includes('style-caption-error'));
    assert.equal(await p.textContent('#status'), 'Not updated: see Caption, which says why.');
    await p.fill('#style-caption', 'Scan me');
    await waitReady(p, 'text');
    assert.equal(await p.getAttribute('#style-caption', 'aria-invalid'), null, 'fixed, the error goes');

    // A Swiss QR-bill takes no caption: the words' controls go, with the reason, and none is sent.
    await chooseType(p, 'swissqr');
    assert.ok(await p.isHidden('#style-caption') && await p.isDisabled('#style-caption'));
    assert.ok(await p.isVisible('#style-words-none'));
    await TYPES.find((t) => t.type === 'swissqr').fill(p);
    await waitReady(p, 'swissqr');
    assert.deepEqual(words(bodies.at(-1)), {});
    await chooseType(p, 'url');
    await waitReady(p, 'url');
    assert.ok(await p.isVisible('#style-caption') && await p.isHidden('#style-words-none'));
    assert.deepEqual(words(bodies.at(-1)), { caption: 'Scan me', show_destination: true }, 'the words come back with a type that takes them');
    await p.close();
    return `${link.replace(base, '')}; alt "${alt}"`;
  });

  await check('without JavaScript: the generator is hidden, a plain form for a link gets /api/qr-code.svg, and its code scans; the page says what needs JavaScript', async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const p = await plain.newPage();
    await p.goto(base + '/');
    assert.ok(await p.isHidden('#qr-form'), 'the generator, which does nothing without its script, does not show');
    assert.match(await p.textContent('.noscript-card'), /need JavaScript/);
    await p.fill('#nojs-url', 'example.com/no-script');
    await Promise.all([p.waitForURL(/\/api\/qr-code\.svg\?url=example\.com%2Fno-script$/), p.click('.noscript-form:has(#nojs-url) button[type=submit]')]);
    const shot = path.join(tmp, 'noscript.png');
    await p.screenshot({ path: shot });
    assert.equal(zbar(shot).toString('utf8'), 'https://example.com/no-script');
    await plain.close();
  });

  await check('at 360 px the curl and MCP examples keep their lines: no wrap, a long line scrolls in its focusable block', async () => {
    const p = await context.newPage();
    await p.setViewportSize({ width: 360, height: 780 });
    await p.goto(base + '/');
    const blocks = await p.$$eval('.code-block pre', (els) => els.map((el) => {
      const code = el.querySelector('code');
      const lines = code.textContent.split('\n').length;
      const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
      return { id: code.id, lines, rendered: Math.round(code.getBoundingClientRect().height / lineHeight), white: getComputedStyle(el).whiteSpace, tab: el.tabIndex, scrolls: el.scrollWidth > el.clientWidth };
    }));
    for (const b of blocks) {
      assert.equal(b.white, 'pre', b.id);
      assert.equal(b.rendered, b.lines, `${b.id}: ${b.lines} lines written, ${b.rendered} drawn`);
      assert.equal(b.tab, 0, `${b.id} is focusable, to scroll by keyboard`);
    }
    assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= 360));
    await p.close();
    return blocks.map((b) => `${b.id} ${b.lines} line(s)${b.scrolls ? ', scrolls' : ''}`).join('; ');
  });

  await check('at 360 px the code stays in view while typing: after typing a link, its image (the preview, or the small copy in the corner while the preview is out of sight) is within the viewport, and the copy covers not the field', async () => {
    const p = await context.newPage();
    await p.setViewportSize({ width: 360, height: 780 });
    await p.goto(base + '/');
    await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
    await p.locator('#url-url').scrollIntoViewIfNeeded();
    await p.waitForTimeout(300);
    assert.ok(await p.isHidden('#mini-preview'), 'a sample has no small copy: unmarked, it would pass for the user\'s code');
    await p.focus('#url-url');
    await p.keyboard.type('example.org/menu', { delay: 60 });
    await waitReady(p, 'url');
    await p.waitForTimeout(300); // the IntersectionObserver's turn
    const view = await p.evaluate(() => {
      const inView = (el) => {
        if (!el.checkVisibility()) return false;
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
      };
      const main = document.getElementById('preview-img');
      const mini = document.getElementById('mini-preview-img');
      const field = document.getElementById('url-url').getBoundingClientRect();
      const m = mini.getBoundingClientRect();
      return {
        main: inView(main), mini: inView(mini), same: mini.src === main.src,
        covers: mini.checkVisibility() && m.left < field.right && m.right > field.left && m.top < field.bottom && m.bottom > field.top,
        height: document.documentElement.scrollHeight,
      };
    });
    await p.screenshot({ path: path.join(artifacts, 'typing-360.png') });
    assert.ok(view.main || view.mini, `no image of the code in the viewport: ${JSON.stringify(view)}`);
    if (view.mini) assert.ok(view.same, 'the small copy is the code on show');
    assert.equal(view.covers, false, 'the small copy covers the field');
    // The copy leads to the code (the fragment, a settings link's, is kept); with the code itself
    // in sight, no copy of it.
    const hash = await p.evaluate(() => location.hash);
    await p.click('#mini-preview');
    await p.waitForFunction(() => document.getElementById('mini-preview').hidden, null, { timeout: 3000 });
    assert.equal(await p.evaluate(() => location.hash), hash);
    assert.equal(await p.evaluate(() => document.activeElement.id), 'preview-heading');
    await p.close();
    return `${view.main ? 'the preview' : 'the small copy'} in view after typing; the page is ${view.height} px tall`;
  });

  await check('the Copy buttons of the curl and MCP examples never cover their command: at 1280 and 360 px, scrolled to the start and to the end, the button\'s box meets none of the command\'s visible text', async () => {
    const p = await context.newPage();
    const seen = [];
    for (const width of [1280, 360]) {
      await p.setViewportSize({ width, height: 900 });
      await p.goto(base + '/');
      for (const end of [false, true]) {
        const hits = await p.$$eval('.code-block', (blocks, end) => blocks.map((b) => {
          const pre = b.querySelector('pre');
          pre.scrollLeft = end ? pre.scrollWidth : 0;
          const box = pre.getBoundingClientRect();
          // The text as drawn: each line's box, cut to the pre's padding box (what it shows).
          const clip = { left: box.left + pre.clientLeft, top: box.top + pre.clientTop, right: Math.min(box.right, box.left + pre.clientLeft + pre.clientWidth), bottom: Math.min(box.bottom, box.top + pre.clientTop + pre.clientHeight) };
          const range = document.createRange();
          range.selectNodeContents(pre.querySelector('code'));
          const btn = b.querySelector('.copy').getBoundingClientRect();
          const meets = [...range.getClientRects()].some((r) => {
            const left = Math.max(r.left, clip.left, btn.left);
            const right = Math.min(r.right, clip.right, btn.right);
            const top = Math.max(r.top, clip.top, btn.top);
            const bottom = Math.min(r.bottom, clip.bottom, btn.bottom);
            return right > left && bottom > top;
          });
          return { id: pre.querySelector('code').id, meets };
        }), end);
        assert.equal(hits.length, 5);
        for (const h of hits) assert.equal(h.meets, false, `${width} px${end ? ', scrolled to the end' : ''}: the Copy button covers ${h.id}`);
      }
      seen.push(`${width} px`);
    }
    await p.close();
    return `5 commands clear of their button at ${seen.join(' and ')}`;
  });

  // 6. Rate limit.
  await check('429: a refused sample shows no error and asks no more; typing then counts down to when its RateLimit-* headers say a code is back (before its Retry-After), without another request', async () => {
    const limited = await startServer(bin, '--rate-limit', '2');
    const p = await context.newPage();
    const retryAfters = [];
    const budgets = []; // the seconds until one code is back, from the 429's RateLimit-* headers
    let posts = 0;
    p.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/qr-code') posts++;
    });
    p.on('response', (r) => {
      if (r.status() !== 429) return;
      retryAfters.push(Number(r.headers()['retry-after']));
      const limit = Number(r.headers()['ratelimit-limit']);
      budgets.push(Math.ceil(Number(r.headers()['ratelimit-reset']) - ((limit - 1) * 60) / limit));
    });
    await p.goto(limited + '/');
    // The sample spends one of the 2 codes a minute; spend the other, as another tab would.
    await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
    const status = await p.evaluate(async () => (await fetch('/api/qr-code', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"type":"url","url":"example.com"}' })).status);
    assert.equal(status, 200);
    const refused = p.waitForResponse((r) => r.status() === 429, { timeout: 10000 });
    await p.reload();
    await refused;
    await p.waitForFunction(() => document.getElementById('qr-frame').getAttribute('aria-busy') === 'false', null, { timeout: 10000 });
    assert.equal(await p.getAttribute('#preview', 'data-state'), 'empty', 'a refused sample leaves the preview empty');
    assert.ok(await p.isHidden('#form-error'), 'and shows no error: the user asked for nothing');
    assert.equal(await p.textContent('#status'), 'Type a link to see its code.');
    const sent = posts;
    await p.fill('#url-url', 'example.org');
    await p.waitForSelector('#form-error-countdown:not([hidden])', { timeout: 10000 });
    assert.equal(await p.getAttribute('#preview', 'data-state'), 'limited');
    assert.equal(posts, sent, 'the countdown keeps the refused sample\'s Retry-After: no request');
    assert.equal(retryAfters.length, 1, 'one refused request: the page does not retry in a loop');
    // From the refused sample's budget (2 codes a minute: one back 30 s after the last), sooner
    // than its Retry-After: the reload and the typing took a moment since.
    const first = Number((await p.textContent('#form-error-countdown')).match(/Trying again in (\d+) s/)[1]);
    assert.ok(budgets[0] < retryAfters[0], `one code back in ${budgets[0]} s, before Retry-After ${retryAfters[0]}`);
    assert.ok(first <= budgets[0] && first >= budgets[0] - 5, `countdown ${first} from the budget's ${budgets[0]} s`);
    assert.match(await p.textContent('#form-error'), /Too many codes this minute/);
    // Typing during the countdown sends nothing.
    await p.fill('#url-url', 'example.net');
    await p.waitForTimeout(1300);
    const second = Number((await p.textContent('#form-error-countdown')).match(/Trying again in (\d+) s/)[1]);
    assert.ok(second < first, `counts down: ${first} then ${second}`);
    assert.equal(retryAfters.length, 1, 'no request while counting down');
    const text = (await p.textContent('#form-error-countdown')).trim();
    await p.screenshot({ path: path.join(artifacts, 'page-1280-429.png') });
    await p.close();
    return `Retry-After ${retryAfters[0]}, a code back in ${budgets[0]} s → "${text}"`;
  });

  await check('429 while typing: the page asks again as soon as the RateLimit-* headers say a code is back (before Retry-After), says so in the status line, and shows the code', async () => {
    const limited = await startServer(bin, '--rate-limit', '6');
    const p = await context.newPage();
    const asked = [];
    const refusals = [];
    p.on('request', (r) => { if (new URL(r.url()).pathname === '/api/qr-code') asked.push(Date.now()); });
    p.on('response', (r) => {
      if (r.status() !== 429 || new URL(r.url()).pathname !== '/api/qr-code') return;
      const h = r.headers();
      const limit = Number(h['ratelimit-limit']);
      refusals.push({ at: Date.now(), retryAfter: Number(h['retry-after']), back: Math.ceil(Number(h['ratelimit-reset']) - ((limit - 1) * 60) / limit) });
    });
    await p.goto(limited + '/');
    await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
    // Spend the rest of the 6 codes a minute, as other tabs would.
    const spent = await p.evaluate(async () => {
      let n = 0;
      while ((await fetch('/api/qr-code?url=example.com')).status === 200) n++;
      return n;
    });
    refusals.length = 0;
    await p.fill('#url-url', 'example.org/menu');
    await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'limited', null, { timeout: 5000 });
    assert.equal(refusals.length, 1);
    const r = refusals[0];
    assert.ok(r.back < r.retryAfter, `a code is back in ${r.back} s, Retry-After says ${r.retryAfter}`);
    const status = await p.textContent('#status');
    assert.match(status, /^Too many codes this minute\. The preview tries again by itself in \d+ seconds?, when the limit allows\.$/);
    assert.ok(Number(status.match(/(\d+) second/)[1]) <= r.back, status);
    const before = asked.length;
    await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'ready', null, { timeout: (r.back + 3) * 1000 });
    const took = (Date.now() - r.at) / 1000;
    assert.ok(took <= r.back + 2, `the code came ${took.toFixed(1)} s after the 429, the budget said ${r.back} s`);
    assert.equal(asked.length - before, 1, 'one request when the budget allows, not a loop');
    assert.equal(refusals.length, 1);
    assert.equal(await p.textContent('#meta-payload'), 'https://example.org/menu');
    assert.equal(await p.textContent('#status'), 'Ready: a link code.');
    await p.close();
    return `${spent} codes spent; 429 with Retry-After ${r.retryAfter}, a code back in ${r.back} s; the code shown ${took.toFixed(1)} s after the 429 ("${status}")`;
  });

  await check('a slow typist: 22 characters typed at 350 ms a key ask for at most 6 codes, none for a scheme without a host ("https:", "https:/", "https://")', async () => {
    const p = await context.newPage();
    await p.goto(base + '/');
    await p.waitForFunction(() => document.getElementById('preview').dataset.state === 'sample', null, { timeout: 10000 });
    const urls = [];
    p.on('request', (r) => { if (new URL(r.url()).pathname === '/api/qr-code') urls.push(JSON.parse(r.postData()).url); });
    await p.focus('#url-url');
    const typed = 'https://example.com/ab';
    assert.equal(typed.length, 22);
    await p.keyboard.type(typed, { delay: 350 });
    await waitReady(p, 'url');
    assert.equal(await p.textContent('#meta-payload'), typed);
    assert.ok(urls.length <= 6, `${urls.length} requests: ${JSON.stringify(urls)}`);
    assert.deepEqual(urls.filter((u) => /^[a-z]+:\/*$/.test(u)), [], 'no request for a scheme alone');
    // Typed at once (a paste) it stops at a scheme: nothing is asked, the preview says why.
    const n = urls.length;
    await p.fill('#url-url', 'https://');
    await p.waitForTimeout(800);
    assert.equal(urls.length, n, 'no request for "https://"');
    assert.equal(await p.getAttribute('#preview', 'data-state'), 'empty');
    assert.match(await p.textContent('#status'), /^Keep typing: after https:\/\/ comes the address/);
    await p.close();
    return `${urls.length} requests for 22 characters at 350 ms a key: ${JSON.stringify(urls)}`;
  });

  await check('no CSP violation, script error or console error on any page', async () => {
    assert.deepEqual(problems, []);
  });

  // 4. Every request stayed on this machine.
  await check('no request left 127.0.0.1 during the run (data: and blob: aside)', async () => {
    const outside = requests.filter((r) => {
      const u = new URL(r.url);
      return !(u.protocol === 'data:' || u.protocol === 'blob:' || (u.protocol === 'http:' && u.hostname === '127.0.0.1'));
    });
    assert.deepEqual(outside.map((r) => r.url), []);
    const hosts = [...new Set(requests.map((r) => new URL(r.url).protocol === 'http:' ? new URL(r.url).host : new URL(r.url).protocol))];
    return `${requests.length} requests: ${hosts.join(', ')}`;
  });
} catch (e) {
  failed(e && e.stack ? e.stack : e);
} finally {
  if (browser) await browser.close();
  stopServers();
}

console.log(process.env.E2E_ARTIFACTS ? `screenshots: ${artifacts}` : 'screenshots: removed with the temporary folder (E2E_ARTIFACTS=folder keeps them)');
finish(started, 'the web page end to end in headless Chromium');
