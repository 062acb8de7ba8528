// End-to-end tests of the trained language model's figure, the first view of two slides
// (self-attention, multi-head), against the same model run in Node (loadLanguageModel): it is the
// view shown by default; typing redraws the heads, whose weights, read-out line and next words are
// Node's numbers; a small head clicked (or chosen with the keyboard) is drawn large and kept, in
// the address too; "Repeat random words" writes the seeded words twice, draws the head with the
// highest induction score, and shows its live induction score on the text, Node's number, with
// the threshold's verdict only when it holds; empty text, more than 64 tokens and a model that
// cannot be loaded each get a message; "Untrained" mounts the slide's former figure; the slides
// fit 1280 x 720 and a 360 px phone; the model's files are fetched once per page; axe finds
// nothing, in light and dark.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLanguageModel } from 'attention-lab';

import { loadLesson } from '../../web/build/content.js';
import {
  INDUCTION_THRESHOLD,
  formatProbability,
  formatScore,
  headName,
  inductionHeadIndex,
  inductionScore,
  keyScore,
  kindWords,
  nextWordLabel,
  randomWords,
  readoutText,
  repeatedRunLength,
  repeatedText,
  rowFor,
  scoreName,
  strongestKey,
} from '../../web/src/widgets/language-model/math.js';
import { axeFindings } from './axe.js';
import {
  afterFrame,
  assertClean,
  assertOnlyAbortedLoads,
  currentSlide,
  openPage,
  openTables,
  useSite,
  waitForSlide,
} from './browser.js';

const TIMEOUT = 15_000;
const model = await loadLanguageModel();
const { info } = model;
const { slides } = loadLesson(fileURLToPath(new URL('../../slides/attention/', import.meta.url)));
/** The slides whose figure's first view is the trained model, with their props and former view. */
const SLIDES = slides
  .filter((slide) => slide.widget?.type === 'language-model')
  .map((slide) => ({
    id: slide.id,
    props: /** @type {{ sentence: string, word?: string, head?: string, demo?: string }} */ (
      slide.widget.props
    ),
    untrained: slide.widget.also?.find((view) => view.label === 'Untrained')?.type,
    // The multi-head slide also offers "Train it live" (tests/e2e/live-training.test.js).
    views: [slide.widget.label, ...(slide.widget.also ?? []).map((view) => view.label)],
  }));
const WHERE = Object.fromEntries(SLIDES.map((slide) => [slide.id, slide]));
/** The figure that each former widget draws, once it is mounted. */
const DRAWN = {
  heatmap: '.hm-figure svg.heatmap-svg',
  'multi-head': '.mh-out svg.heatmap-svg',
  'self-attention-pair': '.sap-bars svg.chart-svg',
};
const PROMPT = /Type at least one word/;
/** The slide the typing tests use, and the word its figure follows. */
const TYPED = 'self-attention';
const TYPED_WORD = WHERE[TYPED].props.word;
// 70 words: the model reads the last 64.
const LONG_WORDS = 70;
const LONG = Array.from(
  { length: LONG_WORDS },
  (_, i) => ['the', 'old', 'keeper', 'lit', 'a', 'lamp'][i % 6],
).join(' ');

const site = useSite();

/**
 * What the page should show for the text, with head `chosen` (layer-major) large, from Node.
 * @param {string} text
 * @param {number} chosen
 * @param {string} [word] the read-out's token
 */
function expected(text, chosen, word) {
  const run = model.run(text);
  const n = run.tokens.length;
  const head = run.heads[chosen];
  const row = rowFor(run.tokens, word);
  const strongest = strongestKey(head.weights, n, row);
  const runLength = repeatedRunLength(run.tokens);
  return {
    run,
    tokens: run.tokens,
    weights: Array.from(head.weights),
    strongest: { ...strongest, row, text: readoutText(headName(head), run.tokens, row, strongest) },
    induction: runLength > 0 ? inductionScore(head.weights, n, runLength) : null,
    next: run.next,
  };
}

