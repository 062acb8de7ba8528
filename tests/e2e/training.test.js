// End-to-end tests of the training lab in Chromium. On each of its three slides the figure's
// second view trains in the page's worker: Start, the loss falls (its table's numbers equal the
// engine's losses for the same options, recomputed here in Node), the attention map changes as the
// model learns (cross-attention), Pause stops the steps and measures the models there (the same
// accuracies as the engine's), and through it all no main-thread task takes over 50 ms and another
// control answers a click. Leaving the slide pauses the run, coming back resumes it with its
// curves; the view goes into the address and a copied link reopens it; the Figure menu saves the
// view shown; the view's keys never move the slides; bad seeds and rates get a message; a worker
// that cannot start says so; axe finds nothing on the views, light and dark; each fits its slide
// at 1280 x 720 and a phone's width; the article offers the same views.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import {
  EXPERIMENTS,
  LENGTHS,
  SAMPLES,
  lossBucket,
  runSpec,
} from '../../web/src/widgets/training/experiments.js';
import { axeFindings } from './axe.js';
import { currentSlide, readChart, useSite, waitForSlide } from './browser.js';
import { taskWatch } from './long-tasks.js';
import { recordReports, reportsUntilIdle, waitForPausedReport } from './worker-reports.js';

const TIMEOUT = 30_000;
const engine = await loadEngine();
const site = useSite();
const { watchTasks, longTasks } = taskWatch(site);

/** The three slides and the experiment each one's second view trains. */
const SLIDES = [
  { id: 'bottleneck', experiment: 'bottleneck' },
  { id: 'why-scale', experiment: 'scaling' },
  { id: 'cross-attention', experiment: 'alignment' },
];

/**
 * Opens the deck on a slide and switches its figure to the training view.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
async function openTraining(page, id) {
  await waitForSlide(page, id);
  await page.locator(`#${id} .widget-area`).waitFor({ timeout: TIMEOUT });
  await page
    .locator(`#${id} .figure-views`)
    .getByRole('radio', { name: /Trained model/ })
    .check();
  await page.locator(`#${id} .tr-go:not([disabled])`).waitFor({ timeout: TIMEOUT });
}

/**
 * The figure's status, steps, the step of its latest evaluation and its button's label.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function readState(page, id) {
  return page.locator(`#${id}`).evaluate((slide) => {
    const figure = /** @type {HTMLElement} */ (slide.querySelector('.tr-figure'));
    return {
      status: figure.dataset.status,
      steps: Number(figure.dataset.steps),
      evaluated: Number(figure.dataset.evaluated || -1),
      button: slide.querySelector('.tr-go')?.textContent,
      progress: Number(slide.querySelector('progress')?.getAttribute('value')),
    };
  });
}

/**
 * Waits until the loss table shows at least `points` points and every model's last point below
 * its first.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {number} points
 */
function waitForFallingLoss(page, id, points) {
  return page.waitForFunction(
    ([slide, count]) => {
      const rows = Array.from(document.querySelectorAll(`#${slide} .tr-loss tbody tr`), (tr) =>
        Array.from(tr.querySelectorAll('td'), (td) => Number(td.dataset.value)),
      );
      if (rows.length < count) return false;
      return rows[0].every((first, model) => rows[rows.length - 1][model] < first);
    },
    [id, points],
    { timeout: 60_000 },
  );
}

/**
 * The weights of the attention map, as its table lists them (the table is built while open).
 * @param {import('playwright-core').Page} page
 */
function readMap(page) {
  return page
    .locator('#cross-attention .tr-map table')
    .evaluate((table) =>
      Array.from(table.querySelectorAll('tbody td'), (td) => Number(td.dataset.value)),
    );
}

/**
 * The engine's numbers for an experiment trained `steps` steps: each model's loss curve (bucket
 * means, as the figure averages them) and its accuracy per length.
 * @param {string} key
 * @param {number} steps
 */
