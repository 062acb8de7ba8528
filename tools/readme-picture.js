// Writes the README's picture, docs/images/deck.png: the built deck (dist/, from npm run
// build:site or the browser tests' build) in headless Chromium at 1280 x 720, on the
// cross-attention slide translating its sentence, with the fresh machine's fonts, as the browser
// tests lay it out. Fails when the page logs an error.
//
//   npm run build:site && node tools/readme-picture.js [--out FILE]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import {
  assertClean,
  figureDrawn,
  launchBrowser,
  openPage,
  serveSite,
  waitForSlide,
} from '../tests/e2e/browser.js';

const SLIDE = 'cross-attention';

const { values } = parseArgs({
  options: {
    out: {
      type: 'string',
      default: fileURLToPath(new URL('../docs/images/deck.png', import.meta.url)),
    },
  },
});
const site = await serveSite();
const browser = await launchBrowser();
try {
  const session = await openPage(browser, { viewport: { width: 1280, height: 720 } });
  await session.page.goto(new URL(`index.html#/${SLIDE}`, site.url).href);
  await waitForSlide(session.page, SLIDE);
  await figureDrawn(session.page, SLIDE);
  // Fonts and the figure's last frame are in before the picture is taken.
  await session.page.evaluate(() => document.fonts.ready);
  await session.page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await session.page.screenshot({ path: values.out });
  assertClean(session.log, new URL(site.url).origin);
  await session.close();
  console.log(`wrote ${values.out}`);
} finally {
  await browser.close();
  await site.close();
}
