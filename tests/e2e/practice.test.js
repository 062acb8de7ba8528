// End-to-end tests of the practice page and the deck's knowledge check: a production build served
// on 127.0.0.1, driven in a headless browser. Run with `npm run test:e2e`.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { loadTranslator } from 'attention-lab';
import { loadLesson } from '../../web/build/content.js';
import { axeFindings } from './axe.js';
import { assertClean, currentSlide, openPage, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const lesson = loadLesson(fileURLToPath(new URL('../../slides/attention/', import.meta.url)));
const items = lesson.quiz.items;
const translator = await loadTranslator();
/** Where the screenshots go, for a person to look at (the build folder is not committed). */
const SHOTS = fileURLToPath(new URL('../../build/screenshots/', import.meta.url));
mkdirSync(SHOTS, { recursive: true });

const site = useSite();

/**
 * Opens the practice page, waits until every item is ready, runs `body`, then checks that the
 * page logged no error, opened no dialog and asked nothing of any other origin.
 * @param {(page: import('playwright-core').Page) => Promise<void>} body
 * @param {import('./browser.js').PageOptions} [options] passed to openPage
 */
function withPractice(body, options) {
  return site.visit(
    'practice.html',
    async (page) => {
      await page.locator('.practice-item .quiz').first().waitFor({ timeout: TIMEOUT });
      await page.waitForFunction(() => !document.querySelector('.practice-item .status'), {
        timeout: TIMEOUT,
      });
      await body(page);
    },
    options,
  );
}

/** @param {import('playwright-core').Page} page @param {string} id */
const card = (page, id) => page.locator(`.practice-item[data-item="${id}"]`);

/** The first static item and the first live one. */
const staticItem = items.find((item) => !item.generator);
const liveItems = items.filter((item) => item.generator);

describe('the practice page', () => {
  test('shows every item, grouped by slide in lesson order, each linked to its slide', async () => {
    await withPractice(async (page) => {
      const ids = await page
        .locator('.practice-item')
        .evaluateAll((cards) => cards.map((c) => /** @type {HTMLElement} */ (c).dataset.item));
      assert.deepEqual([...ids].sort(), items.map((item) => item.id).sort(), 'every item');

      const order = lesson.slides.map((slide) => slide.id);
      const expected = order
        .filter((id) => items.some((item) => item.slide === id))
        .map((id) => lesson.slides.find((slide) => slide.id === id).title);
      const headings = await page.locator('.practice-group-title').allInnerTexts();
      assert.deepEqual(headings, expected, 'groups in lesson order, named by slide title');

      for (const item of items) {
        const link = card(page, item.id).getByRole('link', { name: /Where this is taught/ });
        assert.equal(await link.getAttribute('href'), `index.html#/${item.slide}`);
      }
      const nav = page.getByRole('navigation', { name: 'Lesson' });
      assert.equal(
        await nav.getByRole('link', { name: /slides/ }).getAttribute('href'),
        'index.html',
      );
      assert.equal(
        await nav.getByRole('link', { name: /article/ }).getAttribute('href'),
        'article.html',
      );
      assert.equal(
        await page.locator('.practice-item .quiz-question legend').count(),
        items.length,
      );
      assert.equal(await page.locator('#status').isVisible(), false, 'the loading line is gone');
    });
  });

  test('a wrong answer and a right one are both explained and scored', async () => {
    await withPractice(async (page) => {
      const item = card(page, staticItem.id);
      await item.getByRole('button', { name: 'Check' }).click();
      await item.getByText('Choose an answer first.').waitFor({ timeout: TIMEOUT });
      const wrong = (staticItem.answer + 1) % staticItem.choicesHtml.length;
      await item.getByRole('radio').nth(wrong).check();
      await item.getByRole('button', { name: 'Check' }).click();
      const feedback = item.getByRole('status');
      await feedback.getByText('Not quite.').waitFor({ timeout: TIMEOUT });
      assert.ok((await item.locator('.quiz-explanation').innerText()).length > 20);
      assert.match(await item.locator('.quiz-choice.is-wrong').innerText(), /Your answer/);
      assert.match(await item.locator('.quiz-choice.is-correct').innerText(), /Correct answer/);
      assert.equal(await item.getByRole('radio').first().isDisabled(), true);
      assert.match(await page.locator('#score').innerText(), /^Score 0 \/ 1\b/);

      // Try again, and answer right this time.
      await item.getByRole('button', { name: 'Try again' }).click();
      assert.equal(await item.locator('.quiz-feedback').innerText(), '');
      await item.getByRole('radio').nth(staticItem.answer).check();
      await item.getByRole('button', { name: 'Check' }).click();
      await feedback.getByText('Correct.').waitFor({ timeout: TIMEOUT });
      assert.ok((await item.locator('.quiz-explanation').innerText()).length > 20);
      assert.match(await page.locator('#score').innerText(), /^Score 1 \/ 1\b/);
      await item.screenshot({ path: path.join(SHOTS, 'practice-answered.png') });
    });
  });

  test('a live item draws new numbers after Try again', async () => {
    await withPractice(async (page) => {
      for (const { id } of liveItems) {
        const item = card(page, id);
        assert.match(await item.locator('legend').innerText(), /live numbers/i);
        const before = await item.locator('.quiz-question').innerText();
        await item.getByRole('radio').first().check();
        await item.getByRole('button', { name: 'Check' }).click();
        await item.locator('.quiz-explanation').waitFor({ timeout: TIMEOUT });
        // The engine's numbers, or the trained model's (whose questions say so).
        assert.match(await item.locator('.quiz-explanation').innerText(), /engine|model/);
        await item.screenshot({ path: path.join(SHOTS, `practice-${id}.png`) });
        await item.getByRole('button', { name: 'Try again' }).click();
        const after = await item.locator('.quiz-question').innerText();
        assert.notEqual(after, before, `${id} has new numbers`);
        assert.equal(await item.getByRole('radio').first().isChecked(), false);
      }
    });
  });

  test('works from the keyboard, and no key inside a question reaches the page', async () => {
    await withPractice(async (page) => {
      await page.evaluate(() => {
        window.__leaked = [];
        document.addEventListener('keydown', (event) => window.__leaked.push(event.key));
      });
      const item = card(page, staticItem.id);
      await item.getByRole('radio').first().focus();
      await page.keyboard.press('Space');
      for (let i = 0; i < staticItem.answer; i += 1) await page.keyboard.press('ArrowDown');
      assert.equal(await item.getByRole('radio').nth(staticItem.answer).isChecked(), true);
      await page.keyboard.press('End');
      await page.keyboard.press('Home');
      await page.keyboard.press('j');
      for (let i = 0; i < staticItem.answer; i += 1) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await item.getByRole('status').getByText('Correct.').waitFor({ timeout: TIMEOUT });
      // Focus moved to the next action, which Enter activates.
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Try again');
      await page.keyboard.press('Enter');
      assert.equal(await item.locator('.quiz-feedback').innerText(), '');
      assert.deepEqual(await page.evaluate(() => window.__leaked), []);
    });
  });

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`has no accessibility violations, answered or not (${colorScheme})`, async () => {
      await withPractice(
        async (page) => {
          for (const [i, item] of items.slice(0, 12).entries()) {
            const quiz = card(page, item.id);
            await quiz
              .getByRole('radio')
              .nth(i % 2)
              .check();
            await quiz.getByRole('button', { name: 'Check' }).click();
          }
          assert.deepEqual(await axeFindings(page, colorScheme), []);
        },
        { colorScheme },
      );
    });
  }

  test('fits a 360 px phone screen in the dark scheme, tables included', async () => {
    await withPractice(
      async (page) => {
        for (const { id } of liveItems) {
          const live = card(page, id);
          await live.getByRole('radio').nth(1).check();
          await live.getByRole('button', { name: 'Check' }).click();
          await live.locator('.quiz-explanation').waitFor({ timeout: TIMEOUT });
          const scrolls = await live
            .locator('.quiz-scroll')
            .evaluateAll((els) => els.map((el) => el.scrollWidth - el.clientWidth));
          assert.ok(
            scrolls.every((extra) => extra <= 0),
            `${id}: tables fit (${scrolls})`,
          );
          await live.screenshot({ path: path.join(SHOTS, `practice-360-dark-${id}.png`) });
        }
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.equal(overflow, 0, 'no sideways scrolling of the page');
        const background = await page.evaluate(
          () => getComputedStyle(document.body).backgroundColor,
        );
        assert.notEqual(background, 'rgb(245, 246, 248)', 'the dark scheme is applied');
      },
      { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    );
  });

  test('without WebAssembly the live items say why, and the others still work', async () => {
    const session = await openPage(site.browser(), {
      initScript: () => {
        delete globalThis.WebAssembly;
      },
    });
    try {
      await session.page.goto(new URL('practice.html', site.url()).href);
      const alert = session.page.getByRole('alert');
      await alert.getByText(/need WebAssembly/).waitFor({ timeout: TIMEOUT });
      for (const { id } of liveItems) {
        assert.match(await card(session.page, id).innerText(), /needs the attention engine/);
      }
      const item = card(session.page, staticItem.id);
      await item.getByRole('radio').nth(staticItem.answer).check();
      await item.getByRole('button', { name: 'Check' }).click();
      await item.getByText('Correct.').waitFor({ timeout: TIMEOUT });
      assert.deepEqual(session.log.pageErrors, []);
    } finally {
      await session.close();
    }
  });
});