function engineRun(key, steps) {
  const experiment = EXPERIMENTS[key];
  const spec = runSpec(experiment, { seed: 1, learningRate: 0.003, mapLength: 8 });
  const bucket = lossBucket(experiment);
  return spec.models.map(({ options }) => {
    const training = engine.createTraining(options);
    const losses = Array.from(training.step(steps));
    const accuracy = Array.from(training.evaluate(LENGTHS, SAMPLES).sequenceAccuracy);
    training.dispose();
    const curve = [];
    for (let start = 0; start < steps; start += bucket) {
      const part = losses.slice(start, Math.min(steps, start + bucket));
      curve.push(part.reduce((sum, loss) => sum + loss, 0) / part.length);
    }
    return { curve, accuracy };
  });
}

/**
 * How far the slide's content runs past its frame, in pixels (as deck-views.test.js measures).
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function spill(page, id) {
  return page.evaluate((slideId) => {
    const section = /** @type {HTMLElement} */ (document.getElementById(slideId));
    const boxes = section.querySelectorAll('.slide-main, .slide-text, .tr-output');
    const main = /** @type {HTMLElement} */ (section.querySelector('.slide-main'));
    const bottom = main.getBoundingClientRect().bottom;
    const over = [...boxes].map((box) => box.scrollHeight - box.clientHeight);
    const drawn = [...section.querySelectorAll('.slide-main *')].filter(
      (node) => !node.closest('details:not([open]) > :not(summary)'),
    );
    const below = drawn.map((node) => node.getBoundingClientRect().bottom - bottom);
    return Math.max(...over, ...below);
  }, id);
}

