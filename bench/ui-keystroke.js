// Keystroke to painted figure on the multi-head slide: its untrained view (the multi-head widget,
// ?show=multi-head) with 10 heads and a 64-token sentence, and its default view, the trained
// language model (8 heads, the 64 tokens it reads at most), each against a plain text box on the
// same slide. For each keystroke, the time from the keydown event's timeStamp to the next frame
// painted, and to the frame that shows the redrawn figure. bench/README.md has the method.

const SLIDE = '#multi-head';
const HEADS = 10;
const TOKENS = 64;
const WARMUP = 10;
const SAMPLES = 100;
const TIMEOUT = 30_000;

// 64 tokens: 61 words and 3 punctuation marks. It ends in a word, so adding a letter to that word
// and deleting it again keeps the count at 64.
export const SENTENCE =
  'The old keeper climbed the narrow stairs every evening, lit the great lamp and watched ' +
  'the ships pass safely through the dark water. One stormy night a small boat lost its way ' +
  'near the rocks, so he rang the bell until the sailors heard it and turned towards the ' +
  'harbour where their families waited for them on the quiet sandy shore';

/**
 * Installed in the page: records, per keystroke, when its keydown happened (event.timeStamp, on
 * the same clock as performance.now()), when the next frame was painted, the widget's redraw, and
 * when the frame that shows the redrawn figure was painted. The approximation of "painted": a
 * requestAnimationFrame callback, then a task posted from it through a MessageChannel (it runs
 * once the frame is done).
 * - Next paint: the callback is asked for in a capturing `input` listener on window, which runs
 *   before the widget's own, so it runs first in the frame and its task is the first after it.
 * - Figure painted: the callback is asked for in a bubbling `input` listener on window, which runs
 *   after the widget's, so it runs after the widget's in the same frame; it looks for the
 *   widget's redraw measure ("<prefix> redraw", started after the keydown) and, until it is there,
 *   waits for the next frame (a widget may draw after the keystroke's frame is painted), at most
 *   FRAMES frames. A keystroke without a redraw (the plain text box) has its figure painted at its
 *   next paint.
 * The redraw's steps are the widget's other measures ("<prefix> engine", ...).
 * @param {string} prefix the widget's measures' prefix: 'multi-head' or 'language-model'
 */
