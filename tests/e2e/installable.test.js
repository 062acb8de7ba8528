// The installable lesson: the built site's web app manifest and service worker (vite-plugin-pwa,
// vite.config.js). After one visit the service worker has every page and file of the site, so
// with the network gone the deck, a figure and the article still work, and so does every other
// lesson's deck; the manifest names the module and its lessons, its start page and icons that
// exist at the sizes it says. Served as the other browser
// tests serve the site (useSite); this file alone lets the service worker run. A new version (a
// copy of the site with one page changed) waits until the page's offer to reload is taken.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';
import { lessonMetas } from '../../web/build/module-text.js';
import { TRANSFORMER_PATHS } from '../../web/src/data-files.js';
import { tokenize } from '../../web/src/text/tokenize.js';
import { assertClean, openPage, useSite, waitForSlide } from './browser.js';
import { siteDir } from './site-dir.js';

const TIMEOUT = 20_000;
const site = useSite();
const LESSONS = lessonMetas(fileURLToPath(new URL('../../slides/', import.meta.url)));
/** For each lesson but the first, a slide whose figure draws an SVG from the engine at once. */
const FIGURE_SLIDE = { transformer: 'positions' };

/**
 * Waits until the page's service worker has the site's files in and controls the page.
 * @param {import('playwright-core').Page} page
 */
function waitForControl(page) {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
    );
  });
}

/**
 * Replaces the title slide's sentence and waits for the heatmap's rows to follow.
 * @param {import('playwright-core').Page} page
 * @param {string} scope the section that holds the heatmap
 * @param {string} text
 */
async function typeAndSee(page, scope, text) {
  const box = page.locator(scope).getByRole('textbox', { name: /Sentence/ });
  await box.fill('');
  await box.pressSequentially(text);
  const details = page.locator(`${scope} .hm-figure details.heatmap-details`).first();
  if (!(await details.evaluate((node) => /** @type {HTMLDetailsElement} */ (node).open))) {
    await details.locator('summary').click();
  }
  await page.waitForFunction(
    ([selector, expected]) =>
      JSON.stringify(Array.from(document.querySelectorAll(selector), (th) => th.textContent)) ===
      JSON.stringify(expected),
    [`${scope} .hm-figure tbody th`, tokenize(text)],
    { timeout: TIMEOUT },
  );
}

/**
 * The width and height a PNG file says it has, or null when it is not a PNG.
 * @param {Buffer} bytes
 */
function pngSize(bytes) {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature) || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    return null;
  }
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