describe('training on the slides', () => {
  for (const { id, experiment } of SLIDES) {
    test(`${id}: the loss falls with the engine's numbers, pause stops it, the page answers`, async () => {
      await site.visit(`index.html#/${id}`, async (page) => {
        const started = page.waitForEvent('worker');
        await openTraining(page, id);
        const worker = await started;
        await recordReports(worker);
        const scope = `#${id}`;
        assert.equal(
          await page.locator(`${scope} .widget-host`).getAttribute('data-widget'),
          'training',
        );
        assert.match(
          (await page.locator(`${scope} .widget-host`).getAttribute('class')) ?? '',
          /\bwidget-training\b/,
        );
        assert.equal((await readState(page, id)).button, 'Start');
        if (id === 'cross-attention') {
          await page.locator(`${scope} .tr-map details summary`).click();
          await page.locator(`${scope} .tr-map table`).waitFor({ timeout: TIMEOUT });
        }
        const before = id === 'cross-attention' ? await readMap(page) : [];

        await watchTasks(page);
        await page.locator(scope).getByRole('button', { name: 'Start' }).click();
        await page.locator(scope).getByRole('button', { name: 'Pause' }).waitFor();
        await waitForFallingLoss(page, id, 3);
        const running = await readState(page, id);
        assert.equal(running.status, 'running');
        assert.ok(running.steps > 0 && running.progress === running.steps);

        // Another control answers while the worker trains: the loss table opens at a click.
        const details = page.locator(`${scope} .tr-loss details`);
        await details.locator('summary').click();
        await page.waitForFunction(
          (s) => document.querySelector(`${s} .tr-loss details`)?.open,
          scope,
        );

        if (id === 'cross-attention') {
          // The map is redrawn as the model learns.
          await page.waitForFunction(
            (old) => {
              const cells = document.querySelectorAll('#cross-attention .tr-map tbody td');
              const now = Array.from(cells, (td) =>
                Number(/** @type {HTMLElement} */ (td).dataset.value),
              );
              return now.length === old.length && now.some((value, i) => value !== old[i]);
            },
            before,
            { timeout: TIMEOUT },
          );
        }

        await page.locator(scope).getByRole('button', { name: 'Pause' }).click();
        // The worker says when the pause has taken effect (the models levelled and measured);
        // the figure then shows that step, measured, and no step follows.
        const acknowledged = await waitForPausedReport(worker);
        await page.waitForFunction(
          ([s, steps]) => {
            const figure = /** @type {HTMLElement} */ (document.querySelector(`${s} .tr-figure`));
            return (
              figure.dataset.status === 'paused' &&
              figure.dataset.steps === String(steps) &&
              figure.dataset.evaluated === figure.dataset.steps
            );
          },
          [scope, acknowledged.steps],
          { timeout: TIMEOUT },
        );
        const paused = await readState(page, id);
        assert.equal(paused.button, 'Resume');
        // Once the worker's loop has stopped, it takes no step until the page sends a command.
        assert.deepEqual(
          (await reportsUntilIdle(worker, acknowledged.index)).filter(
            (report) => report.steps !== acknowledged.steps,
          ),
          [],
          'the worker takes no step while paused',
        );
        assert.equal((await readState(page, id)).steps, paused.steps, 'no step while paused');

        const tasks = await longTasks();
        const own = tasks.filter((task) => task.thread > 50);
        assert.deepEqual(
          own,
          [],
          `main-thread tasks over 50 ms while training: ${JSON.stringify(tasks)}`,
        );

        // The numbers are the engine's own for the same options and steps.
        const expected = engineRun(experiment, paused.steps);
        const loss = await readChart(page, `${scope} .tr-loss`);
        assert.deepEqual(
          loss.columns.slice(1),
          EXPERIMENTS[experiment].models.map((m) => m.name),
        );
        assert.equal(loss.x[loss.x.length - 1], paused.steps);
        expected.forEach(({ curve }, model) => {
          assert.deepEqual(
            loss.rows.map((row) => row[model]),
            curve,
            `${EXPERIMENTS[experiment].models[model].name}: loss`,
          );
        });
        if (EXPERIMENTS[experiment].accuracyChart) {
          const accuracy = await readChart(page, `${scope} .tr-accuracy`);
          assert.deepEqual(accuracy.x, LENGTHS);
          expected.forEach(({ accuracy: shares }, model) => {
            assert.deepEqual(
              accuracy.rows.map((row) => row[model]),
              shares.map((share) => share * 100),
            );
          });
          assert.ok(
            accuracy.texts.every((text) => /^\d+(\.\d+)?%$/.test(text)),
            'percentages',
          );
        }
        const reading = await page.locator(`${scope} .tr-reading`).textContent();
        assert.match(reading ?? '', /accuracy \d+%/);
        assert.match(
          reading ?? '',
          new RegExp(`after ${paused.steps.toLocaleString('en-US')} steps`, 'i'),
        );

        await page.locator(scope).getByRole('button', { name: 'Resume' }).click();
        await page.waitForFunction(
          ([s, n]) =>
            Number(document.querySelector(`${s} .tr-figure`)?.getAttribute('data-steps')) > n,
          [scope, paused.steps],
          { timeout: TIMEOUT },
        );
        await page.locator(scope).getByRole('button', { name: 'Reset' }).click();
        await page.waitForFunction(
          (s) => document.querySelector(`${s} .tr-figure`)?.getAttribute('data-steps') === '0',
          scope,
        );
        assert.equal((await readState(page, id)).button, 'Start');
        assert.equal(
          await page.locator(`${scope} .tr-loss svg`).count(),
          0,
          'the curves start over',
        );
      });
    });
  }

  test('leaving the slide pauses the run; coming back resumes it, curves and all', async () => {
    await site.visit('index.html#/bottleneck', async (page) => {
      const started = page.waitForEvent('worker');
      await openTraining(page, 'bottleneck');
      const worker = await started;
      await recordReports(worker);
      await page.locator('#bottleneck').getByRole('button', { name: 'Start' }).click();
      await waitForFallingLoss(page, 'bottleneck', 2);
      const points = (await readChart(page, '#bottleneck .tr-loss')).x.length;
      const left = (await readState(page, 'bottleneck')).steps;
      // Escape hands the keys back to the deck.
      await page.keyboard.press('Escape');
      await page.keyboard.press('ArrowRight');
      await waitForSlide(page, 'weighted-retrieval');
      // The worker says when the pause has taken effect (the models levelled and measured),
      // and then that its loop has stopped: however long the learner stays away, the run takes
      // no step until the page sends a command.
      const paused = await waitForPausedReport(worker);
      assert.ok(paused.steps >= left, 'the run went on until the pause took effect');
      const away = await reportsUntilIdle(worker, paused.index);
      assert.deepEqual(
        away.filter((report) => report.steps !== paused.steps || report.status !== 'paused'),
        [],
        `no step while away from ${paused.steps}`,
      );
      await page.keyboard.press('ArrowLeft');
      await waitForSlide(page, 'bottleneck');
      await page.locator('#bottleneck .tr-figure').waitFor();
      const back = await readState(page, 'bottleneck');
      assert.ok(back.steps >= paused.steps, 'the figure starts from the paused run');
      assert.ok((await readChart(page, '#bottleneck .tr-loss')).x.length >= points, 'curves kept');
      assert.equal(back.button, 'Pause', 'running again');
      await page.waitForFunction(
        (n) =>
          Number(document.querySelector('#bottleneck .tr-figure')?.getAttribute('data-steps')) > n,
        paused.steps,
        { timeout: TIMEOUT },
      );
      await page.locator('#bottleneck').getByRole('button', { name: 'Pause' }).click();
    });
  });
});

