// The single-file lesson (npm run build:offline: dist-offline/attention-lab.html), opened from a
// file:// address in a browser with the network off and every request that is not for a file
// refused: the deck and a figure, a figure link, the knowledge check, training in the worker, and
// the article, practice and lessons pages reached through the file's own links, with no console
// error and no failed request. `npm run test:e2e` builds the file with the site
// (build-site.js); after that `node --test tests/e2e/offline-file.test.js` runs this alone.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadLessons } from '../../web/build/content.js';
import { tokenize } from '../../web/src/text/tokenize.js';
import { launchBrowser, openPage, waitForSlide } from './browser.js';
import { offlineFile } from './site-dir.js';

const TIMEOUT = 20_000;
const lessons = loadLessons(fileURLToPath(new URL('../../slides/', import.meta.url)));
const quiz = lessons[0].quiz;
const firstCheck = quiz.items.find((item) => item.id === quiz.check[0]);

/** @type {import('playwright-core').Browser | undefined} */
let browser;

before(async () => {
  if (!existsSync(offlineFile)) {
    throw new Error(`${offlineFile} is missing: run node tests/e2e/build-site.js`);
  }
  browser = await launchBrowser();
});
after(() => browser?.close());

/**
 * Opens a page offline that may load only file:, data: and blob: addresses: anything else is
 * refused and recorded, as is every request that fails.
 */
async function openOffline() {
  const session = await openPage(/** @type {import('playwright-core').Browser} */ (browser));
  /** @type {string[]} */
  const refused = [];
  /** @type {string[]} */
  const failed = [];
  await session.context.setOffline(true);
  await session.context.route(
    (url) => !['file:', 'data:', 'blob:'].includes(url.protocol),
    (route) => {
      refused.push(route.request().url());
      return route.abort('internetdisconnected');
    },
  );
  session.page.on('requestfailed', (request) => failed.push(request.url()));
  return { ...session, refused, failed };
}

/**
 * @param {Awaited<ReturnType<typeof openOffline>>} session
 */
