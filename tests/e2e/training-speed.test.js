// End-to-end test of the timing figure in Chromium (lesson 2's recurrence slide): its first view
// builds lesson 1's attention translator and the Transformer in the page's worker; Start times
// their steps in turn, and both rates appear as positive numbers, as words and as two bars, with
// the batch and the sizes named; Stop stops the steps (the worker's own reports say so, up to the
// moment its loop goes idle); axe finds nothing on the figure; nothing is logged to the console. What the rates are is printed,
// never asserted: they are this machine's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { axeFindings } from './axe.js';
import { openTables, useSite, waitForSlide } from './browser.js';
import { recordReports, reportsUntilIdle, waitForPausedReport } from './worker-reports.js';

/** Generous: the two models are built, and a step of each takes seconds on a loaded machine. */
const TIMEOUT = 240_000;
const SCOPE = '#recurrence';
const site = useSite();

/**
 * The number a rate line starts with after the model's name: its steps per second.
 * @param {string} text
 */
const stepsPerSecond = (text) => Number(/: ([\d.]+) steps\/s/.exec(text)?.[1] ?? NaN);

describe('timing the translators on the recurrence slide', { timeout: 2 * TIMEOUT }, () => {
  test('Start shows both rates as positive numbers, Stop stops the steps', async (t) => {
    await site.visit('index.html?lesson=transformer#/recurrence', async (page) => {
      await waitForSlide(page, 'recurrence');
      const go = page.locator(`${SCOPE} .ts-go`);
      // Ready once the worker has built both models: their sizes are named.
      await page.locator(`${SCOPE} .ts-go:not([disabled])`).waitFor({ timeout: TIMEOUT });
      assert.equal(await go.textContent(), 'Start');
      const what = (await page.locator(`${SCOPE} .ts-what`).textContent()) ?? '';
      assert.match(what, /1\.3 million parameters/);
      assert.match(what, /3\.6 million parameters/);
      assert.match(what, /the same 64 English\u2013German sentence pairs/);
      assert.match(
        (await page.locator(`${SCOPE} .ts-note`).textContent()) ?? '',
        /not a claim about graphics processors/,
      );
      const rates = page.locator(`${SCOPE} .ts-rate`);
      assert.deepEqual(await rates.allTextContents(), [
        "Lesson 1's attention translator: not timed yet.",
        'The Transformer: not timed yet.',
      ]);
      const [worker] = page.workers();
      assert.ok(worker, 'the training worker is running');
      await recordReports(worker);

      await go.click();
      assert.equal(await go.textContent(), 'Stop');
      await page.waitForFunction(
        (s) =>
          [...document.querySelectorAll(`${s} .ts-rate`)].every(
            (line) => Number(/** @type {HTMLElement} */ (line).dataset.stepsPerSecond) > 0,
          ),
        SCOPE,
        { timeout: TIMEOUT, polling: 250 },
      );
      const shown = await rates.allTextContents();
      t.diagnostic(shown.join(' '));
      for (const text of shown) {
        assert.ok(stepsPerSecond(text) > 0, text);
        assert.match(
          text,
          /steps\/s, [\d.]+ pairs\/s \([\d.]+ s a step, (1 step|median of \d+ steps)\)\.$/,
        );
      }
      // The bars: one per model, their values the rates the lines give (their table's).
      await page.locator(`${SCOPE} .ts-bars details`).waitFor({ timeout: TIMEOUT });
      await openTables(page, `${SCOPE} .ts-bars details`);
      const bars = await page.locator(`${SCOPE} .ts-bars table`).evaluate((table) => ({
        labels: Array.from(table.querySelectorAll('tbody th'), (th) => th.textContent),
        values: Array.from(table.querySelectorAll('tbody td'), (td) => Number(td.dataset.value)),
      }));
      assert.deepEqual(bars.labels, ['RNN', 'Transformer']);
      assert.ok(
        bars.values.every((value) => value > 0),
        JSON.stringify(bars),
      );
      assert.equal(await page.locator(`${SCOPE} .ts-bars svg rect.chart-bar`).count(), 2);

      await go.click();
      const paused = await waitForPausedReport(worker);
      const after = await reportsUntilIdle(worker, paused.index);
      assert.ok(
        after.every((report) => report.status !== 'running' && report.steps === paused.steps),
        `no step after Stop: ${JSON.stringify(after)}`,
      );
      await page.waitForFunction(
        (s) => document.querySelector(`${s} .ts-figure`)?.getAttribute('data-status') === 'paused',
        SCOPE,
        { timeout: TIMEOUT },
      );
      assert.equal(await go.textContent(), 'Start');
      assert.match(
        (await page.locator(`${SCOPE} .ts-status`).textContent()) ?? '',
        /^Stopped after \d+ steps of each\.$/,
      );
      // The stopped figure, its bars and its table open, as axe reads it.
      assert.deepEqual(await axeFindings(page, 'light', `${SCOPE} .widget-training-speed`), []);
    });
  });
});
