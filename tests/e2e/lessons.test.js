// Two lessons in one site: this file builds the site of its own from a scratch slides/ that holds
// lesson 1 and a copy of it as lesson 2 (key `transformer`; slides/ itself holds no such copy),
// serves it, and checks that each page shows the lesson its ?lesson= names, that the links the
// pages build carry the key of lesson 2 and never that of lesson 1, that the lessons page lists
// both, and that a value naming no lesson shows lesson 1 with no error (the address is input).
// The single file built from the same slides/ holds both lessons, opened with the network off.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, loadConfigFromFile, preview } from 'vite';
import lessonPlugin from '../../web/build/vite-plugin-lesson.js';
import { HOSTILE_MARK, HOSTILE_VALUES } from '../js/hostile-values.js';
import { assertClean, launchBrowser, openPage, waitForSlide } from './browser.js';

const TIMEOUT = 20_000;
const fromRoot = (file) => fileURLToPath(new URL(`../../${file}`, import.meta.url));
const SECOND = { key: 'transformer', title: 'The Transformer (a test copy)' };

const scratch = mkdtempSync(path.join(tmpdir(), 'attention-lab-lessons-e2e-'));
const slides = path.join(scratch, 'slides');
const outDir = path.join(scratch, 'site');
const offlineDir = path.join(scratch, 'offline');

/** Lesson 1 as it is, and a copy of it as lesson 2 that announces a lesson 3. */
function writeLessons() {
  cpSync(fromRoot('slides/attention'), path.join(slides, 'attention'), { recursive: true });
  const copy = path.join(slides, 'transformer-copy');
  cpSync(fromRoot('slides/attention'), copy, { recursive: true });
  const file = path.join(copy, 'lesson.yaml');
  const yaml = readFileSync(file, 'utf8')
    .replace(/^key: .*$/m, `key: ${SECOND.key}`)
    .replace(/^lesson: 1$/m, 'lesson: 2')
    .replace(/^title: .*$/m, `title: ${SECOND.title}`)
    .replace(/^next: .*$/m, "next: { title: 'Lesson 3: Later' }");
  writeFileSync(file, yaml);
}

/**
 * A build's configuration, its lessons read from the scratch slides/.
 * @param {string} file the configuration file, e.g. 'vite.config.js'
 * @param {string} out the folder it builds into
 */
async function configOf(file, out) {
  const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, fromRoot(file));
  const config = /** @type {import('vite').UserConfig} */ (loaded?.config);
  const plugins = /** @type {any[]} */ (config.plugins ?? [])
    .flat()
    .filter((plugin) => plugin?.name !== 'attention-lab:lesson');
  return {
    ...config,
    configFile: false,
    root: fromRoot('web'),
    logLevel: /** @type {const} */ ('warn'),
    plugins: [lessonPlugin({ dir: slides }), ...plugins],
    build: { ...config.build, outDir: out, emptyOutDir: true },
  };
}

/** @type {{ close(): Promise<void>, resolvedUrls: any } | undefined} */
let server;
/** @type {import('playwright-core').Browser | undefined} */
let browser;
let base = '';

