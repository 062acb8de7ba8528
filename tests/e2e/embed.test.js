// End-to-end tests of embedding a figure: a page of another origin (a second loopback port)
// frames embed.html with a figure's settings; the figure is drawn with them, follows what is
// typed into it, and the framing page hears its height, again when it changes. The deck refuses to
// be framed there (its header says frame-ancestors 'self'), the embed page is allowed; the Figure
// menu's "Copy embed code" gives a snippet that reproduces the settings; an address naming no
// figure the lesson has lists the ones it has.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import { assertClean, openPage, openTables, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const HEIGHT_MESSAGE = 'attention-lab:height';
const site = useSite();
const lesson = loadLesson(fileURLToPath(new URL('../../slides/attention/', import.meta.url)));

/** @type {{ url: string, origin: string, close: () => Promise<void> } | undefined} */
let parent;

/**
 * Serves one page that frames `?src=` (as a teacher's page would), `?width=` px wide (the whole
 * page unless given), and keeps every height message it hears in window.heights, sizing the
 * frame to it as docs/embedding.md's listener does.
 * @returns {Promise<{ url: string, origin: string, close: () => Promise<void> }>}
 */
function serveParent() {
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const escape = (text) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
    const src = escape(query.get('src') ?? '');
    const width = escape(query.get('width') ?? '100%');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<style>body { margin: 0 } iframe { display: block }</style></head>
<body>
<iframe id="figure" src="${src}" title="A figure" width="${width}" height="150" style="border:0"></iframe>
<script>
  window.heights = [];
  window.addEventListener('message', (event) => {
    if (event.data?.type !== '${HEIGHT_MESSAGE}') return;
    window.heights.push({ origin: event.origin, ...event.data });
    document.getElementById('figure').height = String(event.data.height);
  });
  document.getElementById('figure').addEventListener('load', () => (window.frameLoaded = true));
</script>
</body></html>`);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = /** @type {import('node:net').AddressInfo} */ (server.address());
      const origin = `http://127.0.0.1:${address.port}`;
      resolve({
        url: `${origin}/`,
        origin,
        close: () => new Promise((done) => server.close(() => done(undefined))),
      });
    });
  });
}

before(async () => {
  parent ??= await serveParent();
});
after(() => parent?.close());

/**
 * The height messages the framing page has heard.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{ origin: string, type: string, height: number, figure: string }[]>}
 */
const heights = (page) => page.evaluate(() => /** @type {any} */ (window).heights);

/**
 * Waits for a height message after the first `count`, larger than `than`, and returns it.
 * @param {import('playwright-core').Page} page
 * @param {number} count
 * @param {number} than
 */
async function nextHeight(page, count, than) {
  await page.waitForFunction(
    ([seen, least]) => {
      const list = /** @type {any} */ (window).heights;
      return list.length > seen && list[list.length - 1].height > least;
    },
    [count, than],
    { timeout: TIMEOUT },
  );
  return /** @type {{ origin: string, type: string, height: number, figure: string }} */ (
    (await heights(page)).at(-1)
  );
}

/**
 * The embedded page's own height, as it reports it.
 * @param {import('playwright-core').Frame} frame
 */
const pageHeight = (frame) =>
  frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));

/**
 * Opens the framing page around `path` of the site, runs `body`, then checks that neither page
 * logged an error and nothing was asked of a third origin.
 * @param {string} path
 * @param {(page: import('playwright-core').Page, frame: import('playwright-core').Frame,
 *   session: import('./browser.js').Session) => Promise<void>} body
 * @param {{ width?: number, viewport?: { width: number, height: number } }} [options]
 */
async function framed(path, body, options = {}) {
  assert.notEqual(parent?.origin, site.origin(), 'two origins');
  const session = await openPage(site.browser(), { viewport: options.viewport });
  try {
    const query = new URLSearchParams({ src: `${site.url()}${path}` });
    if (options.width) query.set('width', String(options.width));
    await session.page.goto(`${parent?.url}?${query}`);
    await session.page.waitForFunction(() => /** @type {any} */ (window).frameLoaded);
    const frame = session.page.frame({ url: /\/embed\.html/ });
    assert.ok(frame, 'the embed page is in the frame');
    await body(session.page, frame, session);
    const own = (url) => new URL(url).origin !== parent?.origin;
    assertClean({ ...session.log, requests: session.log.requests.filter(own) }, site.origin());
  } finally {
    await session.close();
  }
}

/**
 * Clicks "Copy embed code" in the Figure menu inside `root` and returns the snippet: from the
 * clipboard, or from the status line that shows it when the clipboard refuses (as it does in a
 * frame of another origin, which has no clipboard-write permission).
 * @param {import('playwright-core').Page | import('playwright-core').Frame} root
 * @param {string} scope
 */
