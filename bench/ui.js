// `npm run bench:ui`: how the built lesson feels in a real browser. Serves the built site (dist/,
// or SITE_DIR) on 127.0.0.1 and, in headless Chromium, measures
//   1. keystroke to painted figure on the multi-head slide (its untrained view: 10 heads, 64
//      tokens; and its default, the trained language model: 8 heads, 64 tokens): p50, p95, max;
//   2. time to interactive of index.html: median of fresh loads;
//   3. the bytes of that load, as served and as gzip -9 would send them.
// bench/README.md describes the method and how to read the output. The goals are reported as met
// or not; the exit code is non-zero only when something could not be measured.
import { launchBrowser, serveSite } from '../tests/e2e/browser.js';
import { siteDir } from '../tests/e2e/site-dir.js';
import { measureKeystrokes, measureTrainedKeystrokes } from './ui-keystroke.js';
import { measureBytes, measureLoads } from './ui-load.js';
import { printBytes, printHeader, printKeystrokes, printLoads } from './ui-report.js';

const LOADS = 5;

const server = await serveSite();
const browser = await launchBrowser();
try {
  printHeader({ chromium: browser.version(), siteDir });
  printKeystrokes(await measureKeystrokes(browser, server.url));
  printKeystrokes(await measureTrainedKeystrokes(browser, server.url), {
    title:
      '1b. Keystroke to painted figure: multi-head slide, the trained language model (its ' +
      'default view), 8 heads, 64 tokens',
    goal: 'plain',
  });
  printLoads(await measureLoads(browser, server.url, LOADS));
  printBytes(await measureBytes(browser, server.url));
} finally {
  await browser.close();
  await server.close();
}
