// End-to-end tests of the translation figures, the page's two English-to-German models on three
// slides: on the bottleneck slide both models' German and Figure 2 drawn from the models' report;
// on the Bahdanau slide the decoder step by step; on the cross-attention slide the alignment
// matrix. Every translation, weight and score shown equals what the same engine computes here in
// Node for the same text; typing a sentence changes them; bad input gets a message, never an
// error; nothing reaches outside the origin (site.visit checks that after every page).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadTranslator } from 'attention-lab';

import { assertBadSentences } from './bad-sentences.js';
import {
  assertClean,
  assertOnlyAbortedLoads,
  currentSlide,
  openPage,
  useSite,
  waitForSlide,
} from './browser.js';

const TIMEOUT = 20_000;
const report = JSON.parse(
  readFileSync(new URL('../../web/public/models/translation.json', import.meta.url), 'utf8'),
);
const attention = await loadTranslator();
const fixedVector = await loadTranslator({ model: 'fixed-vector' });
// The alignment and comparison views search with the beam the report was measured with.
const PAGE = { beam: attention.info.measuredBeam };
const site = useSite();

/**
 * Opens a slide on its translation view and waits for the models' figure.
 * @param {string} id the slide
 * @param {(page: import('playwright-core').Page, slide: string) => Promise<void>} body
 */
function withSlide(id, body) {
  return site.visit(`index.html#/${id}`, async (page) => {
    await waitForSlide(page, id);
    await page
      .locator(`#${id} .mt[data-state="drawn"] .mt-result:not([hidden])`)
      .waitFor({ timeout: TIMEOUT });
    await body(page, `#${id}`);
  });
}

/**
 * Replaces the sentence as a learner would, and waits until the figure shows German for it.
 * @param {import('playwright-core').Page} page
 * @param {string} slide
 * @param {string} text
 * @param {string} german the attention model's German for it, as the figure writes it
 */
async function typeSentence(page, slide, text, german) {
  const input = page.locator(`${slide} .mt-sentence`);
  await input.fill(text);
  await page.waitForFunction(
    ([scope, words]) => {
      const shown = document.querySelector(`${scope} .mt-attention, ${scope} .mt-words`);
      return shown?.textContent === words;
    },
    [slide, german],
    { timeout: TIMEOUT },
  );
}

/**
 * A chart's or heatmap's table: its column heads, row heads and exact values.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
function readTable(page, selector) {
  return page
    .locator(`${selector} table`)
    .first()
    .evaluate((table) => ({
      columns: Array.from(table.querySelectorAll('thead th'), (th) => th.textContent ?? ''),
      rows: Array.from(table.querySelectorAll('tbody th'), (th) => th.textContent ?? ''),
      values: Array.from(table.querySelectorAll('tbody td'), (td) => Number(td.dataset.value)),
    }));
}

/**
 * @param {number[]} actual
 * @param {ArrayLike<number>} expected
 * @param {string} what
 */
