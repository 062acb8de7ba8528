// `npm run bench:ui-trace`: where a keystroke's main-thread time goes in the trained language
// model's view (the multi-head slide's default, 64 tokens). In headless Chromium on the built
// site it presses KEYSTROKES keys into the model's text box, PAUSE_MS apart so that each one's
// frames are done before the next, records a Chrome trace of them, and prints the renderer main
// thread's time per keystroke by phase: the key's own events, the animation-frame callbacks, the
// rendering steps, and the widget's own measures (its redraw runs in a task once the keystroke's
// frame is painted, and is rendered in the frame after). bench/README.md has the method.
import { launchBrowser, serveSite } from '../tests/e2e/browser.js';
import { siteDir } from '../tests/e2e/site-dir.js';
import { SENTENCE, focusEnd } from './ui-keystroke.js';

const KEYSTROKES = 40;
const WARMUP = 10;
const PAUSE_MS = 150;
const TIMEOUT = 30_000;
/** The trace's phases, by event name, in the order a keystroke meets them. */
const PHASES = [
  ['EventDispatch', 'events (the key, the edit, input)'],
  ['FireAnimationFrame', 'animation-frame callbacks'],
  ['UpdateLayoutTree', 'style'],
  ['Layout', 'layout'],
  ['PrePaint', 'pre-paint'],
  ['Paint', 'paint'],
  ['Layerize', 'layerize'],
  ['Commit', 'commit'],
  ['MinorGC', 'garbage collection (minor)'],
  ['MajorGC', 'garbage collection (major)'],
];

/**
 * Presses the keys while Chrome traces the page; returns the trace's events.
 * @param {import('playwright-core').Page} page
 * @param {import('playwright-core').BrowserContext} context
 */
async function traceKeystrokes(page, context) {
  const cdp = await context.newCDPSession(page);
  /** @type {any[]} */
  const events = [];
  cdp.on('Tracing.dataCollected', (data) => events.push(...data.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    categories:
      'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing',
    transferMode: 'ReportEvents',
  });
  for (let i = 0; i < KEYSTROKES; i++) {
    await page.keyboard.press(i % 2 === 0 ? 's' : 'Backspace');
    await page.waitForTimeout(PAUSE_MS);
  }
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

/**
 * Milliseconds per keystroke of each phase on the renderer's main thread, and of the widget's
 * own measures.
 * @param {any[]} events
 */
function phasesOf(events) {
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}/${e.tid}`),
  );
  /** @type {Record<string, number>} */
  const total = {};
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur || !main.has(`${e.pid}/${e.tid}`)) continue;
    total[e.name] = (total[e.name] ?? 0) + e.dur / 1000;
  }
  /** @type {Record<string, number>} */
  const measures = {};
  /** @type {Map<string, number>} */
  const open = new Map();
  for (const e of events) {
    if (!e.name.startsWith('language-model ')) continue;
    const key = `${e.name}/${e.id ?? e.id2?.local ?? ''}`;
    if (e.ph === 'b') open.set(key, e.ts);
    if (e.ph === 'e' && open.has(key)) {
      const name = e.name.slice('language-model '.length);
      measures[name] =
        (measures[name] ?? 0) + (e.ts - /** @type {number} */ (open.get(key))) / 1000;
      open.delete(key);
    }
  }
  const per = (/** @type {number} */ ms) => ms / KEYSTROKES;
  return {
    tasks: per(total.RunTask ?? 0),
    phases: PHASES.map(([name, label]) => ({ label, ms: per(total[name] ?? 0) })),
    measures: Object.entries(measures).map(([name, ms]) => ({ name, ms: per(ms) })),
  };
}

const server = await serveSite();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}index.html#/multi-head`);
  await page.locator('#multi-head .lm-result:not([hidden])').waitFor({ timeout: TIMEOUT });
  const box = page.locator('#multi-head .lm-sentence');
  await box.fill(SENTENCE);
  await focusEnd(box);
  for (let i = 0; i < WARMUP; i++) await page.keyboard.press(i % 2 === 0 ? 's' : 'Backspace');
  const { tasks, phases, measures } = phasesOf(await traceKeystrokes(page, context));
  if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);

  console.log(`Keystroke trace: the trained language model, 64 tokens (site ${siteDir})`);
  console.log(`  Chromium ${browser.version()}; ${KEYSTROKES} keystrokes, ${PAUSE_MS} ms apart`);
  console.log('\n  renderer main thread, ms per keystroke (nested phases overlap)');
  console.log(
    `  ${'all tasks of the keystroke and pause'.padEnd(36)}${tasks.toFixed(2).padStart(8)}`,
  );
  for (const { label, ms } of phases)
    console.log(`  ${label.padEnd(36)}${ms.toFixed(2).padStart(8)}`);
  console.log("\n  the widget's own measures, ms per keystroke");
  for (const { name, ms } of measures)
    console.log(`  ${name.padEnd(36)}${ms.toFixed(2).padStart(8)}`);
} finally {
  await browser.close();
  await server.close();
}
