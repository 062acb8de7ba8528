// The `query-key-value` widget: a short sentence, the projection kind (the identity, or seeded
// Glorot-uniform matrices of width d_k) and its seed; X, W_Q, W_K, W_V, Q = X W_Q, K = X W_K,
// V = X W_V and the scores Q K^T as heatmaps, a score's dot product written out when it is pointed
// at or focused. Props: { sentence, projection, seed, dk, state }; state keeps the learner's
// sentence, projection, seed and d_k across mounts.
import { formWidget } from '../shared/form-widget.js';
import { setLine } from '../shared/line.js';
import { clearFigures, drawFigures } from './figures.js';
import { buildQkvParts } from './markup.js';
import { DK_CHOICES, KINDS, queryKeyValue } from './math.js';
import { SEED_PROBLEM, parseSeed } from '../shared/seed.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';
import { sentenceTokens } from '../shared/token-matrix.js';
import { tokenStatus } from '../shared/token-cap.js';
import './style.css';
import './deck.css';

const MAX_TOKENS = 8;
const DEFAULTS = { sentence: 'The cat sat on the mat', projection: 'random', seed: 1, dk: 8 };
const PROMPT = 'Type a short sentence to see its queries, keys and values.';

/**
 * @typedef {{ sentence?: string, projection?: string, seed?: string | number, dk?: number }}
 *   QkvInputs
 */

/** @returns {import('../shared/registry.js').Widget} */
function createQueryKeyValue() {
  return formWidget({
    build: (doc) => buildQkvParts(doc, MAX_TOKENS),
    fill(parts, props, state) {
      const pick = (key) => state[key] ?? props[key] ?? DEFAULTS[key];
      const kind = String(pick('projection'));
      const dk = Number(pick('dk'));
      parts.sentence.value = String(pick('sentence'));
      parts.seed.value = String(pick('seed'));
      check(parts.kinds, KINDS.includes(/** @type {any} */ (kind)) ? kind : DEFAULTS.projection);
      check(parts.dks, String(DK_CHOICES.includes(dk) ? dk : DEFAULTS.dk));
    },
    read(parts, state) {
      state.sentence = parts.sentence.value;
      state.projection = checkedValue(parts.kinds) ?? state.projection;
      state.seed = parts.seed.value;
      state.dk = Number(checkedValue(parts.dks) ?? state.dk);
    },
    draw,
    clear: clearFigures,
  });
}

/**
 * Reads the inputs and redraws, or says why there is nothing to draw.
 * @param {import('./markup.js').QkvParts} parts
 * @param {object} engine
 * @param {QkvInputs} inputs
 */
function draw(parts, engine, { sentence, projection, seed, dk }) {
  const kind = projection === 'identity' ? 'identity' : 'random';
  for (const input of [parts.seed, ...parts.dks.querySelectorAll('input')]) {
    input.disabled = kind === 'identity';
  }
  const all = sentenceTokens(engine, sentence ?? '');
  const tokens = all.slice(0, MAX_TOKENS);
  setLine(parts.status, tokenStatus(all.length, MAX_TOKENS, PROMPT));
  const seedValue = parseSeed(String(seed ?? ''));
  let problem = '';
  let result = null;
  if (tokens.length > 0 && kind === 'random' && seedValue === null) {
    problem = SEED_PROBLEM;
  } else if (tokens.length > 0) {
    try {
      result = queryKeyValue(engine, tokens, { kind, seed: seedValue ?? 0, dk });
    } catch (error) {
      console.error(error);
      problem = `The projections could not be computed: ${error.message}`;
    }
  }
  setLine(parts.error, problem);
  parts.result.hidden = !result;
  if (result) drawFigures(parts, tokens, result, seedValue ?? 0);
  else clearFigures(parts);
}

/**
 * @param {HTMLElement} group
 * @returns {string | undefined} the value of its checked radio button
 */
function checkedValue(group) {
  return /** @type {HTMLInputElement | null} */ (group.querySelector('input:checked'))?.value;
}

/**
 * Checks the radio button of `group` whose value is `value`.
 * @param {HTMLElement} group
 * @param {string} value
 */
function check(group, value) {
  for (const input of group.querySelectorAll('input')) {
    /** @type {HTMLInputElement} */ (input).checked = input.value === value;
  }
}

registerWidget('query-key-value', createQueryKeyValue, { vectors: true, settings: SETTINGS });
