// End-to-end tests of the title slide's heatmap (its figure's Untrained view, which the address
// names) in its second view: one token's weights drawn as lines to every token. Choosing Lines and a token shows that token's row, with the engine's own numbers
// (recomputed here in Node); clicking a token on the left picks it; the causal mask hides the
// later tokens; the choice survives leaving the slide; axe finds nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import { vocabularyOf } from '../../web/src/text/embed.js';
import { tokenize } from '../../web/src/text/tokenize.js';
import { selfAttention } from '../../web/src/widgets/shared/self-attention.js';
import { axeFindings } from './axe.js';
import { useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const SLIDE = '#title';
/** The deck on the title slide with its heatmap shown. */
const TITLE_HEATMAP = 'index.html?figure=title&show=heatmap#/title';
const engine = await loadEngine();
engine.loadEmbeddings(
  readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
);
const site = useSite();

/**
 * Row `from` of the weights the engine gives for the sentence.
 * @param {string} sentence
 * @param {number} from
 * @param {boolean} causal
 */
function expectedRow(sentence, from, causal) {
  const tokens = tokenize(sentence, { known: vocabularyOf(engine) });
  const { weights } = selfAttention(engine, tokens, causal);
  const n = tokens.length;
  return { tokens, row: Array.from(weights.slice(from * n, (from + 1) * n)) };
}

/** @param {import('playwright-core').Page} page */
function readLines(page) {
  return page.locator(`${SLIDE} .hm-lines`).evaluate((box) => ({
    from: box.querySelector('.token-lines-query.active')?.textContent,
    lines: box.querySelectorAll('.token-line').length,
    keys: Array.from(box.querySelectorAll('tbody th'), (th) => th.textContent),
    values: Array.from(box.querySelectorAll('tbody td'), (td) => Number(td.dataset.value)),
    texts: Array.from(box.querySelectorAll('tbody td'), (td) => td.textContent),
    label: box.querySelector('svg').getAttribute('aria-label'),
  }));
}

/** @param {import('playwright-core').Page} page */
async function showLines(page) {
  await waitForSlide(page, 'title');
  await page.locator(`${SLIDE} .hm-figure svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
  await page.locator(SLIDE).getByRole('radio', { name: 'Lines' }).check();
  await page.locator(`${SLIDE} .hm-lines svg`).waitFor({ timeout: TIMEOUT });
}

describe('the title slide as lines from one token', () => {
  test('a chosen token shows its row of weights, the engine’s numbers, as lines', async () => {
    await site.visit(TITLE_HEATMAP, async (page) => {
      await showLines(page);
      const sentence = await page.locator(`${SLIDE} .hm-sentence`).inputValue();
      const from = 8;
      await page.locator(SLIDE).getByRole('combobox', { name: 'From' }).selectOption(String(from));
      await page.waitForFunction(
        (i) => document.querySelector('#title .hm-from')?.value === String(i),
        from,
      );
      const shown = await readLines(page);
      const { tokens, row } = expectedRow(sentence, from, false);
      assert.equal(shown.from, tokens[from]);
      assert.deepEqual(shown.keys, tokens);
      assert.equal(shown.lines, tokens.length);
      shown.values.forEach((value, j) => assert.ok(Math.abs(value - row[j]) < 1e-6, `key ${j}`));
      const top = row.indexOf(Math.max(...row));
      assert.match(shown.label, new RegExp(`attends most to \u201c${tokens[top]}\u201d`));
      assert.equal(await page.locator(`${SLIDE} .hm-figure svg`).count(), 0, 'the grid is gone');
    });
  });

  test('clicking a token picks it; the causal mask leaves lines only to earlier tokens', async () => {
    await site.visit(TITLE_HEATMAP, async (page) => {
      await showLines(page);
      await page.locator(`${SLIDE} .token-lines-query`).nth(3).click();
      await page.waitForFunction(() => document.querySelector('#title .hm-from')?.value === '3');
      await page.locator(SLIDE).getByRole('checkbox', { name: 'Causal mask' }).check();
      await page.waitForFunction(
        () => document.querySelectorAll('#title .token-line').length === 4,
      );
      const sentence = await page.locator(`${SLIDE} .hm-sentence`).inputValue();
      const { row } = expectedRow(sentence, 3, true);
      const shown = await readLines(page);
      assert.equal(
        shown.values.slice(4).every((value) => value === 0),
        true,
      );
      assert.ok(shown.texts.slice(4).every((text) => text.startsWith('masked')));
      shown.values.slice(0, 4).forEach((value, j) => assert.ok(Math.abs(value - row[j]) < 1e-6));
    });
  });

  test('the view and the token survive leaving the slide; axe finds nothing', async () => {
    await site.visit(TITLE_HEATMAP, async (page) => {
      await showLines(page);
      await page.locator(SLIDE).getByRole('combobox', { name: 'From' }).selectOption('2');
      await page.keyboard.press('Escape');
      await page.evaluate(() => {
        location.hash = '#/bottleneck';
      });
      await waitForSlide(page, 'bottleneck');
      await page.evaluate(() => {
        location.hash = '#/title';
      });
      await waitForSlide(page, 'title');
      await page.locator(`${SLIDE} .hm-lines svg`).waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator(`${SLIDE} .hm-from`).inputValue(), '2');
      await page.locator(`${SLIDE} .hm-lines details summary`).click();
      assert.deepEqual(await axeFindings(page, 'light', SLIDE), []);
    });
  });
});