async function copyEmbedCode(root, scope) {
  const menu = root.locator(`${scope} .figure-tools`);
  if (!(await menu.evaluate((details) => details.open))) await menu.locator('summary').click();
  await menu.getByRole('button', { name: 'Copy embed code' }).click();
  const status = menu.locator('.figure-tools-status');
  await status.filter({ hasText: /\S/ }).waitFor({ timeout: TIMEOUT });
  const said = (await status.textContent()) ?? '';
  if (said.startsWith('Embed code copied')) {
    return { copied: true, snippet: await root.evaluate(() => navigator.clipboard.readText()) };
  }
  assert.match(said, /^Copy this code: <iframe /, said);
  return { copied: false, snippet: said.replace('Copy this code: ', '') };
}

/**
 * The attributes of a snippet's one <iframe>, unescaped.
 * @param {string} snippet
 * @returns {Record<string, string>}
 */
function frameAttributes(snippet) {
  const tag = /^<iframe((?:\s+[\w-]+="[^"]*")*)><\/iframe>$/.exec(snippet);
  assert.ok(tag, snippet);
  return Object.fromEntries(
    Array.from(tag[1].matchAll(/([\w-]+)="([^"]*)"/g), ([, name, value]) => [
      name,
      value
        .replaceAll('&quot;', '"')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&'),
    ]),
  );
}

/**
 * The heatmap's column labels as drawn.
 * @param {import('playwright-core').Frame | import('playwright-core').Page} root
 */
const columns = (root) =>
  root
    .locator('.hm-figure svg.heatmap-svg')
    .evaluate((svg) =>
      Array.from(svg.querySelectorAll('.col-label'), (t) => t.firstChild?.textContent).join(' '),
    );