function assertNothingWentWrong(session) {
  assert.deepEqual(session.log.pageErrors, [], 'page errors');
  assert.deepEqual(session.log.consoleErrors, [], 'console errors');
  assert.deepEqual(session.log.dialogs, [], 'dialogs');
  assert.deepEqual(session.refused, [], 'requests for anything but the file');
  assert.deepEqual(session.failed, [], 'failed requests');
  const loaded = session.log.requests.filter((url) => url.startsWith('file:'));
  const file = pathToFileURL(offlineFile).href;
  assert.deepEqual(
    loaded.filter((url) => url.split(/[?#]/)[0] !== file),
    [],
    'no file but the lesson itself',
  );
}

/**
 * The row labels of the title slide's heatmap, once they equal `tokens`.
 * @param {import('playwright-core').Page} page
 * @param {string[]} tokens
 */
async function waitForRows(page, tokens) {
  const details = page.locator('#title .hm-figure details.heatmap-details').first();
  if (!(await details.evaluate((node) => /** @type {HTMLDetailsElement} */ (node).open))) {
    await details.locator('summary').click();
  }
  await page.waitForFunction(
    (expected) => {
      const rows = document.querySelectorAll('#title .hm-figure tbody th');
      return JSON.stringify(Array.from(rows, (th) => th.textContent)) === JSON.stringify(expected);
    },
    tokens,
    { timeout: TIMEOUT },
  );
}

describe('the single-file lesson, opened from file:// with no network', () => {
  // Every lesson measures 16.4 MB (docs/offline.md says how), 14.0 MB of it the binary files as
  // base64; the limit leaves a little room for the script, none for another model's file.
  test('the file is one page of at most 16.6 MB whose policy admits nothing from outside it', () => {
    const html = readFileSync(offlineFile, 'utf8');
    assert.ok(html.length <= 16_600_000, `${html.length} bytes`);
    const policy = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
    assert.match(policy, /default-src 'none'/);
    assert.doesNotMatch(policy, /'unsafe-eval'|https?:|\*/);
    assert.doesNotMatch(
      /script-src ([^;]*)/.exec(policy)?.[1] ?? '',
      /'unsafe-inline'|data:|blob:/,
    );
    assert.equal((html.match(/<script type="module">/g) ?? []).length, 1, 'one script');
    assert.doesNotMatch(html, /<script[^>]+\bsrc=|<link[^>]+rel="(?:stylesheet|modulepreload)"/);
    // Until its script names the page it shows, the file is titled as the module of every lesson.
    const { course, module } = lessons[0].lesson;
    assert.equal(
      /<title>([^<]*)<\/title>/.exec(html)?.[1],
      `Attention Lab · ${course}, Module ${module}`,
    );
  });

  test('the deck, a figure link, a figure, the knowledge check and training all work', async () => {
    const session = await openOffline();
    const { page } = session;
    try {
      const started = page.waitForEvent('worker', { timeout: 60_000 });
      // A figure link: the title slide's figure on its heatmap view, with a sentence of its own.
      const link = `${pathToFileURL(offlineFile).href}?figure=title&show=heatmap&sentence=The+cat+sat#/title`;
      await page.goto(link);
      await waitForSlide(page, 'title');
      await page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      await waitForRows(page, tokenize('The cat sat'));

      const box = page.locator('#title').getByRole('textbox', { name: /Sentence/ });
      await box.fill('');
      await box.pressSequentially('Cats chase mice');
      await waitForRows(page, tokenize('Cats chase mice'));

      await page.evaluate(() => {
        location.hash = '#/knowledge-check';
      });
      const check = page.locator('section#knowledge-check .quiz');
      await check.waitFor({ timeout: TIMEOUT });
      await check.getByRole('radio').nth(firstCheck.answer).check();
      await check.getByRole('button', { name: /Check/ }).click();
      await check.getByRole('status').getByText('Correct.').waitFor({ timeout: TIMEOUT });

      // Training in the worker: the sequence models, and the live language model, which trains
      // on the corpus sample and the word vectors the file carries.
      for (const [id, view] of [
        ['bottleneck', /Trained models/],
        ['multi-head', /Train it live/],
      ]) {
        await page.evaluate((slide) => {
          location.hash = `#/${slide}`;
        }, id);
        await waitForSlide(page, id);
        await page.locator(`#${id} .figure-views`).getByRole('radio', { name: view }).check();
        await page.locator(`#${id} .tr-go:not([disabled])`).waitFor({ timeout: 60_000 });
        await page.locator(`#${id}`).getByRole('button', { name: 'Start' }).click();
        await started;
        await page.waitForFunction(
          (slide) => Number(document.querySelector(`#${slide} .tr-figure`)?.dataset.steps) > 0,
          id,
          { timeout: 60_000 },
        );
        await page.locator(`#${id}`).getByRole('button', { name: 'Pause' }).click();
      }
      assertNothingWentWrong(session);
    } finally {
      await session.close();
    }
  });

  test('the article, practice and lessons pages open from the file’s own links', async () => {
    const session = await openOffline();
    const { page } = session;
    try {
      await page.goto(`${pathToFileURL(offlineFile).href}#/why-scale`);
      await waitForSlide(page, 'why-scale');
      await page.locator('#why-scale').getByRole('link', { name: 'Read article' }).click();
      await page.waitForURL(/\?page=article&from=why-scale#why-scale$/);
      // The article's figures are live: the heatmap draws from the engine and the vectors.
      await page.locator('#title .figure-views input[value="heatmap"]').check();
      await page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      assert.equal(
        await page.locator('.top-nav .back-link').getAttribute('href'),
        '?page=deck#/why-scale',
        'the article leads back to the slide it came from',
      );

      await page.locator('.top-nav').getByRole('link', { name: 'Practice questions' }).click();
      await page.waitForURL(/\?page=practice$/);
      const bank = page.locator('#bank .practice-item');
      await bank.first().waitFor({ timeout: TIMEOUT });
      assert.equal(await bank.count(), quiz.items.length, 'every question of the lesson');
      // The live questions draw their numbers from the engine (and the trained model).
      const live = quiz.items.filter((item) => 'generator' in item).length;
      await page.waitForFunction(
        (count) =>
          Array.from(document.querySelectorAll('#bank .practice-item legend')).filter((legend) =>
            /live numbers/i.test(legend.textContent ?? ''),
          ).length === count,
        live,
        { timeout: TIMEOUT },
      );

      await page.getByRole('link', { name: 'Read the article' }).click();
      await page.waitForURL(/\?page=article$/);
      await page.locator('.top-nav').getByRole('link', { name: 'All lessons' }).click();
      await page.waitForURL(/\?page=lessons$/);
      await page.locator('.lesson-list .lesson-link').first().click();
      await page.waitForURL(/\?page=deck$/);
      await waitForSlide(page, 'title');
      assertNothingWentWrong(session);
    } finally {
      await session.close();
    }
  });

  /**
   * The timing figure draws nothing until Start: starts it, waits until both translators have
   * taken a step (their rates shown), and stops it.
   * @param {import('playwright-core').Page} page
   * @param {string} id the slide's
   */
  async function timeSteps(page, id) {
    const go = page.locator(`#${id} .ts-go:not([disabled])`);
    await go.waitFor({ timeout: TIMEOUT });
    await go.click();
    await page.waitForFunction(
      (scope) =>
        [...document.querySelectorAll(`${scope} .ts-rate`)].every(
          (line) => Number(/** @type {HTMLElement} */ (line).dataset.stepsPerSecond) > 0,
        ),
      `#${id}`,
      { timeout: 4 * TIMEOUT, polling: 250 },
    );
    await go.click();
  }

  test('every other lesson opens from the lessons page, its figures drawn from the file', async () => {
    const session = await openOffline();
    const { page } = session;
    try {
      for (const [index, { lesson: meta, slides }] of lessons.entries()) {
        if (index === 0) continue;
        await page.goto(`${pathToFileURL(offlineFile).href}?page=lessons`);
        const links = page.locator('.lesson-list .lesson-link');
        await links.nth(index).click();
        await page.waitForURL(new RegExp(`[?&]lesson=${meta.key}(#|$)`));
        await waitForSlide(page, slides[0].id);
        assert.match(await page.title(), new RegExp(meta.title));
        // Every figure of the lesson, drawn from the engine and the data blocks of the file.
        for (const slide of slides.filter((s) => s.widget && s.widget.type !== 'knowledge-check')) {
          await page.evaluate((id) => {
            location.hash = `#/${id}`;
          }, slide.id);
          await waitForSlide(page, slide.id);
          if (slide.widget.type === 'training-speed') {
            await timeSteps(page, slide.id);
            continue;
          }
          await page.locator(`#${slide.id} .widget-area svg`).first().waitFor({ timeout: TIMEOUT });
        }
      }
      assertNothingWentWrong(session);
    } finally {
      await session.close();
    }
  });
});
