// End-to-end tests of the live heatmap on the deck's title slide (its Untrained view; the trained
// model's view is tested in language-model.test.js): a production build served on 127.0.0.1,
// driven in a headless browser. Run with `npm run test:e2e`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import { EARLY_DATA } from '../../web/build/vite-plugin-page-head.js';
import { tokenize } from '../../web/src/text/tokenize.js';
import { openPage, openTables, readLabels, readPicture, readTable, useSite } from './browser.js';

// The title slide's sentence, as the lesson gives it, in the tokens the figure should show.
const lesson = loadLesson(fileURLToPath(new URL('../../slides/attention/', import.meta.url)));
const titleWidget = lesson.slides.find((slide) => slide.id === 'title')?.widget;
const heatmapView = [titleWidget, ...(titleWidget?.also ?? [])].find((v) => v?.type === 'heatmap');
const DEFAULT_TOKENS = tokenize(heatmapView?.props?.sentence ?? '');
/** Two places where the same word occurs, or undefined. */
const REPEAT = DEFAULT_TOKENS.map((token, i) => [i, DEFAULT_TOKENS.indexOf(token, i + 1)]).find(
  ([, j]) => j > 0,
);
const TIMEOUT = 15_000;
/** The word-vector asset, as the page asks for it. */
const VECTORS = 'embeddings/en-20k-100d.bin';

const site = useSite();

/** The deck with the title slide's heatmap shown (the view after its first). */
const HEATMAP_VIEW = '?figure=title&show=heatmap';
/** The title slide, which holds the heatmap. */
const SLIDE = '#title';
const FIGURE = `${SLIDE} .hm-figure`;
/** The disclosure of the figure's table, which is built when it opens. */
const TABLES = `${FIGURE} details.heatmap-details`;

/**
 * Opens the deck, waits for the title slide's figure, runs `body`, then checks the page logged no
 * error, opened no dialog and asked nothing of any other origin.
 * @param {(page: import('playwright-core').Page, log: import('./browser.js').Session['log'])
 *   => Promise<void>} body
 * @param {import('./browser.js').PageOptions} [options] passed to openPage
 */