function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: count`);
  actual.forEach((value, i) => assert.ok(Math.abs(value - expected[i]) < 1e-6, `${what} ${i}`));
}

/**
 * Opens the deck on its title slide in a page of its own, runs `body` and closes the page. With
 * `heldBack`, nothing the live model needs (the engine's WebAssembly, the word vectors, the
 * models) arrives until `body` calls `release`; a download matching `refused` fails.
 * @param {{ heldBack?: boolean, refused?: string }} options
 * @param {(session: Awaited<ReturnType<typeof openPage>>, release: () => void) => Promise<void>}
 *   body
 */
async function onTitle({ heldBack = false, refused }, body) {
  const session = await openPage(site.browser());
  try {
    let release = () => {};
    const gate = new Promise((resolve) => (release = () => resolve(undefined)));
    const held = heldBack ? ['**/*.wasm', '**/embeddings/**', '**/models/**'] : [];
    for (const pattern of held) {
      await session.page.route(pattern, async (route) => {
        await gate;
        await route.continue();
      });
    }
    if (refused) await session.page.route(refused, (route) => route.abort());
    await session.page.goto(`${site.url()}index.html`);
    await body(session, release);
  } finally {
    await session.close();
  }
}

describe('title slide: the recording first, the live model after', () => {
  test('draws the recorded alignment before any model arrives, then the model takes over', async () => {
    const recordings = JSON.parse(
      readFileSync(
        new URL('../../web/src/widgets/translation/recorded.json', import.meta.url),
        'utf8',
      ),
    );
    await onTitle({ heldBack: true }, async (session, release) => {
      const slide = '#title';
      await session.page
        .locator(`${slide} .mt[data-state="recorded"] .mt-matrix svg.heatmap-svg`)
        .waitFor({ timeout: TIMEOUT });
      const sentence = await session.page.locator(`${slide} .mt-sentence`).inputValue();
      const recorded = recordings.find((r) => r.sentence === sentence);
      assert.ok(recorded, `the title's sentence “${sentence}” is recorded`);
      const early = await readTable(session.page, `${slide} .mt-tables`);
      assert.deepEqual(early.rows, recorded.target);
      assert.deepEqual(early.columns.slice(1), recorded.source);
      assertClose(early.values, recorded.weights, 'recorded weight');
      assert.match(
        (await session.page.locator(`${slide} .mt-pending`).textContent()) ?? '',
        /recorded from the model; loading it/,
      );

      release();
      await session.page
        .locator(`${slide} .mt[data-state="drawn"] .mt-result:not([hidden])`)
        .waitFor({ timeout: TIMEOUT });
      const live = attention.translate(sentence, PAGE);
      assertClose(
        (await readTable(session.page, `${slide} .mt-tables`)).values,
        live.weights,
        'live',
      );
      assert.equal(await session.page.locator(`${slide} .mt-status`).isVisible(), false);
      assert.equal(await session.page.locator(`${slide} .mt-pending`).isVisible(), false);

      // The learner's own sentence is translated by the model.
      const own = 'The weather is nice today.';
      await typeSentence(session.page, slide, own, attention.translate(own, PAGE).output.join(' '));
      const table = await readTable(session.page, `${slide} .mt-tables`);
      assertClose(table.values, attention.translate(own, PAGE).weights, 'own sentence');
      assert.equal(await currentSlide(session.page), 'title', 'typing never turns the slide');
      assertClean(session.log, site.origin());
    });
  });

  test('the learner keeps their text, focus and caret when the live model takes over', async () => {
    await onTitle({ heldBack: true }, async (session, release) => {
      const slide = '#title';
      await session.page
        .locator(`${slide} .mt[data-state="recorded"]`)
        .waitFor({ timeout: TIMEOUT });
      const input = session.page.locator(`${slide} .mt-sentence`);
      await input.click();
      await session.page.keyboard.press('End');
      await session.page.keyboard.type(' Today');
      const typed = await input.inputValue();
      assert.match(typed, / Today$/);
      // A sentence with no recording waits for the model, its box still the learner's.
      await session.page
        .locator(`${slide} .mt[data-state="loading"]`)
        .waitFor({ timeout: TIMEOUT });
      await input.evaluate((box) =>
        /** @type {HTMLInputElement} */ (box).setSelectionRange(4, 12, 'forward'),
      );

      release();
      await session.page
        .locator(`${slide} .mt[data-state="drawn"] .mt-result:not([hidden])`)
        .waitFor({ timeout: TIMEOUT });
      const after = await input.evaluate((box) => {
        const field = /** @type {HTMLInputElement} */ (box);
        return {
          value: field.value,
          focused: document.activeElement === field,
          start: field.selectionStart,
          end: field.selectionEnd,
        };
      });
      assert.deepEqual(after, { value: typed, focused: true, start: 4, end: 12 });
      // The next key goes on where the learner left off, and the model translates it.
      await session.page.keyboard.type('dogs');
      const own = `${typed.slice(0, 4)}dogs${typed.slice(12)}`;
      assert.equal(await input.inputValue(), own);
      await typeSentence(session.page, slide, own, attention.translate(own, PAGE).output.join(' '));
      assert.equal(await currentSlide(session.page), 'title', 'typing never turns the slide');
      assertClean(session.log, site.origin());
    });
  });

  test('the recording gives way to one alert in the learner\u2019s words', async () => {
    await onTitle({ refused: '**/models/translation.bin' }, async (session) => {
      const host = session.page.locator('#title .widget-host');
      const alert = host.getByRole('alert');
      await alert.getByText(/translation models could not be loaded/).waitFor({ timeout: TIMEOUT });
      assert.match((await alert.textContent()) ?? '', /reload the page/);
      assert.equal(await host.getByRole('alert').count(), 1, 'one alert');
      assert.equal(await host.locator('.mt').count(), 0, 'no recording left as if live');
      assert.equal(await host.getByRole('status').count(), 0, 'no loading line left');
      assertOnlyAbortedLoads(session.log);
    });
  });
});

