// The `why-scale` widget: a dₖ slider (1, 2, 4, … 1024) and what the engine's scaling experiment
// measures at that width: a histogram of q·k for random unit-normal q, k, unscaled and divided by
// √dₖ, with their variances; how peaked the softmax gets and how small its gradient, as numbers;
// and one of those measures over every width, the current one marked. Props: { dk, state }; state
// keeps the learner's width and chosen measure across mounts.
import './style.css';
import './deck.css';
import { clearHistogram } from '../../views/charts/histogram.js';
import { clearLines } from '../../views/charts/lines.js';
import { setLine } from '../shared/line.js';
import { formWidget } from '../shared/form-widget.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';
import { showSweep, showWidth } from './figures.js';
import { MEASURES, buildWhyScaleParts } from './markup.js';
import { WIDTHS, experimentAt, finishedSweep, sweepLater } from './sweep.js';

const DEFAULT_DK = 64;

/** @returns {import('../shared/registry.js').Widget} */
function createWhyScale() {
  return formWidget({
    build: buildWhyScaleParts,
    fill(parts, props, state) {
      // The slider's step nearest the width asked for: its power of two.
      const width = Number(state.dk ?? props.dk ?? DEFAULT_DK);
      const step = Math.round(Math.log2(width > 0 ? width : DEFAULT_DK));
      parts.range.value = String(Math.min(WIDTHS.length - 1, Math.max(0, step)));
      parts.measure.value = state.measure ?? MEASURES[0].key;
    },
    read(parts, state) {
      state.dk = WIDTHS[Number(parts.range.value)];
      state.measure = parts.measure.value;
    },
    draw(parts, engine, state) {
      try {
        showWidth(parts, experimentAt(engine, state.dk));
        setLine(parts.error, '');
      } catch (error) {
        console.error(error);
        setLine(parts.error, `The experiment could not be run: ${error.message}`);
        return;
      }
      drawLines(parts, engine, state);
    },
    clear(parts) {
      clearHistogram(parts.hist);
      clearLines(parts.lines);
    },
    // The measure over every width is computed a width at a time after mount.
    wire(parts, context) {
      const engine = context.engine();
      return sweepLater(
        engine,
        () => drawLines(parts, engine, context.state()),
        (error) => {
          console.error(error);
          setLine(parts.error, `The sweep over every width could not be run: ${error.message}`);
        },
      );
    },
  });
}

/**
 * Draws the chosen measure over every width once the sweep has them all, else hides the chart.
 * @param {ReturnType<typeof buildWhyScaleParts>} parts
 * @param {object} engine
 * @param {Record<string, any>} state { dk, measure }
 */
function drawLines(parts, engine, state) {
  const sweep = finishedSweep(engine);
  parts.sweep.hidden = Boolean(sweep);
  if (sweep) showSweep(parts, sweep, state.dk, state.measure);
}

registerWidget('why-scale', createWhyScale, { settings: SETTINGS });