describe('the choice of view', () => {
  test('goes into the address; the link reopens the view with its settings', async () => {
    await site.visit('index.html#/bottleneck', async (page) => {
      await openTraining(page, 'bottleneck');
      await page.locator('#bottleneck .tr-seed').fill('5');
      await page.waitForFunction(() => {
        const params = new URL(location.href).searchParams;
        return params.get('show') === 'training' && params.get('seed') === '5';
      });
      assert.equal(new URL(page.url()).searchParams.get('figure'), 'bottleneck');
      const copied = page.url();
      await page.goto('about:blank');
      await page.goto(copied);
      await waitForSlide(page, 'bottleneck');
      await page.locator('#bottleneck .tr-seed').waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator('#bottleneck .tr-seed').inputValue(), '5');
      assert.equal(
        await page.locator('#bottleneck .figure-views input:checked').getAttribute('value'),
        'training',
      );
      // Back to the stored facts: the address names that view, its widget is mounted again with
      // its own inputs.
      await page
        .locator('#bottleneck .figure-views')
        .getByRole('radio', { name: 'Stored facts' })
        .check();
      await page.locator('#bottleneck .bn-chart svg.chart-svg').waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator('#bottleneck .tr').count(), 0, 'one view mounted at a time');
      assert.match(
        (await page.locator('#bottleneck .widget-host').getAttribute('class')) ?? '',
        /\bwidget-bottleneck\b/,
      );
      await page.waitForFunction(
        () => new URL(location.href).searchParams.get('show') === 'bottleneck',
      );
      // Each view keeps its own inputs while the other is shown.
      await page.locator('#bottleneck .bn-choice').filter({ hasText: '128' }).click();
      await page
        .locator('#bottleneck .figure-views')
        .getByRole('radio', { name: 'Trained models' })
        .check();
      await page.locator('#bottleneck .tr-seed').waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator('#bottleneck .tr-seed').inputValue(), '5');
      await page
        .locator('#bottleneck .figure-views')
        .getByRole('radio', { name: 'Stored facts' })
        .check();
      await page.locator('#bottleneck .bn-chart svg.chart-svg').waitFor({ timeout: TIMEOUT });
      assert.equal(
        await page.locator('#bottleneck .bn-choice input:checked').getAttribute('value'),
        '128',
      );
    });
  });

  test('its arrow keys change the view, never the slide; the Figure menu saves the view shown', async () => {
    await site.visit('index.html#/cross-attention', async (page) => {
      await waitForSlide(page, 'cross-attention');
      await page.locator('#cross-attention .widget-area').waitFor({ timeout: TIMEOUT });
      // The second view, Two sentences; the third is the training.
      await page.locator('#cross-attention .figure-views input').nth(1).check();
      await page.locator('#cross-attention .xa-figure').waitFor({ timeout: TIMEOUT });
      await page.locator('#cross-attention .figure-views input').nth(1).focus();
      await page.keyboard.press('ArrowRight');
      await page.locator('#cross-attention .tr-map svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      assert.equal(await currentSlide(page), 'cross-attention');
      await page.keyboard.press('ArrowLeft');
      await page
        .locator(
          '#cross-attention .xa-figure, #cross-attention .hm-figure, #cross-attention svg.heatmap-svg',
        )
        .first()
        .waitFor();
      assert.equal(await currentSlide(page), 'cross-attention');
      assert.equal(await page.locator('#cross-attention .tr').count(), 0);
      await page.keyboard.press('ArrowRight');
      await page.locator('#cross-attention .tr-map svg.heatmap-svg').waitFor({ timeout: TIMEOUT });

      const menu = page.locator('#cross-attention .figure-tools');
      await menu.locator('summary').click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        menu.getByRole('button', { name: 'Save as SVG' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'attention-cross-attention-training.svg');
      const text = await readFile(await download.path(), 'utf8');
      assert.match(text, /One Sequence Queries Another: Trained model/);
      assert.equal((text.match(/role="gridcell"/g) ?? []).length, 64, 'the 8 x 8 map');
    });
  });
});

