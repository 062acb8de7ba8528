// Prints the results of `npm run bench:ui` as tables, checked against the goals.
import os from 'node:os';

export const GOALS = {
  keystrokeP95Ms: 16,
  plainMarginMs: 2,
  interactiveMs: 600,
  gzipBytes: 1_500_000,
};

/**
 * The nearest-rank percentile: the smallest value with at least p% of the values at or below it.
 * @param {number[]} values non-empty
 * @param {number} p in (0, 100]
 */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** @param {number[]} values non-empty */
const median = (values) => percentile(values, 50);
const ms = (value) => (Number.isFinite(value) ? value.toFixed(1) : '-');
const kB = (bytes) => (bytes / 1000).toFixed(1);
const verdict = (met) => (met ? 'met' : 'NOT met');

/**
 * Prints rows of cells as a table: the first column left-aligned, the others right-aligned.
 * @param {string[][]} rows the header first
 */
function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
  for (const row of rows) {
    const cells = row.map((cell, c) =>
      c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]),
    );
    console.log(`  ${cells.join('  ')}`);
  }
}

/** @param {{ chromium: string, siteDir: string, title?: string }} info */
export function printHeader({
  chromium,
  siteDir,
  title = 'UI benchmark: the built lesson in headless Chromium, served on 127.0.0.1',
}) {
  const cpus = os.cpus();
  const load = os.loadavg().map((l) => l.toFixed(2));
  console.log(title);
  console.log(`  site ${siteDir}; Chromium ${chromium}; node ${process.version}`);
  console.log(`  CPU ${cpus[0]?.model ?? 'unknown'}; ${cpus.length} logical CPUs`);
  console.log(`  load average ${load.join(', ')} (1, 5, 15 min)`);
  console.log('  Every figure varies with the load on the machine: compare runs made under');
  console.log('  similar load, and read one run as one sample, not as the truth.');
}

/**
 * @param {Awaited<ReturnType<typeof import('./ui-keystroke.js').measureKeystrokes>>} result
 * @param {object} [how]
 * @param {string} [how.title]
 * @param {'frame' | 'plain'} [how.goal] what the goal holds the keystrokes to: the painted figure
 *   within one frame (GOALS.keystrokeP95Ms), or the next paint within GOALS.plainMarginMs of the
 *   plain text box's in the same run
 */
export function printKeystrokes({ samples, plain, heads, tokens, warmup }, how = {}) {
  const {
    title = `1. Keystroke to painted figure: multi-head slide, untrained view, ${heads} heads, ${tokens} tokens`,
    goal = 'frame',
  } = how;
  const of = (/** @type {typeof samples} */ list, /** @type {'total' | 'nextPaint'} */ key) =>
    list.map((s) => s[key]);
  const plainP95 = plain.length > 0 ? percentile(of(plain, 'nextPaint'), 95) : NaN;
  const goalText =
    goal === 'frame'
      ? `goal p95 <= ${GOALS.keystrokeP95Ms}`
      : `goal p95 <= plain + ${GOALS.plainMarginMs}`;
  const goalCell = (/** @type {'total' | 'nextPaint'} */ key) => {
    const p95 = percentile(of(samples, key), 95);
    if (goal === 'frame') return key === 'total' ? verdict(p95 <= GOALS.keystrokeP95Ms) : '';
    return key === 'nextPaint' ? verdict(p95 <= plainP95 + GOALS.plainMarginMs) : '';
  };
  /** @param {string} label @param {typeof samples} list @param {'total' | 'nextPaint'} key */
  const line = (label, list, key, last) => {
    const values = of(list, key);
    return [
      label,
      String(list.length),
      ms(median(values)),
      ms(percentile(values, 95)),
      ms(Math.max(...values)),
      last,
    ];
  };
  console.log(`\n${title}`);
  console.log(`   (${samples.length} keystrokes timed after ${warmup} untimed ones; ms)`);
  table([
    ['', 'samples', 'p50', 'p95', 'max', goalText],
    line('keydown to the next frame painted', samples, 'nextPaint', goalCell('nextPaint')),
    line('keydown to the figure painted', samples, 'total', goalCell('total')),
    ...(plain.length > 0
      ? [line('the same in a plain text box', plain, 'nextPaint', '(nothing redrawn)')]
      : []),
  ]);
  if (plain.length > 0) {
    console.log(
      '   The plain text box sits on the same slide, outside the figure: its keystrokes cost what',
    );
    console.log('   the browser and the deck take when the figure does not redraw.');
  }
  console.log('   Where a keystroke goes (p50 and p95 over the keystrokes; ms):');
  const stepNames = [...new Set(samples.flatMap((s) => Object.keys(s.steps)))].filter(
    (name) => name !== 'redraw',
  );
  /** @param {string} label @param {(s: (typeof samples)[number]) => number} of */
  const row = (label, of) => {
    const values = samples.map(of);
    return [label, ms(median(values)), ms(percentile(values, 95))];
  };
  table([
    ['step', 'p50', 'p95'],
    row('keydown to the start of the redraw', (s) => s.redrawStart),
    row("the widget's redraw", (s) => s.redrawEnd - s.redrawStart),
    ...stepNames.map((name) => row(`  of which step "${name}"`, (s) => s.steps[name] ?? 0)),
    row('then to the frame painted', (s) => s.total - s.redrawEnd),
  ]);
  const atOnce = samples.filter((s) => s.atOnce).length;
  const inFrame = samples.filter((s) => !s.atOnce && s.inFrame).length;
  console.log(
    `   ${atOnce} of ${samples.length} redraws ran in the input listener, ${inFrame} in the ` +
      'frame that shows the keystroke, the others after it',
  );
}