/**
 * Opens the deck on a slide (the address's query, if any, first) and waits for the trained
 * model's figure to be drawn; runs `body`; the page must stay clean.
 * @param {string} id
 * @param {(page: import('playwright-core').Page) => Promise<void>} body
 * @param {import('./browser.js').PageOptions & { query?: string }} [options]
 */
function withFigure(id, body, options = {}) {
  const { query = '', ...pageOptions } = options;
  return site.visit(
    `index.html${query}#/${id}`,
    async (page) => {
      await waitForSlide(page, id);
      await drawn(page, id);
      await body(page);
    },
    pageOptions,
  );
}

/**
 * Waits until the slide's trained-model figure has drawn (or said why it has nothing to draw).
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function drawn(page, id) {
  return page
    .locator(`#${id} .lm:is([data-state="drawn"], [data-state="empty"], [data-state="failed"])`)
    .waitFor({ timeout: TIMEOUT });
}

/**
 * Everything the figure shows once it has drawn the latest input, the large head's table opened
 * as a learner would.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
async function readFigure(page, id) {
  // Typing is drawn once the keystroke's frame is painted (typing: 'after-paint'): by the start of
  // the frame after it, the redraw has run.
  await afterFrame(page);
  await afterFrame(page);
  if ((await page.locator(`#${id} .lm`).getAttribute('data-state')) === 'drawn') {
    await openTables(page, `#${id} .lm-tables details`);
  }
  return page.locator(`#${id}`).evaluate((section) => {
    const shown = (/** @type {string} */ selector) => {
      const node = /** @type {HTMLElement | null} */ (section.querySelector(selector));
      return node && !node.hidden && !node.closest('[hidden]') ? node.textContent : null;
    };
    const table = section.querySelector('.lm-tables table');
    const strongest = /** @type {HTMLElement} */ (section.querySelector('.lm-strongest'));
    const induction = /** @type {HTMLElement} */ (section.querySelector('.lm-induction'));
    return {
      state: /** @type {HTMLElement} */ (section.querySelector('.lm')).dataset.state,
      text: /** @type {HTMLTextAreaElement} */ (section.querySelector('.lm-sentence')).value,
      status: shown('.lm-status'),
      error: shown('.lm-error'),
      drawn: !(/** @type {HTMLElement} */ (section.querySelector('.lm-result')).hidden),
      tiles: Array.from(section.querySelectorAll('.lm-tile'), (tile) => ({
        head: /** @type {HTMLElement} */ (tile).dataset.head,
        kind: /** @type {HTMLElement} */ (tile).dataset.kind,
        score: Number(/** @type {HTMLElement} */ (tile).dataset.score),
        name: tile.querySelector('.lm-tile-pick')?.textContent,
        pressed: tile.querySelector('.lm-tile-pick')?.getAttribute('aria-pressed'),
        marked: tile.classList.contains('chosen'),
        drawn: Boolean(tile.querySelector('svg.heatmap-svg')),
      })),
      title: shown('.lm-chosen-title'),
      rows: table ? Array.from(table.querySelectorAll('tbody th'), (th) => th.textContent) : [],
      values: table
        ? Array.from(table.querySelectorAll('td'), (td) => Number(td.getAttribute('data-value')))
        : [],
      strongest: {
        text: shown('.lm-strongest'),
        row: Number(strongest.dataset.row),
        column: Number(strongest.dataset.column),
        weight: Number(strongest.dataset.weight),
      },
      induction: {
        text: shown('.lm-induction'),
        score: induction.dataset.score === undefined ? null : Number(induction.dataset.score),
      },
      next: shown('.lm-next')
        ? Array.from(section.querySelectorAll('.lm-next-item'), (item) => ({
            word: /** @type {HTMLElement} */ (item).dataset.word,
            probability: Number(/** @type {HTMLElement} */ (item).dataset.probability),
            label: item.querySelector('.lm-next-word')?.textContent,
            shown: item.querySelector('.lm-next-p')?.textContent,
          }))
        : [],
      facts: shown('.lm-facts'),
    };
  });
}

/**
 * Closes the large head's table (readFigure opens it), as a learner would: an open table may
 * scroll the figure's column.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
async function closeTables(page, id) {
  const details = page.locator(`#${id} .lm-tables details`);
  if (await details.evaluate((node) => /** @type {HTMLDetailsElement} */ (node).open)) {
    await details.locator('summary').click();
  }
}