function withPage(body, options) {
  return site.visit(
    HEATMAP_VIEW,
    async (page, session) => {
      await page.locator(`${FIGURE} svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      await body(page, session.log);
    },
    options,
  );
}

/**
 * Replaces the sentence, as a learner would by typing.
 * @param {import('playwright-core').Page} page
 * @param {string} text
 */
async function typeSentence(page, text) {
  const box = page.locator(SLIDE).getByRole('textbox', { name: /Sentence/ });
  await box.fill('');
  if (text) await box.pressSequentially(text);
}

/**
 * Opens the table and waits until its row labels equal `tokens`.
 * @param {import('playwright-core').Page} page
 * @param {string[]} tokens
 */
async function waitForRows(page, tokens) {
  await openTables(page, TABLES);
  await page.waitForFunction(
    ([selector, expected]) => {
      const labels = Array.from(document.querySelectorAll(selector), (th) => th.textContent);
      return JSON.stringify(labels) === JSON.stringify(expected);
    },
    [`${FIGURE} tbody th`, tokens],
    { timeout: TIMEOUT },
  );
}

/** @param {number[]} values */
const sum = (values) => values.reduce((a, b) => a + b, 0);

describe('the heatmap on the title slide', () => {
  test('loads from its own origin only, with no errors, and draws the default sentence', async () => {
    await withPage(async (page, log) => {
      const labels = await readLabels(page);
      assert.deepEqual(labels.rows, DEFAULT_TOKENS);
      assert.deepEqual(labels.cols, DEFAULT_TOKENS);
      assert.equal(labels.cells, DEFAULT_TOKENS.length ** 2);

      const table = await readTable(page);
      assert.deepEqual(table.columns, DEFAULT_TOKENS);
      assert.deepEqual(
        table.rows.map((row) => row.label),
        DEFAULT_TOKENS,
      );
      for (const row of table.rows) {
        assert.equal(row.values.length, DEFAULT_TOKENS.length);
        assert.ok(
          Math.abs(sum(row.values) - 1) < 1e-5,
          `row "${row.label}" sums to ${sum(row.values)}`,
        );
        assert.ok(
          row.values.every((v) => v > 0 && v < 1),
          `row "${row.label}" has weights in (0, 1)`,
        );
      }
      // The same word gets the same vector, so its rows are identical.
      if (REPEAT) assert.deepEqual(table.rows[REPEAT[0]].values, table.rows[REPEAT[1]].values);

      // The deck's head preloads the engine's WebAssembly and no data file (its title figure
      // opens on a recording); the figure asks for the word vectors, the page for the language
      // model once it has loaded, and each file is fetched once.
      const wasm = log.requests.filter((url) => url.endsWith('.wasm'));
      assert.equal(wasm.length, 1, 'the engine was fetched once');
      const preloaded = await page
        .locator('head link[rel="preload"][as="fetch"]')
        .evaluateAll((links) => links.map((link) => /** @type {HTMLLinkElement} */ (link).href));
      assert.deepEqual(preloaded, wasm, 'the head preloads the engine alone');
      const data = EARLY_DATA.map((file) => new URL(file, page.url()).href);
      await page.waitForFunction(
        (urls) => urls.every((url) => performance.getEntriesByName(url).length > 0),
        data,
        { timeout: TIMEOUT },
      );
      for (const url of data) {
        assert.equal(log.requests.filter((r) => r === url).length, 1, `${url} fetched once`);
      }
      // The word vectors: one request, to the page's own origin, whatever else the deck holds.
      const vectors = log.requests.filter((url) => url.endsWith(VECTORS));
      assert.equal(vectors.length, 1, 'the word vectors were fetched once');
      assert.equal(new URL(vectors[0]).origin, site.origin());
      assert.equal(await page.locator(`${SLIDE} .hm-status`).isVisible(), false);
      assert.equal(await page.locator(`${SLIDE} .hm-unknown`).isVisible(), false);
      assert.equal(await page.locator(`${FIGURE} .unknown`).count(), 0, 'every word is known');
      await assert.doesNotReject(
        page
          .locator(SLIDE)
          .getByText('Each token is a pre-trained word vector')
          .waitFor({ timeout: TIMEOUT }),
      );
      assert.equal(await page.getByText(/placeholder/i).count(), 0);
    });
  });

  test('a word outside the vocabulary is marked in the labels, the read-out and the table', async () => {
    await withPage(async (page) => {
      await typeSentence(page, 'The zyxwv sat.');
      const tokens = ['the', 'zyxwv', 'sat', '.'];
      await waitForRows(page, tokens);
      const marked = await page.locator(`${FIGURE} svg`).evaluate((svg) => ({
        rows: Array.from(svg.querySelectorAll('.row-label'), (t) =>
          t.classList.contains('unknown'),
        ),
        cols: Array.from(svg.querySelectorAll('.col-label'), (t) =>
          t.classList.contains('unknown'),
        ),
        style: getComputedStyle(svg.querySelector('.row-label.unknown')).fontStyle,
      }));
      assert.deepEqual(marked.rows, [false, true, false, false]);
      assert.deepEqual(marked.cols, [false, true, false, false]);
      assert.equal(marked.style, 'italic');

      const headers = await page
        .locator(`${FIGURE} table th.unknown`)
        .evaluateAll((cells) => cells.map((th) => th.textContent));
      assert.deepEqual(headers, ['zyxwv', 'zyxwv']);
      assert.match(
        await page.locator(`${FIGURE} table caption`).textContent(),
        /Not in the vocabulary: “zyxwv”\.$/,
      );
      const note = page.locator(`${SLIDE} .hm-unknown`);
      assert.equal(await note.isVisible(), true);
      assert.match(await note.innerText(), /^Not in the vocabulary .*“zyxwv”\./);

      await page.locator(`${SLIDE} [role="gridcell"]`).nth(tokens.length).hover();
      assert.match(
        await page.locator(`${SLIDE} .heatmap-readout`).innerText(),
        /^query “zyxwv” \(not in the vocabulary\) to key “the”: weight 0\.\d+$/,
      );
    });
  });

  test('typing a new sentence changes the labels and the numbers', async () => {
    await withPage(async (page) => {
      const before = await readTable(page);
      await typeSentence(page, 'Dogs chase bright red balls');
      const tokens = ['dogs', 'chase', 'bright', 'red', 'balls'];
      await waitForRows(page, tokens);
      const labels = await readLabels(page);
      assert.deepEqual(labels.rows, tokens);
      assert.deepEqual(labels.cols, tokens);
      const afterTyping = await readTable(page);
      assert.deepEqual(afterTyping.columns, tokens);
      assert.notDeepEqual(
        afterTyping.rows.map((r) => r.values),
        before.rows.slice(0, tokens.length).map((r) => r.values.slice(0, tokens.length)),
      );
      for (const row of afterTyping.rows) assert.ok(Math.abs(sum(row.values) - 1) < 1e-5);
    });
  });

  test('the causal mask zeroes every weight above the diagonal and rows still sum to 1', async () => {
    await withPage(async (page) => {
      const n = DEFAULT_TOKENS.length;
      const above = (rows) => rows.flatMap((row, i) => row.values.slice(i + 1));
      const open = await readTable(page);
      assert.ok(
        above(open.rows).every((v) => v > 0),
        'without the mask every weight is positive',
      );

      const toggle = page.locator(SLIDE).getByRole('checkbox', { name: /Causal/ });
      await toggle.check();
      await page.waitForFunction(
        (figure) =>
          document.querySelector(`${figure} tbody tr td:last-child`)?.classList.contains('masked'),
        FIGURE,
      );
      const masked = await readTable(page);
      assert.equal(masked.rows.length, n);
      masked.rows.forEach((row, i) => {
        row.values.forEach((value, j) => {
          if (j > i) {
            assert.equal(value, 0, `weight (${i}, ${j}) is exactly 0`);
            assert.equal(row.texts[j], '0');
          } else {
            assert.ok(value > 0, `weight (${i}, ${j}) is visible`);
          }
        });
        assert.ok(Math.abs(sum(row.values) - 1) < 1e-5, `row ${i} sums to ${sum(row.values)}`);
      });
      assert.equal(masked.rows[0].values[0], 1, 'the first token can only see itself');
      assert.equal(await page.locator(`${FIGURE} .legend-masked`).count(), 1);

      await toggle.uncheck();
      await page.waitForFunction(
        (figure) =>
          !document.querySelector(`${figure} tbody tr td:last-child`)?.classList.contains('masked'),
        FIGURE,
      );
      assert.ok(
        above((await readTable(page)).rows).every((v) => v > 0),
        'unchecking restores',
      );
    });
  });

  test('empty input shows a prompt instead of a figure', async () => {
    await withPage(async (page) => {
      await typeSentence(page, '   ');
      const status = page.locator(SLIDE).getByRole('status');
      await status.getByText(/Type a sentence/).waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator(`${FIGURE} svg`).count(), 0);
      assert.equal(await page.locator(`${SLIDE} .hm-result`).isVisible(), false);

      await typeSentence(page, 'Hello again');
      await waitForRows(page, ['hello', 'again']);
      assert.equal(await status.isVisible(), false);
    });
  });

  test('HTML in the sentence is shown as text and never run', async () => {
    await withPage(async (page, log) => {
      const attack = '<script>window.__ran = 1</script><img src=x onerror="window.__ran = 2">';
      await typeSentence(page, attack);
      await openTables(page, TABLES);
      await page
        .locator(`${FIGURE} tbody th`, { hasText: 'onerror' })
        .first()
        .waitFor({ state: 'attached', timeout: TIMEOUT });
      const table = await readTable(page);
      assert.ok(table.columns.includes('<'), 'the < sign is a token');
      assert.ok(table.columns.includes('script'), 'the word script is a token');
      assert.equal(await page.evaluate(() => window.__ran), undefined);
      assert.equal(await page.locator(`${SLIDE} script, ${SLIDE} img`).count(), 0);
      assert.ok(!log.requests.some((url) => new URL(url).pathname.endsWith('/x')));
    });
  });

  test('emoji, Chinese and Arabic text work', async () => {
    await withPage(async (page) => {
      await typeSentence(page, 'I \u2764\ufe0f 猫 and مرحبا بالعالم 👍🏽!');
      const tokens = ['i', '\u2764\ufe0f', '猫', 'and', 'مرحبا', 'بالعالم', '👍🏽', '!'];
      await waitForRows(page, tokens);
      const labels = await readLabels(page);
      assert.deepEqual(labels.rows, tokens);
      const table = await readTable(page);
      for (const row of table.rows) assert.ok(Math.abs(sum(row.values) - 1) < 1e-5);
    });
  });

  test('more than 64 tokens are cut to 64 with a visible notice', async () => {
    await withPage(async (page) => {
      const words = Array.from({ length: 70 }, (_, i) => `w${i}`);
      await page
        .locator(SLIDE)
        .getByRole('textbox', { name: /Sentence/ })
        .fill(words.join(' '));
      await waitForRows(page, words.slice(0, 64));
      const notice = page.locator(SLIDE).getByRole('status');
      assert.match(await notice.innerText(), /first 64 of 70 tokens/);
      assert.equal(await notice.isVisible(), true);
      // Too many cells for an element each: a picture of one pixel per weight, read with the keys.
      const drawn = await readLabels(page);
      assert.equal(drawn.picture, '64x64');
      assert.equal(drawn.cells, 0);
      const picture = await readPicture(page, `${FIGURE} svg.heatmap-svg`);
      assert.equal(picture.pixels.length, 64 * 64);
      const table = await readTable(page);
      await page.locator(`${FIGURE} svg.heatmap-svg`).focus();
      await page.keyboard.press('Control+End');
      assert.equal(
        await page.locator(`${SLIDE} .heatmap-readout`).innerText(),
        `query “w63” (not in the vocabulary) to key “w63” (not in the vocabulary): weight ${
          table.rows[63].texts[63]
        }`,
      );
    });
  });

  test('the grid can be read with the keyboard', async () => {
    await withPage(async (page) => {
      await page
        .locator(SLIDE)
        .getByRole('checkbox', { name: /Causal/ })
        .focus();
      // Past the Grid / Lines choice, into the grid.
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute('value')),
        'grid',
      );
      await page.keyboard.press('Tab');
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
      const [t0, t1] = DEFAULT_TOKENS;
      const last = DEFAULT_TOKENS.at(-1);
      assert.ok((await focused()).startsWith(`query “${t0}” to key “${t0}”: weight 0.`));
      await page.keyboard.press('ArrowRight');
      assert.ok((await focused()).startsWith(`query “${t0}” to key “${t1}”`));
      assert.ok(
        (await page.locator(`${SLIDE} .heatmap-readout`).innerText()).startsWith(
          `query “${t0}” to key “${t1}”`,
        ),
      );
      await page.keyboard.press('ArrowDown');
      assert.ok((await focused()).startsWith(`query “${t1}” to key “${t1}”`));
      await page.keyboard.press('End');
      assert.ok((await focused()).startsWith(`query “${t1}” to key “${last}”`));
      // Only one cell is in the Tab order at a time.
      assert.equal(await page.locator('[role="gridcell"][tabindex="0"]').count(), 1);
    });
  });

  test('pointing at a cell shows its value', async () => {
    await withPage(async (page) => {
      const readout = page.locator(`${SLIDE} .heatmap-readout`);
      assert.doesNotMatch(await readout.innerText(), /weight \d/);
      const table = await readTable(page);
      await page
        .locator(`${SLIDE} [role="gridcell"]`)
        .nth(DEFAULT_TOKENS.length + 2)
        .hover();
      const expected = table.rows[1].texts[2];
      assert.equal(
        await readout.innerText(),
        `query “${DEFAULT_TOKENS[1]}” to key “${DEFAULT_TOKENS[2]}”: weight ${expected}`,
      );
    });
  });

  test('fits a 360 px phone screen in the dark scheme', async () => {
    await withPage(
      async (page) => {
        const overflow = await page.evaluate(() => {
          const root = document.documentElement;
          const slide = document.querySelector('.reveal .slides > section.present');
          return [root.scrollWidth - root.clientWidth, slide.scrollWidth - slide.clientWidth];
        });
        assert.deepEqual(overflow, [0, 0], 'no sideways scrolling of the page or the slide');
        const looks = await page.evaluate(() => ({
          background: getComputedStyle(document.body).backgroundColor,
          heading: parseFloat(getComputedStyle(document.querySelector('#title h1')).fontSize),
          text: parseFloat(getComputedStyle(document.querySelector('#title .slide-body')).fontSize),
        }));
        assert.notEqual(looks.background, 'rgb(255, 255, 255)', 'the dark scheme is applied');
        assert.ok(looks.heading >= 28, `the title is ${looks.heading}px`);
        assert.ok(looks.text >= 16, `the text is ${looks.text}px`);
      },
      { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    );
  });
});

describe('the word vectors', () => {
  test('a figure says it is loading them until they are there', async () => {
    /** @type {() => void} */
    let release = () => {};
    const held = new Promise((resolve) => (release = resolve));
    await site.visit(HEATMAP_VIEW, async (page) => {
      await page.route(`**/${VECTORS}`, async (route) => {
        await held;
        await route.continue();
      });
      await page.reload();
      const status = page.locator(SLIDE).getByRole('status');
      await status.getByText('Loading word vectors').waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator(`${FIGURE} svg`).count(), 0);
      release();
      await page.locator(`${FIGURE} svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      assert.deepEqual((await readLabels(page)).rows, DEFAULT_TOKENS);
    });
  });

  test('when they cannot be fetched, the figure says so', async () => {
    const session = await openPage(site.browser());
    try {
      await session.page.route(`**/${VECTORS}`, (route) => route.abort());
      await session.page.goto(`${site.url()}${HEATMAP_VIEW}`);
      const alert = session.page.locator(SLIDE).getByRole('alert');
      await alert.getByText(/word vectors could not be loaded/).waitFor({ timeout: TIMEOUT });
      assert.equal(await session.page.locator(`${SLIDE} svg`).count(), 0);
      assert.deepEqual(session.log.pageErrors, []);
    } finally {
      await session.close();
    }
  });
});