describe('settings', () => {
  test('a bad seed or learning rate gets a message and no Start', async () => {
    await site.visit('index.html#/why-scale', async (page) => {
      await openTraining(page, 'why-scale');
      const alert = page.locator('#why-scale .tr-error');
      const start = page.locator('#why-scale .tr-go');
      await page.locator('#why-scale .tr-seed').fill('-3');
      assert.match(
        (await alert.textContent()) ?? '',
        /seed must be a whole number from 0 to 4294967295/,
      );
      assert.equal(await start.isDisabled(), true);
      await page.locator('#why-scale .tr-seed').fill('2');
      await page.locator('#why-scale .tr-rate').fill('0.5');
      assert.match(
        (await alert.textContent()) ?? '',
        /learning rate must be a number from 0.0001 to 0.1/,
      );
      assert.equal(await start.isDisabled(), true);
      await page.locator('#why-scale .tr-rate').fill('');
      assert.match((await alert.textContent()) ?? '', /learning rate/);
      await page.locator('#why-scale .tr-rate').fill('0.01');
      await page.waitForFunction(() => document.querySelector('#why-scale .tr-error')?.hidden);
      await page.locator('#why-scale .tr-go:not([disabled])').waitFor();
    });
  });

  test('a worker that cannot start gives a clear message and no error', async () => {
    await site.visit(
      'index.html#/bottleneck',
      async (page) => {
        await waitForSlide(page, 'bottleneck');
        await page.locator('#bottleneck .widget-area').waitFor({ timeout: TIMEOUT });
        await page
          .locator('#bottleneck .figure-views')
          .getByRole('radio', { name: /Trained/ })
          .check();
        const alert = page.locator('#bottleneck .tr-error');
        await alert.waitFor({ timeout: TIMEOUT });
        assert.match((await alert.textContent()) ?? '', /Training could not start in this browser/);
        assert.equal(await page.locator('#bottleneck .tr-go').isDisabled(), true);
      },
      {
        initScript: () => {
          // A browser (or a policy) that refuses workers.
          /** @type {any} */ (window).Worker = class {
            constructor() {
              throw new Error('workers are not allowed');
            }
          };
        },
      },
    );
  });
});

describe('the training views look right', () => {
  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    for (const { id } of SLIDES) {
      test(`${id} (${colorScheme}): no axe violation, and it fits its slide at 1280 x 720`, async () => {
        await site.visit(
          `index.html#/${id}`,
          async (page) => {
            await openTraining(page, id);
            await page.locator(`#${id}`).getByRole('button', { name: 'Start' }).click();
            await page.locator(`#${id} .tr-loss svg.chart-svg`).waitFor({ timeout: TIMEOUT });
            await page.locator(`#${id}`).getByRole('button', { name: 'Pause' }).click();
            await page.waitForFunction(
              (s) =>
                document.querySelector(`#${s} .tr-figure`)?.getAttribute('data-evaluated') !== '',
              id,
              { timeout: TIMEOUT },
            );
            assert.deepEqual(
              await axeFindings(page, colorScheme),
              [],
              `axe violations on #/${id}?show=training`,
            );
            const over = await spill(page, id);
            assert.ok(over <= 6, `${id} spills ${over}px out of its frame`);
          },
          { colorScheme, viewport: { width: 1280, height: 720 } },
        );
      });
    }
  }

  test('on a phone the training views scroll no page sideways', async () => {
    await site.visit(
      'index.html#/title',
      async (page) => {
        for (const { id } of SLIDES) {
          await page.goto(`${site.url()}index.html?figure=${id}&show=training#/${id}`);
          await waitForSlide(page, id);
          await page.locator(`#${id} .tr-go:not([disabled])`).waitFor({ timeout: TIMEOUT });
          const sideways = await page.evaluate((slideId) => {
            const section = /** @type {HTMLElement} */ (document.getElementById(slideId));
            return section.scrollWidth - section.clientWidth;
          }, id);
          assert.equal(sideways, 0, `${id} scrolls sideways`);
        }
      },
      { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    );
  });
});