describe('bottleneck slide: both models and Figure 2', () => {
  test('shows both models\u2019 German, and typing changes both', async () => {
    await withSlide('bottleneck', async (page, slide) => {
      const german = async () => ({
        attention: await page.locator(`${slide} .mt-attention`).textContent(),
        fixedVector: await page.locator(`${slide} .mt-fixed-vector`).textContent(),
      });
      const first = 'Click the button to open the file.';
      assert.deepEqual(await german(), {
        attention: attention.translate(first, PAGE).output.join(' '),
        fixedVector: fixedVector.translate(first, PAGE).output.join(' '),
      });
      const next = 'The house is very old.';
      await typeSentence(page, slide, next, attention.translate(next, PAGE).output.join(' '));
      const now = await german();
      assert.equal(now.fixedVector, fixedVector.translate(next, PAGE).output.join(' '));
      assert.notEqual(now.attention, attention.translate(first, PAGE).output.join(' '));
      assert.notEqual(now.fixedVector, fixedVector.translate(first, PAGE).output.join(' '));
      assert.equal(await currentSlide(page), 'bottleneck', 'typing never turns the slide');
    });
  });

  test('draws Figure 2 from the models\u2019 report', async () => {
    await withSlide('bottleneck', async (page, slide) => {
      const table = await readTable(page, `${slide} .mt-chart`);
      const buckets = report.models.attention.bleu.buckets;
      assert.deepEqual(
        table.rows,
        buckets.map((b) => (b.to === null ? `${b.from}+` : `${b.from}\u2013${b.to}`)),
      );
      const expected = buckets.flatMap((b, i) => [
        b.bleu,
        report.models['fixed-vector'].bleu.buckets[i].bleu,
      ]);
      assert.deepEqual(table.values, expected);
      const facts = await page.locator(`${slide} .mt-facts`).textContent();
      assert.match(
        facts ?? '',
        // Three significant digits, as the page writes numbers.
        new RegExp(
          `scores ${Number(report.models.attention.bleu.overall.bleu.toPrecision(3))} BLEU`,
        ),
      );
      assert.match(facts ?? '', /large systems score about 30 on news, another text/);
    });
  });
});