describe('the installable lesson', () => {
  test('after one visit, the deck, a figure and the article work with the network gone', async () => {
    const session = await openPage(site.browser(), { serviceWorkers: 'allow' });
    const { page, context } = session;
    /** @type {string[]} */
    const reachedNetwork = [];
    try {
      await page.goto(`${site.url()}index.html#/title`);
      await waitForSlide(page, 'title');
      await waitForControl(page);

      await context.setOffline(true);
      // Whatever the service worker does not answer itself is refused, and recorded.
      await context.route('**/*', (route) => {
        reachedNetwork.push(route.request().url());
        return route.abort('internetdisconnected');
      });
      await page.goto(`${site.url()}index.html?figure=title&show=heatmap#/title`);
      await waitForSlide(page, 'title');
      assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null));
      await page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      await typeAndSee(page, '#title', 'Cats chase mice');

      await page.locator('#title').getByRole('link', { name: 'Read article' }).click();
      await page.waitForURL(/article\.html\?from=title#title$/);
      await page.locator('#title .figure-views input[value="heatmap"]').check();
      await page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      await typeAndSee(page, 'section#title', 'The dog barked');

      // Every other lesson, never opened before: its deck and a figure come from the precache.
      for (const { key } of LESSONS.slice(1)) {
        await page.goto(`${site.url()}index.html?lesson=${key}#/${FIGURE_SLIDE[key]}`);
        await waitForSlide(page, FIGURE_SLIDE[key]);
        await page
          .locator(`#${FIGURE_SLIDE[key]} .widget-area svg`)
          .first()
          .waitFor({ timeout: TIMEOUT });
      }

      assert.deepEqual(reachedNetwork, [], 'requests the service worker did not answer');
      assertClean(session.log, site.origin());
    } finally {
      await session.close();
    }
  });

  test('the service worker precaches every file a page of any lesson may ask for', () => {
    const sw = readFileSync(join(siteDir, 'sw.js'), 'utf8');
    const precached = new Set([...sw.matchAll(/\burl:"([^"]+)"/g)].map(([, url]) => url));
    // The files the pages fetch (vite.config.js, globPatterns): KaTeX's woff and ttf fonts stay
    // out, and the service worker and its Workbox runtime are not precached by themselves. A file
    // over the precache's size limit would be left out, with only a warning from the build.
    const wanted = readdirSync(siteDir, { recursive: true, encoding: 'utf8' })
      .map((file) => file.split(sep).join('/'))
      .filter((file) => /\.(html|js|css|wasm|woff2|bin|json|png|webmanifest)$/.test(file))
      .filter((file) => file !== 'sw.js' && !/^workbox-[\w-]+\.js$/.test(file));
    assert.deepEqual(
      wanted.filter((file) => !precached.has(file)),
      [],
      'files the service worker leaves out',
    );
    for (const file of Object.values(TRANSFORMER_PATHS)) assert.ok(precached.has(file), file);
  });

  test('every page links a manifest that names the lesson, its start page and its icons', async () => {
    const base = site.url();
    for (const page of ['index.html', 'article.html', 'practice.html', 'lessons.html']) {
      const html = await (await fetch(new URL(page, base))).text();
      assert.match(html, /<link rel="manifest" href="\.\/manifest\.webmanifest"/, page);
    }
    const response = await fetch(new URL('manifest.webmanifest', base));
    assert.equal(response.status, 200);
    const manifestUrl = response.url;
    const manifest = await response.json();
    assert.equal(manifest.short_name, 'Attention Lab');
    // The app is the module: its name says which, its description names every lesson.
    assert.ok(LESSONS.length >= 2);
    assert.match(manifest.name, new RegExp(`Module ${LESSONS[0].module}\\b`));
    for (const lesson of LESSONS) {
      assert.ok(manifest.description.includes(lesson.title), `names ${lesson.title}`);
    }
    assert.equal(manifest.display, 'standalone');
    assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
    const start = await fetch(new URL(manifest.start_url, manifestUrl));
    assert.equal(start.status, 200, 'the start page exists');
    assert.match(await start.text(), /<div class="reveal">/, 'the start page is the deck');

    const sizes = new Set();
    for (const icon of manifest.icons) {
      const file = await fetch(new URL(icon.src, manifestUrl));
      assert.equal(file.status, 200, `${icon.src} exists`);
      assert.equal(icon.type, 'image/png');
      assert.equal(pngSize(Buffer.from(await file.arrayBuffer())), icon.sizes, icon.src);
      sizes.add(icon.sizes);
    }
    for (const needed of ['192x192', '512x512']) assert.ok(sizes.has(needed), `an icon ${needed}`);
    assert.ok(
      manifest.icons.some((icon) => icon.purpose === 'maskable'),
      'a maskable icon for phones',
    );
  });
});

describe('a new version of the installed lesson', () => {
  test('waits, never mixed with the old files, until the learner reloads into it', async () => {
    // A copy of the site that the test can change under the browser's feet.
    const copy = mkdtempSync(join(tmpdir(), 'attention-lab-site-'));
    cpSync(siteDir, copy, { recursive: true });
    const server = await preview({
      configFile: fileURLToPath(new URL('../../vite.config.js', import.meta.url)),
      logLevel: 'warn',
      build: { outDir: copy },
      preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
    });
    const base = server.resolvedUrls?.local[0] ?? '';
    const session = await openPage(site.browser(), { serviceWorkers: 'allow' });
    const { page } = session;
    const version = () => page.locator('main.lessons').getAttribute('data-version');
    try {
      await page.goto(`${base}lessons.html`);
      await waitForControl(page);

      // The new version: the lessons page changes, and so does its revision in the worker.
      const lessons = join(copy, 'lessons.html');
      const html = readFileSync(lessons, 'utf8');
      writeFileSync(
        lessons,
        html.replace('<main class="lessons">', '<main class="lessons" data-version="2">'),
      );
      const worker = join(copy, 'sw.js');
      const script = readFileSync(worker, 'utf8');
      const changed = script.replace(/(\{url:"lessons\.html",revision:)"[0-9a-f]+"/, '$1"2"');
      assert.notEqual(changed, script, 'the worker lists the lessons page with its revision');
      writeFileSync(worker, changed);

      // The next visit still gets the old version, whole, and the offer of the new one.
      await page.goto(`${base}lessons.html`);
      const offer = page
        .getByRole('status')
        .filter({ hasText: 'A new version of the lesson is ready.' });
      await offer.waitFor({ timeout: TIMEOUT });
      assert.equal(await version(), null, 'the old page until the learner says so');
      await page.reload();
      await offer.waitFor({ timeout: TIMEOUT });
      assert.equal(await version(), null, 'a reload of its own keeps the old version');

      await offer.getByRole('button', { name: 'Reload for the new version' }).click();
      await page.waitForFunction(
        () => document.querySelector('main.lessons')?.getAttribute('data-version') === '2',
        null,
        { timeout: TIMEOUT },
      );
      assertClean(session.log, new URL(base).origin);
    } finally {
      await session.close();
      await server.close();
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
