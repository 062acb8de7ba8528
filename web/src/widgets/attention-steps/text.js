// The attention-steps widget's words: what the figure of each step shows, for the numbers on show,
// the shape of its matrix, and the note on padding.
import { PAD, PAD_MULTIPLE, STEPS } from './math.js';

/** How the figures write minus infinity. */
export const MINUS_INFINITY = '\u2212\u221e';

/**
 * @param {number} value
 * @returns {string} at most three decimals, trailing zeros dropped, a true minus sign
 */
const short = (value) => String(Number(value.toFixed(3))).replace('-', '\u2212');

/**
 * The sentence under a step's title: what its numbers are, with this sentence's sizes.
 * @param {import('./math.js').AttentionSteps} result
 * @param {number} step 1..STEPS.length
 * @param {boolean} padding whether the [pad] tokens and their mask are on
 * @returns {string}
 */
export function stepText(result, step, padding) {
  const { m, d, causal } = result;
  const root = Math.sqrt(d);
  const later = causal || padding ? ' Masks come at step 3.' : '';
  switch (STEPS[step - 1].key) {
    case 'scores':
      return (
        `A query row of X times a key row, per cell: (${m}\u00d7${d})(${d}\u00d7${m}) gives ` +
        `${m}\u00d7${m}. Vectors pointing the same way score high.${later}`
      );
    case 'scaled':
      return (
        `Divided by \u221a${d} = ${short(root)}: the same pattern, numbers ${short(root)} times ` +
        `smaller (see the legend), so the softmax does not saturate.${later}`
      );
    case 'masked':
      return maskText(result, padding);
    case 'weights':
      return (
        'A softmax along each row: a larger score earns a larger weight, hidden cells get ' +
        'exactly 0, and every row adds up to 1.'
      );
    default:
      return (
        `Row i is query i\u2019s weighted average of the rows of V (here V = X): one new ` +
        `vector of ${d} numbers per token.`
      );
  }
}

/**
 * @param {import('./math.js').AttentionSteps} result
 * @param {boolean} padding
 * @returns {string}
 */
function maskText(result, padding) {
  const { m, causal, trace } = result;
  if (!causal && !padding) {
    return (
      'No mask is on, so M is all zeros and the scores pass unchanged. ' +
      'Turn on the causal mask or padding to hide some keys.'
    );
  }
  let hidden = 0;
  for (const value of trace.masked) if (value === -Infinity) hidden += 1;
  const why = [causal ? 'keys after their query' : '', padding ? `every ${PAD} key` : '']
    .filter(Boolean)
    .join(' and ');
  return (
    `M adds ${MINUS_INFINITY} to ${hidden} of ${m * m} cells (hatched): ${why}. ` +
    `Since exp(${MINUS_INFINITY})\u00a0=\u00a00, they will get no weight at all.`
  );
}

/**
 * The size of the step's matrix, e.g. '12 × 12' (n_q × n_k) or '12 × 100' (n_q × d_v).
 * @param {import('./math.js').AttentionSteps} result
 * @param {number} step
 * @returns {string}
 */
export function shapeText(result, step) {
  const cols = STEPS[step - 1].key === 'output' ? result.d : result.m;
  return `${result.m} \u00d7 ${cols}`;
}

/**
 * The note on the [pad] tokens, or '' without them.
 * @param {import('./math.js').AttentionSteps} result
 * @returns {string}
 */
export function padText(result) {
  const pads = result.m - result.n;
  if (pads === 0) return '';
  return (
    `${pads} ${PAD} ${pads === 1 ? 'token pads' : 'tokens pad'} the ${result.n} to ${result.m} ` +
    `(the next multiple of ${PAD_MULTIPLE}), as in a batch. A ${PAD} is all zeros; the padding ` +
    'mask hides its column from every query.'
  );
}