/**
 * Checks that the figure shows what Node's model gives for its text and chosen head.
 * @param {Awaited<ReturnType<typeof readFigure>>} shown
 * @param {number} chosen
 * @param {string} [word]
 */
function assertMatchesModel(shown, chosen, word) {
  const want = expected(shown.text, chosen, word);
  const head = info.heads[chosen];
  assert.equal(shown.state, 'drawn');
  assert.equal(shown.tiles.length, info.heads.length, 'a small heatmap per head');
  shown.tiles.forEach((tile, i) => {
    const measured = info.heads[i];
    const { score, value } = keyScore(measured);
    assert.equal(tile.head, headName(measured));
    assert.equal(tile.kind, measured.kind);
    assert.equal(tile.score, value, `head ${tile.head}: its key score`);
    assert.equal(
      tile.name,
      `Head ${headName(measured)}: ${kindWords(measured.kind)}, ${scoreName(score)} score ` +
        formatScore(value),
    );
    assert.equal(tile.pressed, String(i === chosen), `head ${tile.head} pressed`);
    assert.equal(tile.marked, i === chosen, `head ${tile.head} marked`);
    assert.ok(tile.drawn, `head ${tile.head} is drawn`);
  });
  const { score, value } = keyScore(head);
  assert.equal(
    shown.title,
    `Head ${headName(head)}: ${kindWords(head.kind)} (${scoreName(score)} score ${formatScore(value)})`,
  );
  assert.deepEqual(shown.rows, want.tokens, 'one row per token the model read');
  assert.deepEqual(shown.values, want.weights, `head ${headName(head)}: the model's weights`);
  assert.deepEqual(
    { ...shown.strongest },
    {
      text: want.strongest.text,
      row: want.strongest.row,
      column: want.strongest.column,
      weight: want.strongest.weight,
    },
  );
  assert.deepEqual(
    shown.next.map(({ word: w, probability }) => ({ word: w, probability })),
    want.next.map(({ word: w, probability }) => ({ word: w ?? '', probability })),
    'the next words and their probabilities',
  );
  shown.next.forEach((item, i) => {
    assert.equal(item.label, nextWordLabel(want.next[i].word));
    assert.equal(item.shown, formatProbability(want.next[i].probability));
  });
  return want;
}

/** @param {string} id @returns {number} the head the slide draws large at first */
function firstHead(id) {
  const { props } = WHERE[id];
  if (props.head) return info.heads.findIndex((head) => headName(head) === props.head);
  return props.demo === 'induction' ? inductionHeadIndex(info.heads) : 0;
}

/**
 * How the slide sits in its frame: how far anything drawn reaches below .slide-main or scrolls
 * inside the figure's column, and how far the slide and the page scroll sideways.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function readFit(page, id) {
  return page.locator(`#${id}`).evaluate((section) => {
    const main = /** @type {Element} */ (section.querySelector('.slide-main'));
    const bottom = main.getBoundingClientRect().bottom;
    const scale = section.getBoundingClientRect().height / section.offsetHeight || 1;
    const boxes = section.querySelectorAll('.slide-main, .slide-text, .lm-output');
    const drawnNodes = [...main.querySelectorAll('*')].filter(
      (node) => !node.closest('details:not([open]) > :not(summary)'),
    );
    return {
      over: Math.max(
        ...[...boxes].map((box) => box.scrollHeight - box.clientHeight),
        ...drawnNodes.map((node) => (node.getBoundingClientRect().bottom - bottom) / scale),
      ),
      sideways: section.scrollWidth - section.clientWidth,
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      zoom: /** @type {HTMLElement} */ (section.querySelector('.slide-text')).style.zoom,
    };
  });
}

