// Loading index.html on loopback: time to interactive (navigation start to the title slide's
// figure, the attention translator's alignment matrix, drawn with the main thread free again),
// and the bytes of every response up to then, as served and as gzip -9 would send them. Each load is a fresh browser context: an empty cache.
import { gzipSync } from 'node:zlib';

const FIGURE = '#title .mt-matrix svg.heatmap-svg';
const VIEWPORT = { width: 1280, height: 720 };
const TIMEOUT = 60_000;

/**
 * Installed before the page's own scripts: resolves window.uiBenchReady once the figure is in the
 * page (the heatmap draws it in one go, so it is complete when it appears) and a task posted then
 * has run: from that moment the page answers input. Times are performance.now(), which counts
 * from navigation start. Also reports when the main downloads ended and which ones had by then.
 * @param {string} selector
 */
function watchFirstDraw(selector) {
  window['uiBenchReady'] = new Promise((resolve) => {
    const done = () => {
      const drawn = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const interactive = performance.now();
        const [nav] = performance.getEntriesByType('navigation');
        const resources = performance.getEntriesByType('resource');
        const ended = (pattern) => resources.find((r) => pattern.test(r.name))?.responseEnd ?? NaN;
        resolve({
          interactive,
          drawn,
          html: nav.responseEnd,
          domContentLoaded: nav.domContentLoadedEventEnd,
          wasm: ended(/\.wasm$/),
          vectors: ended(/\/embeddings\//),
          urls: [nav.name, ...resources.map((r) => r.name)],
        });
      };
      channel.port2.postMessage(null);
    };
    const observer = new MutationObserver(() => {
      if (!document.querySelector(selector)) return;
      observer.disconnect();
      done();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

/**
 * Opens index.html in a fresh context and waits for the first figure.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {(page: import('playwright-core').Page) => void} [watch] called before navigating
 */
async function load(browser, url, watch) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(watchFirstDraw, FIGURE);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  watch?.(page);
  await page.goto(`${url}index.html`);
  const ready = await page.evaluate(
    (timeout) =>
      Promise.race([
        window['uiBenchReady'],
        new Promise((_, reject) => setTimeout(() => reject(new Error('no figure')), timeout)),
      ]),
    TIMEOUT,
  );
  if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);
  return { context, page, ready };
}

/**
 * Time to interactive over `loads` fresh loads.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url the site's address, ending in '/'
 * @param {number} loads
 */
export async function measureLoads(browser, url, loads) {
  const runs = [];
  for (let i = 0; i < loads; i++) {
    const { context, ready } = await load(browser, url);
    await context.close();
    const times = { ...ready };
    delete times.urls;
    runs.push(times);
  }
  return runs;
}

/** @param {string} url @returns {string} */
function kindOf(url) {
  const path = new URL(url).pathname;
  if (path.includes('/embeddings/')) return 'word vectors';
  const ext = path.slice(path.lastIndexOf('.') + 1);
  const kinds = { html: 'html', js: 'js', css: 'css', wasm: 'wasm', woff2: 'fonts', woff: 'fonts' };
  return kinds[ext] ?? (ext === 'ttf' ? 'fonts' : 'other');
}

/**
 * The responses of one fresh load up to time to interactive: as sent (body bytes on the wire,
 * and its Content-Encoding), decoded, and gzip level 9 of the decoded body.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url the site's address, ending in '/'
 */
export async function measureBytes(browser, url) {
  /** @type {import('playwright-core').Response[]} */
  const responses = [];
  const { context, ready } = await load(browser, url, (page) =>
    page.on('response', (response) => responses.push(response)),
  );
  try {
    const before = new Set(ready.urls);
    const files = [];
    for (const response of responses) {
      if (!before.has(response.url())) continue;
      const body = await response.body();
      const sizes = await response.request().sizes();
      files.push({
        url: response.url(),
        kind: kindOf(response.url()),
        encoding: response.headers()['content-encoding'] ?? 'none',
        sent: sizes.responseBodySize,
        headers: sizes.responseHeadersSize,
        raw: body.length,
        gzip: gzipSync(body, { level: 9 }).length,
      });
    }
    const later = responses.length - files.length;
    return { files, later };
  } finally {
    await context.close();
  }
}
