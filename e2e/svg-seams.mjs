// Issue 33 in a browser: headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) rasterises SVGs of QR codes at the sizes a manifest asks, so that the test
// that wrote them (render/svg_raster_test.go, TestSVGRasterChromium) can hold every pixel to
// the module matrix: no seam inside a dark or light area at any scale.
//
// Usage: node e2e/svg-seams.mjs DIR
// DIR holds the SVGs and manifest.json: {"images": [{"svg": "a.svg", "png": "a-2x.png",
// "side": 600, ...}]}; each SVG is drawn by an <img> of side×side CSS pixels, at a device
// scale factor of 1, on a green page (a pixel the SVG leaves uncovered shows green), and the
// screenshot of the <img> is written to DIR/png. The manifest's other fields (modules, viewBox,
// pad, colours) are for the checker. Chromium is launched once for all images.
// Without /usr/bin/chromium or node_modules/playwright-core it prints SKIPPED and exits 0,
// unless CI is set: then it fails.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { CHROMIUM, root, unavailable } from './setup.mjs';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node e2e/svg-seams.mjs DIR (with DIR/manifest.json)');
  process.exit(2);
}
if (!fs.existsSync(CHROMIUM)) unavailable(`${CHROMIUM} is missing (apt-get install chromium)`);
if (!fs.existsSync(path.join(root, 'node_modules', 'playwright-core', 'package.json'))) {
  unavailable('node_modules/playwright-core is missing (npm ci)');
}

const require = createRequire(path.join(root, 'package.json'));
const { chromium } = require('playwright-core');

const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [],
});
try {
  // One page as large as the largest image; each SVG loaded once, its <img> resized per image.
  const largest = Math.max(...manifest.images.map((image) => image.side));
  const page = await browser.newPage({ viewport: { width: largest, height: largest }, deviceScaleFactor: 1 });
  let loaded = '';
  for (const image of manifest.images) {
    if (image.svg !== loaded) {
      const data = fs.readFileSync(path.join(dir, image.svg)).toString('base64');
      await page.setContent(
        '<!doctype html><html><body style="margin:0;background:#00ff00">' +
          `<img id="qr" alt="" style="display:block" src="data:image/svg+xml;base64,${data}">` +
          '</body></html>',
      );
      loaded = image.svg;
    }
    await page.evaluate(async (side) => {
      const img = document.getElementById('qr');
      img.width = side;
      img.height = side;
      await img.decode();
    }, image.side);
    await page.screenshot({
      path: path.join(dir, image.png),
      clip: { x: 0, y: 0, width: image.side, height: image.side },
      animations: 'disabled',
      caret: 'initial',
    });
  }
  console.log(`${manifest.images.length} SVG rasterisations by Chromium in ${dir}`);
} finally {
  await browser.close();
}