describe('the trained language model on its slides', () => {
  for (const { id, props, untrained, views } of SLIDES) {
    test(`${id}: the trained model is the view shown, with the model's own numbers`, async () => {
      await withFigure(id, async (page) => {
        const host = page.locator(`#${id} .widget-host`);
        assert.equal(await host.getAttribute('data-widget'), 'language-model');
        const checked = page.locator(`#${id} .figure-views input:checked`);
        assert.equal(await checked.getAttribute('value'), 'language-model');
        assert.deepEqual(await page.locator(`#${id} .figure-views label`).allTextContents(), views);
        assert.deepEqual(views.slice(0, 2), ['Trained model', 'Untrained']);
        const shown = await readFigure(page, id);
        assert.equal(shown.text, props.sentence);
        assert.equal(shown.status, null, 'nothing to say: the text is short');
        assertMatchesModel(shown, firstHead(id), props.word);
        if (props.word) {
          assert.equal(shown.strongest.row, shown.rows.indexOf(props.word), 'the word’s row');
        }
        assert.ok(shown.facts?.includes('Brown Corpus'), shown.facts ?? '');
        assert.equal(untrained in DRAWN, true, `${id} keeps its former figure as a view`);
      });
    });
  }

  test('typing a sentence redraws the heads with the model’s weights and next words', async () => {
    await withFigure(TYPED, async (page) => {
      const before = await readFigure(page, TYPED);
      const sentence = 'The dog ran along the bank because it was fast.';
      await page.locator(`#${TYPED} .lm-sentence`).fill(sentence);
      const shown = await readFigure(page, TYPED);
      assert.equal(shown.text, sentence);
      assert.notDeepEqual(shown.values, before.values, 'new text, new weights');
      assert.notDeepEqual(shown.next, before.next, 'new text, new next words');
      assertMatchesModel(shown, firstHead(TYPED), TYPED_WORD);
      assert.equal(await currentSlide(page), TYPED, 'typing keeps the slide');
    });
  });

  test('every head clicked is drawn large with its weights, marked, and kept in the address', async () => {
    await withFigure('self-attention', async (page) => {
      for (const [i, head] of info.heads.entries()) {
        await page.locator(`#self-attention .lm-tile[data-head="${headName(head)}"]`).click();
        assertMatchesModel(await readFigure(page, 'self-attention'), i, 'bank');
      }
      await page.locator('#self-attention .lm-tile[data-head="1.2"]').click();
      await page.waitForFunction(() => new URL(location.href).searchParams.get('head') === '1.2');
      await page.reload();
      await waitForSlide(page, 'self-attention');
      await drawn(page, 'self-attention');
      assertMatchesModel(await readFigure(page, 'self-attention'), 1, 'bank');
    });
  });

  test('a small head chosen with the keyboard is drawn large; the keys keep the slide', async () => {
    await withFigure('multi-head', async (page) => {
      const pick = page.locator('#multi-head .lm-tile[data-head="1.3"] .lm-tile-pick');
      await pick.focus();
      await page.keyboard.press('Enter');
      assert.equal(await pick.getAttribute('aria-pressed'), 'true', 'Enter chooses head 1.3');
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => document.activeElement?.closest('.lm-tile')?.dataset.head),
        '1.4',
        'Tab goes on to the next head: the small heatmaps are no stops of their own',
      );
      await page.keyboard.press('Space');
      assertMatchesModel(await readFigure(page, 'multi-head'), 3);
      await pick.focus();
      await page.keyboard.press('Enter');
      assertMatchesModel(await readFigure(page, 'multi-head'), 2);
      await page.keyboard.press('ArrowRight');
      assert.equal(await currentSlide(page), 'multi-head');
    });
  });

  test('Repeat random words writes seeded words twice and lights the induction head', async () => {
    await withFigure('multi-head', async (page) => {
      const button = page
        .locator('#multi-head')
        .getByRole('button', { name: 'Repeat random words' });
      const best = inductionHeadIndex(info.heads);
      for (const seed of [1, 2]) {
        await button.click();
        const shown = await readFigure(page, 'multi-head');
        assert.equal(shown.text, repeatedText(randomWords(seed)), `press ${seed}: its words`);
        const want = assertMatchesModel(shown, best);
        assert.equal(typeof want.induction, 'number');
        assert.equal(shown.induction.score, want.induction, 'the live score is the model’s');
        const score = /** @type {number} */ (want.induction);
        assert.ok(score >= INDUCTION_THRESHOLD, `head ${headName(info.heads[best])}: ${score}`);
        assert.equal(
          shown.induction.text,
          `Induction score of head ${headName(info.heads[best])} on this text: ` +
            `${formatScore(score)} (an induction head: 0.40 or above; it finds the repeat).`,
        );
      }
      // Another head on the same text: its own score, and the verdict only when it holds.
      for (const i of [0, 5]) {
        await page.locator(`#multi-head .lm-tile[data-head="${headName(info.heads[i])}"]`).click();
        const shown = await readFigure(page, 'multi-head');
        const want = assertMatchesModel(shown, i);
        const score = /** @type {number} */ (want.induction);
        assert.equal(shown.induction.score, score);
        const verdict = score >= INDUCTION_THRESHOLD ? 'it finds the repeat' : 'it does not';
        assert.ok(shown.induction.text?.endsWith(`${verdict}).`), shown.induction.text ?? '');
        assert.ok(shown.induction.text?.includes(`: ${formatScore(score)} (`));
      }
      // Text that is no run written twice has no induction score.
      await page.locator('#multi-head .lm-sentence').fill('The cat sat on the mat.');
      const plain = await readFigure(page, 'multi-head');
      assert.deepEqual(plain.induction, { text: null, score: null });
    });
  });

  test('empty text asks for a word; a long text says which 64 tokens the model reads', async () => {
    await withFigure(TYPED, async (page) => {
      const box = page.locator(`#${TYPED} .lm-sentence`);
      await box.fill('   ');
      const empty = await readFigure(page, TYPED);
      assert.equal(empty.state, 'empty');
      assert.match(empty.status ?? '', PROMPT);
      assert.equal(empty.drawn, false);
      assert.deepEqual(empty.next, [], 'no next words for no text');
      assert.equal(empty.error, null);

      await box.fill(LONG);
      const long = await readFigure(page, TYPED);
      assert.equal(
        long.status,
        `The model reads the last ${info.context} of ${LONG_WORDS} tokens.`,
      );
      assert.equal(long.rows.length, info.context);
      assertMatchesModel(long, firstHead(TYPED), TYPED_WORD);
      await closeTables(page, TYPED);
      const fit = await readFit(page, TYPED);
      assert.ok(fit.over <= 0, `64 tokens: the slide spills ${fit.over}px out of its frame`);

      await box.fill('The zzqxv sat down.');
      const odd = await readFigure(page, TYPED);
      assertMatchesModel(odd, firstHead(TYPED), TYPED_WORD);
      assert.match(
        (await page.locator(`#${TYPED} .lm-unknown`).textContent()) ?? '',
        /^Not in the model’s vocabulary: “zzqxv”\./,
      );
    });
  });

  for (const { id, props, untrained } of SLIDES) {
    test(`${id}: Untrained mounts the former figure; the trained view keeps its text`, async () => {
      await withFigure(id, async (page) => {
        await page.locator(`#${id} .lm-sentence`).fill('Birds sing at dawn.');
        await afterFrame(page);
        await page.locator(`#${id} .figure-views label`, { hasText: 'Untrained' }).click();
        const host = page.locator(`#${id} .widget-host`);
        await page.locator(`#${id} ${DRAWN[untrained]}`).first().waitFor({ timeout: TIMEOUT });
        assert.equal(await host.getAttribute('data-widget'), untrained);
        assert.equal(await page.locator(`#${id} .lm`).count(), 0, 'the trained view lets go');
        await page.waitForFunction(
          ([slide, type]) =>
            new URL(location.href).searchParams.get('show') === type &&
            new URL(location.href).searchParams.get('figure') === slide,
          [id, untrained],
        );
        await page.locator(`#${id} .figure-views label`, { hasText: 'Trained model' }).click();
        await drawn(page, id);
        const back = await readFigure(page, id);
        assert.equal(back.text, 'Birds sing at dawn.');
        assertMatchesModel(back, firstHead(id), props.word);
      });
    });
  }

  test('the model is fetched once per page, from its own origin, however many slides show it', async () => {
    const session = await openPage(site.browser());
    try {
      await session.page.goto(`${site.url()}index.html#/title`);
      for (const { id } of SLIDES) {
        await session.page.evaluate((slide) => {
          location.hash = `#/${slide}`;
        }, id);
        await waitForSlide(session.page, id);
        await drawn(session.page, id);
        assert.equal(await session.page.locator(`#${id} .lm`).getAttribute('data-state'), 'drawn');
      }
      const fetched = (file) => session.log.requests.filter((url) => url.endsWith(file));
      assert.equal(fetched('models/brown-lm.bin').length, 1, 'the weights, once');
      assert.equal(fetched('models/brown-lm.json').length, 1, 'the report, once');
      assertClean(session.log, site.origin());
    } finally {
      await session.close();
    }
  });

  test('a model that cannot be fetched gets a message, and Untrained still works', async () => {
    const session = await openPage(site.browser());
    try {
      await session.page.route('**/models/brown-lm.bin', (route) => route.abort());
      await session.page.goto(`${site.url()}index.html#/${TYPED}`);
      const alert = session.page.locator(`#${TYPED}`).getByRole('alert');
      await alert
        .getByText(/trained language model could not be loaded/)
        .waitFor({ timeout: TIMEOUT });
      assert.match((await alert.textContent()) ?? '', /reload the page/);
      // The host says it in one alert, in place of the figure and of its loading line.
      const host = session.page.locator(`#${TYPED} .widget-host`);
      assert.equal(await host.locator('.lm').count(), 0, 'no figure without its model');
      assert.equal(await host.getByRole('status').count(), 0, 'no loading line left');
      assert.equal(await host.getByRole('alert').count(), 1, 'one alert');
      await session.page.locator(`#${TYPED} .figure-views label`, { hasText: 'Untrained' }).click();
      await session.page
        .locator(`#${TYPED} ${DRAWN[WHERE[TYPED].untrained]}`)
        .first()
        .waitFor({ timeout: TIMEOUT });
      assertOnlyAbortedLoads(session.log);
    } finally {
      await session.close();
    }
  });

  for (const { id } of SLIDES) {
    test(`${id}: fits 1280 x 720, its repeated words too, and a phone scrolls nothing sideways`, async () => {
      await withFigure(
        id,
        async (page) => {
          for (const step of ['as it comes', 'repeated words']) {
            if (step === 'repeated words') {
              await page
                .locator(`#${id}`)
                .getByRole('button', { name: 'Repeat random words' })
                .click();
              await afterFrame(page);
            }
            const fit = await readFit(page, id);
            assert.ok(fit.over <= 0, `${id}, ${step}: the slide spills ${fit.over}px`);
            assert.equal(fit.sideways, 0, `${id}, ${step}: sideways`);
            assert.equal(fit.zoom, '', `${id}, ${step}: the text is not shrunk`);
          }
        },
        { viewport: { width: 1280, height: 720 } },
      );
      await withFigure(
        id,
        async (page) => {
          await page.locator(`#${id}`).getByRole('button', { name: 'Repeat random words' }).click();
          const shown = await readFigure(page, id);
          assert.equal(shown.state, 'drawn');
          // The open table scrolls in its own box, the page never sideways.
          const fit = await readFit(page, id);
          assert.equal(fit.sideways, 0, `${id} on a phone: the slide scrolls sideways`);
          assert.equal(fit.page, 0, `${id} on a phone: the page scrolls sideways`);
        },
        { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
      );
    });
  }

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`axe finds nothing, with repeated words and the table open (${colorScheme})`, async () => {
      await withFigure(
        'multi-head',
        async (page) => {
          await page
            .locator('#multi-head')
            .getByRole('button', { name: 'Repeat random words' })
            .click();
          await readFigure(page, 'multi-head');
          await page.locator('#multi-head .lm-map [tabindex="0"]').focus();
          await page.keyboard.press('ArrowRight');
          assert.deepEqual(await axeFindings(page, colorScheme, '#multi-head'), []);
        },
        { colorScheme },
      );
    });
  }
});