/** @param {Awaited<ReturnType<typeof import('./ui-load.js').measureLoads>>} runs */
export function printLoads(runs) {
  const interactive = median(runs.map((r) => r.interactive));
  console.log(
    `\n2. Time to interactive: index.html, the title slide's translation figure drawn (${runs.length} fresh loads; ms)`,
  );
  const column = (name) => runs.map((r) => ms(r[name]));
  const row = (label, name) => [label, ms(median(runs.map((r) => r[name]))), ...column(name)];
  table([
    ['from navigation start to', 'median', ...runs.map((_, i) => `load ${i + 1}`)],
    row('html received', 'html'),
    row('DOMContentLoaded done', 'domContentLoaded'),
    row('wasm received', 'wasm'),
    row('word vectors received', 'vectors'),
    row('figure drawn', 'drawn'),
    row('interactive (main thread free)', 'interactive'),
  ]);
  console.log(
    `   goal: interactive <= ${GOALS.interactiveMs} ms: ${verdict(interactive <= GOALS.interactiveMs)}`,
  );
}

/** @param {Awaited<ReturnType<typeof import('./ui-load.js').measureBytes>>} result */
export function printBytes({ files, later }) {
  console.log('\n3. Bytes up to time to interactive (one fresh load; kB = 1000 bytes)');
  const kinds = [...new Set(files.map((f) => f.kind))];
  const sum = (list, key) => list.reduce((total, f) => total + f[key], 0);
  const line = (label, list) => [
    label,
    String(list.length),
    [...new Set(list.map((f) => f.encoding))].join('+'),
    kB(sum(list, 'sent')),
    kB(sum(list, 'raw')),
    kB(sum(list, 'gzip')),
  ];
  const ofKind = (kind) => files.filter((f) => f.kind === kind);
  table([
    ['kind', 'files', 'sent as', 'as sent', 'decoded', 'gzip -9'],
    ...kinds.map((kind) => line(kind, ofKind(kind))),
    line('total', files),
  ]);
  console.log('   sent as: the Content-Encoding the server sent ("none": not compressed)');
  console.log(`   response headers, not counted above: ${kB(sum(files, 'headers'))} kB`);
  if (later > 0) console.log(`   ${later} more responses arrived after that point (not counted)`);
  const gzip = sum(files, 'gzip');
  console.log(
    `   goal: gzip total <= ${GOALS.gzipBytes / 1e6} MB: ${verdict(gzip <= GOALS.gzipBytes)}`,
  );
}