describe('the article', () => {
  test('offers the training view above each figure, and trains in it', async () => {
    await site.visit('article.html#cross-attention', async (page) => {
      const section = page.locator('section#cross-attention');
      const choice = section.locator('.figure-views');
      await choice.waitFor({ timeout: TIMEOUT });
      const order = await section.evaluate((node) => {
        const kids = [...node.children];
        return (
          kids.indexOf(node.querySelector('.figure-views')) <
          kids.indexOf(node.querySelector('.widget-host'))
        );
      });
      assert.ok(order, 'the choice comes before the figure');
      await choice.getByRole('radio', { name: /Trained model/ }).check();
      await section.getByRole('button', { name: 'Start' }).click();
      await section.locator('.tr-loss svg.chart-svg').waitFor({ timeout: TIMEOUT });
      await section.getByRole('button', { name: 'Pause' }).click();
      assert.equal(await section.locator('.widget-host').getAttribute('data-widget'), 'training');
      assert.equal(
        await page.locator('section#bottleneck .tr').count(),
        0,
        'other figures keep their first view',
      );
      assert.deepEqual(
        await axeFindings(page, 'light'),
        [],
        'axe violations on article.html with a training view',
      );
    });
  });

  test('a run scrolled out of sight pauses, and resumes when it is back', async () => {
    await site.visit('article.html#cross-attention', async (page) => {
      const section = page.locator('section#cross-attention');
      await section.locator('.figure-views').waitFor({ timeout: TIMEOUT });
      const started = page.waitForEvent('worker');
      await section.getByRole('radio', { name: /Trained model/ }).check();
      const worker = await started;
      await recordReports(worker);
      await section.getByRole('button', { name: 'Start' }).click();
      await section.getByRole('button', { name: 'Pause' }).waitFor({ timeout: TIMEOUT });
      await page.locator('section#position').scrollIntoViewIfNeeded();
      await section.getByRole('button', { name: 'Resume' }).waitFor({ timeout: TIMEOUT });
      // The worker says when the pause has taken effect, then that its loop has stopped: out of
      // sight, the run takes no step until the page sends a command.
      const paused = await waitForPausedReport(worker);
      const away = await reportsUntilIdle(worker, paused.index);
      assert.deepEqual(
        away.filter((report) => report.steps !== paused.steps),
        [],
        'the worker takes no step out of sight',
      );
      // The figure shows the pause once the steps it let finish are measured.
      await page.waitForFunction(
        () => {
          const figure = document.querySelector('section#cross-attention .tr-figure');
          if (!(figure instanceof HTMLElement)) return false;
          return (
            figure.dataset.status === 'paused' && figure.dataset.evaluated === figure.dataset.steps
          );
        },
        null,
        { timeout: TIMEOUT },
      );
      const progress = section.locator('progress.tr-progress');
      const shown = await progress.evaluate(
        (bar) => /** @type {HTMLProgressElement} */ (bar).value,
      );
      assert.equal(shown, paused.steps, 'the figure shows the step the run paused at');
      await section.locator('.widget-host').scrollIntoViewIfNeeded();
      await section.getByRole('button', { name: 'Pause' }).waitFor({ timeout: TIMEOUT });
    });
  });
});
