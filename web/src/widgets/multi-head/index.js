// The `multi-head` widget: a sentence, a head count h among the divisors of d_model and a seed;
// the weights of every head as small multiples, the combined output, d_k and the parameter counts
// of one wide head and of h narrow ones. Props: { sentence, heads, seed, state }; state keeps the
// learner's sentence, heads and seed across mounts.
import { setLine } from '../shared/line.js';
import { formWidget } from '../shared/form-widget.js';
import { clearFigures, drawCounts, drawFigures } from './figures.js';
import { buildMultiHeadParts, setHeadChoices } from './markup.js';
import { headChoices, multiHead, parameterCounts } from './math.js';
import { SEED_PROBLEM, parseSeed } from '../shared/seed.js';
import { timed } from './timing.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';
import { embeddingWidth, sentenceTokens } from '../shared/token-matrix.js';
import { tokenStatus } from '../shared/token-cap.js';
import './style.css';
import './deck.css';

const MAX_TOKENS = 64;
const DEFAULTS = {
  sentence: 'The cat sat on the mat because it was tired.',
  heads: 4,
  seed: 1,
};
const PROMPT = 'Type a sentence to see what each head attends to.';

/** @returns {import('../shared/registry.js').Widget} */
function createMultiHead() {
  return formWidget({
    build: (doc) => buildMultiHeadParts(doc, MAX_TOKENS),
    fill(parts, props, state) {
      const choices = headChoices(embeddingWidth());
      const wanted = Number(state.heads ?? props.heads ?? DEFAULTS.heads);
      const heads = choices.includes(wanted)
        ? wanted
        : (choices.filter((h) => h <= wanted).pop() ?? choices[0]);
      parts.sentence.value = state.sentence ?? props.sentence ?? DEFAULTS.sentence;
      parts.seed.value = String(state.seed ?? props.seed ?? DEFAULTS.seed);
      setHeadChoices(parts, choices, heads);
    },
    read(parts, state) {
      state.sentence = parts.sentence.value;
      const checked = parts.choices.querySelector('input:checked');
      state.heads = Number(checked?.value ?? state.heads);
      state.seed = parts.seed.value;
    },
    draw: (parts, engine, state) => timed('redraw', () => draw(parts, engine, state)),
    clear: clearFigures,
    // Typing redraws once per frame, from the latest inputs.
    typing: 'frame',
  });
}

/**
 * Reads the inputs and redraws, or says why there is nothing to draw.
 * @param {import('./markup.js').MultiHeadParts} parts
 * @param {object} engine
 * @param {Record<string, any>} inputs { sentence, heads, seed }
 */
function draw(parts, engine, { sentence, heads, seed }) {
  const d = embeddingWidth();
  drawCounts(parts, parameterCounts(d, heads), d, heads);
  const all = timed('tokens', () => sentenceTokens(engine, sentence));
  const seedValue = parseSeed(seed);
  setLine(parts.status, tokenStatus(all.length, MAX_TOKENS, PROMPT));
  let problem = '';
  let result = null;
  if (all.length > 0 && seedValue === null) {
    problem = SEED_PROBLEM;
  } else if (all.length > 0) {
    try {
      result = timed('engine', () => multiHead(engine, all.slice(0, MAX_TOKENS), heads, seedValue));
    } catch (error) {
      console.error(error);
      problem = `The heads could not be computed: ${error.message}`;
    }
  }
  setLine(parts.error, problem);
  parts.result.hidden = !result;
  if (result) drawFigures(parts, all.slice(0, MAX_TOKENS), result);
  else clearFigures(parts);
}

registerWidget('multi-head', createMultiHead, { vectors: true, settings: SETTINGS });
