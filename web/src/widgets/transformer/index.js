// The `transformer` widget: lesson 2's Transformer translator (docs/transformer.md) on the
// sentence the learner types, in one of four views (markup.js): `heads` (the default) draws the
// chosen cross-attention head of its decoder, or the last layer's heads averaged, as a
// German-by-English matrix, each head with what it scored on the test split; `compare` puts the
// site's three translators' German side by side under their BLEU by English length; `encoder`
// draws the chosen self-attention head of its encoder over the English sentence; `stream` draws
// each English word's residual stream through the encoder by one measure (its size, what each
// sublayer reads after its layer norm and what it adds, its cosine with the word's input). Props:
// { view, sentence, search ('greedy' or 'beam'), head ('layer.head' from 1, or 'mean'), measure,
// state }; state keeps the learner's sentence, search, head and measure across mounts (and in
// the link).
//
// It declares the `transformer` model, and for the compare view lesson 1's `translation` models
// too, which the host loads and hands it (props.models, registry.js).
import { tokenize } from '../../text/tokenize.js';
import { formWidget } from '../shared/form-widget.js';
import { setLine } from '../shared/line.js';
import { registerWidget } from '../shared/registry.js';
import { encoderHeadChoices, encoderHeadOf, measureOf } from './encoder-text.js';
import { clearFigures, drawCompare, drawEncoderHeads, drawHeads, drawStream } from './figures.js';
import { SETTINGS } from './link-settings.js';
import { buildTransformerParts } from './markup.js';
import { beamOf, headChoices, headOf, searchOf } from './text.js';
import './style.css';
import './deck.css';

/** The views by name, each with the sentence it opens on. */
export const VIEWS = Object.freeze({
  heads: 'Enter the name of the new file.',
  compare: 'The woman gave the little boy an apple.',
  encoder: 'The tired animal did not cross the street.',
  stream: 'The tired animal did not cross the street.',
});

const PROMPT = 'Type an English sentence to see the Transformer translate it.';
const BROKEN = 'The models could not translate this text. Please reload the page to try again.';
const NOTHING =
  'The model ended its German at once, without a word: try a longer or more ordinary sentence.';

/**
 * @typedef {import('./markup.js').TransformerView} TransformerView
 * @typedef {import('./markup.js').TransformerParts} TransformerParts
 * @typedef {import('../shared/registry.js').LoadedModels} LoadedModels
 */

/**
 * @param {unknown} view
 * @returns {TransformerView} the named view, or `heads` for a name it does not know
 */
export function viewOf(view) {
  return typeof view === 'string' && Object.hasOwn(VIEWS, view)
    ? /** @type {TransformerView} */ (view)
    : 'heads';
}

/**
 * @param {import('../shared/registry.js').MountProps} props
 * @returns {import('../../text/trained-models.js').TrainedModel[]} the models the view shows
 */
export function modelsOf(props) {
  return viewOf(props.view) === 'compare' ? ['transformer', 'translation'] : ['transformer'];
}

/**
 * Checks the radio of `value` in a group (none when no radio has it).
 * @param {HTMLInputElement[]} radios
 * @param {string} value
 */
function check(radios, value) {
  for (const radio of radios) radio.checked = radio.value === value;
}

/**
 * @param {HTMLInputElement[]} radios
 * @returns {string | undefined} the checked radio's value
 */
function checked(radios) {
  return radios.find((radio) => radio.checked)?.value;
}

