// The `language-model` widget: the page's small trained language model (docs/language-model.md),
// run live on what the learner types. Every head's causal weights as a layer by head grid of small
// heatmaps, each named with the kind and score measured on it; the chosen head large, with the
// token the read-out's word looks at most; the model's next words; and a button that writes random
// words twice, so that the induction heads show what they do, with their live induction score.
// Props: { sentence, head ('L.H', 1-based: the head drawn large at first), word (the token whose
// row the read-out states; else the last token), demo ('induction': the repeat button stands out,
// and without a head prop the head with the highest induction score is drawn large), state };
// state keeps the learner's text, chosen head and repeat count across mounts (and in the link).
//
// It declares the `language-model` model, which the host loads with the word vectors it reads
// (web/src/text/language-model.js: the weights download beside the vectors) and hands it
// (props.models, registry.js).
import { vocabularyOf } from '../../text/embed.js';
import { tokenize } from '../../text/tokenize.js';
import { formWidget } from '../shared/form-widget.js';
import { timedStep } from '../shared/redraw-timing.js';
import { registerWidget } from '../shared/registry.js';
import { MAX_REPEATS, SETTINGS } from './link-settings.js';
import { clearFigures, drawFigures } from './figures.js';
import { setLine } from '../shared/line.js';
import { buildLanguageModelParts } from './markup.js';
import {
  REPEAT_WORDS,
  headIndex,
  headName,
  headsPerLayer,
  inductionHeadIndex,
  modelFactsText,
  randomWords,
  repeatedText,
} from './math.js';
import './style.css';

const DEFAULT_SENTENCE = 'The cat sat on the mat because it was tired.';
const PROMPT = 'Type at least one word to see what the trained model\u2019s heads attend to.';
const BROKEN =
  'The trained model could not be run on this text. Please reload the page to try again.';
/**
 * @typedef {{ sentence?: string, head?: string, word?: string, demo?: string }} LanguageModelProps
 * @typedef {{ sentence?: unknown, head?: unknown, repeats?: unknown }} LanguageModelState
 * @typedef {import('../../engine/index.js').LanguageModel} LanguageModel
 */

/** @returns {import('../shared/registry.js').Widget} */
function createLanguageModel() {
  /** @type {LanguageModelProps} */
  let props = {};
  return formWidget({
    build: (doc, given) => buildLanguageModelParts(doc, { demo: given.demo === 'induction' }),
    fill(parts, given, state) {
      props = given;
      const text = typeof state.sentence === 'string' ? state.sentence : undefined;
      parts.sentence.value = text ?? props.sentence ?? DEFAULT_SENTENCE;
    },
    read(parts, state) {
      state.sentence = parts.sentence.value;
    },
    draw(parts, _engine, state, models) {
      const model = models['language-model'];
      if (model) timedStep('language-model', 'redraw', () => draw(parts, model, state, props));
    },
    clear: clearFigures,
    // Typing redraws once per frame, from the latest text, after the frame that shows the key:
    // running the model and drawing nine heatmaps takes longer than the rest of a frame does
    // (bench/README.md, UI section 1b). A click redraws at once.
    typing: 'after-paint',
    wire(parts, context) {
      const engine = context.engine();
      const model = context.models()['language-model'];
      /** @param {Event} event a click in the grid of heads: which one is now drawn large? */
      const pick = (event) => {
        const tile = event.target instanceof Element ? event.target.closest('.lm-tile') : null;
        if (!tile || !model) return;
        const index = Number(/** @type {HTMLElement} */ (tile).dataset.index);
        context.state().head = headName(model.info.heads[index]);
        context.redraw();
      };
      // Random words written twice, new ones each press; the head that best finds the repeat.
      const repeat = () => {
        if (!model) return;
        const state = context.state();
        const presses = repeatsOf(state) + 1;
        state.repeats = presses;
        parts.sentence.value = repeatedText(
          randomWords(presses, REPEAT_WORDS, vocabularyOf(engine)),
        );
        state.head = headName(model.info.heads[inductionHeadIndex(model.info.heads)]);
        context.redraw();
      };
      parts.grid.addEventListener('click', pick);
      parts.repeat.addEventListener('click', repeat);
      if (model) describe(parts, model);
      return () => {
        parts.grid.removeEventListener('click', pick);
        parts.repeat.removeEventListener('click', repeat);
      };
    },
  });
}

/**
 * Says what the model reads and was measured to do, and enables the repeat button.
 * @param {import('./markup.js').LanguageModelParts} parts
 * @param {LanguageModel} model
 */
function describe(parts, model) {
  parts.help.textContent =
    `Words and punctuation become tokens; the model reads the last ${model.info.context}, ` +
    'each looking only at itself and the tokens before it. The figure follows as you type.';
  parts.facts.textContent = modelFactsText(model.info);
  parts.repeat.disabled = false;
}

/**
 * Runs the model on the text and redraws, or says why there is nothing to draw.
 * @param {import('./markup.js').LanguageModelParts} parts
 * @param {LanguageModel} model
 * @param {LanguageModelState} state
 * @param {LanguageModelProps} props
 */
function draw(parts, model, state, props) {
  const { info } = model;
  const text = typeof state.sentence === 'string' ? state.sentence : '';
  parts.status.classList.remove('busy');
  if (tokenize(text).length === 0) {
    show(parts, 'empty', PROMPT, '');
    return;
  }
  let run;
  try {
    run = timedStep('language-model', 'engine', () => model.run(text));
  } catch (error) {
    console.error(error);
    show(parts, 'failed', '', BROKEN);
    return;
  }
  const total = run.dropped + run.tokens.length;
  const cut = `The model reads the last ${info.context} of ${total} tokens.`;
  show(parts, 'drawn', run.dropped > 0 ? cut : '', '');
  const sizes = { layers: info.layers, heads: headsPerLayer(info) };
  drawFigures(parts, run, chosenHead(model, state, props), sizes, props.word);
}

/**
 * Shows the status and alert lines, and the figure only when it is drawn.
 * @param {import('./markup.js').LanguageModelParts} parts
 * @param {'empty' | 'failed' | 'drawn'} what
 * @param {string} status
 * @param {string} alert
 */
function show(parts, what, status, alert) {
  setLine(parts.status, status);
  setLine(parts.error, alert);
  parts.root.dataset.state = what;
  parts.result.hidden = what !== 'drawn';
  if (what !== 'drawn') clearFigures(parts);
}

/**
 * The head drawn large: the learner's choice, else the slide's, else (for the induction
 * demonstration) the head with the highest induction score, else the first.
 * @param {LanguageModel} model
 * @param {LanguageModelState} state
 * @param {LanguageModelProps} props
 * @returns {number}
 */
function chosenHead(model, state, props) {
  const { info } = model;
  for (const name of [state.head, props.head]) {
    const index = headIndex(name, info.layers, headsPerLayer(info));
    if (index >= 0) return index;
  }
  return props.demo === 'induction' ? inductionHeadIndex(model.info.heads) : 0;
}

/**
 * @param {LanguageModelState} state
 * @returns {number} how often the repeat button was pressed (0 for a count a link got wrong)
 */
function repeatsOf(state) {
  const count = Number(state.repeats);
  return Number.isInteger(count) && count >= 0 && count <= MAX_REPEATS ? count : 0;
}

registerWidget('language-model', createLanguageModel, {
  models: ['language-model'],
  settings: SETTINGS,
});