function installProbe(prefix) {
  const FRAMES = 4;
  const samples = [];
  const waiting = [];
  let keydownAt = -1;
  /** @type {Record<string, any>} the keystroke being timed */
  let current = {};
  const done = (/** @type {Record<string, any>} */ sample) => {
    if (!('nextPaint' in sample) || !('total' in sample)) return;
    if (!sample.redrawn) sample.total = sample.nextPaint;
    samples.push(sample);
    waiting.splice(0).forEach((check) => check());
  };
  const afterFrame = (/** @type {() => void} */ then) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = then;
    channel.port2.postMessage(null);
  };
  addEventListener('keydown', (event) => (keydownAt = event.timeStamp), { capture: true });
  addEventListener(
    'input',
    () => {
      const sample = { start: keydownAt };
      current = sample;
      requestAnimationFrame(() =>
        afterFrame(() => {
          sample.nextPaint = performance.now() - sample.start;
          done(sample);
        }),
      );
    },
    { capture: true },
  );
  addEventListener('input', () => {
    const sample = current;
    const handled = performance.now();
    let frames = 0;
    const look = () => {
      frames += 1;
      const measures = performance
        .getEntriesByType('measure')
        .filter((m) => m.name.startsWith(`${prefix} `) && m.startTime >= sample.start);
      const redraw = measures.find((m) => m.name === `${prefix} redraw`);
      if (!redraw && frames < FRAMES) {
        requestAnimationFrame(look);
        return;
      }
      const steps = Object.fromEntries(
        measures.map((m) => [m.name.slice(prefix.length + 1), m.duration]),
      );
      afterFrame(() => {
        Object.assign(sample, {
          total: performance.now() - sample.start,
          redrawStart: redraw ? redraw.startTime - sample.start : NaN,
          redrawEnd: redraw ? redraw.startTime + redraw.duration - sample.start : NaN,
          atOnce: Boolean(redraw) && redraw.startTime < handled,
          inFrame: Boolean(redraw) && frames === 1,
          redrawn: Boolean(redraw),
          steps,
        });
        done(sample);
      });
    };
    requestAnimationFrame(look);
  });
  /** @param {number} n @param {number} timeout */
  const sample = (n, timeout) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no redraw after keystroke ${n}`)), timeout);
      const check = () => {
        if (samples.length < n) return waiting.push(check);
        clearTimeout(timer);
        resolve(samples[n - 1]);
      };
      check();
    });
  Object.assign(window, { uiBenchSample: sample });
}

/**
 * Reads what the figure shows and throws unless it is HEADS heads of TOKENS x TOKENS weights and
 * an output of TOKENS rows, each drawn (a picture, or one element per cell).
 * @param {import('playwright-core').Page} page
 * @param {string} when
 */
async function checkFigure(page, when) {
  const shown = await page.locator(SLIDE).evaluate((slide) => {
    const size = (svg) => {
      const [rows, cols] = [Number(svg?.dataset.rows), Number(svg?.dataset.cols)];
      const picture = svg?.querySelector('image')?.getAttribute('href') ?? '';
      const cells = svg?.querySelectorAll('[role="gridcell"]').length;
      const drawn = picture.startsWith('data:image/') || cells === rows * cols;
      return `${rows}x${cols}/${drawn ? 'drawn' : 'not drawn'}`;
    };
    return {
      heads: Number(slide.querySelector('.mh-choice input:checked')?.value),
      tiles: Array.from(slide.querySelectorAll('.mh-tile svg.heatmap-svg'), size),
      output: size(slide.querySelector('.mh-out svg.heatmap-svg')),
      status: slide.querySelector('.mh-status')?.textContent ?? '',
    };
  });
  const tile = `${TOKENS}x${TOKENS}/drawn`;
  const ok =
    shown.heads === HEADS &&
    shown.tiles.length === HEADS &&
    shown.tiles.every((size) => size === tile) &&
    /^\d+x\d+\/drawn$/.test(shown.output) &&
    shown.output.startsWith(`${TOKENS}x`) &&
    shown.status === '';
  if (!ok) {
    throw new Error(
      `${when}, the multi-head figure should show ${HEADS} heads of ${TOKENS} x ${TOKENS} ` +
        `weights and ${TOKENS} output rows, all drawn, but shows ${JSON.stringify(shown)}`,
    );
  }
}

/**
 * Waits until the page has run its next animation frame (the widget redraws in it).
 * @param {import('playwright-core').Page} page
 */
function afterFrame(page) {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
}

/**
 * A fresh 1280 x 720 page that collects what the page reports as errors.
 * @param {import('playwright-core').Browser} browser
 */
async function openBenchPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  return { context, page, errors };
}

/**
 * Puts the caret at the end of a text box.
 * @param {import('playwright-core').Locator} box
 */
export function focusEnd(box) {
  return box.evaluate((el) => {
    const area = /** @type {HTMLTextAreaElement} */ (el);
    area.focus();
    area.setSelectionRange(area.value.length, area.value.length);
  });
}

/**
 * Types into the focused box: each keystroke adds a letter to the last word or takes it away
 * again (always 64 tokens), and waits for its sample; the first WARMUP are not kept.
 * @param {import('playwright-core').Page} page
 * @returns {(count: number) => Promise<Sample[]>}
 */
function typist(page) {
  let typed = 0;
  return async (count) => {
    const taken = [];
    for (let i = 0; i < count; i++) {
      await page.keyboard.press(i % 2 === 0 ? 's' : 'Backspace');
      typed += 1;
      taken.push(await page.evaluate(([n, t]) => window['uiBenchSample'](n, t), [typed, TIMEOUT]));
    }
    return taken.slice(WARMUP);
  };
}

/**
 * For comparison, the same keystrokes in a plain text box on the slide, outside the figure: what
 * the browser and the deck take for a keystroke when nothing is redrawn.
 * @param {import('playwright-core').Page} page
 * @param {(count: number) => Promise<Sample[]>} type the typist of the page
 * @returns {Promise<Sample[]>}
 */
async function typePlain(page, type) {
  await page.locator(`${SLIDE} .slide-text`).evaluate((text, sentence) => {
    const plain = document.createElement('textarea');
    plain.className = 'ui-bench-plain';
    plain.rows = 2;
    plain.value = sentence;
    text.append(plain);
    plain.focus();
    plain.setSelectionRange(sentence.length, sentence.length);
  }, SENTENCE);
  const plain = await type(WARMUP + SAMPLES / 2);
  if (plain.some((sample) => sample.redrawn)) throw new Error('the plain text box redrew');
  return plain;
}

/**
 * The same keystrokes in the trained language model's text box, on the multi-head slide's
 * default view: every keystroke runs the model on the 64 tokens and redraws its 8 heads.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url the site's address, ending in '/'
 * @returns {Promise<{ samples: Sample[], plain: Sample[], heads: number, tokens: number,
 *   warmup: number }>}
 */
export async function measureTrainedKeystrokes(browser, url) {
  const { context, page, errors } = await openBenchPage(browser);
  try {
    await page.goto(`${url}index.html#/multi-head`);
    const box = page.locator(`${SLIDE} .lm-sentence`);
    await page.locator(`${SLIDE} .lm-result:not([hidden])`).waitFor({ timeout: TIMEOUT });
    await box.fill(SENTENCE);
    await afterFrame(page);
    const shown = async () =>
      page.locator(SLIDE).evaluate((slide) => ({
        tiles: slide.querySelectorAll('.lm-tile').length,
        rows: Number(slide.querySelector('.lm-map svg.heatmap-svg')?.getAttribute('data-rows')),
      }));
    const check = async (/** @type {string} */ when) => {
      const { tiles, rows } = await shown();
      if (tiles !== 8 || rows !== TOKENS) {
        throw new Error(`${when}, the trained model should show 8 heads of ${TOKENS} tokens`);
      }
    };
    await check('Before timing');
    await page.evaluate(installProbe, 'language-model');
    await focusEnd(box);
    const type = typist(page);
    const samples = await type(WARMUP + SAMPLES);
    samples.forEach((sample, i) => {
      if (!sample.redrawn) throw new Error(`keystroke ${WARMUP + i + 1} did not redraw the figure`);
    });
    await check('After timing');
    const plain = await typePlain(page, type);
    if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);
    return { samples, plain, heads: 8, tokens: TOKENS, warmup: WARMUP };
  } finally {
    await context.close();
  }
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} url the site's address, ending in '/'
 * @returns {Promise<{ samples: Sample[], plain: Sample[], heads: number, tokens: number,
 *   warmup: number }>} the keystrokes in the figure's Sentence box, and in a plain text box
 * @typedef {{ nextPaint: number, total: number, redrawStart: number, redrawEnd: number,
 *   atOnce: boolean, inFrame: boolean, redrawn: boolean, steps: Record<string, number> }} Sample
 *   keydown to the next frame painted, and to the frame that shows the redrawn figure; the
 *   redraw's start and end; whether it ran in the input listener, or in the keystroke's frame;
 *   its steps' durations
 */
export async function measureKeystrokes(browser, url) {
  const { context, page, errors } = await openBenchPage(browser);
  try {
    await page.goto(`${url}index.html?figure=multi-head&show=multi-head#/multi-head`);
    await page.locator(`${SLIDE} .mh-out svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
    await page.locator(`${SLIDE} .mh-choice`, { hasText: new RegExp(`^${HEADS}$`) }).click();
    const box = page.locator(`${SLIDE} .mh-sentence`);
    await box.fill(SENTENCE);
    await afterFrame(page);
    await checkFigure(page, 'Before timing');

    await page.evaluate(installProbe, 'multi-head');
    await focusEnd(box);
    const type = typist(page);
    const samples = await type(WARMUP + SAMPLES);
    samples.forEach((sample, i) => {
      if (!sample.redrawn) throw new Error(`keystroke ${WARMUP + i + 1} did not redraw the figure`);
    });
    await checkFigure(page, 'After timing');
    if ((await box.inputValue()) !== SENTENCE) throw new Error('the sentence was not restored');

    const plain = await typePlain(page, type);

    if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);
    return { samples, plain, heads: HEADS, tokens: TOKENS, warmup: WARMUP };
  } finally {
    await context.close();
  }
}
