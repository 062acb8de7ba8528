// What every figure of a translator does with a sentence nobody would translate, checked the same
// way for each: an empty one gets the figure's prompt, 5,000 words are cut to the first 64 tokens
// with a line that says so, and markup with odd Unicode is text, whose tokens become the matrix's
// columns, and runs no script. A lone surrogate cannot reach an input box (the browser makes it
// U+FFFD); the engine's own tests give it one directly.
import assert from 'node:assert/strict';

const TIMEOUT = 20_000;

/**
 * @param {import('playwright-core').Page} page
 * @param {string} slide the slide's selector, e.g. '#heads'
 * @param {string} prefix the widget's class prefix: its root `.${prefix}`, its sentence box, status
 *   line, notes and matrix tables `.${prefix}-sentence`, `-status`, `-unknown` and `-tables`
 */
export async function assertBadSentences(page, slide, prefix) {
  const root = `${slide} .${prefix}`;
  const input = page.locator(`${slide} .${prefix}-sentence`);
  const state = () => page.locator(root).getAttribute('data-state');
  await input.fill('   ');
  await page.waitForFunction(
    (scope) => document.querySelector(scope)?.getAttribute('data-state') === 'empty',
    root,
    { timeout: TIMEOUT },
  );
  assert.match((await page.locator(`${slide} .${prefix}-status`).textContent()) ?? '', /Type/);

  await input.fill(Array.from({ length: 5000 }, (_, i) => `word${i % 7}`).join(' '));
  await page.waitForFunction(
    (notes) => /read the first 64 of 5000/.test(document.querySelector(notes)?.textContent ?? ''),
    `${slide} .${prefix}-unknown`,
    { timeout: TIMEOUT },
  );
  assert.equal(await state(), 'drawn');

  await input.fill('<img src=x onerror="window.ran=1"><script>window.ran=1</script> \u202e Ω');
  await page.waitForFunction(
    (tables) => {
      const words = Array.from(
        document.querySelectorAll(`${tables} thead th`),
        (th) => th.textContent,
      );
      return words.includes('onerror') && words.includes('script') && words.includes('ω');
    },
    `${slide} .${prefix}-tables`,
    { timeout: TIMEOUT },
  );
  assert.equal(await state(), 'drawn');
  assert.equal(await page.evaluate(() => window['ran']), undefined, 'no script ran');
}