describe('a figure framed by another site', () => {
  test('is drawn with its settings, follows the input and reports its height', async () => {
    const sentence = 'Frames can hold figures';
    const query = new URLSearchParams({ figure: 'title', show: 'heatmap', sentence });
    await framed(`embed.html?${query}`, async (page, frame) => {
      await frame.locator('.hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      // The settings applied: the view, and the sentence in the box and on the axes.
      assert.equal(await frame.locator('.figure-views input[value="heatmap"]').isChecked(), true);
      assert.equal(await frame.locator('.hm-sentence').inputValue(), sentence);
      assert.equal(await columns(frame), sentence.toLowerCase());
      // Alone: no deck around it; the lesson named; the slide a new tab away, as it is now.
      assert.equal(await frame.locator('.reveal, .slide-chrome').count(), 0);
      assert.match(
        (await frame.locator('.embed-caption').textContent()) ?? '',
        /The Attention Mechanism/,
      );
      const link = frame.locator('.embed-caption a');
      assert.equal(await link.getAttribute('target'), '_blank');
      assert.equal(await link.getAttribute('rel'), 'noopener');
      const slide = new URL((await link.getAttribute('href')) ?? '', site.url());
      assert.equal(slide.pathname, new URL('index.html', site.url()).pathname);
      assert.equal(slide.hash, '#/title');
      assert.equal(slide.searchParams.get('sentence'), sentence);

      // The framing page hears the embedded page's height, and sizes the frame to it.
      const first = await nextHeight(page, 0, 150);
      assert.equal(first.type, HEIGHT_MESSAGE);
      assert.equal(first.figure, 'title');
      assert.equal(first.origin, site.origin(), 'sent by the embed page');
      await page.waitForFunction(
        (height) => document.getElementById('figure')?.getBoundingClientRect().height === height,
        first.height,
      );
      assert.equal(first.height, await pageHeight(frame), 'the height of the embedded page');

      // Typing changes the figure.
      await frame.locator('.hm-sentence').fill('Another short line');
      await frame.waitForFunction(
        () =>
          Array.from(
            document.querySelectorAll('.hm-figure svg.heatmap-svg .col-label'),
            (t) => t.firstChild?.textContent,
          ).join(' ') === 'another short line',
        null,
        { timeout: TIMEOUT },
      );

      // Opening the table makes the page taller: a new, larger height arrives.
      const heard = await heights(page);
      const tallest = Math.max(...heard.map((message) => message.height));
      await openTables(frame, '.hm-figure details.heatmap-details');
      const grown = await nextHeight(page, heard.length, tallest);
      assert.equal(grown.height, await pageHeight(frame));
      assert.ok(grown.height > tallest + 50, `${tallest} px, then ${grown.height} px`);

      // Its own menu's embed code carries what was typed (shown to copy: no clipboard here).
      const { snippet } = await copyEmbedCode(frame, '.embed-bar');
      const src = new URL(frameAttributes(snippet).src);
      assert.equal(src.origin, site.origin());
      assert.equal(src.searchParams.get('figure'), 'title');
      assert.equal(src.searchParams.get('show'), 'heatmap');
      assert.equal(src.searchParams.get('sentence'), 'Another short line');
    });
  });

  test('fits a 320 px frame', async () => {
    await framed(
      'embed.html?figure=why-scale',
      async (page, frame) => {
        await frame.locator('.widget-area').first().waitFor({ timeout: TIMEOUT });
        await nextHeight(page, 0, 150);
        const overflow = await frame.evaluate(() => {
          const root = /** @type {Element} */ (document.scrollingElement);
          return { scroll: root.scrollWidth, client: root.clientWidth };
        });
        assert.equal(overflow.client, 320);
        assert.ok(overflow.scroll <= overflow.client, `${overflow.scroll} px wide in 320`);
      },
      { width: 320 },
    );
  });

  test('the deck refuses a frame of another origin; the embed page is allowed', async () => {
    for (const [path, policy] of [
      ['', "frame-ancestors 'self'"],
      ['index.html', "frame-ancestors 'self'"],
      ['article.html', "frame-ancestors 'self'"],
      ['embed.html?figure=why-scale', 'frame-ancestors *'],
    ]) {
      const response = await fetch(new URL(path, site.url()));
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-security-policy'), policy, path || '/');
    }
    const session = await openPage(site.browser());
    try {
      const { page, log } = session;
      const query = new URLSearchParams({ src: `${site.url()}index.html#/title` });
      await page.goto(`${parent?.url}?${query}`);
      await page.waitForFunction(() => /** @type {any} */ (window).frameLoaded);
      const frames = page.frames().map((frame) => frame.url());
      assert.equal(frames.length, 2, frames.join());
      assert.ok(!frames.some((url) => url.startsWith(site.origin())), `blocked: ${frames}`);
      // The browser says why, and nothing else went wrong.
      assert.equal(log.consoleErrors.length, 1, log.consoleErrors.join('\n'));
      assert.match(log.consoleErrors[0], /frame-ancestors 'self'/);
      assert.deepEqual(log.pageErrors, []);
    } finally {
      await session.close();
    }
  });
});

describe('the Figure menu', () => {
  test('"Copy embed code" in the deck gives a frame that reproduces the figure', async () => {
    const sentence = 'The "quoted" cat & the dog';
    const query = new URLSearchParams({ figure: 'title', show: 'heatmap', sentence });
    /** @type {string} */
    let src = '';
    await site.visit(`index.html?${query}#/title`, async (page, session) => {
      await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: site.origin(),
      });
      await waitForSlide(page, 'title');
      await page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      const { copied, snippet } = await copyEmbedCode(page, '#title');
      assert.equal(copied, true, 'the clipboard took it');
      const attrs = frameAttributes(snippet);
      // The slide's title and the view's label, from the lesson's data.
      const slide = lesson.slides.find((candidate) => candidate.id === 'title');
      const view = slide?.widget?.also?.find((candidate) => candidate.type === 'heatmap');
      assert.equal(attrs.title, `${slide?.title}: ${view?.label} \u00b7 Attention Lab`);
      assert.equal(attrs.width, '100%');
      assert.equal(attrs.style, 'border:0');
      assert.equal(attrs.loading, 'lazy');
      const height = Number(attrs.height);
      assert.ok(height % 10 === 0 && height >= 300 && height < 2000, `height ${attrs.height}`);
      src = attrs.src;
      const url = new URL(src);
      assert.equal(url.origin + url.pathname, new URL('embed.html', site.url()).href);
      assert.equal(url.searchParams.get('figure'), 'title');
      assert.equal(url.searchParams.get('show'), 'heatmap');
      assert.equal(url.searchParams.get('sentence'), sentence);
    });
    // The snippet's address shows the same figure.
    await site.visit(src.slice(site.url().length), async (page) => {
      await page.locator('.hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator('.hm-sentence').inputValue(), sentence);
    });
  });

  test('the article offers it too, with the figure as it is', async () => {
    await site.visit('article.html#why-scale', async (page, session) => {
      await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: site.origin(),
      });
      const figure = page.locator('#why-scale .widget-area');
      await figure.waitFor({ timeout: TIMEOUT });
      const { snippet } = await copyEmbedCode(page, '#why-scale');
      const url = new URL(frameAttributes(snippet).src);
      assert.equal(url.pathname, new URL('embed.html', site.url()).pathname);
      assert.equal(url.searchParams.get('figure'), 'why-scale');
    });
  });
});

describe('an address naming no figure', () => {
  const embeddable = lesson.slides.filter(
    (slide) => slide.widget && slide.widget.type !== 'knowledge-check',
  );

  for (const [path, said] of [
    ['embed.html?figure=no-such-figure', /no figure called \u201cno-such-figure\u201d/],
    ['embed.html', /shows one figure of the lesson/],
    ['embed.html?figure=knowledge-check', /no figure called \u201cknowledge-check\u201d/],
  ]) {
    test(`${path} lists the figures there are`, async () => {
      await site.visit(path, async (page) => {
        const box = page.getByRole('alert');
        await box.waitFor({ timeout: TIMEOUT });
        assert.match((await box.locator('h1').textContent()) ?? '', said);
        const links = await box
          .locator('li a')
          .evaluateAll((list) => list.map((a) => /** @type {HTMLAnchorElement} */ (a).href));
        assert.deepEqual(
          links.map((href) => new URL(href).searchParams.get('figure')),
          embeddable.map((slide) => slide.id),
        );
        assert.ok(embeddable.length >= 8, `${embeddable.length} figures`);
        // A link of the list shows its figure.
        await box.getByRole('link', { name: embeddable[1].title }).click();
        await page.locator('.embed-figure .widget-area').waitFor({ timeout: TIMEOUT });
      });
    });
  }
});