describe('when the engine cannot run', () => {
  test('a browser without WebAssembly gets a clear message', async () => {
    const session = await openPage(site.browser(), {
      initScript: () => {
        delete globalThis.WebAssembly;
      },
    });
    try {
      await session.page.goto(site.url());
      const alert = session.page.locator(SLIDE).getByRole('alert');
      await alert.getByText(/needs WebAssembly/).waitFor({ timeout: TIMEOUT });
      assert.equal(await session.page.locator(`${SLIDE} svg`).count(), 0);
      assert.deepEqual(session.log.pageErrors, []);
      const vectors = session.log.requests.filter((url) => url.endsWith(VECTORS));
      assert.deepEqual(vectors, [], 'no word vectors for a page that cannot use them');
    } finally {
      await session.close();
    }
  });

  test('an engine that fails to load gets a clear message, not a blank page', async () => {
    const session = await openPage(site.browser());
    try {
      await session.page.route('**/*.wasm', (route) => route.abort());
      await session.page.goto(site.url());
      const alert = session.page.locator(SLIDE).getByRole('alert');
      await alert.getByText(/could not be loaded/).waitFor({ timeout: TIMEOUT });
      assert.equal(await session.page.locator(`${SLIDE} svg`).count(), 0);
      assert.equal(await session.page.locator(SLIDE).getByRole('status').count(), 0);
    } finally {
      await session.close();
    }
  });
});