/** @returns {import('../shared/registry.js').Widget} */
function createTransformer() {
  /** The heads view's choices, from the model's report, and the encoder's heads (set at build). */
  let choices = /** @type {Choices} */ ({ decoder: [], encoder: [] });
  return formWidget({
    build(doc, props) {
      const transformer = /** @type {LoadedModels} */ (props.models ?? {}).transformer;
      if (!transformer) throw new Error('the transformer widget is mounted without its model');
      choices = {
        decoder: headChoices(transformer.info),
        encoder: encoderHeadChoices(transformer.info),
      };
      return buildTransformerParts(doc, viewOf(props.view), transformer.info);
    },
    fill(parts, props, state) {
      const given = typeof props.sentence === 'string' ? props.sentence : undefined;
      const text = typeof state.sentence === 'string' ? state.sentence : undefined;
      parts.sentence.value = text ?? given ?? VIEWS[parts.view];
      check(parts.searches, searchOf(state.search, searchOf(props.search)));
      const head = state.head ?? props.head;
      check(
        parts.heads,
        parts.view === 'encoder'
          ? encoderHeadOf(head, choices.encoder)
          : headOf(head, choices.decoder),
      );
      check(parts.measures, measureOf(state.measure ?? props.measure));
    },
    read(parts, state) {
      state.sentence = parts.sentence.value;
      const search = checked(parts.searches);
      if (search) state.search = search;
      const head = checked(parts.heads);
      if (head) state.head = head;
      const measure = checked(parts.measures);
      if (measure) state.measure = measure;
    },
    draw(parts, _engine, state, models) {
      draw(parts, models, state, choices);
    },
    clear: clearFigures,
  });
}

/**
 * @typedef {{ decoder: import('./text.js').HeadChoice[],
 *   encoder: import('./encoder-text.js').EncoderHead[] }} Choices
 */

/**
 * Translates the sentence and draws the view, or says why there is nothing to draw.
 * @param {TransformerParts} parts
 * @param {LoadedModels} models
 * @param {Record<string, any>} state
 * @param {Choices} choices
 */
function draw(parts, models, state, choices) {
  const transformer = /** @type {import('../../engine/index.js').Translator} */ (
    models.transformer
  );
  const text = typeof state.sentence === 'string' ? state.sentence : '';
  if (tokenize(text).length === 0) {
    show(parts, 'empty', PROMPT, '');
    return;
  }
  try {
    if (parts.view === 'compare') {
      const translators = /** @type {import('../../text/translation.js').Translators} */ (
        models.translation
      );
      // Each translator searches with the beam its report was measured with: what was scored.
      const translate = (/** @type {import('../../engine/index.js').Translator} */ model) =>
        model.translate(text, { beam: model.info.measuredBeam });
      const all = { ...translators, transformer };
      show(parts, 'drawn', '', '');
      drawCompare(parts, all, {
        fixedVector: translate(translators.fixedVector),
        attention: translate(translators.attention),
        transformer: translate(transformer),
      });
      return;
    }
    if (parts.view === 'encoder' || parts.view === 'stream') {
      // The encoder reads the English alone: what it does does not depend on the search.
      const translation = transformer.translate(text);
      show(parts, 'drawn', '', '');
      if (parts.view === 'encoder') {
        const key = encoderHeadOf(state.head, choices.encoder);
        parts.root.dataset.head = key;
        const head = /** @type {import('./encoder-text.js').EncoderHead} */ (
          choices.encoder.find((c) => c.key === key)
        );
        drawEncoderHeads(parts, transformer, translation, head);
      } else {
        const measure = measureOf(state.measure);
        parts.root.dataset.measure = measure;
        drawStream(parts, transformer, translation, measure);
      }
      return;
    }
    const beam = beamOf(searchOf(state.search), transformer.info);
    const translation = transformer.translate(text, { beam });
    if (translation.target.length === 0) {
      show(parts, 'empty', NOTHING, '');
      return;
    }
    const key = headOf(state.head, choices.decoder);
    const choice = /** @type {import('./text.js').HeadChoice} */ (
      choices.decoder.find((c) => c.key === key)
    );
    show(parts, 'drawn', '', '');
    parts.root.dataset.head = key;
    parts.root.dataset.beam = String(beam);
    drawHeads(parts, transformer, translation, choice, beam);
  } catch (error) {
    console.error(error);
    show(parts, 'failed', '', BROKEN);
  }
}

/**
 * Shows the status and alert lines, and the figure only when it is drawn.
 * @param {TransformerParts} parts
 * @param {'empty' | 'failed' | 'drawn'} what
 * @param {string} status
 * @param {string} alert
 */
function show(parts, what, status, alert) {
  setLine(parts.status, status);
  setLine(parts.error, alert);
  parts.root.dataset.state = what;
  if (what !== 'drawn') clearFigures(parts);
}

registerWidget('transformer', createTransformer, {
  models: ['transformer', 'translation'],
  modelsFor: modelsOf,
  settings: SETTINGS,
});
