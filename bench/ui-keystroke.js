// Keystroke to painted figure on the multi-head slide (index.html#/multi-head), with 10 heads and a
// 64-token sentence: for each keystroke, the time from the keydown event's timeStamp to the first
// task that runs after the next frame, once the widget has redrawn. bench/README.md has the method.

const SLIDE = '#multi-head';
const HEADS = 10;
const TOKENS = 64;
const WARMUP = 10;
const SAMPLES = 100;
const TIMEOUT = 30_000;

// 64 tokens: 61 words and 3 punctuation marks. It ends in a word, so adding a letter to that word
// and deleting it again keeps the count at 64.
const SENTENCE =
  'The old keeper climbed the narrow stairs every evening, lit the great lamp and watched ' +
  'the ships pass safely through the dark water. One stormy night a small boat lost its way ' +
  'near the rocks, so he rang the bell until the sailors heard it and turned towards the ' +
  'harbour where their families waited for them on the quiet sandy shore';

/**
 * Installed in the page: records, per keystroke, when its keydown happened (event.timeStamp, on
 * the same clock as performance.now()), when the widget's input listener had run, and when the
 * frame after that was painted. The approximation of "painted": requestAnimationFrame (called
 * just before the browser paints the frame), then a task posted from it through a MessageChannel
 * (it runs once that frame is done). Also keeps the widget's own measures ("multi-head <step>").
 * @param {string} figureSelector the output heatmap, which every redraw replaces
 */
function installProbe(figureSelector) {
  const samples = [];
  const waiting = [];
  let keydownAt = -1;
  let figure = document.querySelector(figureSelector);
  addEventListener('keydown', (event) => (keydownAt = event.timeStamp), { capture: true });
  // On window, bubbling: the widget's listener on its own root has run by now.
  addEventListener('input', () => {
    const start = keydownAt;
    const handled = performance.now();
    const svg = document.querySelector(figureSelector);
    const redrawn = svg !== figure;
    figure = svg;
    const steps = Object.fromEntries(
      performance
        .getEntriesByType('measure')
        .filter((m) => m.name.startsWith('multi-head ') && m.startTime >= start)
        .map((m) => [m.name.slice('multi-head '.length), m.duration]),
    );
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        samples.push({
          total: performance.now() - start,
          handled: handled - start,
          redrawn,
          steps,
        });
        waiting.splice(0).forEach((check) => check());
      };
      channel.port2.postMessage(null);
    });
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
 * an output of TOKENS rows.
 * @param {import('playwright-core').Page} page
 * @param {string} when
 */
async function checkFigure(page, when) {
  const shown = await page.locator(SLIDE).evaluate((slide) => {
    const size = (svg) =>
      `${svg?.getAttribute('aria-rowcount')}x${svg?.getAttribute('aria-colcount')}` +
      `/${svg?.querySelectorAll('[role="gridcell"]').length}`;
    return {
      heads: Number(slide.querySelector('.mh-choice input:checked')?.value),
      tiles: Array.from(slide.querySelectorAll('.mh-tile svg.heatmap-svg'), size),
      output: size(slide.querySelector('.mh-out svg.heatmap-svg')),
      status: slide.querySelector('.mh-status')?.textContent ?? '',
    };
  });
  const tile = `${TOKENS}x${TOKENS}/${TOKENS * TOKENS}`;
  const ok =
    shown.heads === HEADS &&
    shown.tiles.length === HEADS &&
    shown.tiles.every((size) => size === tile) &&
    shown.output.startsWith(`${TOKENS}x`) &&
    shown.status === '';
  if (!ok) {
    throw new Error(
      `${when}, the multi-head figure should show ${HEADS} heads of ${tile} cells and ` +
        `${TOKENS} output rows, but shows ${JSON.stringify(shown)}`,
    );
  }
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} url the site's address, ending in '/'
 * @returns {Promise<{ samples: { total: number, handled: number,
 *   steps: Record<string, number> }[], heads: number, tokens: number, warmup: number }>}
 */
export async function measureKeystrokes(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    await page.goto(`${url}index.html#/multi-head`);
    await page.locator(`${SLIDE} .mh-out svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
    await page.locator(`${SLIDE} .mh-choice`, { hasText: new RegExp(`^${HEADS}$`) }).click();
    const box = page.locator(`${SLIDE} .mh-sentence`);
    await box.fill(SENTENCE);
    await checkFigure(page, 'Before timing');

    await page.evaluate(installProbe, `${SLIDE} .mh-out svg.heatmap-svg`);
    await box.evaluate((el) => {
      el.focus();
      el.setSelectionRange(el.value.length, el.value.length);
    });
    const samples = [];
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      // Add a letter to the last word, then take it away: always 64 tokens.
      await page.keyboard.press(i % 2 === 0 ? 's' : 'Backspace');
      const sample = await page.evaluate(
        ([n, t]) => window['uiBenchSample'](n, t),
        [i + 1, TIMEOUT],
      );
      if (!sample.redrawn) throw new Error(`keystroke ${i + 1} did not redraw the figure`);
      if (i >= WARMUP) samples.push(sample);
    }

    await checkFigure(page, 'After timing');
    if ((await box.inputValue()) !== SENTENCE) throw new Error('the sentence was not restored');
    if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);
    return { samples, heads: HEADS, tokens: TOKENS, warmup: WARMUP };
  } finally {
    await context.close();
  }
}