describe('cross-attention slide: the alignment matrix', () => {
  test('draws German rows over English columns, and typing redraws it', async () => {
    await withSlide('cross-attention', async (page, slide) => {
      const check = async (text) => {
        const run = attention.translate(text, PAGE);
        const table = await readTable(page, `${slide} .mt-tables`);
        assert.deepEqual(table.rows, run.target);
        assert.deepEqual(table.columns.slice(1), run.source);
        assertClose(table.values, run.weights, 'weight');
        return run;
      };
      const first = await check('Enter the name of the new file.');
      assert.ok(first.target.length > 0);
      const next = 'The document can not be printed.';
      await typeSentence(page, slide, next, attention.translate(next, PAGE).output.join(' '));
      await check(next);
    });
  });

  test('marks unknown English words and unknown German words instead of hiding them', async () => {
    await withSlide('cross-attention', async (page, slide) => {
      // The first of these sentences for which the model writes <unk> (which depends on the
      // trained weights); each has an English word outside the word vectors.
      const text = [
        'Enter the name of the zqxjv file.',
        'Ask Gudrun whether the Zeppelin flies to Wuppertal.',
      ].find((sentence) => attention.translate(sentence, PAGE).target.includes('<unk>'));
      assert.ok(text, 'one of the sentences makes the model write <unk>');
      const run = attention.translate(text, PAGE);
      const unknownWord = run.source[run.known.indexOf(false)];
      await typeSentence(page, slide, text, run.output.join(' '));
      const labels = await page.locator(`${slide} .mt-matrix`).evaluate((figure) => ({
        cols: Array.from(figure.querySelectorAll('.col-label'), (t) =>
          t.classList.contains('unknown'),
        ),
        rows: Array.from(figure.querySelectorAll('.row-label'), (t) =>
          t.classList.contains('unknown'),
        ),
      }));
      assert.deepEqual(
        labels.cols,
        run.known.map((k) => !k),
      );
      assert.deepEqual(
        labels.rows,
        run.target.map((w) => w === '<unk>'),
      );
      // The German line reads each unknown word as the English word it weighs most, marked.
      const words = await page.locator(`${slide} .mt-words .mt-word`).evaluateAll((nodes) =>
        nodes.map((node) => ({
          text: node.textContent,
          marked: node.classList.contains('mt-unk'),
        })),
      );
      assert.deepEqual(
        words,
        run.output.map((text, t) => ({ text, marked: run.copied[t] >= 0 })),
      );
      assert.ok(
        run.copied.some((j) => j >= 0),
        'the model writes <unk> for this sentence',
      );
      assert.ok(
        run.copied.every((j, t) => j < 0 || run.output[t] === run.source[j]),
        'a copied word is an English token',
      );
      assert.ok(
        ((await page.locator(`${slide} .mt-unknown`).textContent()) ?? '').includes(
          `\u201c${unknownWord}\u201d`,
        ),
        `the note names \u201c${unknownWord}\u201d`,
      );
    });
  });
});

describe('Bahdanau slide: the decoder step by step', () => {
  test('shows the scores and weights of the chosen step; a German word chooses its step', async () => {
    await withSlide('weighted-retrieval', async (page, slide) => {
      const run = attention.translate('The document can not be printed.');
      const n = run.source.length;
      const checkStep = async (t) => {
        await page.waitForFunction(
          ([scope, step]) =>
            document
              .querySelector(`${scope} .mt-word[aria-pressed="true"]`)
              ?.getAttribute('data-step') === String(step),
          [slide, t + 1],
          { timeout: TIMEOUT },
        );
        const weights = await readTable(page, `${slide} .mt-weights`);
        const scores = await readTable(page, `${slide} .mt-scores`);
        const { pieces } = run;
        assertClose(weights.values, pieces.weights.subarray(t * n, (t + 1) * n), 'weight');
        assertClose(scores.values, pieces.scores.subarray(t * n, (t + 1) * n), 'score');
        const sum = weights.values.reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(sum - 1) < 1e-5, `step ${t + 1}: the weights add up to 1`);
        assert.match(
          (await page.locator(`${slide} .mt-step-line`).textContent()) ?? '',
          new RegExp(`Step ${t + 1} of ${run.pieces.text.length}`),
        );
      };
      await checkStep(1);
      await page.locator(`${slide} .mt-word[data-step="4"]`).click();
      await checkStep(3);
      const slider = page.locator(`${slide} .mt-step`);
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      await checkStep(4);
      await page.keyboard.press('End');
      await checkStep(run.target.length - 1);
      assert.equal(await currentSlide(page), 'weighted-retrieval', 'keys inside stay inside');
    });
  });
});

describe('bad input', () => {
  test('empty text, 5,000 words, markup and odd Unicode get a message, never an error', async () => {
    await withSlide('cross-attention', (page, slide) => assertBadSentences(page, slide, 'mt'));
  });
});
