// Helpers for the end-to-end tests: serve the built site (dist/) on 127.0.0.1, drive a headless
// browser, and record everything the page logs and requests. `npm run test:e2e` builds the site
// once (build-site.js) and then runs every test file; after a build, `node --test
// tests/e2e/<file>` runs one.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { siteDir } from './site-dir.js';

const configFile = fileURLToPath(new URL('../../vite.config.js', import.meta.url));

/**
 * The font sets a browser can be given: it sees only these fonts, whatever the machine has
 * (fontconfig's FONTCONFIG_FILE). 'fresh' is a new Debian machine (the DejaVu fonts the browser's
 * package brings), 'full' a desktop with Noto and Liberation too. Every test runs with 'fresh'
 * unless it asks for another; the layout tests run with each.
 */
export const FONT_SETS = ['fresh', 'full'];
const BUILT_PAGE = join(siteDir, 'index.html');

/**
 * The features the browser runs without. Chromium keeps only the last `--disable-features`
 * switch it is given, so this list repeats the one playwright-core passes (its own switches come
 * first) and adds the omnibox popup: headless Chromium otherwise renders its WebUI, unseen, in a
 * renderer of its own for every new window, which costs each page a test opens about a third more
 * work (bench/reports/test-times.md). test-browser.test.js checks that the browser's command line
 * disables no feature that this list leaves out.
 */
export const DISABLED_FEATURES = [
  // playwright-core's list
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  // the omnibox popup's WebUI
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
];

const BROWSER_ARGS = [
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Serves the built site, dist/, on a free port of 127.0.0.1.
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serveSite() {
  if (!existsSync(BUILT_PAGE)) {
    throw new Error(`${siteDir} is missing: run npm run test:e2e, or node tests/e2e/build-site.js`);
  }
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir: siteDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) {
    await server.close();
    throw new Error('the preview server is not listening');
  }
  return { url, close: () => server.close() };
}

/**
 * Starts the system's headless browser, seeing only the fonts of one set.
 * @param {{ fonts?: string }} [options] a name from FONT_SETS ('fresh' unless given)
 * @returns {Promise<import('playwright-core').Browser>}
 */
export function launchBrowser({ fonts = 'fresh' } = {}) {
  if (!FONT_SETS.includes(fonts)) throw new Error(`no font set "${fonts}"`);
  const fontConfig = fileURLToPath(new URL(`fonts/${fonts}.conf`, import.meta.url));
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: BROWSER_ARGS,
    env: { ...process.env, FONTCONFIG_FILE: fontConfig },
  });
}

/**
 * @typedef {{ viewport?: { width: number, height: number }, colorScheme?: 'light' | 'dark',
 *   initScript?: Function, route?: [RegExp, number], serviceWorkers?: 'allow' | 'block' }}
 *   PageOptions route: requests whose URL matches are answered that many milliseconds late;
 *   serviceWorkers: the site's service worker is blocked (so a test's page makes only its own
 *   requests, not the precaching of the whole site) unless a test allows it
 * @typedef {Awaited<ReturnType<typeof openPage>>} Session
 */