/**
 * The right choice of one of the check's live questions, worked out from what it shows: for the
 * translator's, the same model in Node translates the sentence and the English word its German
 * word weighs most is the answer; for the language model's, the table of one head's weights from
 * a word of the second copy (the last row is that word).
 * @param {import('playwright-core').Locator} quiz
 * @param {{ generator: string }} item
 * @returns {Promise<number>}
 */
async function liveAnswer(quiz, item) {
  const choices = await quiz.locator('.quiz-choice-text').allInnerTexts();
  if (item.generator === 'attended-word') {
    const prompt = await quiz.locator('.quiz-prompt').innerText();
    const [, english, t] = /translates “([^”]+)” as “[^”]+”\. Writing German word (\d+)/.exec(
      prompt,
    );
    const run = translator.translate(english);
    const n = run.source.length;
    const row = Array.from(run.weights.subarray((Number(t) - 1) * n, Number(t) * n));
    const index = choices.indexOf(run.source[row.indexOf(Math.max(...row))]);
    assert.ok(index >= 0, 'a choice is the word weighed most');
    return index;
  }
  assert.equal(item.generator, 'induction-head', 'the check\u2019s other live question');
  const weights = (await quiz.locator('.quiz-prompt table tbody tr td').allInnerTexts()).map(
    Number,
  );
  const query = weights.length - 1;
  const top = weights.indexOf(Math.max(...weights));
  const pattern =
    top === query - 1
      ? /word just before/
      : top === 0
        ? /first word/
        : top === query
          ? /this word itself/
          : /earlier copy/;
  const index = choices.findIndex((text) => pattern.test(text));
  assert.ok(index >= 0, `a choice says ${pattern}`);
  return index;
}