before(async () => {
  writeLessons();
  const config = await configOf('vite.config.js', outDir);
  await build(config);
  await build(await configOf('vite.offline.config.js', offlineDir));
  server = await preview({
    ...config,
    preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
  });
  base = server.resolvedUrls?.local[0] ?? '';
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Opens `address` of the site in a fresh page, runs `body`, then checks that the page logged no
 * error and asked nothing of another origin.
 * @param {string} address relative to the site
 * @param {(page: import('playwright-core').Page) => Promise<void>} body
 */
async function visit(address, body) {
  const session = await openPage(/** @type {any} */ (browser));
  try {
    await session.page.goto(`${base}${address}`);
    await body(session.page);
    assert.equal(
      await session.page.evaluate((name) => /** @type {any} */ (window)[name], HOSTILE_MARK),
      undefined,
      `${address}: a hostile script ran`,
    );
    assertClean(session.log, new URL(base).origin);
  } finally {
    await session.close();
  }
}

/**
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 * @returns {Promise<string | null>}
 */
function hrefOf(page, selector) {
  return page.locator(selector).first().getAttribute('href', { timeout: TIMEOUT });
}

describe('two lessons', () => {
  test('the lessons page lists both, each linking its deck and article, and the next as coming', async () => {
    await visit('lessons.html', async (page) => {
      await page.locator('.lesson-item').nth(2).waitFor({ timeout: TIMEOUT });
      const items = await page.locator('.lesson-item').evaluateAll((nodes) =>
        nodes.map((node) => ({
          text: node.querySelector('.lesson-name')?.textContent,
          links: [...node.querySelectorAll('a')].map((a) => a.getAttribute('href')),
          coming: node.classList.contains('is-coming'),
        })),
      );
      assert.deepEqual(items, [
        {
          text: 'The Attention Mechanism',
          links: ['index.html', 'article.html'],
          coming: false,
        },
        {
          text: SECOND.title,
          links: ['index.html?lesson=transformer', 'article.html?lesson=transformer'],
          coming: false,
        },
        { text: 'Later', links: [], coming: true },
      ]);
    });
  });

  test("lesson 1's deck is as it was, its closing slide leading on to lesson 2", async () => {
    await visit('index.html#/summary', async (page) => {
      await waitForSlide(page, 'summary');
      assert.match(await page.title(), /^The Attention Mechanism/);
      assert.equal(await hrefOf(page, '#summary a.up-next-title'), 'index.html?lesson=transformer');
      assert.equal(
        await hrefOf(page, '#summary .slide-chrome a[href^="article"]'),
        'article.html?from=summary#summary',
      );
      assert.equal(new URL(page.url()).search, '');
    });
  });

  test('?lesson=transformer: the deck shows lesson 2, its links and address keep it', async () => {
    await visit('index.html?lesson=transformer#/title', async (page) => {
      await waitForSlide(page, 'title');
      assert.match(await page.title(), /^The Transformer \(a test copy\)/);
      assert.equal(await page.locator('#title .slide-code').textContent(), 'ML 101 · M09 · L02');
      assert.match((await page.locator('#title .slide-course').textContent()) ?? '', /Lesson 2$/);
      assert.equal(
        await hrefOf(page, '#title .slide-chrome a[href^="article"]'),
        'article.html?lesson=transformer&from=title#title',
      );
      await page.locator('body').press('ArrowRight');
      const [, second] = await page
        .locator('.reveal .slides > section')
        .evaluateAll((nodes) => nodes.map((node) => node.id));
      await waitForSlide(page, second);
      // The address follows the slide shown a task after reveal writes it.
      await page.waitForFunction((id) => location.hash === `#/${id}`, second);
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
      assert.equal(new URL(page.url()).searchParams.get('lesson'), 'transformer');
      assert.equal(
        await hrefOf(page, '#summary .slide-next a[href^="practice"]'),
        'practice.html?lesson=transformer',
      );
      assert.equal(
        await page.locator('#summary .up-next-title').textContent(),
        'Lesson 3: Later \u2014 coming soon',
      );
    });
  });

  test('?lesson=transformer: the article, its links back to the slides and on', async () => {
    await visit('article.html?lesson=transformer&from=why-scale', async (page) => {
      await page.locator('#why-scale').waitFor({ timeout: TIMEOUT });
      assert.match(await page.title(), /^The Transformer \(a test copy\) \(article\)/);
      assert.equal(await hrefOf(page, 'a.back-link'), 'index.html?lesson=transformer#/why-scale');
      assert.equal(await hrefOf(page, 'a.practice-link'), 'practice.html?lesson=transformer');
      assert.equal(
        await hrefOf(page, '#why-scale .article-slide-link a'),
        'index.html?lesson=transformer#/why-scale',
      );
    });
  });

  test('?lesson=transformer: the practice bank, its links to the slides', async () => {
    await visit('practice.html?lesson=transformer', async (page) => {
      await page.locator('.practice-item').first().waitFor({ timeout: TIMEOUT });
      assert.match(await page.title(), /^Practice · The Transformer \(a test copy\)/);
      assert.equal(await hrefOf(page, 'a.deck-link'), 'index.html?lesson=transformer');
      assert.equal(await hrefOf(page, 'a.article-link'), 'article.html?lesson=transformer');
      const teach = await page
        .locator('.practice-item a[href*="#/"]')
        .first()
        .getAttribute('href', { timeout: TIMEOUT });
      assert.match(teach ?? '', /^index\.html\?lesson=transformer#\/[a-z-]+$/);
    });
  });

  test('?lesson=transformer: the embed page, its link to the slide and its list', async () => {
    await visit('embed.html?lesson=transformer&figure=why-scale', async (page) => {
      await page.locator('#embed .widget-area *').first().waitFor({ timeout: TIMEOUT });
      assert.match(await page.title(), /The Transformer \(a test copy\)/);
      await page.locator('a.embed-slide-link').focus();
      assert.match(
        (await hrefOf(page, 'a.embed-slide-link')) ?? '',
        /\/index\.html\?lesson=transformer(&[^#]*)?#\/why-scale$/,
      );
    });
    await visit('embed.html?lesson=transformer&figure=none', async (page) => {
      await page.locator('.embed-choices').waitFor({ timeout: TIMEOUT });
      assert.match(
        (await hrefOf(page, '.embed-choices-list a')) ?? '',
        /^embed\.html\?figure=[a-z-]+&lesson=transformer$/,
      );
    });
  });

  test('a ?lesson= that names no lesson shows lesson 1, with no error', async () => {
    const values = [
      ...HOSTILE_VALUES.filter(({ text }) => text.length < 1000).map(({ text }) => text),
      'Transformer',
      '__proto__',
      'attention',
    ];
    for (const [i, value] of values.entries()) {
      const query = new URLSearchParams({ lesson: value });
      const page = ['index.html', 'article.html', 'practice.html', 'embed.html'][i % 4];
      await visit(
        `${page}?${query}${page === 'embed.html' ? '&figure=why-scale' : ''}`,
        async (tab) => {
          if (page === 'index.html') {
            await waitForSlide(tab, 'title');
            // The deck's address names the lesson it shows: none, for lesson 1.
            await tab.waitForFunction(() => !new URL(location.href).searchParams.has('lesson'));
          } else {
            await tab.waitForFunction(() => document.title.includes('The Attention Mechanism'));
          }
          assert.match(
            await tab.title(),
            /The Attention Mechanism/,
            `${page}, ${value.slice(0, 20)}`,
          );
        },
      );
    }
  });

  test('the single file holds both lessons, each page naming lesson 2 as the site does', async () => {
    const file = pathToFileURL(path.join(offlineDir, 'attention-lab.html')).href;
    const session = await openPage(/** @type {any} */ (browser));
    const { page } = session;
    try {
      await session.context.setOffline(true);
      await page.goto(`${file}?lesson=transformer#/title`);
      await waitForSlide(page, 'title');
      assert.match(await page.title(), /^The Transformer \(a test copy\)/);
      assert.equal(
        await hrefOf(page, '#title .slide-chrome a[href*="article"]'),
        '?page=article&lesson=transformer&from=title#title',
      );
      await page.goto(`${file}?page=article&lesson=transformer&from=why-scale`);
      await page.locator('#why-scale').waitFor({ timeout: TIMEOUT });
      assert.equal(await hrefOf(page, 'a.back-link'), '?page=deck&lesson=transformer#/why-scale');
      await page.goto(`${file}?page=article`);
      await page.waitForFunction(() => document.title.includes('The Attention Mechanism'));
      assert.equal(await hrefOf(page, 'a.back-link'), '?page=deck#/title');
      assertClean(session.log, 'null');
    } finally {
      await session.close();
    }
  });
});