/**
 * Opens a fresh page that records console errors, page errors, dialogs and every request.
 * @param {import('playwright-core').Browser} browser
 * @param {PageOptions} [options]
 */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    serviceWorkers: options.serviceWorkers ?? 'block',
  });
  if (options.initScript) await context.addInitScript(options.initScript);
  if (options.route) {
    const [pattern, delay] = options.route;
    await context.route(pattern, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, delay));
      await route.continue();
    });
  }
  const page = await context.newPage();
  const log = { consoleErrors: [], pageErrors: [], requests: [], dialogs: [] };
  page.on('console', (msg) => {
    if (msg.type() === 'error') log.consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => log.pageErrors.push(err.message));
  page.on('request', (req) => log.requests.push(req.url()));
  page.on('dialog', (dialog) => {
    log.dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  return { page, context, log, close: () => context.close() };
}

/**
 * The requests that left the page's origin (data: and blob: URLs never leave the page).
 * @param {string[]} requests
 * @param {string} origin
 * @returns {string[]}
 */
function foreignRequests(requests, origin) {
  return requests.filter((url) => {
    const parsed = new URL(url);
    if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return false;
    return parsed.origin !== origin;
  });
}

/**
 * Checks that a page logged no error, opened no dialog and asked nothing of any other origin.
 * @param {{ consoleErrors: string[], pageErrors: string[], dialogs: string[], requests: string[] }} log
 * @param {string} origin
 */
export function assertClean(log, origin) {
  assert.deepEqual(log.pageErrors, [], 'page errors');
  assert.deepEqual(log.consoleErrors, [], 'console errors');
  assert.deepEqual(log.dialogs, [], 'dialogs opened');
  assert.deepEqual(foreignRequests(log.requests, origin), [], 'requests off the origin');
}

/**
 * Checks that a page whose download the test aborted threw nothing and logged no error of its
 * own: the browser's line about the failed request is the one error allowed.
 * @param {{ consoleErrors: string[], pageErrors: string[] }} log
 */
export function assertOnlyAbortedLoads(log) {
  assert.deepEqual(log.pageErrors, [], 'page errors');
  const errors = log.consoleErrors.filter((text) => !/Failed to load resource/.test(text));
  assert.deepEqual(errors, [], 'console errors besides the aborted download');
}

/**
 * The site and a browser for the tests of one file (or of one describe block, when called inside
 * it): registers the hooks that serve dist/ and start the browser before the tests, and close both
 * after them.
 * @param {{ fonts?: string }} [options] the font set the browser sees (launchBrowser)
 */
export function useSite(options = {}) {
  /** @type {{ url: string, close: () => Promise<void> } | undefined} */
  let server;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;

  before(async () => {
    server = await serveSite();
    browser = await launchBrowser(options);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const site = {
    /** The site's address, ending in '/'. */
    url: () => server.url,
    /** The site's origin, the only one a page may ask anything of. */
    origin: () => new URL(server.url).origin,
    browser: () => browser,
    /**
     * Opens a fresh page at `path`, runs `body`, then checks that the page logged no error,
     * opened no dialog and asked nothing of any other origin.
     * @param {string} path relative to the site, e.g. 'index.html#/title'
     * @param {(page: import('playwright-core').Page, session: Session) => Promise<void>} body
     * @param {PageOptions} [options] passed to openPage
     */
    async visit(path, body, options) {
      const session = await openPage(browser, options);
      try {
        await session.page.goto(`${server.url}${path}`);
        await body(session.page, session);
        assertClean(session.log, site.origin());
      } finally {
        await session.close();
      }
    },
  };
  return site;
}

/**
 * Opens a disclosure of tables (heatmap tables are built when it opens), as a learner would, if
 * it is closed.
 * @param {import('playwright-core').Page} page
 * @param {string} selector the <details> element (the first one, if several match)
 */
export async function openTables(page, selector) {
  const details = page.locator(selector).first();
  if (!(await details.evaluate((node) => /** @type {HTMLDetailsElement} */ (node).open))) {
    await details.locator('summary').click();
  }
}

/**
 * Waits until the page has run its next animation frame: figures that redraw once per frame as
 * the learner types have drawn the latest input by then.
 * @param {import('playwright-core').Page} page
 */
export function afterFrame(page) {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
}

/**
 * Reads the accessible weights table of the heatmap inside `scope`, opening it first.
 * @param {import('playwright-core').Page} page
 * @param {string} [scope] a selector for the element that holds the heatmap (the title slide)
 * @returns {Promise<{ columns: string[], rows: { label: string, values: number[], texts: string[] }[] }>}
 */
export async function readTable(page, scope = '#title') {
  await openTables(page, `${scope} .hm-figure details.heatmap-details`);
  return page.locator(`${scope} .hm-figure table`).evaluate((table) => ({
    columns: Array.from(table.querySelectorAll('thead th'))
      .slice(1)
      .map((th) => th.textContent),
    rows: Array.from(table.querySelectorAll('tbody tr'), (tr) => ({
      label: tr.querySelector('th').textContent,
      values: Array.from(tr.querySelectorAll('td'), (td) => Number(td.dataset.value)),
      texts: Array.from(tr.querySelectorAll('td'), (td) => td.textContent),
    })),
  }));
}

/**
 * Reads the heatmap's row and column labels as drawn in the SVG, how many cell elements it has,
 * and, for a grid drawn as a picture (one pixel per cell), its size.
 * @param {import('playwright-core').Page} page
 * @param {string} [scope] a selector for the element that holds the heatmap (the title slide)
 */
export function readLabels(page, scope = '#title') {
  return page.locator(`${scope} .hm-figure svg.heatmap-svg`).evaluate((svg) => ({
    rows: Array.from(svg.querySelectorAll('.row-label'), (t) => t.firstChild.textContent),
    cols: Array.from(svg.querySelectorAll('.col-label'), (t) => t.firstChild.textContent),
    cells: svg.querySelectorAll('[role="gridcell"]').length,
    picture: svg.querySelector('image[href^="data:image/"]')
      ? `${svg.getAttribute('data-rows')}x${svg.getAttribute('data-cols')}`
      : null,
  }));
}

/**
 * The colour of every pixel of a heatmap drawn as a picture, as [r, g, b] row-major (one pixel
 * per cell), read back from the picture the page shows.
 * @param {import('playwright-core').Page} page
 * @param {string} svgSelector the heatmap's SVG
 * @returns {Promise<{ rows: number, cols: number, pixels: number[][] }>}
 */
export function readPicture(page, svgSelector) {
  return page.locator(svgSelector).evaluate(async (svg) => {
    const href = svg.querySelector('image')?.getAttribute('href') ?? '';
    const image = new Image();
    image.src = href;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const pixels = [];
    for (let k = 0; k < data.length; k += 4) pixels.push([data[k], data[k + 1], data[k + 2]]);
    return { rows: canvas.height, cols: canvas.width, pixels };
  });
}

/**
 * The id of the slide the deck is showing.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string | undefined>}
 */
export function currentSlide(page) {
  return page.evaluate(() => document.querySelector('.reveal .slides > section.present')?.id);
}

/**
 * Waits until the deck shows the slide `id`.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {number} [timeout]
 */
export function waitForSlide(page, id, timeout = 15_000) {
  return page.waitForFunction(
    (expected) => document.querySelector('.reveal .slides > section.present')?.id === expected,
    id,
    { timeout },
  );
}

/**
 * Leaves slide `id` for the next one with the keyboard (Escape first, so a control of the figure
 * that has focus lets the arrow keys go) and comes back to it.
 * @param {import('playwright-core').Page} page
 * @param {string} id the slide shown now
 * @param {number} [timeout]
 */
export async function visitNextSlideAndBack(page, id, timeout = 15_000) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((left) => !location.hash.endsWith(`/${left}`), id, { timeout });
  await page.keyboard.press('ArrowLeft');
  await waitForSlide(page, id, timeout);
}

/**
 * Every slide in every view of its figure, in deck order: [id, view], view null for the view the
 * slide shows first (or a slide without a figure), else the type of a further one
 * (`widget.also`). The walks of moveToSlide go through this list.
 * @param {{ id: string, widget?: { also?: { type: string }[] } }[]} slides the lesson's
 * @returns {[string, string | null][]}
 */
export function slideViews(slides) {
  return slides.flatMap((slide) => [
    [slide.id, null],
    ...(slide.widget?.also ?? []).map(
      (view) => /** @type {[string, string]} */ ([slide.id, view.type]),
    ),
  ]);
}

/**
 * Waits until the figure of slide `id`, if it has one, is mounted and no longer loading (the
 * host marks itself busy while it loads what the widget declared; a figure mounted early, before
 * its models, says `loading` itself while it has nothing of its own to draw).
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {number} [timeout]
 */
export function figureDrawn(page, id, timeout = 15_000) {
  return page.waitForFunction(
    (slideId) => {
      const host = document.querySelector(`#${slideId} .widget-host`);
      if (!host) return true;
      return Boolean(
        host.querySelector('.widget-area') &&
        !host.hasAttribute('aria-busy') &&
        !host.querySelector('[data-state="loading"]'),
      );
    },
    id,
    { timeout },
  );
}

/**
 * Moves the deck open in `page` to slide `id`, with the arrow key when it is the next slide and
 * as a link inside the page would (its hash) when not, and to
 * the view `view` of its figure as the learner's choice of view would (null: the view the slide
 * shows first); resolves once the slides' fade has ended and the figure is drawn. A walk through
 * the slides in one page sees every slide as a page load of its address would show it, and costs
 * one page load instead of one a slide.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {string | null} [view] a type from the slide's `widget.also`
 */
export async function moveToSlide(page, id, view = null) {
  const step = await page.evaluate((slideId) => {
    const present = document.querySelector('.reveal .slides > section.present');
    if (present?.id === slideId) return 'here';
    if (present?.nextElementSibling?.id === slideId) {
      // The next slide: the arrow key, from the page itself (a control of the slide that has
      // focus keeps its arrow keys).
      /** @type {HTMLElement | null} */ (document.activeElement)?.blur();
      return 'next';
    }
    location.hash = `#/${slideId}`;
    return 'link';
  }, id);
  if (step === 'next') await page.keyboard.press('ArrowRight');
  await waitForSlide(page, id).catch(async (error) => {
    const at = await currentSlide(page);
    throw new Error(`moving by ${step} to slide ${id}, the deck stayed on ${at}`, {
      cause: error,
    });
  });
  const choice = page.locator(`#${id} .figure-views input`);
  if ((await choice.count()) > 0) {
    await (view ? choice.and(page.locator(`[value="${view}"]`)) : choice.first()).check();
  } else {
    assert.equal(view, null, `slide ${id} has no choice of view`);
  }
  await figureDrawn(page, id);
  // reveal fades one slide out and the next in: nothing is measured half-drawn.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          !(animation.effect instanceof KeyframeEffect) ||
          !animation.effect.target?.closest('.reveal .slides > section') ||
          animation.playState !== 'running' ||
          animation.effect.getComputedTiming().iterations === Infinity,
      ),
  );
}

/**
 * A chart's table: its columns, and per row the x and the exact values.
 * @param {import('playwright-core').Page} page
 * @param {string} selector the chart's container
 */
export function readChart(page, selector) {
  return page.locator(`${selector} table`).evaluate((table) => ({
    columns: Array.from(table.querySelectorAll('thead th'), (th) => th.textContent),
    x: Array.from(table.querySelectorAll('tbody th'), (th) => Number(th.textContent)),
    rows: Array.from(table.querySelectorAll('tbody tr'), (tr) =>
      Array.from(tr.querySelectorAll('td'), (td) => Number(td.dataset.value)),
    ),
    texts: Array.from(table.querySelectorAll('tbody td'), (td) => td.textContent),
  }));
}