describe('the knowledge check in the deck', () => {
  test('answering with the keyboard never moves the slides, and progress survives a detour', async () => {
    const session = await openPage(site.browser());
    const { page } = session;
    try {
      await page.goto(new URL('index.html#/knowledge-check', site.url()).href);
      const quiz = page.locator('section#knowledge-check .quiz');
      await quiz.waitFor({ timeout: TIMEOUT });
      const first = items.find((item) => item.id === lesson.quiz.check[0]);
      const count = lesson.quiz.check.length;
      assert.match(
        await quiz.locator('legend').innerText(),
        new RegExp(`Question 1 of ${count}`, 'i'),
      );

      await quiz.getByRole('radio').first().focus();
      for (const key of ['ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowLeft', 'Space', 'n', 'End']) {
        await page.keyboard.press(key);
      }
      assert.equal(await currentSlide(page), 'knowledge-check', 'still on the slide');
      await quiz.getByRole('radio').nth(first.answer).check();
      await page.keyboard.press('Enter');
      await quiz.getByRole('status').getByText('Correct.').waitFor({ timeout: TIMEOUT });
      await page.keyboard.press('Enter'); // Next question
      assert.match(
        await quiz.locator('legend').innerText(),
        new RegExp(`Question 2 of ${count}`, 'i'),
      );
      assert.equal(await currentSlide(page), 'knowledge-check', 'still on the slide');

      // Leave the slide and come back: the session is where it was.
      await page.evaluate(() => {
        location.hash = '#/summary';
      });
      await waitForSlide(page, 'summary');
      await page.waitForFunction(() => !document.querySelector('section#knowledge-check .quiz'));
      await page.evaluate(() => {
        location.hash = '#/knowledge-check';
      });
      await waitForSlide(page, 'knowledge-check');
      await quiz.waitFor({ timeout: TIMEOUT });
      assert.match(
        await quiz.locator('legend').innerText(),
        new RegExp(`Question 2 of ${count}`, 'i'),
      );
      assert.match(await quiz.locator('.quiz-score').innerText(), /Score 1 \/ 1/);
      await page.screenshot({ path: path.join(SHOTS, 'knowledge-check.png') });

      // The rest, then the summary, then a fresh start.
      for (const id of lesson.quiz.check.slice(1)) {
        const item = items.find((it) => it.id === id);
        const answer = 'generator' in item ? await liveAnswer(quiz, item) : item.answer;
        await quiz.getByRole('radio').nth(answer).check();
        await quiz.getByRole('button', { name: 'Check' }).click();
        await quiz.locator('.quiz-explanation').waitFor({ timeout: TIMEOUT });
        await quiz.locator('.quiz-next').click();
      }
      const summary = `You have answered all ${count} questions: ${count} right.`;
      await quiz.getByRole('status').getByText(summary).waitFor({ timeout: TIMEOUT });
      assert.equal(await quiz.locator('fieldset').isVisible(), false);
      await quiz.getByRole('button', { name: 'Try again' }).click();
      assert.match(
        await quiz.locator('legend').innerText(),
        new RegExp(`Question 1 of ${count}`, 'i'),
      );
      assert.match(await quiz.locator('.quiz-score').innerText(), /Score 0 \/ 0/);
      assert.equal(await currentSlide(page), 'knowledge-check', 'still on the slide');
      assertClean(session.log, site.origin());
    } finally {
      await session.close();
    }
  });
});
